"""Three dashboards behind nginx share one truth (issue 11 points 2 and 3).

Every test here talks to the running cluster: through the front (nginx) as a browser does, and to each dashboard
directly, to show that what one process wrote every other one serves at once.
"""

import concurrent.futures
import html
import json
import re

from conftest import api_json, get, post_form, quote, request


def plain_habits(cluster):
    """Habit names that need no escaping in HTML or URLs, sorted."""
    return sorted(name for name in api_json(cluster.api, "/habits") if re.fullmatch(r"[A-Za-z ]+", name))


def shows_favorite(page, habit):
    """Whether a rendered /habits page shows `habit` as a favourite (its button offers to unfavourite it)."""
    return f'Unfavorite<span class="visually-hidden"> {html.escape(habit)}</span>' in page


def settings_file(cluster, cookie):
    """The JSON file of the browser a `habits_browser=<id>.<tag>` cookie names."""
    browser_id = cookie.split("=", 1)[1].split(".", 1)[0]
    return json.loads((cluster.settings_dir / f"{browser_id}.json").read_text())


def test_every_dashboard_announced_its_own_port_and_the_front_serves_pages(cluster):
    assert len({url for url, _ in cluster.dashboards}) == 3
    for path in ("/", "/habits", "/people", "/log", "/healthz"):
        assert get(cluster.front, path).status == 200, path


def test_a_toggle_through_the_front_is_seen_at_once_by_every_dashboard_directly(cluster):
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
        assert not shows_favorite(get(url, "/habits", cookie).body, habit), url
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
    stored = settings_file(cluster, cookie)
    assert sorted(stored["followedUserIDs"]) == sorted(users)
    assert stored["favoriteHabits"] == [habits[0]]

