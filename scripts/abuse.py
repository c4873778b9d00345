"""Abuse test: the floods of issue 23, each from several loopback addresses, against a habits-dashboard this script
starts itself, while a probe client on another address loads Home every 0.5 s and holds a live poll.

Started by scripts/abuse.sh (which builds the release binaries); only Python's standard library is used. Everything
is on loopback: the attackers bind 127.0.0.10-13 (the URL flood also mints browsers from 127.1.x.y), the probe
127.0.0.200. Each flood is bounded in time (--seconds) and the whole run stops by itself. The dashboard's upstream
is a habits-api behind a small proxy in this process, which can be made to hang (10 s, then close) for the image
flood: the dashboard then serves its pages from the snapshot it already has.

Floods (issue 23's "Why"):
- pipeline: 4 x 256 connections each pipeline 100 `GET /people` and read 4 KiB every 10 s.
- parked:   4 x 256 connections loop live polls (If-None-Match, Prefer: wait=25), re-sent as soon as answered.
- urls:     distinct URLs (`?q=`, sort values, unknown names and parameters), forged cookies, and new browsers
            minted from random 127.1.x.y addresses.
- images:   the upstream hangs; 4 x 256 connections loop `GET /images/<id>`.
- large:    against a dashboard of its own in front of a large upstream (45 000 people, scripts/abuse_large.py), 4
            clients each ask People for a new `?q=` spelling as soon as the last is answered.

A flood fails when the probe sees a refusal (a 503, a 429, a reset or refused connection) or a page slower than
--slow (0.5 s), when its live poll is not held (answered at once without a change) or fails, when the dashboard's RSS
passes --rss-limit (64 MiB), when its log grows faster than --log-limit (4 MiB a minute), or when it dies. The table
at the end has one row per flood.
"""

import argparse
import asyncio
import html
import http.client
import json
import os
import queue
import random
import re
import resource
import shutil
import signal
import socket
import socketserver
import subprocess
import sys
import tempfile
import threading
import time
import http.server

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from abuse_large import PEOPLE, spelling  # noqa: E402  (beside this file)
from soak import first_page, rss_bytes, start_process  # noqa: E402

PROBE_ADDRESS = "127.0.0.200"
ATTACKERS = ["127.0.0.10", "127.0.0.11", "127.0.0.12", "127.0.0.13"]
DASHBOARD_LINE = re.compile(r"Habits Dashboard: http://127\.0\.0\.1:(\d+)/")
API_LINE = re.compile(r"http://127\.0\.0\.1:(\d+)/")
LIVE_REGION = re.compile(r'data-live-src="([^"]+)"[^>]*data-live-etag="([^"]+)"')
FLOODS = ["pipeline", "parked", "urls", "images"]
# Run last, against its own upstream and dashboard (`run_large`).
LARGE = "large"


def parse_arguments():
    parser = argparse.ArgumentParser(description="Bounded loopback floods against habits-dashboard (issue 23).")
    parser.add_argument("--binary", help="the release habits-dashboard executable")
    parser.add_argument("--api-binary", help="the release habits-api executable")
    parser.add_argument("--seconds", type=float, default=20, help="seconds per flood (default 20)")
    parser.add_argument("--only", action="append", choices=FLOODS + [LARGE],
                        help="run only this flood (repeatable); large: scripts/abuse_large.py, 45 000 people")
    parser.add_argument("--large-rss-limit", type=float, default=160,
                        help="RSS bound in MiB with the large upstream (default 160)")
    parser.add_argument("--connections", type=int, default=256, help="connections per attacking address")
    parser.add_argument("--slow", type=float, default=0.5, help="a probe page slower than this fails (s)")
    parser.add_argument("--rss-limit", type=float, default=64, help="RSS bound in MiB (default 64)")
    parser.add_argument("--log-limit", type=float, default=4, help="log growth bound in MiB a minute (default 4)")
    parser.add_argument("--dashboard-args", default="",
                        help="more flags for the dashboard, one string (--dashboard-args='--max-parked-polls 512')")
    # Internal: the flood and probe processes (separate processes, so neither waits on the other's GIL).
    parser.add_argument("--role", choices=["main", "probe"] + FLOODS + [LARGE], default="main", help=argparse.SUPPRESS)
    parser.add_argument("--port", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--images", default="", help=argparse.SUPPRESS)
    return parser.parse_args()


# MARK: - A minimal HTTP/1.1 client on asyncio streams (for the floods)


async def read_response(reader):
    """Reads one response; returns (status, headers dict, body). Raises on a closed or malformed stream."""
    head = await reader.readuntil(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split(" ", 2)[1])
    headers = {}
    for line in lines[1:]:
        name, _, value = line.partition(":")
        if name:
            headers[name.strip().lower()] = value.strip()
    length = int(headers.get("content-length", "0"))
    body = await reader.readexactly(length) if length else b""
    return status, headers, body


async def connect(address, port, limit=2 ** 16):
    return await asyncio.open_connection("127.0.0.1", port, local_addr=(address, 0), limit=limit)


class Counts:
    def __init__(self):
        self.sent = 0
        self.answers = {}
        self.errors = 0

    def answer(self, status):
        self.answers[status] = self.answers.get(status, 0) + 1


async def keep_alive_loop(address, port, deadline, counts, next_request, on_answer=None):
    """One connection sending `next_request()` in turn until the deadline, reconnecting when closed."""
    while time.monotonic() < deadline:
        try:
            reader, writer = await connect(address, port)
        except OSError:
            counts.errors += 1
            await asyncio.sleep(0.2)
            continue
        try:
            while time.monotonic() < deadline:
                writer.write(next_request())
                counts.sent += 1
                status, headers, _ = await asyncio.wait_for(read_response(reader), deadline - time.monotonic() + 1)
                counts.answer(status)
                if on_answer:
                    on_answer(status, headers)
                if headers.get("connection", "").lower() == "close":
                    break
                if "retry-after" in headers and status != 200:
                    await asyncio.sleep(min(5.0, float(headers["retry-after"])))
        except (OSError, asyncio.IncompleteReadError, asyncio.LimitOverrunError, asyncio.TimeoutError, ValueError):
            counts.errors += 1
            await asyncio.sleep(0.05)
        finally:
            writer.close()


async def pipeline_connection(address, port, deadline, counts):
    """Pipelines 100 `GET /people`, then reads 4 KiB every 10 s; reconnects when the server closes."""
    request = b"GET /people HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n" * 100
    while time.monotonic() < deadline:
        try:
            reader, writer = await connect(address, port, limit=4096)
            writer.write(request)
            counts.sent += 100
            while time.monotonic() < deadline:
                chunk = await reader.read(4096)
                if not chunk:
                    break
                counts.answer("bytes")
                await asyncio.sleep(min(10, max(0, deadline - time.monotonic())))
        except OSError:
            counts.errors += 1
        finally:
            try:
                writer.close()
            except NameError:
                pass
        await asyncio.sleep(0.1)


def fragment_of(port, address=ATTACKERS[0]):
    """(fragment path, ETag) of Home's live region, read from the page as a browser would."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10, source_address=(address, 0))
    connection.request("GET", "/")
    page = connection.getresponse().read().decode("utf-8", "replace")
    connection.close()
    match = LIVE_REGION.search(page)
    # The page holds them HTML-escaped, as attribute values; live.js reads them unescaped, and so do we.
    return (html.unescape(match.group(1)), html.unescape(match.group(2))) if match else ("/fragments/home", '"none"')


async def run_flood(name, port, seconds, per_address, images):
    deadline = time.monotonic() + seconds
    counts = Counts()
    rng = random.Random(23)
    tasks = []
    if name == "pipeline":
        for address in ATTACKERS:
            for _ in range(per_address):
                tasks.append(pipeline_connection(address, port, deadline, counts))
    elif name == "parked":
        path, etag = fragment_of(port)
        current = {"etag": etag}

        def poll_request():
            return (f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nIf-None-Match: {current['etag']}\r\n"
                    f"Prefer: wait=25\r\nAccept: text/html\r\n\r\n").encode()

        def seen(status, headers):
            if status == 200 and "etag" in headers:
                current["etag"] = headers["etag"]

        for address in ATTACKERS:
            for _ in range(per_address):
                tasks.append(keep_alive_loop(address, port, deadline, counts, poll_request, seen))
    elif name == "images":
        paths = images.split(",") if images else ["/images/nobody"]
        for address in ATTACKERS:
            for _ in range(per_address):
                tasks.append(keep_alive_loop(
                    address, port, deadline, counts,
                    lambda: f"GET {rng.choice(paths)} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode()))
    elif name == "urls":
        def distinct():
            token = "".join(rng.choice("abcdefghijklmnopqrstuvwxyz %C3%A9") for _ in range(rng.randrange(1, 24)))
            token = token.replace(" ", "+")
            path = rng.choice([
                f"/people?q={token}", f"/people?sort={token}", f"/people?q={token}&sort=activity&x{rng.random()}=1",
                f"/habits/{token}", f"/people/{token}", f"/?utm={rng.random()}", f"/habits?{token}={token}",
                f"/fragments/home?x={rng.random()}"])
            cookie = f"Cookie: habits_browser={rng.getrandbits(128):032x}.{rng.getrandbits(128):032x}\r\n" \
                if rng.random() < 0.3 else ""
            return f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n{cookie}\r\n".encode()
        for address in ATTACKERS:
            for _ in range(min(per_address, 16)):
                tasks.append(keep_alive_loop(address, port, deadline, counts, distinct))
        tasks.append(mint_browsers(port, deadline, counts, rng))
    elif name == LARGE:
        # One client per attacking address, each asking a new spelling as soon as the last is answered.
        for address in ATTACKERS:
            tasks.append(keep_alive_loop(
                address, port, deadline, counts,
                lambda: f"GET {spelling(rng)} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode()))
    await asyncio.gather(*tasks, return_exceptions=True)
    return counts


async def mint_browsers(port, deadline, counts, rng):
    """New browsers from random 127.1.x.y addresses: a favourite without a cookie mints one (SPEC §7)."""
    origin = f"http://127.0.0.1:{port}"
    while time.monotonic() < deadline:
        address = f"127.1.{rng.randrange(256)}.{rng.randrange(1, 255)}"
        body = b"favorite=true&return=%2F"
        # Every flood names a loopback Host (any other is 421 since issue 48); this one's has no port, so the
        # Origin (with the port) is another site's and the POST is refused (403) before anything is minted.
        request = (f"POST /habits/Running/favorite HTTP/1.1\r\nHost: 127.0.0.1\r\nOrigin: {origin}\r\n"
                   f"Content-Type: application/x-www-form-urlencoded\r\nContent-Length: {len(body)}\r\n"
                   f"Connection: close\r\n\r\n").encode() + body
        try:
            reader, writer = await connect(address, port)
            writer.write(request)
            counts.sent += 1
            status, _, _ = await asyncio.wait_for(read_response(reader), 5)
            counts.answer(status)
            writer.close()
        except (OSError, asyncio.IncompleteReadError, asyncio.TimeoutError, ValueError):
            counts.errors += 1
        await asyncio.sleep(0.002)


def flood_main(arguments):
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, 65536), hard))
    counts = asyncio.run(run_flood(arguments.role, arguments.port, arguments.seconds, arguments.connections,
                                   arguments.images))
    print(json.dumps({"sent": counts.sent, "answers": {str(k): v for k, v in counts.answers.items()},
                      "errors": counts.errors}), flush=True)


# MARK: - The probe: a well-behaved client on its own address


def probe_main(arguments):
    port, deadline = arguments.port, time.monotonic() + arguments.seconds
    results = {"pages": [], "refusals": [], "polls_held": 0, "polls_not_held": 0, "poll_errors": []}
    lock = threading.Lock()

    def pages():
        connection = None
        while time.monotonic() < deadline:
            started = time.monotonic()
            for attempt in (1, 2):
                try:
                    if connection is None:
                        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10,
                                                                source_address=(PROBE_ADDRESS, 0))
                    connection.request("GET", "/")
                    response = connection.getresponse()
                    response.read()
                    elapsed = time.monotonic() - started
                    with lock:
                        if response.status >= 400:
                            results["refusals"].append(f"{response.status}")
                        else:
                            results["pages"].append(elapsed)
                    if response.will_close:
                        connection.close()
                        connection = None
                    break
                except (http.client.RemoteDisconnected, BrokenPipeError, ConnectionResetError) as error:
                    # A kept-alive connection the server closed in between may be retried once, as browsers do.
                    if connection is not None:
                        connection.close()
                    connection = None
                    if attempt == 2:
                        with lock:
                            results["refusals"].append(type(error).__name__)
                except (OSError, http.client.HTTPException) as error:
                    if connection is not None:
                        connection.close()
                    connection = None
                    with lock:
                        results["refusals"].append(type(error).__name__)
                    break
            time.sleep(max(0.0, 0.5 - (time.monotonic() - started)))

    def poll():
        try:
            path, etag = fragment_of(port, PROBE_ADDRESS)
        except (OSError, http.client.HTTPException) as error:
            with lock:
                results["poll_errors"].append(type(error).__name__)
            return
        while time.monotonic() < deadline:
            started = time.monotonic()
            try:
                connection = http.client.HTTPConnection("127.0.0.1", port, timeout=40,
                                                        source_address=(PROBE_ADDRESS, 0))
                connection.request("GET", path, headers={"If-None-Match": etag, "Prefer": "wait=25",
                                                         "Accept": "text/html"})
                response = connection.getresponse()
                response.read()
                connection.close()
                held = response.getheader("Preference-Applied") is not None or response.status == 200
                with lock:
                    if response.status >= 400:
                        results["poll_errors"].append(f"{response.status}")
                    elif held:
                        results["polls_held"] += 1
                    else:
                        results["polls_not_held"] += 1
                if response.status == 200:
                    etag = response.getheader("ETag") or etag
                if not held:
                    retry = response.getheader("Retry-After")
                    time.sleep(float(retry) if retry and retry.isdigit() else 1.0)
            except (OSError, http.client.HTTPException) as error:
                with lock:
                    results["poll_errors"].append(type(error).__name__)
                time.sleep(1)
            if time.monotonic() - started < 0.05 and time.monotonic() < deadline:
                time.sleep(0.05)

    threads = [threading.Thread(target=pages, daemon=True), threading.Thread(target=poll, daemon=True)]
    for thread in threads:
        thread.start()
    threads[0].join()
    with lock:
        print(json.dumps(results), flush=True)
    os._exit(0)  # the poll thread may be parked for up to 25 s more


# MARK: - The upstream proxy (normal, or hanging for the image flood)


class Proxy:
    """Forwards the dashboard's upstream calls to habits-api; while `hanging`, holds each for 10 s and closes."""

    def __init__(self, target_port):
        self.hanging = False
        proxy = self

        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):
                pass

            def forward(self):
                if proxy.hanging:
                    time.sleep(10)
                    self.close_connection = True
                    return
                length = int(self.headers.get("Content-Length", "0"))
                body = self.rfile.read(length) if length else None
                upstream = http.client.HTTPConnection("127.0.0.1", target_port, timeout=10)
                try:
                    headers = {k: v for k, v in self.headers.items() if k.lower() not in ("connection", "host")}
                    upstream.request(self.command, self.path, body=body, headers=headers)
                    response = upstream.getresponse()
                    data = response.read()
                    self.send_response(response.status)
                    for name, value in response.getheaders():
                        if name.lower() not in ("connection", "transfer-encoding", "content-length", "date",
                                                "server"):
                            self.send_header(name, value)
                    self.send_header("Content-Length", str(len(data)))
                    self.end_headers()
                    self.wfile.write(data)
                finally:
                    upstream.close()

            do_GET = do_POST = do_PUT = do_DELETE = forward

        class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
            daemon_threads = True
            request_queue_size = 128

        self.server = Server(("127.0.0.1", 0), Handler)
        self.port = self.server.server_address[1]
        threading.Thread(target=self.server.serve_forever, daemon=True).start()


# MARK: - Orchestration


def child(arguments, role, port, seconds, images="", nice=0):
    command = ["nice", "-n", str(nice), sys.executable, os.path.abspath(__file__), "--role", role, "--port",
               str(port), "--seconds", str(seconds), "--connections", str(arguments.connections),
               "--images", images]
    return subprocess.Popen(command, stdout=subprocess.PIPE, text=True)


def collect(process, timeout):
    try:
        out, _ = process.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        process.kill()
        out, _ = process.communicate()
    lines = [line for line in out.splitlines() if line.startswith("{")]
    return json.loads(lines[-1]) if lines else None


def start_dashboard(arguments, work, upstream_port, what):
    """Starts a dashboard in front of `upstream_port`, its files and log in `work`; returns (process, port, log)."""
    log_path = os.path.join(work, "dashboard.log")
    with open(log_path, "w") as log:
        dashboard, port = start_process(
            [arguments.binary, "--host", "127.0.0.1", "--port", "0", "--upstream", f"http://127.0.0.1:{upstream_port}",
             "--settings-dir", os.path.join(work, "settings"), "--cache-dir", os.path.join(work, "cache"),
             *arguments.dashboard_args.split()],
            DASHBOARD_LINE, log, what)
    return dashboard, port, log_path


def stop(process, timeout):
    """SIGTERM, then SIGKILL after `timeout` seconds."""
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            process.kill()


def run_one(arguments, name, dashboard, port, log_path, images="", proxy=None):
    """One flood while the probe watches; returns the row `judge` and the table read."""
    if name == "images":
        proxy.hanging = True
    time.sleep(1)
    log_before = os.path.getsize(log_path)
    started = time.monotonic()
    probe = child(arguments, "probe", port, arguments.seconds + 4)
    time.sleep(2)  # the probe's first page and its poll, before the flood
    flood = child(arguments, name, port, arguments.seconds, images, nice=10)
    peak = 0
    while flood.poll() is None and time.monotonic() - started < arguments.seconds + 60:
        rss = rss_bytes(dashboard.pid)
        if rss is None:
            break
        peak = max(peak, rss)
        time.sleep(0.5)
    flood_counts = collect(flood, 30)
    probe_results = collect(probe, 40)
    minutes = (time.monotonic() - started) / 60
    log_growth = (os.path.getsize(log_path) - log_before) / 1048576 / minutes
    if proxy:
        proxy.hanging = False
    return {"name": name, "peak": peak, "log": log_growth, "flood": flood_counts, "probe": probe_results,
            "alive": dashboard.poll() is None}


def run_large(arguments, work):
    """The large flood against its own habits-api of 45 000 people (scripts/abuse_large.py) and its own dashboard."""
    work = os.path.join(work, LARGE)
    os.makedirs(work)
    api_log = open(os.path.join(work, "api.log"), "w")
    api, api_port = start_process(
        [arguments.api_binary, "--port", "0", "--seed", "7", "--users", str(PEOPLE), "--no-history"], API_LINE,
        api_log, "abuse: habits-api (45 000 people)")
    dashboard, port, log_path = start_dashboard(arguments, work, api_port, "abuse: the dashboard (large upstream)")
    try:
        # The first snapshot of a 7 MB answer, before the clock starts: with no data yet a page is a 503 after 3 s,
        # so ask until People is there (the upstream's answer takes seconds to arrive).
        people_bytes, waited = 0, time.monotonic()
        while time.monotonic() - waited < 120:
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
            connection.request("GET", "/people")
            response = connection.getresponse()
            people_bytes = len(response.read())
            connection.close()
            if response.status == 200:
                break
            time.sleep(0.5)
        print(f"abuse: large upstream: the first People after {time.monotonic() - waited:.1f} s", flush=True)
        row = run_one(arguments, LARGE, dashboard, port, log_path)
    finally:
        stop(dashboard, 30)
        stop(api, 30)
    print(f"abuse: large upstream: /people was {people_bytes} bytes", flush=True)
    return row | {"rss_limit": arguments.large_rss_limit}


def judge(arguments, row):
    failures = []
    probe = row["probe"] or {"pages": [], "refusals": ["no probe result"], "polls_held": 0, "polls_not_held": 0,
                             "poll_errors": []}
    if not row["alive"]:
        failures.append("the dashboard died")
    if probe["refusals"]:
        failures.append(f"{len(probe['refusals'])} probe refusals ({', '.join(sorted(set(probe['refusals'])))})")
    slow = [t for t in probe["pages"] if t > arguments.slow]
    if slow:
        failures.append(f"{len(slow)} probe pages slower than {arguments.slow:g} s (max {max(slow):.2f} s)")
    if probe["polls_not_held"] or probe["poll_errors"] or not probe["polls_held"]:
        failures.append(f"live poll held {probe['polls_held']}, not held {probe['polls_not_held']}, "
                        f"errors {len(probe['poll_errors'])}")
    rss_limit = row.get("rss_limit", arguments.rss_limit)
    if row["peak"] > rss_limit * 1048576:
        failures.append(f"RSS {row['peak'] / 1048576:.1f} MiB over {rss_limit:g} MiB")
    if row["log"] > arguments.log_limit:
        failures.append(f"log grew {row['log']:.1f} MiB/min (bound {arguments.log_limit:g})")
    return probe, failures


def main():
    arguments = parse_arguments()
    if arguments.role == "probe":
        return probe_main(arguments)
    if arguments.role != "main":
        return flood_main(arguments)
    work = tempfile.mkdtemp(prefix="habits-abuse-")
    api_log = open(os.path.join(work, "api.log"), "w")
    api, api_port = start_process([arguments.api_binary, "--port", "0", "--seed", "7"], API_LINE, api_log, "abuse: habits-api")
    proxy = Proxy(api_port)
    dashboard, port, log_path = start_dashboard(arguments, work, proxy.port, "abuse: the dashboard")
    print(f"abuse: dashboard pid {dashboard.pid} on http://127.0.0.1:{port}/, log {log_path}", flush=True)
    rows = []
    try:
        people = first_page(port, "/people")
        images = ",".join(sorted(set(re.findall(r'src="(/images/[^"]+)"', people))))
        for name in [name for name in arguments.only or FLOODS if name != LARGE]:
            print(f"abuse: {name} flood, {arguments.seconds:g} s", flush=True)
            rows.append(run_one(arguments, name, dashboard, port, log_path, images, proxy))
            if dashboard.poll() is not None:
                break
    finally:
        stop(dashboard, 30)
        stop(api, 10)
    if LARGE in (arguments.only or FLOODS + [LARGE]):
        print(f"abuse: large upstream (45 000 people), {arguments.seconds:g} s", flush=True)
        rows.append(run_large(arguments, work))
    failed = False
    print()
    print("| flood | probe pages | refusals | p50 / max page | live poll held / not / errors | flood answers "
          "| RSS peak | log growth | result |")
    print("|---|---|---|---|---|---|---|---|---|")
    for row in rows:
        probe, failures = judge(arguments, row)
        failed = failed or bool(failures)
        pages = sorted(probe["pages"])
        p50 = f"{pages[len(pages) // 2] * 1000:.0f} ms" if pages else "-"
        top = f"{pages[-1] * 1000:.0f} ms" if pages else "-"
        answers = row["flood"]["answers"] if row["flood"] else {}
        answer_text = ", ".join(f"{k}: {v}" for k, v in sorted(answers.items())) or "-"
        if row["flood"]:
            answer_text += f"; errors {row['flood']['errors']}"
        print(f"| {row['name']} | {len(pages)} | {len(probe['refusals'])} | {p50} / {top} "
              f"| {probe['polls_held']} / {probe['polls_not_held']} / {len(probe['poll_errors'])} | {answer_text} "
              f"| {row['peak'] / 1048576:.1f} MiB | {row['log']:.1f} MiB/min "
              f"| {'FAIL: ' + '; '.join(failures) if failures else 'PASS'} |")
    if not failed:
        shutil.rmtree(work, ignore_errors=True)
    else:
        print(f"abuse: logs kept in {work}", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
