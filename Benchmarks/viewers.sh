#!/usr/bin/env bash
# Benchmarks live viewers on one dashboard (issue 46 point 2): VIEWERS viewers hold `Prefer: wait` polls of one
# habit's live fragment from ADDRESSES loopback source addresses (127.0.1.1 on), one count of that habit is logged at
# the API every 3 s, and the time from each log to each viewer's 200 is measured.
#
# Release builds of habits-api (frozen: --no-simulation, so only the benchmark's logs change anything) and
# habits-dashboard (--upstream that API, FLAGS added to its command line). The viewers are Benchmarks/viewers.c,
# compiled here (one epoll loop: 50 000 held polls cost it a few MB); Benchmarks/viewers.py logs the changes and sums
# up. Prints changes shown of all, p50/p90/max from the log to the 200, the dashboard's RSS and CPU time per (viewer,
# change), early 304s, refused and reset connections, the held polls per address before each change, and a new
# visitor's page p99 meanwhile. Raises the open-file limit of both sides (to the hard limit; root may raise that,
# unless the container forbids it: then VIEWERS stays below it, as the dashboard's cap does).
# Usage: Benchmarks/viewers.sh                       (VIEWERS=1000 ADDRESSES=64 CHANGES=10 RAMP=5)
#        VIEWERS=50000 ADDRESSES=256 RAMP=30 Benchmarks/viewers.sh
#        FLAGS="--max-parked-polls 512" Benchmarks/viewers.sh
#        BIN=/tmp/main-release Benchmarks/viewers.sh  (binaries built before, e.g. main's, instead of building)
set -euo pipefail
cd "$(dirname "$0")/.."
source Benchmarks/lib.sh

VIEWERS=${VIEWERS:-1000}
ADDRESSES=${ADDRESSES:-64}
CHANGES=${CHANGES:-10}
RAMP=${RAMP:-5}
read -ra flags <<<"${FLAGS:-}"

ulimit -n "$((VIEWERS * 2 + 4096))" 2>/dev/null || ulimit -n "$(ulimit -Hn)"
bench_work
# BIN: the directory of binaries built before (e.g. a copy of main's, to compare), instead of building.
if [[ -n ${BIN:-} ]]; then bin=$BIN; else bench_build habits-api habits-dashboard; fi
cc -O2 -o "$work/viewers" Benchmarks/viewers.c
api=$(bench_start habits-api "Habits API simulator:" --port 0 --seed 42 --no-simulation)
dash=$(bench_start habits-dashboard "Habits Dashboard:" --port 0 --upstream "$api" --settings-dir "$work/settings" \
    --cache-dir "$work/cache" "${flags[@]}")
echo "==> upstream $api, dashboard $dash ${flags[*]}; $VIEWERS viewers from $ADDRESSES addresses, $CHANGES changes;" \
    "$(nproc) cores; load average $(cut -d' ' -f1-3 /proc/loadavg)"
python3 Benchmarks/viewers.py "$api" "$dash" "$(cat "$work/habits-dashboard.pid")" "$work/viewers" "$VIEWERS" \
    "$ADDRESSES" "$CHANGES" "$RAMP" "$work"
