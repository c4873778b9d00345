"""200 browsers toggling through nginx while one of three dashboards is killed with SIGKILL (issue 11 point 4).

Each browser is a thread with its own loopback source address (127.0.1.x: nginx passes it on in X-Forwarded-For, so
each is its own client for the dashboards' per-address limits) and its own settings cookie, minted by the cluster on
its first change. Every browser then makes a few changes, each followed by a page load, while the test kills one
dashboard once a third of the changes have been acknowledged. Afterwards:
- every acknowledged change (303) is in the browser's file on disk (a change that got no answer may or may not be);
- every settings file in the directory parses, and none was moved aside as corrupt;
- every GET through the front answered 200 with its whole page (nginx sends it to another dashboard).
"""

import collections
import http.client
import json
import os
import signal
import threading

import pytest

from conftest import api_json, page_load, post_form, quote, run_all, start_cluster, stopped_at_exit

BROWSERS = 200
# Far above the expected ~10-30 s on a loaded 2-core machine; only a guard against a hang.
HANG_GUARD_SECONDS = 120


@pytest.fixture(scope="module")
def failover_cluster(api, tmp_path_factory):
    """A cluster of its own: this test kills one of its dashboards."""
    with stopped_at_exit(start_cluster(3, tmp_path_factory.mktemp("failover-settings"), upstream=api)) as running:
        yield running


class Browser:
    """One simulated browser: its address, cookie, the changes it makes and what came back."""

    def __init__(self, index, habits, users):
        self.source = f"127.0.1.{index + 1}"
        self.cookie = None
        first, second, third = (habits[(index + k) % len(habits)] for k in range(3))
        # (kind, name, wanted state); the first one mints the cookie before the kill phase.
        self.changes = [
            ("favorite", first, True),
            ("favorite", second, True),
            ("follow", users[index % len(users)], True),
            ("favorite", third, True),
            ("favorite", second, False),
        ]
        self.acknowledged = []  # indexes into changes
        self.unanswered = []
        self.refusals = []  # what the unanswered changes got instead of a 303
        self.gets = []  # (status, complete)

    def change(self, front, index):
        kind, name, wanted = self.changes[index]
        path = f"/habits/{quote(name)}/favorite" if kind == "favorite" else f"/people/{quote(name)}/follow"
        try:
            answer = post_form(front, path, {kind: "true" if wanted else "false"}, self.cookie, self.source)
        except (OSError, http.client.HTTPException) as error:
            self.unanswered.append(index)
            self.refusals.append(repr(error))
            return False
        if answer.status != 303:
            self.unanswered.append(index)
            self.refusals.append(answer.status)
            return False
        self.cookie = self.cookie or answer.cookie()
        self.acknowledged.append(index)
        return True

    def load_page(self, front):
        self.gets.append(page_load(front, self.cookie, self.source))

    def expected(self):
        """Per (kind, name): the state the file must hold, when the last change of it was acknowledged."""
        last = {}
        for index, (kind, name, wanted) in enumerate(self.changes):
            if index in self.acknowledged or index in self.unanswered:
                last[(kind, name)] = (index, wanted)
        return {key: wanted for key, (index, wanted) in last.items() if index in self.acknowledged}


def test_acknowledged_toggles_survive_a_dashboard_killed_mid_flight_and_gets_keep_answering(failover_cluster):
    cluster = failover_cluster
    habits = sorted(api_json(cluster.api, "/habits"))
    users = sorted(user for user in api_json(cluster.api, "/users") if user != "activeUser")
    browsers = [Browser(index, habits, users) for index in range(BROWSERS)]

    # Phase 1, before any kill: every browser gets its cookie from the cluster with its first change.
    def mint(browser):
        assert browser.change(cluster.front, 0), f"{browser.source}: first change not acknowledged"
        assert browser.cookie, f"{browser.source}: no cookie minted"

    run_all(browsers, mint)

    # Phase 2: the rest of the changes, each followed by a page load, while one dashboard is killed.
    remaining = sum(len(browser.changes) - 1 for browser in browsers)
    progress = threading.Condition()
    state = {"acknowledged": 0, "after_kill": 0, "killed": False}

    def toggle(browser):
        for index in range(1, len(browser.changes)):
            acknowledged = browser.change(cluster.front, index)
            with progress:
                if acknowledged:
                    state["acknowledged"] += 1
                    state["after_kill"] += state["killed"]
                progress.notify_all()
            browser.load_page(cluster.front)

    victim_url, victim_pid = cluster.dashboards[1]
    killer_done = threading.Event()

    def killer():
        with progress:
            progress.wait_for(lambda: state["acknowledged"] >= remaining // 3, timeout=HANG_GUARD_SECONDS)
            os.kill(victim_pid, signal.SIGKILL)
            state["killed"] = True
        killer_done.set()

    killer_thread = threading.Thread(target=killer, daemon=True)
    killer_thread.start()
    run_all(browsers, toggle)
    assert killer_done.wait(HANG_GUARD_SECONDS), "the kill never happened"

    # The killed dashboard is gone (reaped by the script or a zombie at worst), the others still answer.
    assert not process_running(victim_pid), f"{victim_url} still runs"
    assert state["after_kill"] > 0, "no change was acknowledged after the kill: the kill came too late to test"

    # Every GET through the front answered 200 with a whole page, the killed dashboard's browsers included.
    failures = [(browser.source, result) for browser in browsers for result in browser.gets if result != (200, True)]
    assert failures == [], failures[:10]

    # Every settings file parses, and nothing was moved aside as corrupt.
    files = sorted(cluster.settings_dir.glob("*.json"))
    assert len(files) == BROWSERS
    for path in files:
        json.loads(path.read_text())
    assert list(cluster.settings_dir.glob("*.corrupt-*")) == []

    # Every acknowledged change is on disk.
    lost = []
    for browser in browsers:
        browser_id = browser.cookie.split("=", 1)[1].split(".", 1)[0]
        stored = json.loads((cluster.settings_dir / f"{browser_id}.json").read_text())
        for (kind, name), wanted in browser.expected().items():
            present = name in stored["favoriteHabits" if kind == "favorite" else "followedUserIDs"]
            if present != wanted:
                lost.append((browser.source, kind, name, wanted))
    assert lost == [], lost[:10]

    # Only a POST sent to the killed dashboard goes unanswered: nginx never resends a POST it has sent (it could apply
    # a change twice), so the browser gets 502. That is the one in flight at the kill, plus any sent afterwards on one
    # of nginx's cached keep-alive connections to the dead process (up to `keepalive 64` of them) before it is marked
    # down; a browser can meet two of those in a row (CI saw it), so the bound is on the total, not per browser.
    refusals = collections.Counter(refusal for browser in browsers for refusal in browser.refusals)
    assert set(refusals) <= {502}, refusals
    assert sum(len(browser.unanswered) for browser in browsers) <= BROWSERS + 64, refusals


def process_running(pid):
    """Whether `pid` is a live process (a zombie awaiting its parent's wait counts as gone)."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False
