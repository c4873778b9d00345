"""Three dashboards on one PostgreSQL show one truth (issue 19 points 4, 5 and 8).

One refresher (the dashboard holding the advisory lock) fetches the upstream and stores the snapshot and the history;
the others publish what it stored. So every page, live pages included, has the same bytes and ETag on every
dashboard, and the upstream sees one dashboard's calls. These tests share the session's PostgreSQL cluster (they
stop nothing); test_postgres_restart.py and test_postgres_faults.py run clusters of their own.
"""

import re
import threading
import time

from conftest import api_json, get, maps_libpq, metrics_text, post_form, quote, shows_favorite

# Live pages move on a 10 s slot (the history's), so a tag taken just before a slot ends may be one slot old: the
# comparison is made again, a few times, never waited on for long.
ATTEMPTS = 5


def plain_habits(cluster):
    return sorted(name for name in api_json(cluster.api, "/habits") if re.fullmatch(r"[A-Za-z ]+", name))


def metric(url, name):
    """A /metrics value of one dashboard (0 when absent)."""
    match = re.search(rf"^{name} (\S+)$", metrics_text(url), re.M)
    return float(match.group(1)) if match else 0.0


def roles(cluster):
    """Each dashboard's part, from its /metrics: `leader`, `follower` or `standalone`."""
    found = []
    for url, _ in cluster.dashboards:
        body = metrics_text(url)
        match = re.search(r'^habits_cluster_role\{role="(\w+)"\} 1$', body, re.M)
        found.append(match.group(1) if match else None)
    return found


def one_tag_everywhere(cluster, path, cookie):
    """The ETag `path` has on every dashboard, once all three agree (the history's slot may move in between)."""
    seen = []
    for _ in range(ATTEMPTS):
        tags = [get(url, path, cookie).headers["ETag"] for url, _ in cluster.dashboards]
        seen.append(tags)
        if len(set(tags)) == 1 and tags[0]:
            return tags[0]
        time.sleep(0.3)
    raise AssertionError(f"{path}: the dashboards never agreed: {seen}")


def test_exactly_one_dashboard_refreshes_and_the_others_follow(postgres_cluster):
    deadline = time.monotonic() + 60
    while sorted(roles(postgres_cluster)) != ["follower", "follower", "leader"]:
        assert time.monotonic() < deadline, roles(postgres_cluster)
        time.sleep(0.2)
    for _, pid in postgres_cluster.dashboards:
        assert maps_libpq(pid), "with --database, libpq is loaded on demand (the dashboard links none)"


def test_every_page_has_one_etag_on_three_dashboards_live_pages_included(postgres_cluster):
    cluster = postgres_cluster
    habit = plain_habits(cluster)[1]
    user = sorted(u for u in api_json(cluster.api, "/users") if u != "activeUser")[0]
    cookie = post_form(cluster.front, f"/habits/{quote(habit)}/favorite", {"favorite": "true"}).cookie()
    paths = ["/", "/habits", "/people", "/log", f"/habits/{quote(habit)}", f"/people/{quote(user)}",
             f"/habits/{quote(habit)}?range=day", "/fragments/home", f"/fragments/habits/{quote(habit)}",
             f"/fragments/people/{quote(user)}"]
    for path in paths:
        tag = one_tag_everywhere(cluster, path, cookie)
        # Each dashboard answers the tag another one gave with 304 (unless the slot moved just then: try again).
        for url, _ in cluster.dashboards:
            statuses = [get(url, path, cookie, {"If-None-Match": tag}).status]
            while statuses[-1] != 304 and len(statuses) < ATTEMPTS:
                tag = one_tag_everywhere(cluster, path, cookie)
                statuses.append(get(url, path, cookie, {"If-None-Match": tag}).status)
            assert statuses[-1] == 304, (path, url, statuses)


def test_a_toggle_through_one_dashboard_is_served_by_the_others_at_once(postgres_cluster):
    cluster = postgres_cluster
    habit = plain_habits(cluster)[2]
    (first, _), *others = cluster.dashboards
    made = post_form(first, f"/habits/{quote(habit)}/favorite", {"favorite": "true", "return": "/habits"})
    assert made.status == 303, made.body
    cookie = made.cookie()
    for url, _ in others:
        # The change reaches the others as a notification (milliseconds); a few quick tries allow for its flight.
        for attempt in range(20):
            if shows_favorite(get(url, "/habits", cookie).body, habit):
                break
            time.sleep(0.05)
        else:
            raise AssertionError(f"{url} never served the favourite")


def test_the_upstream_sees_one_dashboards_statistics_calls_whatever_their_number(postgres_cluster, api):
    """With a live page watched on all three dashboards, the API gets what one refresher asks for: at most one
    statistics call per --refresh-interval (0.25 s), not three. A slow machine only makes fewer calls."""
    cluster = postgres_cluster
    habit = plain_habits(cluster)[0]
    stop = threading.Event()

    def watch(url):
        while not stop.is_set():
            get(url, f"/habits/{quote(habit)}")
            time.sleep(0.2)

    watchers = [threading.Thread(target=watch, args=(url,), daemon=True) for url, _ in cluster.dashboards]
    for watcher in watchers:
        watcher.start()
    try:
        time.sleep(1)  # every dashboard watched: a warm-up, not a wait for a condition (the figure is a rate)
        started, before = time.monotonic(), api.statistics_calls()
        time.sleep(4)
        calls, elapsed = api.statistics_calls() - before, time.monotonic() - started
    finally:
        stop.set()
        for watcher in watchers:
            watcher.join(10)
    one_refresher = elapsed / 0.25
    assert 0 < calls <= one_refresher * 1.25 + 2, (calls, elapsed)
