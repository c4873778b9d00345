"""Three dashboards behind nginx share one truth (issue 11 points 2 and 3).

Every test here talks to the running cluster: through the front (nginx) as a browser does, and to each dashboard
directly, to show that what one process wrote every other one serves at once.
"""

import concurrent.futures
import json
import re
import threading
import time

from conftest import (
    api_json, browser_id, followed_ids, get, metrics_text, post_form, quote, request, shows_favorite, stored_rows,
    stored_settings
)


def plain_habits(cluster):
    """Habit names that need no escaping in HTML or URLs, sorted."""
    return sorted(name for name in api_json(cluster.api, "/habits") if re.fullmatch(r"[A-Za-z ]+", name))


def settings_file(cluster, cookie):
    """What the cluster keeps for the browser a `habits_browser=<id>.<tag>` cookie names."""
    return stored_settings(cluster, cookie, plain_habits(cluster))


def test_every_dashboard_announced_its_own_port_and_the_front_serves_pages(cluster):
    assert len({url for url, _ in cluster.dashboards}) == 3
    for path in ("/", "/habits", "/people", "/log", "/healthz"):
        assert get(cluster.front, path).status == 200, path


def seen_within_the_recheck_bound(url, path, cookie, wanted):
    """Whether `wanted(body)` holds for a page (status 200, so an error page never passes) of `path` on `url` within
    3 s: a dashboard checks a cached browser's settings file at most once a second (README, settings facts), so
    another dashboard's change shows within 1 s."""
    deadline = time.monotonic() + 3
    while True:
        page = get(url, path, cookie)
        if page.status == 200 and wanted(page.body):
            return True
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)


def test_a_toggle_through_the_front_is_seen_within_a_second_by_every_dashboard_directly(cluster):
    habit = plain_habits(cluster)[0]
    made = post_form(cluster.front, f"/habits/{quote(habit)}/favorite", {"favorite": "true", "return": "/habits"})
    assert made.status == 303, made.body
    cookie = made.cookie()
    assert cookie, "the first change mints a settings cookie"
    for url, _ in cluster.dashboards:
        page = get(url, "/habits", cookie)
        assert page.status == 200
        assert shows_favorite(page.body, habit), url

    undone = post_form(cluster.front, f"/habits/{quote(habit)}/favorite", {"favorite": "false"}, cookie)
    assert undone.status == 303
    for url, _ in cluster.dashboards:
        assert seen_within_the_recheck_bound(url, "/habits", cookie, lambda body: not shows_favorite(body, habit)), url
    assert settings_file(cluster, cookie)["favoriteHabits"] == []


def test_a_post_through_the_front_from_another_site_is_refused(cluster):
    habit = plain_habits(cluster)[0]
    refused = request(
        cluster.front,
        "POST",
        f"/habits/{quote(habit)}/favorite",
        {"Origin": "http://evil.example", "Content-Type": "application/x-www-form-urlencoded"},
        "favorite=true",
    )
    assert refused.status == 403
    assert refused.cookie() is None


def test_concurrent_toggles_of_one_browser_on_three_dashboards_lose_none(cluster):
    habits = plain_habits(cluster)
    first = post_form(cluster.front, f"/habits/{quote(habits[0])}/favorite", {"favorite": "true"})
    cookie = first.cookie()
    users = sorted(user for user in api_json(cluster.api, "/users") if user != "activeUser")[:12]

    # Each dashboard, directly, gets its own share of follows for the same browser at the same time: the
    # read-modify-write of one file in three processes, serialised by the flock stripes.
    jobs = [(cluster.dashboards[index % 3][0], user) for index, user in enumerate(users)]

    def follow(job):
        url, user = job
        return post_form(url, f"/people/{quote(user)}/follow", {"follow": "true"}, cookie).status

    with concurrent.futures.ThreadPoolExecutor(len(jobs)) as pool:
        statuses = list(pool.map(follow, jobs))
    assert statuses == [303] * len(jobs)
    # What the store holds, at once: a 303 comes after the write (the file, or the committed row).
    if cluster.store == "files":
        stored = settings_file(cluster, cookie)
    else:
        stored = stored_rows(cluster.postgres)[browser_id(cookie)]
    assert sorted(stored["followedUserIDs"]) == sorted(users)
    assert stored["favoriteHabits"] == [habits[0]]
    # And what every dashboard serves, within the recheck bound: with PostgreSQL a dashboard's copy follows another
    # dashboard's change when its notification arrives, which may be after that dashboard's own 303 was read here.
    for url, _ in cluster.dashboards:
        assert seen_within_the_recheck_bound(
            url, "/people?followed=1", cookie, lambda body: sorted(followed_ids(body)) == sorted(users)
        ), url


def test_the_same_page_has_the_same_etag_on_every_dashboard_and_another_answers_304(cluster):
    habit = plain_habits(cluster)[1]
    cookie = post_form(cluster.front, f"/habits/{quote(habit)}/favorite", {"favorite": "true"}).cookie()
    for path in ("/habits", "/people", "/log"):
        tags = {get(url, path, cookie).headers["ETag"] for url, _ in cluster.dashboards}
        assert len(tags) == 1 and None not in tags, (path, tags)
        tag = tags.pop()
        for url, _ in cluster.dashboards:
            assert get(url, path, cookie, {"If-None-Match": tag}).status == 304, (path, url)


def test_live_pages_carry_each_dashboards_own_trends_and_answer_their_own_etag_with_304(cluster):
    """Live pages draw the dashboard's own history of the counts (issue 10 point 4: sparklines), which each process
    records as it refreshes, so their ETags are per dashboard: a browser moved to another one gets one 200."""
    habit = plain_habits(cluster)[1]
    cookie = post_form(cluster.front, f"/habits/{quote(habit)}/favorite", {"favorite": "true"}).cookie()
    for path in ("/", f"/habits/{quote(habit)}", "/fragments/home"):
        for url, _ in cluster.dashboards:
            # The history moves on every 10 s while a page is watched: a tag may be one slot old; try again then.
            statuses = []
            for _ in range(3):
                tag = get(url, path, cookie).headers["ETag"]
                statuses.append(get(url, path, cookie, {"If-None-Match": tag}).status)
                if statuses[-1] == 304:
                    break
            assert statuses[-1] == 304, (path, url, statuses)
            # A line needs two samples 10 s apart, recorded while the page is watched: a young dashboard draws none yet.
            # Home's cards draw a sparkline, the habit page a chart across the page (issue 22).
            line = 'class="chart-svg"' if path.startswith("/habits/") else 'class="sparkline"'
            deadline = time.monotonic() + 60
            while line not in get(url, path, cookie).body:
                assert time.monotonic() < deadline, ("no sparkline within 60 s", path, url)
                time.sleep(0.5)


def parked_polls(cluster):
    """Long polls held right now, summed over the dashboards (`habits_live_parked` in their /metrics)."""
    total = 0
    for url, _ in cluster.dashboards:
        match = re.search(r"^habits_live_parked (\d+)$", metrics_text(url), re.M)
        total += int(match.group(1))
    return total


def test_an_unchanged_live_poll_through_the_front_is_held_and_answered_304(cluster):
    habit = plain_habits(cluster)[2]
    first = get(cluster.front, f"/fragments/habits/{quote(habit)}")
    assert first.status == 200 and first.headers["ETag"]
    started = time.monotonic()
    held = get(cluster.front, f"/fragments/habits/{quote(habit)}", headers={
        "If-None-Match": first.headers["ETag"], "Prefer": "wait=1"})
    assert held.status == 304
    assert time.monotonic() - started >= 0.9, "the poll was held for its wait, through nginx"


def test_a_live_page_through_the_front_gets_an_upstream_change_in_place(cluster):
    habit = plain_habits(cluster)[3]
    path = f"/fragments/habits/{quote(habit)}"
    before = get(cluster.front, path)
    answers = []

    def poll():
        answers.append(get(cluster.front, path, headers={
            "If-None-Match": before.headers["ETag"], "Prefer": "wait=25"}, timeout=40))

    poller = threading.Thread(target=poll, daemon=True)
    poller.start()
    # The change is made once the poll is held by a dashboard, so the answer can only come from the wake-up.
    deadline = time.monotonic() + 30
    while parked_polls(cluster) < 1:
        assert poller.is_alive() and time.monotonic() < deadline, "the poll was never held"
        time.sleep(0.01)
    body = json.dumps({"userID": "activeUser", "habitName": habit,
                       "timestamp": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())})
    logged = request(cluster.api, "POST", "/loggedHabit", {"Content-Type": "application/json"}, body)
    assert logged.status == 200, logged.body
    poller.join(40)
    assert answers, "the poll never came back"
    changed = answers[0]
    # Answered with the new fragment before the 25 s wait ran out: the upstream change went through the API cache,
    # the dashboard's refresh, and back out through nginx unbuffered.
    assert changed.status == 200, changed.status
    assert changed.headers["ETag"] != before.headers["ETag"]
    assert changed.body != before.body
