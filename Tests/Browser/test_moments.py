"""Issue 22: the history survives a restart and goes back a week; a followed person passing you is told on the open
Home at once, as a polite notice and in their Following line, without a reload."""

import time
import urllib.parse
import urllib.request

import history_file
import pytest
from conftest import API_LINE, SCREENSHOTS, launch, launch_dashboard, metric, screenshot, wait_until
from selenium.webdriver.common.by import By
from test_dashboard import submit


@pytest.fixture
def frozen_api():
    """A habits-api with history and no live activity: the test alone changes the counts."""
    api = launch("habits-api", ["--port", "0", "--seed", "7", "--no-simulation"], {"api": API_LINE}, "moments-api")
    yield api.urls["api"]
    api.stop()


def get(url):
    return urllib.request.urlopen(url, timeout=30).read().decode("utf-8")


def api_json(api_url, path):
    import json

    return json.loads(get(api_url + path))


def log(api_url, user, habit, times=1):
    import json

    for _ in range(times):
        body = json.dumps(
            {"userID": user, "habitName": habit, "timestamp": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())}
        ).encode()
        request = urllib.request.Request(
            api_url + "/loggedHabit", data=body, method="POST", headers={"Content-Type": "application/json"}
        )
        assert urllib.request.urlopen(request, timeout=5).status == 200


def test_a_restart_keeps_the_history(frozen_api, tmp_path):
    habit = sorted(api_json(frozen_api, "/habits"))[0]
    path = "/habits/" + urllib.parse.quote(habit, safe="")
    first = launch_dashboard(frozen_api, tmp_path, "moments-restart-first")
    try:
        url = first.urls["dashboard"]
        # Two samples 10 s apart draw a line; the sampler takes one per 10 s even with nobody watching.
        wait_until(lambda: 'class="chart-svg"' in get(url + path), 60, "a chart from two samples")
    finally:
        assert first.stop() == 0
    assert (tmp_path / "cache" / "history.bin").exists()
    second = launch_dashboard(frozen_api, tmp_path, "moments-restart-second")
    try:
        # The first page of the new process already draws the line: its samples came from the file.
        served = get(second.urls["dashboard"] + path)
        assert 'class="chart-svg"' in served, served
    finally:
        assert second.stop() == 0


def test_a_week_of_history_on_disk_is_drawn_with_its_change(frozen_api, tmp_path, browser):
    stats = api_json(frozen_api, "/habitStats")
    entry = max(stats, key=lambda e: sum(c["count"] for c in e["userCounts"]))
    habit, total = entry["habit"]["name"], sum(c["count"] for c in entry["userCounts"])
    now_hour = int(time.time()) // 3600
    # A week rising to today's total, busier by day, with a night the dashboard was down (a gap, not a line).
    # Hourly steps, three times busier by day than by night, adding up to half of today's total over the week.
    steps = [1 + 2 * (a % 24 > 7) for a in range(168)]
    scale = total / 2 / sum(steps)
    samples = [None if 60 <= age <= 66 else round(total - scale * sum(steps[:age])) for age in range(168, -1, -1)]
    (tmp_path / "cache").mkdir(parents=True)
    (tmp_path / "cache" / "history.bin").write_bytes(history_file.encode(frozen_api, {habit: samples}, now_hour))
    running = launch_dashboard(frozen_api, tmp_path, "moments-week")
    try:
        browser.get(running.urls["dashboard"] + "/habits/" + urllib.parse.quote(habit, safe="") + "?range=week")
        current = browser.find_element(By.CSS_SELECTOR, ".range-links a[aria-current]")
        assert current.text == "1 week"
        change = wait_until(
            lambda: browser.execute_script(
                "const c = document.querySelector('[data-live-src] .chart-change'); return c && c.textContent;"
            ),
            30,
            "the week's change",
        )
        assert change == f"+{total - samples[0]} this week", change
        path = browser.find_element(By.CSS_SELECTOR, ".chart-line").get_attribute("d")
        assert path.count("M") == 2, "the night the dashboard was down is a gap: " + path
        screenshot(browser, "history-week")
        browser.save_screenshot(str(SCREENSHOTS / "history-week-top.png"))  # the viewport: README's picture
    finally:
        assert running.stop() == 0


def test_a_followed_person_passing_you_is_told_on_the_open_home(frozen_api, tmp_path, browser):
    stats = api_json(frozen_api, "/habitStats")
    # A habit and a person who logged it: You get one ahead of them, then they pass you.
    entry = next(e for e in sorted(stats, key=lambda e: e["habit"]["name"]) if any(c["count"] > 0 and c["user"]["id"] != "activeUser" for c in e["userCounts"]))
    habit = entry["habit"]["name"]
    person = next(c for c in entry["userCounts"] if c["count"] > 0 and c["user"]["id"] != "activeUser")
    yours = next((c["count"] for c in entry["userCounts"] if c["user"]["id"] == "activeUser"), 0)
    if yours <= person["count"]:
        log(frozen_api, "activeUser", habit, person["count"] - yours + 1)
        yours = person["count"] + 1
    running = launch_dashboard(frozen_api, tmp_path, "moments-passed")
    try:
        url = running.urls["dashboard"]
        browser.get(url + "/people/" + urllib.parse.quote(person["user"]["id"], safe=""))
        submit(browser, browser.find_element(By.CSS_SELECTOR, "form[action$='/follow'] button"))
        browser.get(url + "/")
        row = "li.following-row[data-key] a.person-name"
        wait_until(lambda: browser.find_elements(By.CSS_SELECTOR, row), 30, "the Following row")
        browser.execute_script("window.__notReloaded = true;")
        wait_until(lambda: metric(url, "habits_live_parked") >= 1, 30, "the page's poll held by the server")

        log(frozen_api, person["user"]["id"], habit, yours - person["count"] + 1)
        sentence = f"{person['user']['name']} passed you in {habit}"

        def told():
            return browser.execute_script(
                """const notice = document.querySelector('.news-region [data-moment]');
                const line = [...document.querySelectorAll('.following-row .moment')].map(m => m.textContent.trim());
                const announcer = document.querySelector('[data-live-announcer]');
                return notice ? {notice: (notice.querySelector(".notice-text") || notice).textContent.trim(), lines: line, said: announcer.textContent,
                    polite: announcer.getAttribute('aria-live'), kept: window.__notReloaded === true} : null;"""
            )

        seen = wait_until(lambda: (lambda t: t if t and t["lines"] else None)(told()), 30, "the notice and the line")
        assert seen["notice"].startswith(sentence + " · "), seen
        assert seen["notice"].endswith("just now"), seen
        assert any(line.startswith(sentence + " · ") for line in seen["lines"]), seen
        assert sentence in seen["said"] and seen["polite"] == "polite", seen
        assert seen["kept"], "the page was not reloaded"
        screenshot(browser, "moment-notice")
        browser.save_screenshot(str(SCREENSHOTS / "moment-notice-top.png"))
    finally:
        assert running.stop() == 0
