#!/usr/bin/env bash
# Soak test: builds habits-dashboard in release, starts it on a free loopback port with its embedded simulator and
# a temporary settings directory, and runs a bounded mixed load against it (pages, fragments, images, toggles with
# many browsers' cookies, 404s) while sampling its RSS. Fails on a crash, any 5xx, an RSS peak over 60 MiB or RSS
# growth in the second half (thresholds in scripts/soak.py). Not part of the test suite: it takes 5 minutes by default.
#
# Usage: scripts/soak.sh [--duration SECONDS] [--connections N] [--max-requests N] [--seed N] [--rss-limit MIB]
#        scripts/soak.sh --duration 20      # the quick check
# Server and load both run under `nice -n 19`, so a soak on a shared machine yields to other work.
set -euo pipefail
cd "$(dirname "$0")/.."
exec </dev/null

echo "==> swift build -c release --product habits-dashboard"
nice -n 19 swift build -c release --product habits-dashboard
binary="$(swift build -c release --show-bin-path)/habits-dashboard"

echo "==> soak"
exec nice -n 19 python3 scripts/soak.py --binary "$binary" "$@"
