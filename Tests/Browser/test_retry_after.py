"""live.js honours Retry-After on a poll the dashboard could not park (issue 23 point 4)."""

from conftest import API_LINE, launch, launch_dashboard, wait_until
from selenium.webdriver.common.by import By

# A poll that cannot be parked is answered 304 after 1 s with `Retry-After: 5`, so a page that honours it starts its
# polls at least 5 s apart (about 6 s); one that re-polls after its usual 1 s interval starts them about 2 s apart, and
# a tight loop 1 s apart. The gaps are measured in the page (Resource Timing) between polls it has made: a loaded
# machine can only stretch them, so no window of time is watched.
RETRY_AFTER_MS = 5000
POLLS = 3


def test_a_poll_that_cannot_be_parked_is_asked_again_only_after_its_retry_after(browser, tmp_path):
    api = launch("habits-api", ["--port", "0", "--seed", "7", "--no-simulation"], {"api": API_LINE}, "browser-retry-api")
    # --max-parked-polls 0 (a flag for tests): every poll is refused its place, as when all 512 are taken.
    dashboard = launch_dashboard(
        api.urls["api"], tmp_path, "browser-retry-dashboard", extra=("--max-parked-polls", "0")
    )
    try:
        browser.get(dashboard.urls["dashboard"] + "/")
        region = browser.find_element(By.CSS_SELECTOR, ".live-region[data-live-src]")
        source = region.get_attribute("data-live-src")

        def poll_starts():
            return browser.execute_script(
                # The source is bound first: inside the filter's callback `arguments` is the callback's own.
                "var source = arguments[0]; return performance.getEntriesByType('resource')"
                ".filter(function (e) { return e.name.indexOf(source) >= 0; })"
                ".map(function (e) { return e.startTime; });",
                source,
            )

        def enough_polls():
            starts = poll_starts()
            return starts if len(starts) >= POLLS else None

        starts = wait_until(enough_polls, message=f"{POLLS} polls of {source}")
        gaps = [round(later - earlier) for earlier, later in zip(starts, starts[1:])]
        assert all(gap >= RETRY_AFTER_MS for gap in gaps), f"polls of {source} started {gaps} ms apart"
    finally:
        assert dashboard.stop() == 0
        assert api.stop() == 0
