#!/bin/sh
# Builds the RequestParser fuzz target (libFuzzer + AddressSanitizer) and runs it with one worker.
# Usage: Fuzz/run.sh [libFuzzer flags...]   default: -runs=1000000
# The build lives in .build/fuzz so it never disturbs the normal debug/release builds.
set -eu
cd "$(dirname "$0")/.."
HABITS_FUZZ=1 swift build -c release --product RequestParserFuzz --scratch-path .build/fuzz \
    -Xswiftc -sanitize=fuzzer,address -Xswiftc -enable-testing
mkdir -p .build/fuzz/corpus
[ "$#" -gt 0 ] || set -- -runs=1000000
# Swift's own crash reporter would race libFuzzer's; libFuzzer prints the crash and writes the input.
export SWIFT_BACKTRACE=enable=no
exec .build/fuzz/release/RequestParserFuzz -max_len=4096 \
    -dict=Fuzz/http.dict -artifact_prefix=.build/fuzz/ "$@" .build/fuzz/corpus Fuzz/seeds
