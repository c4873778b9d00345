"""The dashboard when its Habits API goes away: last good data with a notice, then a clear error page."""

import json
import shutil
import tempfile
import time
import urllib.parse
import urllib.request

import pytest
from conftest import API_LINE, DASHBOARD_LINE, launch, screenshot
from selenium.webdriver.common.by import By


def wait_until(predicate, timeout, message):
    deadline = time.monotonic() + timeout
    while not (value := predicate()):
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout} s waiting for {message}")
        time.sleep(0.1)
    return value


@pytest.fixture
def settings_dir():
    directory = tempfile.mkdtemp(prefix="habits-browser-down-")
    yield directory
    shutil.rmtree(directory, ignore_errors=True)


def test_pages_fall_back_to_last_good_data_and_then_to_an_error_page(browser, settings_dir):
    api = launch("habits-api", ["--port", "0", "--seed", "7"], {"api": API_LINE}, "browser-tests-api")
    api_url = api.urls["api"]
    dashboard = launch(
        "habits-dashboard",
        ["--port", "0", "--upstream", api_url, "--settings-dir", settings_dir, "--cache-dir", settings_dir + "/cache"],
        {"dashboard": DASHBOARD_LINE},
        "browser-tests-dashboard-upstream",
    )
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

        browser.get(url + "/")
        assert len(browser.find_elements(By.CSS_SELECTOR, ".notice-stale")) == 1
        screenshot(browser, "home-stale")
    finally:
        api.stop()
        assert dashboard.stop() == 0

    # A dashboard that never had data (an empty cache directory): a clear page in the layout, status 502, never a
    # stack trace.
    fresh = launch(
        "habits-dashboard",
        ["--port", "0", "--upstream", api_url, "--settings-dir", settings_dir, "--cache-dir", settings_dir + "/empty"],
        {"dashboard": DASHBOARD_LINE},
        "browser-tests-dashboard-no-upstream",
    )
    try:
        with pytest.raises(urllib.error.HTTPError) as failure:
            urllib.request.urlopen(fresh.urls["dashboard"] + "/", timeout=10)
        assert failure.value.code == 502
        browser.get(fresh.urls["dashboard"] + "/")
        assert "The Habits service is not answering" in browser.find_element(By.TAG_NAME, "h1").text
        assert browser.find_elements(By.CSS_SELECTOR, "nav a")
        assert "Error" not in browser.page_source and "Trace" not in browser.page_source
        screenshot(browser, "upstream-down")
    finally:
        assert fresh.stop() == 0
