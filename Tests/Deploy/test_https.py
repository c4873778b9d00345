"""Issue 20: the dashboard behind nginx terminating TLS, at the root and under a path prefix, in headless Chromium.

nginx listens on https://127.0.0.1:<port>[/habits]/ with a certificate made at test time; the dashboard runs with
that --public-url and --trusted-proxy 127.0.0.1. Every flow a person uses — favourite, follow, log, a live update in
place — must work over HTTPS with a `Secure; HttpOnly; SameSite=Lax` cookie, and a cross-site POST is still refused.
"""

import json
import ssl
import time
import urllib.error
import urllib.parse
import urllib.request

from selenium.webdriver.common.by import By

from conftest import browser_conftest

wait_until = browser_conftest.wait_until
INSECURE = ssl._create_unverified_context()  # the certificate is self-signed, made a moment ago


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


def fetch(url, data=None, headers=None):
    """(status, headers) of one request, redirects not followed, errors returned rather than raised."""
    opener = urllib.request.build_opener(urllib.request.HTTPSHandler(context=INSECURE), _NoRedirect)
    request = urllib.request.Request(url, data=data, headers=headers or {}, method="POST" if data else "GET")
    try:
        with opener.open(request, timeout=30) as response:
            return response.status, response.headers
    except urllib.error.HTTPError as error:
        return error.code, error.headers


def api(site, path):
    with urllib.request.urlopen(site.api_url + path, timeout=10) as response:
        return json.load(response)


def active_count(site, habit):
    for statistics in api(site, "/habitStats"):
        if statistics["habit"]["name"] == habit:
            return sum(c["count"] for c in statistics["userCounts"] if c["user"]["id"] == "activeUser")
    raise AssertionError(f"no statistics for {habit}")


def same_origin_urls(browser, site):
    """Every link, form target, image, script and stylesheet of the page that points at this site."""
    urls = browser.execute_script(
        "return [...document.querySelectorAll('a[href], form[action], img[src], script[src], link[href]')]"
        ".map(e => e.href || e.action || e.src)"
        ".concat([...document.querySelectorAll('[data-live-src]')].map(e => new URL(e.dataset.liveSrc, location).href))"
    )
    origin = f"https://127.0.0.1:{site.port}"
    return [url for url in urls if url.startswith(origin)]


def test_favourite_follow_and_log_over_https(https_site, tls_browser):
    site, browser = https_site, tls_browser
    browser.get(site.url + "/habits")
    row = browser.find_element(By.CSS_SELECTOR, "li.habit-row")
    name = row.find_element(By.CSS_SELECTOR, "a").text
    row.find_element(By.CSS_SELECTOR, "button").click()
    wait_until(
        lambda: name in browser.find_element(By.CSS_SELECTOR, "main section").text
        and "Favorites" in browser.find_element(By.CSS_SELECTOR, "main section h2").text,
        timeout=20, message=f"{name} among the favourites",
    )
    # Every URL the pages write stays under the public URL (the prefix is on links, forms, assets, live sources).
    for page in ("/", "/habits", "/people", "/log"):
        browser.get(site.url + page)
        urls = same_origin_urls(browser, site)
        assert urls, page
        assert all(url.startswith(site.url + "/") for url in urls), [u for u in urls if not u.startswith(site.url + "/")]

    # Over https at the root the name carries __Host- (issue 48), which a neighbour site cannot set; under a prefix
    # __Host- is not allowed (it requires Path=/), so the name stays.
    cookie_name = "habits_browser" if site.prefix else "__Host-habits_browser"
    cookie = next(c for c in browser.get_cookies() if c["name"] == cookie_name)
    assert cookie["secure"] and cookie["httpOnly"] and cookie["sameSite"] == "Lax", cookie
    assert cookie["path"] == site.prefix + "/", cookie
    # Every cookie, the last visit's too, is Secure and under the prefix (issue 48: it was Path=/ and never Secure).
    cookies = browser.get_cookies()
    assert any(c["name"] == cookie_name.replace("browser", "visit") for c in cookies), cookies
    assert all(c["secure"] and c["path"] == site.prefix + "/" for c in cookies), cookies

    browser.get(site.url + "/")
    wait_until(
        lambda: name in [a.text for a in browser.find_elements(By.CSS_SELECTOR, ".leaderboard h3 a")],
        timeout=20, message=f"a leaderboard card for {name} on Home",
    )

    browser.get(site.url + "/people")
    card = next(c for c in browser.find_elements(By.CSS_SELECTOR, "li.person-card") if c.find_elements(By.TAG_NAME, "button"))
    person = card.find_element(By.CSS_SELECTOR, "a").text
    card.find_element(By.TAG_NAME, "button").click()

    def followed():
        cards = [c for c in browser.find_elements(By.CSS_SELECTOR, "li.person-card") if person in c.text]
        return cards and "Unfollow" in cards[0].find_element(By.TAG_NAME, "button").text

    wait_until(followed, timeout=20, message=f"{person} followed")
    browser.get(site.url + "/")
    wait_until(lambda: person in browser.find_element(By.CSS_SELECTOR, ".following").text, timeout=20,
               message=f"{person} under Following on Home")

    browser.get(site.url + "/log")
    form = browser.find_elements(By.CSS_SELECTOR, "form[data-log]")[-1]
    habit = form.find_element(By.CSS_SELECTOR, "input[name=habit]").get_attribute("value")
    before = active_count(site, habit)
    form.find_element(By.TAG_NAME, "button").click()
    wait_until(
        lambda: browser.find_elements(By.CSS_SELECTOR, "[role=status]")
        and f"Logged {habit}" in browser.find_element(By.CSS_SELECTOR, "[role=status]").text,
        timeout=20, message=f"the confirmation for {habit}",
    )
    assert browser.current_url.startswith(site.url + "/log"), browser.current_url
    assert active_count(site, habit) == before + 1
    severe = [e for e in browser.get_log("browser") if e["level"] == "SEVERE"]
    assert not severe, severe


def test_a_habit_page_updates_in_place_over_https(https_site, tls_browser):
    site, browser = https_site, tls_browser
    habit = sorted(api(site, "/habits"))[0]
    browser.get(site.url + "/habits/" + urllib.parse.quote(habit, safe=""))
    browser.execute_script("window.liveTestMarker = 'still the same page';")
    before = active_count(site, habit)
    body = json.dumps(
        {"userID": "activeUser", "habitName": habit, "timestamp": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())}
    ).encode()
    request = urllib.request.Request(
        site.api_url + "/loggedHabit", data=body, method="POST", headers={"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        assert response.status == 200
    expected = f"{before + 1} time" if before + 1 == 1 else f"{before + 1} times"

    wait_until(lambda: browser_conftest.active_user_count(browser) == expected, timeout=30, message=f"'{expected}' for Active User")
    assert browser.execute_script("return window.liveTestMarker;") == "still the same page"


def test_a_cross_site_post_over_https_is_403(https_site):
    site = https_site
    habit = urllib.parse.quote(sorted(api(site, "/habits"))[0], safe="")
    target = f"{site.url}/habits/{habit}/favorite"
    form = {"Content-Type": "application/x-www-form-urlencoded"}
    status, _ = fetch(target, b"favorite=true", {**form, "Origin": "https://evil.example"})
    assert status == 403
    status, _ = fetch(target, b"favorite=true", {**form, "Origin": f"http://127.0.0.1:{site.port}"})
    assert status == 403  # the same host over plain http is another origin
    status, headers = fetch(target, b"favorite=true", {**form, "Origin": f"https://127.0.0.1:{site.port}"})
    assert status == 303
    assert headers["Location"] == f"{site.prefix}/habits/{habit}"
    assert "Secure" in headers["Set-Cookie"] and "HttpOnly" in headers["Set-Cookie"]


def test_https_responses_carry_hsts_and_the_dashboard_refuses_other_hosts(https_site):
    site = https_site
    status, headers = fetch(site.url + "/")
    assert status == 200 and headers["Strict-Transport-Security"] == "max-age=31536000"
    # Straight at the dashboard, by its own address: not the public host, so DNS rebinding finds nothing.
    status, _ = fetch(site.dashboard.urls["dashboard"] + "/")
    assert status == 421
    status, _ = fetch(site.dashboard.urls["dashboard"] + "/healthz")
    assert status == 200
