"""Soak test: a bounded mixed load on loopback against a habits-dashboard this script starts itself.

Started by scripts/soak.sh (which builds the release binary); only the Python standard library is used. The load is
bounded in time (--duration) and in count (--max-requests) and stops by itself. Every few seconds the dashboard's
RSS is sampled from /proc. The run fails (exit 1) when:

- the dashboard process dies (a crash), or does not exit 0 on SIGTERM at the end;
- any response has a 5xx status;
- RSS peaks above --rss-limit (60 MiB, the soak's budget in issue 23), or grows in the second half: the highest
  sample after the half-way mark is more than RSS_GROWTH (10 %) and more than RSS_SLACK (4 MiB) above the sample
  taken at the half-way mark (the first half is the warm-up: caches fill,
  allocator arenas settle).

Toggles use cookies the way browsers do: a "new browser" posts without a cookie and keeps the cookie from the
Set-Cookie answer; later toggles of that browser send it back. No cookie value is ever made up here.
"""

import argparse
import collections
import http.client
import os
import shutil
import queue
import random
import re
import signal
import subprocess
import sys
import tempfile
import threading
import time

RSS_GROWTH = 0.10
RSS_SLACK = 4 * 1024 * 1024
DASHBOARD_LINE = re.compile(r"Habits Dashboard: http://127\.0\.0\.1:(\d+)/")
COOKIE_NAME = "habits_browser"
MAX_BROWSERS = 5000


def parse_arguments():
    parser = argparse.ArgumentParser(description="Bounded mixed-load soak test of habits-dashboard on loopback.")
    parser.add_argument("--binary", required=True, help="the release habits-dashboard executable")
    parser.add_argument("--duration", type=float, default=300, help="seconds of load (default 300)")
    parser.add_argument("--max-requests", type=int, default=20_000_000, help="stop after this many (default 20M)")
    parser.add_argument("--connections", type=int, default=8, help="client threads, one keep-alive connection each")
    parser.add_argument("--sample-every", type=float, default=3, help="seconds between RSS samples (default 3)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the request mix")
    parser.add_argument("--rss-limit", type=float, default=60,
                        help="the RSS budget in MiB: a higher peak fails (default 60, issue 23 point 6)")
    return parser.parse_args()


def rss_bytes(pid):
    """The process's resident set size, or None when it is gone."""
    try:
        with open(f"/proc/{pid}/status") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) * 1024
    except (FileNotFoundError, ProcessLookupError):
        return None
    return None


def start_process(command, pattern, log, what):
    """Starts `command` with stderr to `log`; returns (process, the port `pattern` finds in its stdout)."""
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=log, text=True)
    lines = queue.Queue()
    threading.Thread(target=lambda: [lines.put(line) for line in process.stdout], daemon=True).start()
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            line = lines.get(timeout=1)
        except queue.Empty:
            if process.poll() is not None:
                break
            continue
        if match := pattern.search(line):
            return process, int(match.group(1))
    process.kill()
    sys.exit(f"{what} did not print its URL (see the log)")


def start_dashboard(binary, settings_dir, log):
    """Starts the dashboard on a free loopback port with the embedded simulator; returns (process, port)."""
    return start_process(
        [binary, "--host", "127.0.0.1", "--port", "0", "--api-port", "0", "--seed", "7", "--speed", "10",
         "--settings-dir", settings_dir], DASHBOARD_LINE, log, "soak: the dashboard")


class Client:
    """One keep-alive connection that reconnects when the server closes it (after 1000 requests, or idle)."""

    def __init__(self, port):
        self.port = port
        self.connection = None

    def request(self, method, path, body=None, headers=None):
        """Sends one request; returns (status, Set-Cookie values). Raises OSError/HTTPException on failure."""
        for attempt in (1, 2):
            if self.connection is None:
                self.connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
            try:
                self.connection.request(method, path, body=body, headers=headers or {})
                response = self.connection.getresponse()
                response.read()
                if response.will_close:
                    self.connection.close()
                    self.connection = None
                return response.status, response.headers.get_all("Set-Cookie") or []
            except (http.client.RemoteDisconnected, BrokenPipeError, ConnectionResetError):
                # A kept-alive connection the server closed in between (limit or idle timeout): retry once on a
                # fresh one. The toggles send the wanted state, so a repeated POST changes nothing more.
                self.connection.close()
                self.connection = None
                if attempt == 2:
                    raise


def first_page(port, path, timeout=120):
    """The body of `path`, asked again while it is the 503 of a first refresh still out (a request with no data waits
    at most 3 s on the upstream, then gets 503 with Retry-After): a loaded machine can take longer over its first
    refresh, and the load starts once there is data. The 120 s are a hang guard."""
    deadline = time.monotonic() + timeout
    while True:
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        connection.request("GET", path)
        response = connection.getresponse()
        body = response.read().decode("utf-8", "replace")
        connection.close()
        if response.status != 503 or response.getheader("Retry-After") is None or time.monotonic() > deadline:
            return body
        time.sleep(0.5)


def discover(port):
    """Habit names, person ids and image paths, read from the dashboard's own pages."""
    pages = {path: first_page(port, path) for path in ("/habits", "/people")}
    habits = sorted(set(re.findall(r'href="/habits/([^"/?#]+)"', pages["/habits"])))
    people = sorted(set(re.findall(r'href="/people/([^"/?#]+)"', pages["/people"])))
    images = sorted(set(re.findall(r'src="(/images/[^"]+)"', pages["/people"])))
    statics = sorted(set(re.findall(r'(?:href|src)="(/static/[^"]+|/colors\.css[^"]*)"', pages["/habits"])))
    if not habits or not people:
        sys.exit("soak: found no habits or people on the dashboard's pages")
    return habits, people, images, statics


class Load:
    """The request mix and its counters, shared by the client threads."""

    def __init__(self, port, habits, people, images, statics, deadline, max_requests, seed):
        self.port = port
        self.origin = f"http://127.0.0.1:{port}"
        self.habits, self.people, self.images, self.statics = habits, people, images, statics
        self.deadline = deadline
        self.max_requests = max_requests
        self.seed = seed
        self.lock = threading.Lock()
        self.sent = 0
        self.statuses = collections.Counter()
        self.kinds = collections.Counter()
        self.errors = collections.Counter()
        self.browsers = []  # cookie values the server set, one per browser
        self.stop = threading.Event()

    def claim(self):
        """Whether another request may start (the count and time bounds)."""
        with self.lock:
            if self.stop.is_set() or self.sent >= self.max_requests or time.monotonic() >= self.deadline:
                self.stop.set()
                return False
            self.sent += 1
            return True

    def next_request(self, rng):
        """(kind, method, path, body, headers), weighted towards what browsers do most: pages and fragments."""
        habit, person = rng.choice(self.habits), rng.choice(self.people)
        roll = rng.random()
        if roll < 0.25:
            path = rng.choice(["/", "/habits", "/people", f"/habits/{habit}", f"/people/{person}"])
            return "page", "GET", path, None, self.cookie_header(rng)
        if roll < 0.55:
            path = rng.choice(["/fragments/home", f"/fragments/habits/{habit}", f"/fragments/people/{person}"])
            return "fragment", "GET", path, None, self.cookie_header(rng)
        if roll < 0.65 and self.images:
            return "image", "GET", rng.choice(self.images), None, {}
        if roll < 0.70 and self.statics:
            return "static", "GET", rng.choice(self.statics), None, {}
        if roll < 0.90:
            return self.toggle(rng, habit, person)
        path = rng.choice([f"/no-such-page-{rng.randrange(10**6)}", f"/habits/NoSuchHabit{rng.randrange(1000)}",
                           f"/people/nobody{rng.randrange(1000)}", f"/fragments/people/nobody{rng.randrange(1000)}"])
        return "404", "GET", path, None, {}

    def cookie_header(self, rng):
        with self.lock:
            if not self.browsers or rng.random() < 0.3:
                return {}
            return {"Cookie": f"{COOKIE_NAME}={rng.choice(self.browsers)}"}

    def toggle(self, rng, habit, person):
        """A favourite or follow POST, as the page's form sends it; a new browser one time in four."""
        if rng.random() < 0.5:
            path, field = f"/habits/{habit}/favorite", "favorite"
        else:
            path, field = f"/people/{person}/follow", "follow"
        headers = {"Content-Type": "application/x-www-form-urlencoded", "Origin": self.origin}
        with self.lock:
            new_browser = not self.browsers or (rng.random() < 0.25 and len(self.browsers) < MAX_BROWSERS)
            if not new_browser:
                headers["Cookie"] = f"{COOKIE_NAME}={rng.choice(self.browsers)}"
        # A new browser's first toggle turns something on: only a real change mints a cookie (SPEC §7).
        wanted = "true" if new_browser else rng.choice(["true", "false"])
        body = f"{field}={wanted}&return=%2F"
        return ("toggle-new" if new_browser else "toggle"), "POST", path, body, headers

    def record(self, kind, status, set_cookies):
        with self.lock:
            self.statuses[status] += 1
            self.kinds[kind] += 1
            for value in set_cookies:
                name, _, rest = value.partition("=")
                if name == COOKIE_NAME and len(self.browsers) < MAX_BROWSERS:
                    self.browsers.append(rest.split(";", 1)[0])

    def run(self, index):
        rng = random.Random(self.seed * 1000 + index)
        client = Client(self.port)
        while self.claim():
            kind, method, path, body, headers = self.next_request(rng)
            try:
                status, set_cookies = client.request(method, path, body, headers)
            except (OSError, http.client.HTTPException) as error:
                with self.lock:
                    self.errors[type(error).__name__] += 1
                client.connection = None
                time.sleep(0.05)  # the server is probably gone; the sampler will say so
                continue
            self.record(kind, status, set_cookies)


def mib(value):
    return f"{value / 1048576:.1f} MiB" if value is not None else "-"


def main():
    arguments = parse_arguments()
    settings_dir = tempfile.mkdtemp(prefix="habits-soak-settings-")
    log_path = os.path.join(tempfile.gettempdir(), f"habits-soak-{os.getpid()}.log")
    with open(log_path, "w") as log:
        process, port = start_dashboard(arguments.binary, settings_dir, log)
    print(f"soak: dashboard pid {process.pid} on http://127.0.0.1:{port}/, log {log_path}", flush=True)
    failures = []
    load, samples, elapsed, crashed = None, [(0.0, rss_bytes(process.pid))], 0.0, False
    try:
        habits, people, images, statics = discover(port)
        print(f"soak: {len(habits)} habits, {len(people)} people, {len(images)} images, {len(statics)} static; "
              f"{arguments.connections} connections for {arguments.duration:g} s", flush=True)
        start = time.monotonic()
        load = Load(port, habits, people, images, statics, start + arguments.duration, arguments.max_requests,
                    arguments.seed)
        threads = [threading.Thread(target=load.run, args=(index,), daemon=True)
                   for index in range(arguments.connections)]
        samples = [(0.0, rss_bytes(process.pid))]
        for thread in threads:
            thread.start()
        while not load.stop.is_set():
            load.stop.wait(arguments.sample_every)
            rss = rss_bytes(process.pid)
            if process.poll() is not None or rss is None:
                crashed = True
                load.stop.set()
                break
            samples.append((time.monotonic() - start, rss))
            with load.lock:
                sent = load.sent
            print(f"soak: {samples[-1][0]:6.1f} s  {sent:9d} requests  RSS {mib(rss)}", flush=True)
        for thread in threads:
            thread.join(timeout=60)
        elapsed = time.monotonic() - start
        if process.poll() is None:
            samples.append((elapsed, rss_bytes(process.pid)))
        else:
            crashed = True
    finally:
        exit_code = None
        if process.poll() is None:
            process.send_signal(signal.SIGTERM)
            try:
                exit_code = process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()
                exit_code = "hung on SIGTERM"
        else:
            exit_code = process.returncode
        settings_files = len([name for name in os.listdir(settings_dir) if name.endswith(".json")])
        # The store keeps dot-files and a `.locks/` directory beside the settings files.
        shutil.rmtree(settings_dir, ignore_errors=True)

    if load is None:
        print(f"soak: FAIL: the dashboard did not answer its first pages; see {log_path}", file=sys.stderr)
        return 1
    if crashed:
        failures.append(f"the dashboard died during the load (exit status {process.returncode}); see {log_path}")
    elif exit_code != 0:
        failures.append(f"the dashboard did not exit 0 on SIGTERM ({exit_code}); see {log_path}")
    server_errors = sum(count for status, count in load.statuses.items() if status >= 500)
    if server_errors:
        failures.append(f"{server_errors} responses with a 5xx status")

    # RSS: the half-way sample against the highest sample after it.
    rss_values = [(at, rss) for at, rss in samples if rss is not None]
    half_time = elapsed / 2
    half = next(((at, rss) for at, rss in rss_values if at >= half_time), rss_values[-1])
    last_half = [rss for at, rss in rss_values if at >= half[0]]
    peak_last_half = max(last_half)
    growth = peak_last_half - half[1]
    if growth > RSS_GROWTH * half[1] and growth > RSS_SLACK:
        failures.append(f"RSS grew in the second half: {mib(half[1])} at {half[0]:.0f} s, then up to "
                        f"{mib(peak_last_half)} (limit: +{RSS_GROWTH:.0%} and +{mib(RSS_SLACK)})")

    peak = max(rss for _, rss in rss_values)
    if peak > arguments.rss_limit * 1048576:
        failures.append(f"RSS peaked at {mib(peak)}, over the {arguments.rss_limit:g} MiB budget")

    total = sum(load.statuses.values())
    statuses = ", ".join(f"{status}: {count}" for status, count in sorted(load.statuses.items()))
    kinds = ", ".join(f"{kind} {count}" for kind, count in sorted(load.kinds.items()))
    errors = ", ".join(f"{name} {count}" for name, count in sorted(load.errors.items())) or "none"
    rows = [
        ("duration", f"{elapsed:.1f} s ({arguments.connections} connections)"),
        ("requests", f"{total}"),
        ("req/s", f"{total / elapsed:.0f}"),
        ("status codes", statuses),
        ("request mix", kinds),
        ("transport errors", errors),
        ("browsers (cookies set)", f"{len(load.browsers)}; settings files at the end: {settings_files}"),
        ("RSS start", mib(rss_values[0][1])),
        ("RSS half-way", f"{mib(half[1])} (at {half[0]:.0f} s)"),
        ("RSS end", mib(rss_values[-1][1])),
        ("RSS peak", f"{mib(peak)} of {arguments.rss_limit:g} MiB (second half: {mib(peak_last_half)}, "
                     f"{growth / half[1]:+.1%} on half-way)"),
        ("exit on SIGTERM", str(exit_code)),
        ("result", "FAIL" if failures else "PASS"),
    ]
    width = max(len(name) for name, _ in rows)
    print()
    print(f"| {'measure'.ljust(width)} | value")
    print(f"|{'-' * (width + 2)}|{'-' * 40}")
    for name, value in rows:
        print(f"| {name.ljust(width)} | {value}")
    for failure in failures:
        print(f"soak: FAIL: {failure}", file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
