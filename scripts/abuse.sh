#!/usr/bin/env bash
# Abuse test (issue 23): builds habits-dashboard and habits-api in release and runs the floods of scripts/abuse.py
# from several loopback addresses (127.0.0.10-13) while a probe on 127.0.0.200 loads Home every 0.5 s and holds a
# live poll. Fails on a refusal or a page slower than 0.5 s to the probe, a live poll not held, RSS over 64 MiB, or
# log growth over 4 MiB a minute; prints a table with a row per flood. Loopback only, bounded in time (about 30 s
# per flood), stops by itself. Not part of the test suite, like scripts/soak.sh.
#
# Last, the large flood (scripts/abuse_large.py): its own habits-api of 45 000 people (--users 45000) and dashboard,
# four clients asking People for ?q= spellings while the probe loads Home; RSS bound --large-rss-limit (160 MiB).
#
# Usage: scripts/abuse.sh [--seconds N] [--only pipeline|parked|urls|images|large]...
# The floods run under `nice -n 10`; the dashboard and the probe at normal priority.
set -euo pipefail
cd "$(dirname "$0")/.."
exec </dev/null

echo "==> swift build -c release --product habits-dashboard --product habits-api"
swift build -c release --product habits-dashboard
swift build -c release --product habits-api
bin="$(swift build -c release --show-bin-path)"

echo "==> abuse"
exec python3 scripts/abuse.py --binary "$bin/habits-dashboard" --api-binary "$bin/habits-api" "$@"
