#!/bin/sh
# Builds one libFuzzer target (libFuzzer + AddressSanitizer) and runs it as a single nice'd process.
#
# Usage: Fuzz/run.sh TARGET [BUDGET] [libFuzzer flags...]
#   TARGET  request-parser | response-parser | template | forms | settings | all (one after another)
#   BUDGET  N executions (default 1000000), or Ns / Nm for a time budget (600s, 10m)
# Examples: Fuzz/run.sh template 2000000    Fuzz/run.sh forms 10m    Fuzz/run.sh all 500000
#
# The build lives in .build/fuzz so it never disturbs the normal debug/release builds; each target keeps the
# corpus it grows in .build/fuzz/corpus/TARGET and writes crash inputs to .build/fuzz/TARGET-crash-*.
set -eu
cd "$(dirname "$0")/.."

targets="request-parser response-parser template forms settings"
usage() { sed -n '4,7p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
[ "$#" -ge 1 ] || usage
target=$1
shift

if [ "$target" = all ]; then
    for each in $targets; do "$0" "$each" "$@"; done
    exit 0
fi

case $target in
    request-parser) product=RequestParserFuzz max_len=4096 ;;
    response-parser) product=ResponseParserFuzz max_len=4096 ;;
    template) product=TemplateFuzz max_len=4096 ;;
    forms) product=FormsFuzz max_len=1024 ;;
    settings) product=SettingsFuzz max_len=4096 ;;
    *) echo "unknown target '$target' (one of: $targets, all)" >&2; exit 2 ;;
esac

budget=-runs=1000000
if [ "$#" -ge 1 ] && [ "${1#-}" = "$1" ]; then  # a first argument without a dash is the budget
    number=${1%[smh]}
    case $number in '' | *[!0-9]*) echo "bad budget '$1': N, Ns, Nm or Nh" >&2; exit 2 ;; esac
    case $1 in
        *s) budget=-max_total_time=$number ;;
        *m) budget=-max_total_time=$((number * 60)) ;;
        *h) budget=-max_total_time=$((number * 3600)) ;;
        *) budget=-runs=$number ;;
    esac
    shift
fi

nice -n 19 env HABITS_FUZZ=1 swift build -c release --product "$product" --scratch-path .build/fuzz \
    -Xswiftc -sanitize=fuzzer,address -Xswiftc -enable-testing
mkdir -p ".build/fuzz/corpus/$target"
dict=""
[ -f "Fuzz/$target.dict" ] && dict="-dict=Fuzz/$target.dict"
# Swift's own crash reporter would race libFuzzer's; libFuzzer prints the crash and writes the input.
export SWIFT_BACKTRACE=enable=no
# shellcheck disable=SC2086 # $dict is one flag or nothing
exec nice -n 19 ".build/fuzz/release/$product" -max_len="$max_len" $dict -print_final_stats=1 \
    -artifact_prefix=".build/fuzz/$target-" "$budget" "$@" ".build/fuzz/corpus/$target" "Fuzz/seeds/$target"
