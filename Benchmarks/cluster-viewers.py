"""Waiting viewers for Benchmarks/cluster.sh: N live pages long-polling their fragment, as live.js does.

Usage: cluster-viewers.py BASE_URL VIEWERS SECONDS HABIT...

Each viewer is a thread with one keep-alive connection from a loopback address of its own group (127.0.3.1-50, so
nginx's per-address connection limit and its routing by address see fifty clients, not one), watching the live
fragment of one habit: a first GET for the ETag, then GET with If-None-Match and `Prefer: wait=25` again and again,
held by the dashboard until the fragment changes (200) or 25 s pass (304). After SECONDS it prints one line:
`viewers=N answers=… changed=… unchanged=… errors=…`.
"""

import http.client
import sys
import threading
import time
import urllib.parse

base, viewers, seconds, habits = sys.argv[1], int(sys.argv[2]), float(sys.argv[3]), sys.argv[4:]
parts = urllib.parse.urlsplit(base)
deadline = time.monotonic() + seconds
counts = {"changed": 0, "unchanged": 0, "errors": 0}
lock = threading.Lock()


def count(key):
    with lock:
        counts[key] += 1


def viewer(index):
    path = "/fragments/habits/" + urllib.parse.quote(habits[index % len(habits)], safe="")
    source = (f"127.0.3.{index % 50 + 1}", 0)
    etag = None
    connection = None
    while time.monotonic() < deadline:
        try:
            if connection is None:
                connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=40, source_address=source)
            headers = {"Prefer": "wait=25", "If-None-Match": etag} if etag else {}
            connection.request("GET", path, headers=headers)
            response = connection.getresponse()
            response.read()
            if response.status == 200:
                etag = response.headers.get("ETag")
                count("changed")
            elif response.status == 304:
                count("unchanged")
            else:
                count("errors")
                time.sleep(0.5)
        except (OSError, http.client.HTTPException):
            count("errors")
            connection = None
            time.sleep(0.5)


threads = [threading.Thread(target=viewer, args=(index,), daemon=True) for index in range(viewers)]
for thread in threads:
    thread.start()
time.sleep(max(0.0, deadline - time.monotonic()))
with lock:
    print(
        f"viewers={viewers} answers={counts['changed'] + counts['unchanged']} changed={counts['changed']} "
        f"unchanged={counts['unchanged']} errors={counts['errors']}"
    )
