"""scripts/cluster.sh --instances 3 --store postgres on its own throwaway PostgreSQL, at the HTTP level (issue 19
points 6 and 7): what a browser and a balancer see while the database is stopped or paused.

- The script starts PostgreSQL itself and prints `database: <URL>`; `/healthz` says `database: up`.
- With the database stopped, and again with it paused (SIGSTOP: connections open, nothing answers): `/healthz` says
  `database: down` (still 200: pages work), a toggle answers 503 with Retry-After and a page saying nothing was
  saved, and nothing of it is kept; pages are served from memory with the settings made before; a log (which goes
  to the API, not the database) is still taken and shown.
- When it is back, `/healthz` says `database: up` again, one dashboard leads, and a toggle is acknowledged and served.
- SIGTERM stops every process, PostgreSQL included.
Every wait is for a condition (a hang guard bounds it), never for a time.
"""

import os
import pathlib
import re
import signal
import subprocess
import time

from conftest import ROOT, api_json, get, metrics_text, post_form, quote, shows_favorite, start_cluster

HANG_GUARD_SECONDS = 120


def postgres_script(*arguments):
    done = subprocess.run(
        [str(ROOT / "scripts" / "postgres.sh"), *arguments], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr


def server_pids(directory):
    """The postmaster of the script's PostgreSQL and every process it started."""
    postmaster = int(pathlib.Path(directory, "data", "postmaster.pid").read_text().split()[0])
    children = []
    for stat in pathlib.Path("/proc").glob("[0-9]*/stat"):
        try:
            if int(stat.read_text().rsplit(")", 1)[1].split()[1]) == postmaster:
                children.append(int(stat.parent.name))
        except (OSError, ValueError, IndexError):
            continue
    return [postmaster, *children]


def alive(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # A zombie has ended: only its exit status is left for its parent.
    try:
        return pathlib.Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def wait_until(what, condition):
    deadline = time.monotonic() + HANG_GUARD_SECONDS
    while not condition():
        assert time.monotonic() < deadline, f"timed out waiting until {what}"
        time.sleep(0.2)


def health(cluster):
    """Each dashboard's /healthz: (status, body)."""
    return [(answer.status, answer.body) for answer in (get(url, "/healthz") for url, _ in cluster.dashboards)]


def every_health_says(cluster, line):
    return all(status == 200 and line in body.splitlines() for status, body in health(cluster))


def roles(cluster):
    found = []
    for url, _ in cluster.dashboards:
        match = re.search(r'^habits_cluster_role\{role="(\w+)"\} 1$', metrics_text(url), re.M)
        found.append(match.group(1) if match else None)
    return sorted(found)


def toggle(cluster, habit, wanted, cookie):
    return post_form(cluster.front, f"/habits/{quote(habit)}/favorite", {"favorite": "true" if wanted else "false"},
                     cookie)


def served_favorite(cluster, habit, cookie):
    """Whether every dashboard serves `habit` as a favourite for the browser of `cookie`."""
    return [shows_favorite(get(url, "/habits", cookie).body, habit) for url, _ in cluster.dashboards]


def check_outage(cluster, habit, cookie, kind):
    """While the database is out: health says down, a toggle is a 503 that says nothing was saved, pages keep the
    settings made before, a log is still taken."""
    wait_until(f"every /healthz says the database is down ({kind})",
               lambda: every_health_says(cluster, "database: down (pages served from memory; changes answered 503)"))
    refused = toggle(cluster, habit, False, cookie)
    assert refused.status == 503, (kind, refused.status, refused.body[:300])
    assert "nothing was saved" in refused.body, refused.body
    assert refused.headers["Retry-After"], refused.headers
    assert refused.cookie() is None, "a refused change sets no cookie"
    assert served_favorite(cluster, habit, cookie) == [True] * 3, "pages keep the settings made before"
    logged = post_form(cluster.front, "/log", {"habit": habit})
    assert logged.status == 303 and "logged=" in logged.headers["Location"], (logged.status, logged.headers)


def check_recovered(cluster, habit, cookie, kind):
    wait_until(f"every /healthz says the database is up again ({kind})",
               lambda: every_health_says(cluster, "database: up"))
    wait_until("one dashboard leads and the others follow",
               lambda: roles(cluster) == ["follower", "follower", "leader"])
    # The refused change was not kept: the favourite is still there.
    assert served_favorite(cluster, habit, cookie) == [True] * 3
    for wanted in (False, True):
        answer = toggle(cluster, habit, wanted, cookie)
        assert answer.status == 303, (kind, answer.status, answer.body[:300])
        wait_until("every dashboard serves the change",
                   lambda: served_favorite(cluster, habit, cookie) == [wanted] * 3)


def test_the_script_runs_its_own_postgresql_and_the_503_and_healthz_tell_the_truth_through_an_outage(api):
    cluster = start_cluster(3, upstream=api, store="postgres")
    postmaster = None
    try:
        assert cluster.database and cluster.database.startswith("postgres://"), cluster.database
        assert cluster.postgres_dir, "cluster.sh names its throwaway PostgreSQL's directory"
        postmaster = server_pids(cluster.postgres_dir)[0]
        wait_until("every /healthz says the database is up", lambda: every_health_says(cluster, "database: up"))

        habit = sorted(name for name in api_json(api, "/habits") if re.fullmatch(r"[A-Za-z ]+", name))[0]
        made = toggle(cluster, habit, True, None)
        assert made.status == 303, made.body
        cookie = made.cookie()
        wait_until("every dashboard serves the first change",
                   lambda: served_favorite(cluster, habit, cookie) == [True] * 3)

        # (b) stopped, (c) paused.
        postgres_script("stop", cluster.postgres_dir)
        check_outage(cluster, habit, cookie, "stopped")
        postgres_script("start", cluster.postgres_dir)
        check_recovered(cluster, habit, cookie, "stopped")

        paused = server_pids(cluster.postgres_dir)
        postmaster = paused[0]
        for pid in paused:
            os.kill(pid, signal.SIGSTOP)
        try:
            check_outage(cluster, habit, cookie, "paused")
        finally:
            for pid in paused:
                try:
                    os.kill(pid, signal.SIGCONT)
                except ProcessLookupError:
                    pass
        check_recovered(cluster, habit, cookie, "paused")
    finally:
        status = cluster.stop()
        leftover = cluster.group_processes()
    assert status == 143, "cluster.sh reports that it was stopped by SIGTERM"
    assert leftover == [], f"processes left behind: {leftover}"
    assert postmaster is None or not alive(postmaster), "cluster.sh left its PostgreSQL running"
    assert not pathlib.Path(cluster.postgres_dir).exists(), "the run directory (with the database) is removed"
