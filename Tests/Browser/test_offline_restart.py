"""Issue 13: a restart with the upstream down shows the last known dashboard, from the cache directory."""

from conftest import API_LINE, DASHBOARD_LINE, free_port, launch, live_texts, screenshot, wait_until
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait
from test_dashboard import submit


def image_loaded(browser, selector):
    return browser.execute_script(
        "const i = document.querySelector(arguments[0]); return !!i && i.complete && i.naturalWidth > 0", selector
    )


def test_a_restart_with_the_upstream_down_shows_the_last_known_dashboard(browser, tmp_path):
    # The embedded simulator on a fixed port: the snapshot file names http://127.0.0.1:<port>, so the second start
    # with --upstream at that (then dead) address reads it.
    port = free_port()
    common = ["--port", "0", "--settings-dir", str(tmp_path / "settings"), "--cache-dir", str(tmp_path / "cache")]
    first = launch(
        "habits-dashboard",
        [*common, "--api-port", str(port), "--seed", "42"],
        {"dashboard": DASHBOARD_LINE, "api": API_LINE},
        "browser-tests-offline-first",
    )
    try:
        url = first.urls["dashboard"]
        browser.get(url + "/habits")
        row = browser.find_element(By.CSS_SELECTOR, "li.habit-row")
        habit = row.find_element(By.CSS_SELECTOR, "a").text
        submit(browser, row.find_element(By.CSS_SELECTOR, "button"))
        browser.get(url + "/people")
        person = browser.find_element(By.CSS_SELECTOR, "main li a[href^='/people/']")
        name, path = person.text, person.get_attribute("href").removeprefix(url)
        browser.get(url + path)
        WebDriverWait(browser, 15).until(lambda _: image_loaded(browser, ".profile-image"))
        assert "data as of" not in browser.page_source
        # Written off the request path, at once for the first version.
        wait_until(lambda: (tmp_path / "cache" / "snapshot.json").exists(), 15, "snapshot.json")
        wait_until(lambda: any((tmp_path / "cache" / "images").glob("*.img")), 15, "an image on disk")
    finally:
        assert first.stop() == 0

    second = launch(
        "habits-dashboard",
        [*common, "--upstream", f"http://127.0.0.1:{port}"],
        {"dashboard": DASHBOARD_LINE},
        "browser-tests-offline-second",
    )
    try:
        url = second.urls["dashboard"]
        browser.get(url + "/")
        notices = live_texts(browser, ".notice-stale")
        assert notices and "data as of" in notices[0], notices
        cards = live_texts(browser, ".leaderboard h3 a")
        assert habit in cards
        screenshot(browser, "offline-restart-home")

        browser.get(url + path)
        assert browser.find_element(By.TAG_NAME, "h1").text == name
        assert "data as of" in browser.find_element(By.CSS_SELECTOR, ".notice-stale").text
        WebDriverWait(browser, 15).until(lambda _: image_loaded(browser, ".profile-image"))
        screenshot(browser, "offline-restart-person")

        # The upstream comes back at that address: the open live page drops the notice by itself, within one
        # refresh (the retry back-off after a few failures is a few seconds).
        browser.get(url + "/")
        api = launch(
            "habits-api", ["--port", str(port), "--seed", "42"], {"api": API_LINE}, "browser-tests-offline-api"
        )
        try:
            wait_until(lambda: not live_texts(browser, ".notice-stale"), 45, "the notice to go")
        finally:
            assert api.stop() == 0
    finally:
        assert second.stop() == 0
