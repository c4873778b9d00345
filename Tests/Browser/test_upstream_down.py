"""The dashboard when its Habits API goes away: last good data with a notice, then a clear error page."""

import json
import urllib.parse
import urllib.request

import pytest
from conftest import API_LINE, launch, launch_dashboard, screenshot, wait_until
from selenium.webdriver.common.by import By


def test_pages_fall_back_to_last_good_data_and_then_to_an_error_page(browser, tmp_path):
    api = launch("habits-api", ["--port", "0", "--seed", "7"], {"api": API_LINE}, "browser-tests-api")
    api_url = api.urls["api"]
    dashboard = launch_dashboard(api_url, tmp_path / "first", "browser-tests-dashboard-upstream")
    url = dashboard.urls["dashboard"]
    try:
        with urllib.request.urlopen(api_url + "/habits", timeout=5) as response:
            habit = sorted(json.load(response))[0]
        browser.get(url + "/")
        assert "data as of" not in browser.page_source
        browser.get(url + "/habits/" + urllib.parse.quote(habit, safe=""))
        assert "data as of" not in browser.page_source

        assert api.stop() == 0, "habits-api did not exit cleanly on SIGTERM"

        # The open live page learns of it by itself: its next polls render the last good data with the notice.
        notice = wait_until(
            lambda: browser.find_elements(By.CSS_SELECTOR, "[data-live-src] .notice-stale"),
            timeout=5,
            message="the stale notice in the live region",
        )
        assert "data as of" in notice[0].text
        assert browser.find_element(By.TAG_NAME, "h1").text == habit
        screenshot(browser, "habit-stale")

        def home_notice():
            browser.get(url + "/")
            return browser.find_elements(By.CSS_SELECTOR, ".notice-stale")
        assert len(wait_until(home_notice, timeout=20, message="the stale notice on Home")) == 1
        screenshot(browser, "home-stale")

        # Every page built from the cached data says how old it is (issue 10 point 8).
        for path in ("/habits", "/log", "/people"):
            def stale_notice(path=path):
                browser.get(url + path)
                return browser.find_elements(By.CSS_SELECTOR, ".notice-stale")
            notice = wait_until(stale_notice, timeout=20, message=f"the stale notice on {path}")
            assert "data as of" in notice[0].text
            screenshot(browser, "stale" + path.replace("/", "-"))
    finally:
        api.stop()
        assert dashboard.stop() == 0

    # A dashboard that never had data (a directory of its own, so an empty cache): a clear page in the layout, status
    # 502, never a stack trace.
    fresh = launch_dashboard(api_url, tmp_path / "fresh", "browser-tests-dashboard-no-upstream")
    try:
        # Home for a browser with no favourites or follows needs no data: 200 with the introduction.
        with urllib.request.urlopen(fresh.urls["dashboard"] + "/", timeout=10) as response:
            assert response.status == 200
            assert "Welcome" in response.read().decode()
        with pytest.raises(urllib.error.HTTPError) as failure:
            urllib.request.urlopen(fresh.urls["dashboard"] + "/habits", timeout=10)
        assert failure.value.code == 502
        browser.get(fresh.urls["dashboard"] + "/habits")
        assert "The Habits service is not answering" in browser.find_element(By.TAG_NAME, "h1").text
        assert browser.find_elements(By.CSS_SELECTOR, "nav a")
        assert "Error" not in browser.page_source and "Trace" not in browser.page_source
        # It tries again by itself, and says so; it links Home, which is another page.
        assert browser.find_element(By.CSS_SELECTOR, "[data-retry]").text.startswith("This page tries again")
        assert browser.find_element(By.LINK_TEXT, "Back to Home").get_attribute("href") == fresh.urls["dashboard"] + "/"
        screenshot(browser, "upstream-down")
        screenshot(browser, "upstream-down-dark", dark=True)
        # The retry is live: the script asks again and the page stays until the upstream answers (no reload loop
        # that would lose it). A second attempt leaves the same page, still in the layout.
        started = browser.execute_script("return performance.timeOrigin;")
        time_limit = 30
        wait_until(
            lambda: browser.find_element(By.CSS_SELECTOR, "[data-retry]").get_attribute("data-retry-attempts"),
            timeout=time_limit,
            message="the error page's own retry",
        )
        assert browser.execute_script("return performance.timeOrigin;") == started
    finally:
        assert fresh.stop() == 0
