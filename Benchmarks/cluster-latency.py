"""Change-to-answer latency for Benchmarks/cluster.sh: how long a change made at the Habits API takes to answer a
long poll held by a dashboard (issue 19 point 9).

Usage: cluster-latency.py API_URL DASHBOARD_URL ROUNDS HABIT [REFRESHER_URL]

Each round: a GET of the habit's live fragment on DASHBOARD_URL for its ETag, then a held GET (If-None-Match,
`Prefer: wait=25`), once it is parked (0.5 s later) a habit logged at the API; the time from the log's answer to the
held poll's 200 is one sample. With REFRESHER_URL a poll is held there too, and the time by which the dashboard's
answer follows the refresher's is a second sample (issue 19: within 100 ms). Prints `median=… max=… rounds=N
errors=…` (seconds), then `behind_median=… behind_max=…` with REFRESHER_URL.
"""

import datetime
import http.client
import json
import statistics
import sys
import threading
import time
import urllib.parse

api, dashboard, rounds, habit = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
refresher = sys.argv[5] if len(sys.argv) > 5 else None
path = "/fragments/habits/" + urllib.parse.quote(habit, safe="")


def call(base, method, target, headers=None, body=None, timeout=40):
    parts = urllib.parse.urlsplit(base)
    connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=timeout)
    try:
        connection.request(method, target, body=body, headers=headers or {})
        response = connection.getresponse()
        response.read()
        return response
    finally:
        connection.close()


samples, behind, errors = [], [], 0
for _ in range(rounds):
    targets = [dashboard] + ([refresher] if refresher else [])
    tags = {url: call(url, "GET", path).headers.get("ETag") for url in targets}
    answered = {}

    def poll(url):
        response = call(url, "GET", path, {"If-None-Match": tags[url], "Prefer": "wait=25"})
        answered[url] = (response, time.monotonic())

    pollers = [threading.Thread(target=poll, args=(url,), daemon=True) for url in targets]
    for poller in pollers:
        poller.start()
    time.sleep(0.5)
    stamp = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    body = json.dumps({"userID": "activeUser", "habitName": habit, "timestamp": stamp})
    call(api, "POST", "/loggedHabit", {"Content-Type": "application/json"}, body)
    logged = time.monotonic()
    for poller in pollers:
        poller.join(40)
    if all(url in answered and answered[url][0].status == 200 for url in targets):
        samples.append(max(0.0, answered[dashboard][1] - logged))
        if refresher:
            behind.append(answered[dashboard][1] - answered[refresher][1])
    else:
        errors += 1
    time.sleep(0.3)

if samples:
    print(f"median={statistics.median(samples):.3f} max={max(samples):.3f} rounds={len(samples)} errors={errors}")
else:
    print(f"median=n/a max=n/a rounds=0 errors={errors}")
if behind:
    print(f"behind_median={statistics.median(behind):.3f} behind_max={max(behind):.3f}")
