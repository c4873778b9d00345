"""The changes and the figures of Benchmarks/viewers.sh (issue 46 point 2).

Usage: viewers.py API DASHBOARD DASHBOARD_PID VIEWERS_BINARY VIEWERS ADDRESSES CHANGES RAMP WORK

Starts VIEWERS_BINARY (Benchmarks/viewers.c) with VIEWERS viewers of the first habit's live fragment from ADDRESSES
source addresses, waits until every one holds a poll, then logs one count of that habit at the API every 3 s,
CHANGES times. After each log it learns the fragment's new ETag with a held poll of its own (from 127.0.0.1), so each
viewer's 200 is matched to the change it shows by its ETag, however late (the ETag before the log is read just before
it: the fragment's text also moves with the clock, "3 s ago", without waking anyone). Meanwhile a new visitor (no cookie, a new
connection each time, from 127.0.0.2) loads Home and the habit's page every 0.1 s. Prints the figures, one per line.
"""

import datetime
import http.client
import json
import statistics
import subprocess
import sys
import threading
import time
import urllib.parse
import urllib.request

api, dash, dash_pid, binary = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]
viewers, addresses, changes, ramp, work = int(sys.argv[5]), int(sys.argv[6]), int(sys.argv[7]), sys.argv[8], sys.argv[9]
PERIOD = 3.0
host = urllib.parse.urlsplit(dash)
habit = sorted(json.load(urllib.request.urlopen(api + "/habits")))[0]
user = sorted(u for u in json.load(urllib.request.urlopen(api + "/users")) if u != "activeUser")[0]
path = "/fragments/habits/" + urllib.parse.quote(habit, safe="")
HEADERS = {"Accept": "text/html", "Accept-Encoding": "gzip"}


def ticks():
    with open(f"/proc/{dash_pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return int(fields[11]) + int(fields[12])


def memory(key):
    with open(f"/proc/{dash_pid}/status") as status:
        for line in status:
            if line.startswith(key):
                return int(line.split()[1]) / 1024
    return 0.0


def fragment_etag(previous):
    """The fragment's ETag once it differs from `previous`: held polls of our own, sent again after a 304 (one told
    to come back later, when every place is taken, says nothing of the change)."""
    while True:
        connection = http.client.HTTPConnection(host.hostname, host.port, timeout=60,
                                                source_address=("127.0.0.1", 0))
        headers = dict(HEADERS)
        if previous:
            headers.update({"If-None-Match": previous, "Prefer": "wait=25"})
        connection.request("GET", path, headers=headers)
        response = connection.getresponse()
        response.read()
        connection.close()
        if response.status == 200:
            return response.getheader("ETag")
        time.sleep(0.05)


def log_one():
    stamp = datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds").replace("+00:00", "Z")
    body = json.dumps({"userID": user, "habitName": habit, "timestamp": stamp}).encode()
    request = urllib.request.Request(api + "/loggedHabit", data=body, headers={"Content-Type": "application/json"})
    urllib.request.urlopen(request).read()


visitor_times, visitor_failures = [], [0]
visiting = threading.Event()


def visitor():
    pages = ["/", "/habits/" + urllib.parse.quote(habit, safe="")]
    index = 0
    while not visiting.is_set():
        start = time.monotonic()
        try:
            connection = http.client.HTTPConnection(host.hostname, host.port, timeout=30,
                                                    source_address=("127.0.0.2", 0))
            connection.request("GET", pages[index % 2], headers=HEADERS)
            response = connection.getresponse()
            response.read()
            connection.close()
            if response.status != 200:
                visitor_failures[0] += 1
        except OSError:
            visitor_failures[0] += 1
        visitor_times.append(time.monotonic() - start)
        index += 1
        time.sleep(0.1)


events_file = f"{work}/viewer-events"
client = subprocess.Popen([binary, host.hostname, str(host.port), path, str(viewers), str(addresses), ramp,
                           events_file], stdout=subprocess.PIPE, text=True)
lines = []
reader = threading.Thread(target=lambda: lines.extend(iter(client.stdout.readline, "")), daemon=True)
reader.start()
deadline = time.monotonic() + float(ramp) + 60
while "ready\n" not in lines and time.monotonic() < deadline and client.poll() is None:
    time.sleep(0.2)
if "ready\n" not in lines:
    print(f"not every viewer got its first answer within {float(ramp) + 60:.0f} s; measuring anyway")
time.sleep(2)  # the last polls park
threading.Thread(target=visitor, daemon=True).start()
logged, etags = [], []
cpu_before = ticks()
started = time.monotonic()
for index in range(changes):
    client.send_signal(10)  # SIGUSR1: the held polls per address, just before the change
    # The fragment as it is just before the log: its text also moves with the clock ("3 s ago"), which wakes no
    # held poll but would answer one whose ETag is seconds old at once.
    before = fragment_etag(None)
    at = time.time()
    log_one()
    logged.append(at)
    etags.append(fragment_etag(before))
    time.sleep(max(0.0, started + (index + 1) * PERIOD - time.monotonic()))
cpu_ticks = ticks() - cpu_before
rss, peak = memory("VmRSS"), memory("VmHWM")
time.sleep(PERIOD)  # the last change's stragglers
visiting.set()
client.terminate()
client.wait()
reader.join(timeout=5)

change_of = {tag: index for index, tag in enumerate(etags)}
first = {}
with open(events_file) as events:
    for line in events:
        viewer, micros = line.split()[:2]
        tag = line.split(" ", 2)[2].strip() if line.count(" ") >= 2 else ""
        index = change_of.get(tag)
        if index is not None and (viewer, index) not in first:
            first[(viewer, index)] = int(micros) / 1e6 - logged[index]
latencies = sorted(first.values())
counts = dict(item.split("=") for item in lines[-1].split()) if lines and "=" in lines[-1] else {}
shares = [line.split()[1:] for line in lines if line.startswith("held ")]


def quantile(values, q):
    return values[min(len(values) - 1, int(q * len(values)))] if values else float("nan")


hz = int(subprocess.run(["getconf", "CLK_TCK"], capture_output=True, text=True).stdout)
visits = sorted(visitor_times)
print(f"changes shown    {len(first)} of {viewers * changes}")
print(f"latency          p50 {quantile(latencies, 0.5):.2f} s, p90 {quantile(latencies, 0.9):.2f} s, "
      f"max {latencies[-1] if latencies else float('nan'):.2f} s")
print(f"RSS              {rss:.0f} MB (peak {peak:.0f} MB)")
print(f"CPU              {cpu_ticks / hz * 1e6 / max(1, viewers * changes):.2f} us per (viewer, change) "
      f"({cpu_ticks / hz:.1f} s in {changes * PERIOD:.0f} s)")
print(f"early 304s       {counts.get('early_304', '?')} (Retry-After {counts.get('retry_after', '?')})")
print(f"refused/reset    {counts.get('refused', '?')} refused, {counts.get('reset', '?')} reset, "
      f"{counts.get('status_503', '?')} answered 503")
print(f"held per address min/max before each change: {' '.join('/'.join(s) for s in shares)}")
print(f"new visitor      p99 {quantile(visits, 0.99) * 1000:.0f} ms over {len(visits)} pages, "
      f"{visitor_failures[0]} not 200")
