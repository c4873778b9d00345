"""The large-upstream case of issue 23 (`scripts/abuse.sh --only large`): a valid but large upstream, 45 000 people
made up by `habits-api --users 45000 --seed 7` (about a 14 MB `/combinedStats`), while four clients ask People for
`?q=` spellings (each a new render key: a prefix of a name, cased and accented differently, with a sort) and the
probe of scripts/abuse.py loads Home every 0.5 s and holds a live poll.

Before paging and the search index (issue 21 point 4, issue 23 point 6), `/people` was 28.6 MB of HTML taking 0.5 s
to render, and this flood took the probe's Home to 4.3 s median and RSS to 754 MB. Now each request is bounded: the
search asks the index built once per snapshot (`NameSearchIndex`) and renders one page of at most 100 cards.

Kept apart from abuse.py's floods (another upstream, another dashboard); abuse.py calls `run_large`.
"""

import asyncio
import json
import os
import random
import resource
import subprocess
import sys
import tempfile
import time

ATTACKERS = ["127.0.0.10", "127.0.0.11", "127.0.0.12", "127.0.0.13"]
PEOPLE = 45_000
# Spellings a person might type: parts of the generator's names, in other cases and with or without accents.
FRAGMENTS = ["a", "an", "ana", "zo", "zoë", "ZOE", "lé", "lea", "mü", "mu", "o'c", "de v", "van der", "sø", "ka",
             "chen", "KIM", "tr", "ñ", "quí", "ya", "el", "ri", "sa", "to"]


def spelling(rng):
    """A `?q=` (and sometimes a sort and a page) no other client asked for a moment ago."""
    word = rng.choice(FRAGMENTS)
    if rng.random() < 0.5:
        word += rng.choice("abcdefghijklmnopqrstuvwxyz")
    if rng.random() < 0.3:
        word = word.upper()
    query = "q=" + "".join(c if c.isalnum() and c.isascii() else "%" + "%".join(f"{b:02X}" for b in c.encode())
                           for c in word)
    if rng.random() < 0.3:
        query += "&sort=" + rng.choice(["activity", "leading"])
    if rng.random() < 0.2:
        query += "&page=2"
    return "/people?" + query


async def read_answer(reader):
    head = await reader.readuntil(b"\r\n\r\n")
    status = int(head.split(b" ", 2)[1])
    length = 0
    for line in head.split(b"\r\n"):
        if line.lower().startswith(b"content-length:"):
            length = int(line.split(b":", 1)[1])
    await reader.readexactly(length)
    return status


async def client(address, port, deadline, rng, counts):
    while time.monotonic() < deadline:
        try:
            reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=(address, 0), limit=2 ** 20)
            while time.monotonic() < deadline:
                writer.write(f"GET {spelling(rng)} HTTP/1.1\r\nHost: abuse\r\n\r\n".encode())
                status = await asyncio.wait_for(read_answer(reader), 10)
                counts[str(status)] = counts.get(str(status), 0) + 1
            writer.close()
        except (OSError, asyncio.IncompleteReadError, asyncio.TimeoutError, ValueError):
            counts["errors"] = counts.get("errors", 0) + 1
            await asyncio.sleep(0.05)


def flood(port, seconds):
    """Four clients, one per attacking address, each asking a new spelling as soon as the last is answered."""
    deadline = time.monotonic() + seconds
    counts = {}
    rng = random.Random(21)

    async def all_clients():
        await asyncio.gather(*(client(address, port, deadline, rng, counts) for address in ATTACKERS))

    asyncio.run(all_clients())
    answers = {k: v for k, v in counts.items() if k != "errors"}
    print(json.dumps({"sent": sum(answers.values()), "answers": answers, "errors": counts.get("errors", 0)}),
          flush=True)


def run_large(arguments, helpers):
    """Runs the case with its own habits-api and dashboard; returns a row for abuse.py's table and `judge`."""
    start_process, child, collect, rss_bytes = (helpers["start_process"], helpers["child"], helpers["collect"],
                                                helpers["rss_bytes"])
    work = tempfile.mkdtemp(prefix="habits-abuse-large-")
    log_path = os.path.join(work, "dashboard.log")
    api_log = open(os.path.join(work, "api.log"), "w")
    api, api_port = start_process(
        [arguments.api_binary, "--port", "0", "--seed", "7", "--users", str(PEOPLE), "--no-history"], helpers["api_line"], api_log,
        "abuse: habits-api (45 000 people)")
    with open(log_path, "w") as log:
        dashboard, port = start_process(
            [arguments.binary, "--host", "127.0.0.1", "--port", "0", "--upstream", f"http://127.0.0.1:{api_port}",
             "--settings-dir", os.path.join(work, "settings"), "--cache-dir", os.path.join(work, "cache")],
            helpers["dashboard_line"], log, "abuse: the dashboard (large upstream)")
    try:
        # The first snapshot of a 14 MB answer, before the clock starts.
        import http.client
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        connection.request("GET", "/people")
        first = connection.getresponse()
        people_bytes = len(first.read())
        connection.close()
        log_before = os.path.getsize(log_path)
        started = time.monotonic()
        probe = child(arguments, "probe", port, arguments.seconds + 4)
        time.sleep(2)
        attackers = subprocess.Popen(
            ["nice", "-n", "10", sys.executable, os.path.abspath(__file__), str(port), str(arguments.seconds)],
            stdout=subprocess.PIPE, text=True)
        peak = 0
        while attackers.poll() is None and time.monotonic() - started < arguments.seconds + 60:
            rss = rss_bytes(dashboard.pid)
            if rss is None:
                break
            peak = max(peak, rss)
            time.sleep(0.5)
        flood_counts = collect(attackers, 30)
        probe_results = collect(probe, 40)
        minutes = (time.monotonic() - started) / 60
        log_growth = (os.path.getsize(log_path) - log_before) / 1048576 / minutes
        alive = dashboard.poll() is None
    finally:
        for process in (dashboard, api):
            if process.poll() is None:
                process.terminate()
                try:
                    process.wait(timeout=30)
                except subprocess.TimeoutExpired:
                    process.kill()
    print(f"abuse: large upstream: /people was {people_bytes} bytes", flush=True)
    return {"name": "large", "peak": peak, "log": log_growth, "flood": flood_counts, "probe": probe_results,
            "alive": alive, "rss_limit": arguments.large_rss_limit}


if __name__ == "__main__":
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, 65536), hard))
    flood(int(sys.argv[1]), float(sys.argv[2]))
