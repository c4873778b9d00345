"""How fast a change upstream reaches an open live page (issue 9): 30 changes against a frozen simulator.

The simulator runs with --no-simulation, so only our POSTs change anything. For each change the page must show
exactly the upstream's new grouping (no stale, missing or leftover rows), in place (no reload). The figures
(median and max from the POST's answer to the region's update) are printed; the pass condition is correctness,
with generous time bounds (median under 2 s, each change under 5 s) that a page no longer long-polling still fails.
"""

import json
import random
import statistics
import time
import urllib.parse
import urllib.request

import pytest
from conftest import launch_frozen, metric, wait_until
from selenium.webdriver.common.by import By

CHANGES = 30


@pytest.fixture
def frozen(tmp_path):
    api, dashboard = launch_frozen(11, tmp_path, "latency")
    yield api.urls["api"], dashboard.urls["dashboard"]
    assert dashboard.stop() == 0
    assert api.stop() == 0


def get_json(url):
    with urllib.request.urlopen(url, timeout=5) as response:
        return json.load(response)


def log(api_url, user, habit):
    body = json.dumps(
        {"userID": user, "habitName": habit, "timestamp": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())}
    ).encode()
    request = urllib.request.Request(
        api_url + "/loggedHabit", data=body, method="POST", headers={"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=5) as response:
        assert response.status == 200


def expected_groups(api_url, habit):
    """[(count, sorted names)] highest count first, from the upstream's own statistics of `habit`."""
    stats = get_json(api_url + "/habitStats?names=" + urllib.parse.quote(habit, safe=""))
    by_count = {}
    for entry in stats[0]["userCounts"]:
        if entry["count"] > 0:
            name = "Active User" if entry["user"]["id"] == "activeUser" else entry["user"]["name"]
            by_count.setdefault(entry["count"], []).append(name)
    return [[count, sorted(names)] for count, names in sorted(by_count.items(), reverse=True)]


# The region as [(count, sorted member names)], read in one script so a swap cannot split the reading.
READ_GROUPS = """
return [...document.querySelectorAll('[data-live-src] li.count-group')].map(section => {
  const count = parseInt(section.querySelector('h3 .count').textContent, 10);
  const names = [...section.querySelectorAll('.member-list .person-name')].map(a => a.textContent).sort();
  return [count, names];
});
"""

# Stamps every swap of the live region with the wall-clock time, in the page itself.
WATCH_UPDATES = """
window.__updates = [];
document.addEventListener('live:updated', () => window.__updates.push(Date.now()));
window.__marker = 'same page';
"""


def test_thirty_changes_reach_the_open_page_quickly_and_exactly(frozen, browser):
    api_url, url = frozen
    habits = sorted(get_json(api_url + "/habits"))
    users = sorted(get_json(api_url + "/users"))
    habit = habits[0]
    browser.get(url + "/habits/" + urllib.parse.quote(habit, safe=""))
    browser.execute_script(WATCH_UPDATES)
    wait_until(lambda: metric(url, "habits_live_parked") >= 1, message="the first long poll parked")

    latencies = []
    for change in range(CHANGES):
        user = users[(change * 7) % len(users)]
        # A random pause first, so changes fall at every phase of the dashboard's refresh cycle, as real ones do.
        time.sleep(random.uniform(0, 0.3))
        seen = len(browser.execute_script("return window.__updates;"))
        posted = time.time()
        log(api_url, user, habit)
        expected = expected_groups(api_url, habit)
        deadline = time.monotonic() + 10
        while True:
            updates = browser.execute_script("return window.__updates;")
            if len(updates) > seen and browser.execute_script(READ_GROUPS) == expected:
                break
            assert time.monotonic() < deadline, f"change {change}: page shows {browser.execute_script(READ_GROUPS)}"
            time.sleep(0.02)
        latencies.append(updates[seen] / 1000 - posted)
        assert browser.execute_script("return window.__marker;") == "same page", "the page was reloaded"
    assert browser.find_element(By.TAG_NAME, "h1").text == habit
    median = statistics.median(latencies)
    print(
        f"live latency over {CHANGES} changes: median {median * 1000:.0f} ms, max {max(latencies) * 1000:.0f} ms "
        f"(targets 400 / 800 ms)"
    )
    # Generous for two shared cores, yet a regression shows: a page that fell back to polling every few seconds (or
    # to the 5 s refresh) has a median of seconds, where a long poll has one near the 400 ms target.
    assert median < 2, f"median {median:.2f} s, five times the 400 ms target: is the page long-polling?"
    assert max(latencies) < 5, "far beyond the target: is the page long-polling?"
