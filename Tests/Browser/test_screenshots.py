"""Screenshots of every page (issue 10): light and dark, desktop (1280x900) and mobile (390x844), JavaScript on and
off, written to SCREENSHOTS/pages/<page>-<scheme>-<viewport>-<js|nojs>.png ($SCREENSHOTS_DIR, else
.build/screenshots/). They are for people to look at; the checks here only make sure each one shows its page whole.

The pages come from a dashboard in front of a still simulator (half an hour of history, no live activity), so every
run shows the same data and no row is caught mid-update; the error page from a dashboard whose upstream is down.
docs/home.png (the README's image) is a copy of pages/home-light-desktop-js.png.
"""

import json
import time
import urllib.parse
import urllib.request

import pytest
from conftest import SCREENSHOTS, _chrome, free_port, launch_dashboard, launch_frozen, wait_until
from selenium.common.exceptions import WebDriverException
from selenium.webdriver.common.by import By

VIEWPORTS = {"desktop": (1280, 900, False), "mobile": (390, 844, True)}
SCHEMES = ("light", "dark")


def emulate(driver, scheme, viewport):
    """Colour scheme, reduced motion (a still is never caught mid-transition) and the viewport's size."""
    driver.execute_cdp_cmd(
        "Emulation.setEmulatedMedia",
        {
            "features": [
                {"name": "prefers-color-scheme", "value": scheme},
                {"name": "prefers-reduced-motion", "value": "reduce"},
            ]
        },
    )
    width, height, mobile = VIEWPORTS[viewport]
    driver.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride",
        {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": mobile},
    )


def capture(driver, path, viewport):
    """A full-page screenshot of the current document. A page that reloads itself (the meta refresh without
    JavaScript) may go while it is taken: then it is taken again from the new document."""
    width, height, mobile = VIEWPORTS[viewport]
    while True:
        wait_until(lambda: driver.execute_script("return document.readyState") == "complete", message="the page")
        document = driver.execute_script("return performance.timeOrigin;")
        full = driver.execute_script(
            "return Math.max(document.documentElement.scrollHeight, document.body.scrollHeight);"
        )
        # The whole page inside the viewport, so lazy images below the fold load too.
        driver.execute_cdp_cmd(
            "Emulation.setDeviceMetricsOverride",
            {"width": width, "height": max(full, height), "deviceScaleFactor": 1, "mobile": mobile},
        )
        wait_until(
            lambda: driver.execute_script("return [...document.images].every(i => i.complete);"),
            message="the page's images",
        )
        png = driver.get_screenshot_as_png()
        driver.execute_cdp_cmd(
            "Emulation.setDeviceMetricsOverride",
            {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": mobile},
        )
        try:
            same = driver.execute_script("return performance.timeOrigin;") == document
        except WebDriverException:
            same = False
        if same:
            path.write_bytes(png)
            return


def shoot(driver, url, name, javascript, checks):
    """Every scheme and viewport of one page: loaded once per viewport, the scheme switched in place."""
    for viewport in VIEWPORTS:
        for index, scheme in enumerate(SCHEMES):
            emulate(driver, scheme, viewport)
            if index == 0:
                driver.get(url)
            wait_until(lambda: checks(driver), message=f"{name} to show")
            # Wider than the viewport is a broken mobile layout: nothing may scroll sideways.
            overflow = driver.execute_script(
                "return document.documentElement.scrollWidth - document.documentElement.clientWidth;"
            )
            assert overflow <= 0, f"{name} ({viewport}, {scheme}) is {overflow} px wider than the viewport"
            capture(driver, SCREENSHOTS / "pages" / f"{name}-{scheme}-{viewport}-{javascript}.png", viewport)


def personalise(driver, url):
    """Two favourites and two follows, by pressing the buttons as a person would (with JavaScript they update in
    place, without they post and come back)."""
    for _ in range(2):
        driver.get(url + "/habits")
        before = len(driver.find_elements(By.CSS_SELECTOR, "li.habit-row.is-favorite"))
        driver.find_element(By.CSS_SELECTOR, "li.habit-row:not(.is-favorite) button").click()
        wait_until(
            lambda: len(driver.find_elements(By.CSS_SELECTOR, "li.habit-row.is-favorite")) == before + 1,
            message="a favourite",
        )
    for _ in range(2):
        driver.get(url + "/people")
        before = len(driver.find_elements(By.CSS_SELECTOR, ".following-badge"))
        card = next(
            c
            for c in driver.find_elements(By.CSS_SELECTOR, "li.person-card")
            if c.find_elements(By.CSS_SELECTOR, "form[data-toggle=follow] input[name=follow][value=true]")
        )
        card.find_element(By.TAG_NAME, "button").click()
        wait_until(
            lambda: len(driver.find_elements(By.CSS_SELECTOR, ".following-badge")) == before + 1, message="a follow"
        )


@pytest.fixture
def still_dashboard(tmp_path):
    """A dashboard in front of a simulator with history and no live activity: the same pages every run."""
    api, dashboard = launch_frozen(42, tmp_path / "still", "screenshots")
    # The error page: a dashboard whose upstream is a port nobody listens on, with no cached data.
    down = launch_dashboard(f"http://127.0.0.1:{free_port()}", tmp_path / "down", "screenshots-dashboard-down")
    try:
        yield dashboard.urls["dashboard"], api.urls["api"], down.urls["dashboard"]
    finally:
        for process in (down, dashboard, api):
            process.stop()


def api_json(api_url, path):
    with urllib.request.urlopen(api_url + path, timeout=5) as response:
        return json.load(response)


def test_every_page_in_every_variant_is_photographed_whole(still_dashboard):
    url, api_url, down_url = still_dashboard
    (SCREENSHOTS / "pages").mkdir(parents=True, exist_ok=True)
    # A second earlier, as file times may be coarser than time.time().
    started = time.time() - 1
    # The busiest habit and the person with the most habits: the fullest detail pages.
    habit = max(api_json(api_url, "/habitStats"), key=lambda s: len(s["userCounts"]))["habit"]["name"]
    person = max(
        (s for s in api_json(api_url, "/userStats") if s["user"]["id"] != "activeUser"),
        key=lambda s: sum(1 for c in s["habitCounts"] if c["count"] > 0),
    )["user"]["id"]

    def has(selector):
        return lambda driver: driver.find_elements(By.CSS_SELECTOR, selector)

    pages = [
        ("home-personal", "/", has(".leaderboard .leader-card")),
        ("habits", "/habits", has("li.habit-row.is-favorite")),
        ("habit", "/habits/" + urllib.parse.quote(habit, safe=""), has("[data-live-src] li[data-key]")),
        ("people", "/people", has(".following-badge")),
        ("person", "/people/" + urllib.parse.quote(person, safe=""), has("[data-live-src] li[data-key]")),
        ("log", "/log", has("main li[id] button")),
    ]
    cookies = None
    for javascript in ("js", "nojs"):
        driver = _chrome(javascript=javascript == "js")
        try:
            shoot(driver, url + "/", "home", javascript, has(".happening li.happening-row"))
            if cookies is None:
                personalise(driver, url)
                cookies = driver.get_cookies()
            else:
                # The same settings as the JavaScript browser: its cookie, set on this origin.
                driver.get(url + "/?live=0")
                for cookie in cookies:
                    driver.add_cookie({k: v for k, v in cookie.items() if k in ("name", "value", "path", "httpOnly")})
            for name, path, checks in pages:
                shoot(driver, url + path, name, javascript, checks)
            shoot(driver, down_url + "/habits", "error-upstream-down", javascript, has("[data-retry]"))
        finally:
            driver.quit()
    # Each expected file by name, written by this run (a count of the directory's PNGs also counted earlier runs').
    names = ["home", "error-upstream-down"] + [name for name, _, _ in pages]
    expected = {
        f"{name}-{scheme}-{viewport}-{javascript}.png"
        for name in names for scheme in SCHEMES for viewport in VIEWPORTS for javascript in ("js", "nojs")
    }
    fresh = {
        p.name for p in (SCREENSHOTS / "pages").glob("*.png")
        if p.stat().st_mtime >= started and p.read_bytes().startswith(b"\x89PNG")
    }
    assert expected <= fresh, sorted(expected - fresh)
