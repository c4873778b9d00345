"""200 browsers toggling through nginx in front of three dashboards on PostgreSQL while (a) the refresher is killed
with SIGKILL, (b) PostgreSQL is stopped for 5 s and started again, (c) PostgreSQL is paused (SIGSTOP) for 5 s
(issue 19 points 6 and 8). One cluster and one database for the three, in that order.

In each phase every browser toggles a favourite again and again, each change followed by a page load, and the fault
comes once a third of the phase's changes are acknowledged. Afterwards:
- every acknowledged change (303) is what the cluster serves (a change answered otherwise may or may not be);
- the only answers that are not 2xx/3xx are the documented ones: 502 for a POST in flight on the killed dashboard,
  503 ("nothing was saved") for a change during the outage, or in any phase for a change whose statement passed the
  pool's 3 s deadline (on a loaded CI machine, three runs and a release build side by side, a commit took longer;
  a deadline passed while COMMIT was on its way says the change may or may not have been saved);
  every GET answered 200 with its whole page;
- the cluster is whole again: one leader, the others following, changes acknowledged after the fault (at least
  one, and at least one browser whose last change was acknowledged, so there is something to check);
- live pages move again: a change made at the API after the fault reaches a held poll on every dashboard (the time
  is printed; the bound asserted is a hang guard).
"""

import collections
import http.client
import os
import re
import signal
import threading
import time

import pytest

from conftest import (
    api_json, browser_id, get, metrics_text, page_load, post_form, postgres_cluster_of_its_own, quote, request, run_all,
    stored_rows, stored_settings)

BROWSERS = 200
HANG_GUARD_SECONDS = 120
# How long after the fault the browsers go on (the cluster recovers meanwhile).
AFTER_FAULT_SECONDS = 4


@pytest.fixture(scope="module")
def faulty(api):
    with postgres_cluster_of_its_own(api) as cluster:
        yield cluster


class Browser:
    """One browser: its own loopback address and cookie; it flips one favourite until told to stop."""

    def __init__(self, index, habit):
        self.source = f"127.0.2.{index + 1}"
        self.habit = habit
        self.cookie = None
        self.changes = []  # (wanted, answer): answer is a status or an error's repr
        self.gets = []

    def change(self, front, wanted):
        try:
            answer = post_form(
                front, f"/habits/{quote(self.habit)}/favorite", {"favorite": "true" if wanted else "false"},
                self.cookie, self.source)
            result = answer.status
            if result == 503 and "may or may not have been saved" in answer.body:
                result = "503 unconfirmed"  # its COMMIT went unanswered (issue 49): its outcome is unknown
            elif result == 503 and "nothing was saved" not in answer.body:
                result = "503 without saying nothing was saved"
            if result == 303:
                self.cookie = self.cookie or answer.cookie()
        except (OSError, http.client.HTTPException) as error:
            result = repr(error)
        self.changes.append((wanted, result))
        return result == 303

    def load_page(self, front):
        self.gets.append(page_load(front, self.cookie, self.source))

    def expected(self):
        """The favourite's state when the last change was acknowledged; None when a later one was not answered 303."""
        if not self.changes or self.changes[-1][1] != 303:
            return None
        return self.changes[-1][0]


@pytest.fixture(scope="module")
def browsers(faulty):
    habits = sorted(api_json(faulty.api, "/habits"))
    made = [Browser(index, habits[index % len(habits)]) for index in range(BROWSERS)]
    run_all(made, lambda browser: browser.change(faulty.front, True) or pytest.fail("first change not acknowledged"))
    return made


def roles(cluster, alive):
    found = []
    for url, pid in cluster.dashboards:
        if pid not in alive:
            continue
        match = re.search(r'^habits_cluster_role\{role="(\w+)"\} 1$', metrics_text(url), re.M)
        found.append(match.group(1) if match else None)
    return sorted(found)


def run_phase(cluster, browsers, fault):
    """Every browser toggles until the fault has run and AFTER_FAULT_SECONDS more have passed; `fault()` runs once a
    third of a round of changes is acknowledged. Returns the answers' counts; `cluster.acknowledged_after_fault` is
    how many changes were acknowledged once the fault was over."""
    cluster.phase_started = time.time()
    for browser in browsers:
        browser.changes, browser.gets = browser.changes[-1:], []
    progress = threading.Condition()
    state = {"acknowledged": 0, "done": False, "fault_over": False, "after": 0}

    def toggle(browser):
        wanted = not browser.changes[-1][0]
        while True:
            acknowledged = browser.change(cluster.front, wanted)
            with progress:
                state["acknowledged"] += acknowledged
                state["after"] += acknowledged and state["fault_over"]
                progress.notify_all()
                if state["done"]:
                    return
            browser.load_page(cluster.front)
            wanted = not wanted

    def faulter():
        with progress:
            progress.wait_for(lambda: state["acknowledged"] >= len(browsers) // 3, timeout=HANG_GUARD_SECONDS)
        fault()
        with progress:
            state["fault_over"] = True
        time.sleep(AFTER_FAULT_SECONDS)
        with progress:
            state["done"] = True

    thread = threading.Thread(target=faulter, daemon=True)
    thread.start()
    run_all(browsers, toggle)
    thread.join(HANG_GUARD_SECONDS)
    cluster.acknowledged_after_fault = state["after"]
    return collections.Counter(result for browser in browsers for _, result in browser.changes[1:])


def check_phase(cluster, browsers, answers, allowed, alive, kind):
    if 503 in allowed:
        allowed = allowed | {"503 unconfirmed"}
    assert set(answers) <= {303} | allowed, f"{answers}; the cluster logged:\n{cluster.log_summary(cluster.phase_started)}"
    failures = [(browser.source, got) for browser in browsers for got in browser.gets if got != (200, True)]
    assert failures == [], f"{failures[:10]}; the cluster logged:\n{cluster.log_summary(cluster.phase_started)}"
    # Recovered: one leader among the dashboards still running, the others following.
    deadline = time.monotonic() + 30
    while roles(cluster, alive) != sorted(["leader"] + ["follower"] * (len(alive) - 1)):
        assert time.monotonic() < deadline, roles(cluster, alive)
        time.sleep(0.2)
    # Every acknowledged change is in its row (committed) and is what a running dashboard serves.
    lost, unserved = [], []
    habits = sorted({browser.habit for browser in browsers})
    rows = stored_rows(cluster.postgres)
    serving = [url for url, pid in cluster.dashboards if pid in alive]
    for index, browser in enumerate(browsers):
        wanted = browser.expected()
        if wanted is None:
            continue
        row = rows.get(browser_id(browser.cookie), {})
        if (browser.habit in row.get("favoriteHabits", [])) != wanted:
            lost.append((browser.source, browser.habit, wanted))
        served = stored_settings(cluster, browser.cookie, [browser.habit], serving[index % len(serving)])
        if (browser.habit in served["favoriteHabits"]) != wanted:
            unserved.append((browser.source, browser.habit, wanted))
    assert lost == [], lost[:10]
    assert unserved == [], unserved[:10]
    checked = sum(browser.expected() is not None for browser in browsers)
    # Without these, a phase whose every change was answered 503 would pass with nothing checked.
    assert cluster.acknowledged_after_fault > 0, f"no change acknowledged after the fault: {dict(answers)}"
    assert checked > 0, f"no browser's last change was acknowledged: {dict(answers)}"
    print(f"\n{kind}: answers {dict(answers)}; acknowledged {answers[303]}, lost {len(lost)}, "
          f"not served {len(unserved)}; browsers checked {checked} of {len(browsers)}")
    seconds = live_pages_move(cluster, alive, habits[0])
    print(f"a change at the API reached a held poll on every dashboard after {seconds:.2f} s")


def live_pages_move(cluster, alive, habit):
    """Seconds until a change made at the API now answers a held poll on every running dashboard."""
    path = f"/fragments/habits/{quote(habit)}"
    targets = [url for url, pid in cluster.dashboards if pid in alive]
    tags = {url: get(url, path).headers["ETag"] for url in targets}
    answers = {}

    def poll(url):
        answers[url] = get(url, path, headers={"If-None-Match": tags[url], "Prefer": "wait=25"}, timeout=40)

    pollers = [threading.Thread(target=poll, args=(url,), daemon=True) for url in targets]
    for poller in pollers:
        poller.start()
    time.sleep(0.5)
    started = time.monotonic()
    body = ('{"userID": "activeUser", "habitName": "%s", "timestamp": "%s"}'
            % (habit, time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())))
    assert request(cluster.api, "POST", "/loggedHabit", {"Content-Type": "application/json"}, body).status == 200
    for poller in pollers:
        poller.join(40)
    elapsed = time.monotonic() - started
    assert all(answers[url].status == 200 for url in targets), {url: a.status for url, a in answers.items()}
    assert elapsed < 20, elapsed
    return elapsed


def test_a_killed_refresher_is_replaced_and_no_acknowledged_change_is_lost(faulty, browsers):
    leader = None
    alive = {pid for _, pid in faulty.dashboards}

    def kill_the_leader():
        nonlocal leader
        for url, pid in faulty.dashboards:
            if 'habits_cluster_role{role="leader"} 1' in metrics_text(url):
                leader = pid
        os.kill(leader, signal.SIGKILL)
        alive.discard(leader)

    answers = run_phase(faulty, browsers, kill_the_leader)
    faulty.alive = alive
    assert leader is not None, "no dashboard said it was the leader"
    # 503: a statement that passed its deadline on a loaded machine (see the module's docstring); it says nothing was
    # saved, and the change is then not counted as acknowledged.
    check_phase(faulty, browsers, answers, {502, 503}, alive, "refresher killed")


def outage(faulty, browsers, fault, kind):
    """A phase whose fault is an outage of PostgreSQL: changes meanwhile answer 503."""
    answers = run_phase(faulty, browsers, fault)
    alive = getattr(faulty, "alive", {pid for _, pid in faulty.dashboards})
    check_phase(faulty, browsers, answers, {503}, alive, f"PostgreSQL {kind}")


@pytest.mark.parametrize("kind", ["stopped", "paused"])
def test_postgresql_stopped_or_paused_for_5_s_loses_no_acknowledged_change_and_everything_recovers(
    faulty, browsers, kind
):
    """(b) `pg_ctl stop -m fast`, 5 s, start again; (c) SIGSTOP to every server process, 5 s, SIGCONT."""
    down, up = (faulty.postgres.stop, faulty.postgres.start) if kind == "stopped" else (
        faulty.postgres.pause, faulty.postgres.resume)

    def fault():
        down()
        time.sleep(5)
        up()

    outage(faulty, browsers, fault, kind)
