"""Issue 47 point 3: the notices of passes never hide the page. With three notices showing, the centre of every button
and link on Home, People and a habit page hits that very element, at 390x844 and at 1280x900; each notice can be
dismissed (its button, or Escape) and stays dismissed for the browser, while a newer notice still shows."""

import urllib.parse

from conftest import SCREENSHOTS, launch_dashboard, metric, wait_until
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from test_dashboard import submit
from test_moments import api_json, frozen_api, log  # noqa: F401 (frozen_api is a fixture)

NOTICES = ".news-region [data-moment]"

# Every displayed button and link of the page, each scrolled to the middle of the window (as far as the page lets it),
# then the element at the centre of its box: any element that is not it (or inside it) covers it.
COVERED = """
const covered = [];
for (const element of document.querySelectorAll('a[href], button')) {
  if (element.closest('.visually-hidden, .skip-line') || element.getClientRects().length === 0) continue;
  element.scrollIntoView({block: 'center', inline: 'center'});
  const box = element.getBoundingClientRect();
  if (box.width === 0 || box.height === 0) continue;
  const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
  if (hit !== element && !element.contains(hit)) {
    covered.push(element.textContent.trim().slice(0, 40) + ' under ' + (hit ? hit.outerHTML.slice(0, 80) : 'nothing'));
  }
}
window.scrollTo(0, 0);
return covered;
"""


def notice_ids(browser):
    return [node.get_attribute("data-moment") for node in browser.find_elements(By.CSS_SELECTOR, NOTICES)]


def three_passes(api_url):
    """Three (habit, person) pairs, each person someone else who logged that habit, You ahead of each of them."""
    pairs, people = [], set()
    for entry in sorted(api_json(api_url, "/habitStats"), key=lambda e: e["habit"]["name"]):
        counts = {c["user"]["id"]: c["count"] for c in entry["userCounts"]}
        person = next(
            (c["user"] for c in entry["userCounts"]
             if c["count"] > 0 and c["user"]["id"] != "activeUser" and c["user"]["id"] not in people),
            None,
        )
        if person is None:
            continue
        habit, theirs, yours = entry["habit"]["name"], counts[person["id"]], counts.get("activeUser", 0)
        if yours <= theirs:
            log(api_url, "activeUser", habit, theirs - yours + 1)
            yours = theirs + 1
        pairs.append((habit, person, yours - theirs + 1))
        people.add(person["id"])
        if len(pairs) == 3:
            return pairs
    raise AssertionError("the data has no three people to pass you")


def test_notices_never_cover_a_control_and_stay_dismissed(frozen_api, tmp_path, browser):  # noqa: F811
    pairs = three_passes(frozen_api)
    running = launch_dashboard(frozen_api, tmp_path, "notices")
    try:
        url = running.urls["dashboard"]
        for _, person, _ in pairs:
            browser.get(url + "/people/" + urllib.parse.quote(person["id"], safe=""))
            submit(browser, browser.find_element(By.CSS_SELECTOR, "form[action$='/follow'] button"))
        browser.get(url + "/")
        wait_until(lambda: metric(url, "habits_live_parked") >= 1, 30, "the page's poll held by the server")
        for habit, person, times in pairs:
            log(frozen_api, person["id"], habit, times)
        wait_until(lambda: len(notice_ids(browser)) == 3, 30, "three notices")

        habit = urllib.parse.quote(pairs[0][0], safe="")
        for width, height in [(390, 844), (1280, 900)]:
            browser.set_window_size(width, height)
            for path in ["/", "/people", "/habits/" + habit]:
                browser.get(url + path)
                wait_until(lambda: len(notice_ids(browser)) == 3, 30, f"three notices on {path}")
                assert browser.execute_script(COVERED) == [], f"{path} at {width}x{height}"
                name = "notices-" + ("home" if path == "/" else path.strip("/").split("/")[0]) + f"-{width}"
                browser.save_screenshot(str(SCREENSHOTS / f"{name}.png"))  # the window as the reader sees it
        browser.set_window_size(1280, 1000)

        # The dismiss button: that notice goes, focus moves to the next one's button, and a reload keeps it gone.
        browser.get(url + "/")
        wait_until(lambda: len(notice_ids(browser)) == 3, 30, "three notices")
        first, *others = notice_ids(browser)
        browser.find_element(By.CSS_SELECTOR, f'[data-moment="{first}"] [data-dismiss]').click()
        assert notice_ids(browser) == others
        assert browser.switch_to.active_element.get_attribute("data-dismiss") is not None, "focus on the next notice"
        browser.refresh()
        wait_until(lambda: notice_ids(browser) == others, 30, "the two left after a reload")

        # Escape, focus elsewhere: every notice goes, and stays gone; a newer notice still shows.
        browser.find_element(By.TAG_NAME, "body").send_keys(Keys.ESCAPE)
        assert notice_ids(browser) == []
        assert browser.execute_script("return document.querySelector('.news-region').getBoundingClientRect().height") == 0
        habit, person, _ = pairs[0]
        log(frozen_api, "activeUser", habit, 2)  # You pass them back: a new notice
        browser.refresh()
        newer = wait_until(lambda: notice_ids(browser), 30, "the newer notice")
        assert len(newer) == 1 and newer[0] not in [first, *others], newer
        text = browser.find_element(By.CSS_SELECTOR, NOTICES + " .notice-text").text
        assert text.startswith(f"You passed {person['name']} in {habit}"), text
    finally:
        assert running.stop() == 0
