#!/usr/bin/env bash
# Runs every test of the project. Safe on a fresh clone and under CI (CI=true, no stdin, no TTY).
# Usage: ./scripts/test.sh            (extra arguments are passed to `swift test`, e.g. --filter RouterTests)
set -euo pipefail

cd "$(dirname "$0")/.."
exec </dev/null  # nothing below may wait for input

if ! command -v swift >/dev/null 2>&1; then
    echo "test.sh: the Swift toolchain (swift 6) is required and was not found on PATH" >&2
    exit 1
fi

# The executable tests launch .build/debug/habits-api and habits-dashboard, so build everything first.
echo "==> swift build (debug, all targets)"
swift build --build-tests

echo "==> swift test"
swift test --skip-build "$@"
