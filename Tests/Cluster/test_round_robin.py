"""Issue 49 point 4: any balancer. Behind a round-robin front a browser's toggle and its open pages' polls land on
different dashboards; a settings notification wakes the polls of that browser held on every dashboard, so each one
answers the change (200 with it) instead of holding on until its wait ends (a 304 after 25 s: the API is frozen, so
nothing else can answer it)."""

import re
import threading
import time

from conftest import (
    Postgres, api_json, get, metrics_text, post_form, quote, request, start_postgres_cluster, stopped_at_exit
)


def parked(url):
    match = re.search(r"^habits_live_parked (\d+)$", metrics_text(url), re.M)
    return int(match.group(1)) if match else 0


def test_a_toggle_through_a_round_robin_front_reaches_the_browsers_poll_held_on_every_dashboard(api):
    database = Postgres()
    try:
        with stopped_at_exit(start_postgres_cluster(3, database, api, balance="round-robin")) as cluster:
            first, second = sorted(api_json(api, "/habits"))[:2]
            made = post_form(cluster.front, f"/habits/{quote(first)}/favorite", {"favorite": "true"})
            assert made.status == 303, made.status
            cookie = made.cookie()
            dashboards = [url for url, _ in cluster.dashboards]
            # Each dashboard's copy of the browser: the Home fragment with the first favourite, and its ETag.
            tags = {}
            for url in dashboards:
                deadline = time.monotonic() + 60  # a hang guard: each dashboard hears the change within 1 s
                while True:
                    answer = get(url, "/fragments/home", cookie)
                    if answer.status == 200 and f">{first}<" in answer.body:
                        tags[url] = answer.headers["ETag"]
                        break
                    assert time.monotonic() < deadline, f"{url} never served the first favourite"
                    time.sleep(0.1)

            answers = {}

            def hold(url):
                headers = {"Cookie": cookie, "If-None-Match": tags[url], "Prefer": "wait=25"}
                answer = request(url, "GET", "/fragments/home", headers, timeout=90)
                answers[url] = (answer, time.monotonic())

            before = {url: parked(url) for url in dashboards}
            threads = [threading.Thread(target=hold, args=(url,)) for url in dashboards]
            for thread in threads:
                thread.start()
            deadline = time.monotonic() + 60
            while any(parked(url) <= before[url] for url in dashboards):
                assert time.monotonic() < deadline, "the polls were never held"
                time.sleep(0.05)

            # The toggle goes to whichever dashboard the front picks next; every held poll must learn of it.
            toggled = time.monotonic()
            changed = post_form(cluster.front, f"/habits/{quote(second)}/favorite", {"favorite": "true"}, cookie)
            assert changed.status == 303, changed.status
            for thread in threads:
                thread.join(timeout=120)
            for url in dashboards:
                answer, _ = answers[url]
                assert answer.status == 200, f"{url}: {answer.status} (the poll was not woken by the change)"
                assert f">{second}<" in answer.body, url
            print("held polls answered after the toggle (s):", [round(answers[url][1] - toggled, 3) for url in dashboards])
    finally:
        database.close()
