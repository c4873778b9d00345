#!/usr/bin/env python3
"""A minting flood from one address against a running dashboard, and what a second client sees meanwhile (issue 8).

Usage: Benchmarks/settings-flood.py PORT [--seconds 60] [--threads 8] [--habit NAME]

The attacker (source address 127.0.0.1) POSTs favourites without a cookie as fast as it can on THREADS keep-alive
connections, never sending a cookie back. Meanwhile a neighbour (127.0.0.2) that minted its cookie before the flood
loads Home with its cookie in a loop, and every few seconds a new browser from another address (127.0.0.3 and up)
makes its first change. Prints the attacker's 303/429 counts (new ids per minute), and the neighbour's and the new
browsers' statuses and latencies (median, p99, max). Loopback only; standard library only.
"""

import argparse
import http.client
import statistics
import threading
import time
import urllib.parse


def request(connection, method, path, port, cookie=None):
    headers = {"Host": f"127.0.0.1:{port}"}
    body = None
    if method == "POST":
        headers["Origin"] = f"http://127.0.0.1:{port}"
        headers["Content-Type"] = "application/x-www-form-urlencoded"
        body = "favorite=true"
    if cookie:
        headers["Cookie"] = cookie
    started = time.perf_counter()
    connection.request(method, path, body=body, headers=headers)
    response = connection.getresponse()
    response.read()
    return response, time.perf_counter() - started


def connect(port, source):
    return http.client.HTTPConnection("127.0.0.1", port, timeout=30, source_address=(source, 0))


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * fraction))] if ordered else float("nan")


def describe(name, latencies):
    milliseconds = [value * 1000 for value in latencies]
    return (f"{name}: n={len(milliseconds)} median={statistics.median(milliseconds):.1f} ms "
            f"p99={percentile(milliseconds, 0.99):.1f} ms max={max(milliseconds):.1f} ms")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("port", type=int)
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--threads", type=int, default=8)
    parser.add_argument("--habit", default="Herbal tea", help="a habit the upstream knows (built-in data: default)")
    arguments = parser.parse_args()
    port = arguments.port
    favorite = "/habits/" + urllib.parse.quote(arguments.habit, safe="") + "/favorite"

    neighbour = connect(port, "127.0.0.2")
    response, _ = request(neighbour, "POST", favorite, port)
    cookie = response.getheader("Set-Cookie").split(";")[0]
    baseline = [request(neighbour, "GET", "/", port, cookie)[1] for _ in range(200)]

    stop = time.monotonic() + arguments.seconds
    counts = {}
    lock = threading.Lock()

    def attack():
        connection = connect(port, "127.0.0.1")
        while time.monotonic() < stop:
            try:
                response, _ = request(connection, "POST", favorite, port)
                status = response.status
            except (OSError, http.client.HTTPException):
                connection = connect(port, "127.0.0.1")
                status = "error"
            with lock:
                counts[status] = counts.get(status, 0) + 1

    attackers = [threading.Thread(target=attack) for _ in range(arguments.threads)]
    started = time.monotonic()
    for thread in attackers:
        thread.start()

    during, neighbour_statuses, newcomers = [], {}, []
    next_newcomer = time.monotonic() + 2
    newcomer_index = 3
    while time.monotonic() < stop:
        response, elapsed = request(neighbour, "GET", "/", port, cookie)
        during.append(elapsed)
        neighbour_statuses[response.status] = neighbour_statuses.get(response.status, 0) + 1
        if time.monotonic() >= next_newcomer:
            newcomer = connect(port, f"127.0.0.{newcomer_index}")
            response, elapsed = request(newcomer, "POST", favorite, port)
            newcomers.append((response.status, elapsed))
            newcomer.close()
            newcomer_index += 1
            next_newcomer += 5
        time.sleep(0.01)
    for thread in attackers:
        thread.join()
    minutes = (time.monotonic() - started) / 60

    minted = counts.get(303, 0)
    print(f"attacker 127.0.0.1: {sum(counts.values())} requests in {minutes * 60:.0f} s: {counts}; "
          f"{minted / minutes:.1f} new ids per minute")
    print(describe("neighbour Home with cookie, before the flood", baseline))
    print(describe("neighbour Home with cookie, during the flood", during) + f" statuses={neighbour_statuses}")
    print(describe("new browsers' first change during the flood", [elapsed for _, elapsed in newcomers])
          + f" statuses={sorted({status for status, _ in newcomers})}")


if __name__ == "__main__":
    main()
