"""live.js honours Retry-After on a poll the dashboard could not park (issue 23 point 4)."""

import time

from conftest import API_LINE, launch, launch_dashboard, wait_until
from selenium.webdriver.common.by import By

# How long the page is watched. A poll that cannot be parked is answered 304 after 1 s with `Retry-After: 5`, so a
# page that honours it asks about once every 6 s (3 polls in 15 s); one that re-polls after its usual 1 s interval
# asks every 2 s (8), and a tight loop every second (15).
WINDOW_SECONDS = 15
MOST_POLLS = 5


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

        def polls():
            return browser.execute_script(
                # The source is bound first: inside the filter's callback `arguments` is the callback's own.
                "var source = arguments[0]; return performance.getEntriesByType('resource')"
                ".filter(function (e) { return e.name.indexOf(source) >= 0; }).length;",
                source,
            )

        wait_until(lambda: polls() >= 1, timeout=10, message="the live region's first poll")
        first = polls()
        time.sleep(WINDOW_SECONDS)
        made = polls() - first
        assert 1 <= made <= MOST_POLLS, f"{made} polls of {source} in {WINDOW_SECONDS} s (at most {MOST_POLLS})"
    finally:
        assert dashboard.stop() == 0
        assert api.stop() == 0
