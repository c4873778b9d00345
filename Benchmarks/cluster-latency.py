"""Change-to-answer latency for Benchmarks/cluster.sh: how long a change made at the Habits API takes to answer a
long poll held by a dashboard (issue 19 point 9).

Usage: cluster-latency.py API_URL DASHBOARD_URL ROUNDS HABIT

Each round: a GET of the habit's live fragment on DASHBOARD_URL for its ETag, then a held GET (If-None-Match,
`Prefer: wait=25`), once it is parked (0.5 s later) a habit logged at the API; the time from the log's answer to the
held poll's 200 is one sample. Prints `median=… max=… rounds=N` (seconds) and `errors=…`.
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


samples, errors = [], 0
for _ in range(rounds):
    tag = call(dashboard, "GET", path).headers.get("ETag")
    answered = {}

    def poll():
        answered["response"] = call(dashboard, "GET", path, {"If-None-Match": tag, "Prefer": "wait=25"})
        answered["at"] = time.monotonic()

    poller = threading.Thread(target=poll, daemon=True)
    poller.start()
    time.sleep(0.5)
    stamp = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    body = json.dumps({"userID": "activeUser", "habitName": habit, "timestamp": stamp})
    call(api, "POST", "/loggedHabit", {"Content-Type": "application/json"}, body)
    logged = time.monotonic()
    poller.join(40)
    if answered.get("response") is not None and answered["response"].status == 200:
        samples.append(max(0.0, answered["at"] - logged))
    else:
        errors += 1
    time.sleep(0.3)

if samples:
    print(f"median={statistics.median(samples):.3f} max={max(samples):.3f} rounds={len(samples)} errors={errors}")
else:
    print(f"median=n/a max=n/a rounds=0 errors={errors}")
