#!/usr/bin/env bash
# How the dashboard's costs grow with the data (issue 21 point 4): 1x, 10x and 100x the built-in data's scale (41 →
# 4 100 people, 19 → 1 900 habits), made up by `habits-api --users N --habits M --seed 42` (frozen: --no-simulation),
# each with a release habits-dashboard in front of it.
#
# Per scale it prints the snapshot build time, the CPU of one refresh with an hour of history (decode + build +
# history, each part, from pages-render-bench; and the decode of a whole answer with nothing kept from the last), each
# page's render time for a new version (pages-render-bench: People with one card changed, the others with nothing
# cached), the bytes of each page as served (raw and gzip; People and the most logged habit, Habits and Log Habit on
# page 1 and, when there is one, page 2; the largest, flagged past 128 KB) and the dashboard's RSS after serving them.
# Build and render should grow at most linearly in the data (the build per 1000 counts of the statistics stays flat),
# and no page should pass 128 KB.
# Usage: Benchmarks/scale.sh            (SCALES="1 10 100" ITERATIONS=400 by default)
set -euo pipefail
cd "$(dirname "$0")/.."
source Benchmarks/lib.sh

SCALES=${SCALES:-"1 10 100"}
ITERATIONS=${ITERATIONS:-400}

bench_work
bench_build habits-api habits-dashboard pages-render-bench

declare -A table
for scale in $SCALES; do
    users=$((41 * scale))
    habits=$((19 * scale))
    echo "==> ${scale}x: $users people, $habits habits; load average $(cut -d' ' -f1-3 /proc/loadavg)"
    api=$(bench_start habits-api "Habits API simulator:" --port 0 --seed 42 --no-simulation --users "$users" --habits "$habits")
    dash=$(bench_start habits-dashboard "Habits Dashboard:" --port 0 --upstream "$api" --settings-dir "$work/settings-$scale" \
        --cache-dir "$work/cache-$scale")
    dash_pid=$(cat "$work/habits-dashboard.pid")
    bench=$("$bin/pages-render-bench" "$api" Templates "$ITERATIONS")
    echo "$bench" | sed 's/^/    /'
    # The pages as a browser with 4 favourites and 5 follows gets them, page 2 where a list has one.
    browser=$(bench_browser "$api" "$dash") || echo "    (not every setting of the browser was saved)"
    python3 - "$api" "$dash" "$dash_pid" "${browser%% *}" >"$work/pages-$scale" <<'PY'
import gzip, http.client, json, sys, time, urllib.parse, urllib.request
api, dash, pid, cookie = sys.argv[1:5]
stats = json.load(urllib.request.urlopen(api + "/combinedStats"))
popular = max(stats["habitStatistics"], key=lambda h: len(h["userCounts"]))["habit"]["name"]
busy = max(stats["userStatistics"], key=lambda u: len(u["habitCounts"]))["user"]["id"]
host = urllib.parse.urlsplit(dash).netloc
q = lambda v: urllib.parse.quote(v, safe="")
print("counts\t" + str(sum(len(h["userCounts"]) for h in stats["habitStatistics"])
                       + sum(len(u["habitCounts"]) for u in stats["userStatistics"])))
pages = [("Home", "/"), ("Habits", "/habits"), ("Habits p2", "/habits?page=2"), ("People", "/people"),
         ("People p2", "/people?page=2"), ("habit", "/habits/" + q(popular)),
         ("habit p2", "/habits/" + q(popular) + "?page=2"), ("person", "/people/" + q(busy)), ("Log", "/log"),
         ("Log p2", "/log?page=2")]
# The first snapshot of a large network takes a moment: wait for data before measuring (a page without it is a 503).
for _ in range(120):
    c = http.client.HTTPConnection(host)
    c.request("GET", "/habits", headers={"Cookie": cookie})
    r = c.getresponse(); r.read()
    if r.status == 200: break
    time.sleep(0.5)
for label, path in pages:
    c = http.client.HTTPConnection(host)
    c.request("GET", path, headers={"Cookie": cookie, "Accept-Encoding": "identity"})
    r = c.getresponse(); body = r.read()
    size = len(body) if r.status == 200 else 0
    print(f"{label}\t{size}\t{len(gzip.compress(body)) if size else 0}\t{r.status}")
for line in open(f"/proc/{pid}/status"):
    if line.startswith(("VmRSS", "VmHWM")): print(line.split()[0].rstrip(":") + "\t" + line.split()[1])
PY
    sed 's/^/    /' "$work/pages-$scale"
    table[$scale,build]=$(echo "$bench" | sed -n 's/^snapshot build: \([0-9]*\) µs.*/\1/p')
    table[$scale,refresh]=$(echo "$bench" | sed -n 's/.* = \([0-9]*\) µs (medians.*/\1/p')
    table[$scale,decode]=$(echo "$bench" | sed -n 's/^refresh CPU.*decode \([0-9]*\) µs.*/\1/p')
    table[$scale,rebuild]=$(echo "$bench" | sed -n 's/^refresh CPU.* + build \([0-9]*\) µs.*/\1/p')
    table[$scale,history]=$(echo "$bench" | sed -n 's/^refresh CPU.* + history \([0-9]*\) µs.*/\1/p')
    table[$scale,whole]=$(echo "$bench" | sed -n 's/^decode of the whole answer[^:]*: \([0-9]*\) µs.*/\1/p')
    for page in "People, one card changed" "Home, one card changed" Habits habit person Log; do
        table[$scale,render,$page]=$(echo "$bench" | sed -n "s/^new version, $page: *\([0-9]*\) µs.*/\1/p")
    done
    table[$scale,counts]=$(awk '$1 == "counts" {print $2}' "$work/pages-$scale")
    table[$scale,per]=$(awk -v b="${table[$scale,build]}" '$1 == "counts" {printf "%.1f", b / $2 * 1000}' "$work/pages-$scale")
    largest=0
    while IFS=$'\t' read -r label size gz status; do
        table[$scale,bytes,$label]="$size/$gz"
        ((size > largest)) && largest=$size
    done < <(grep -v "^Vm\|^counts" "$work/pages-$scale")
    table[$scale,largest]=$largest$( ((largest > 131072)) && echo " OVER 128 KB" || true)
    table[$scale,rss]=$(awk '$1 == "VmRSS" {printf "%.1f", $2 / 1024}' "$work/pages-$scale")
    table[$scale,hwm]=$(awk '$1 == "VmHWM" {printf "%.1f", $2 / 1024}' "$work/pages-$scale")
    table[$scale,load]=$(cut -d' ' -f1 /proc/loadavg)
    bench_stop habits-dashboard
    bench_stop habits-api
done

echo
echo "==> summary (µs are medians; bytes raw/gzip; a 0 is a page that does not exist at that scale)"
row() { printf '%-28s' "$1"; shift; for value in "$@"; do printf ' %22s' "$value"; done; echo; }
header=(); for scale in $SCALES; do header+=("${scale}x"); done
row "" "${header[@]}"
line() {
    local label=$1 key=$2 values=()
    for scale in $SCALES; do values+=("${table[$scale,$key]:-?}"); done
    row "$label" "${values[@]}"
}
line "counts in the statistics" counts
line "snapshot build µs" build
line "  µs per 1000 counts" per
line "refresh CPU µs (all)" refresh
line "  of which decode µs" decode
line "  of which build µs" rebuild
line "  of which history µs" history
line "decode, whole answer µs" whole
for page in "People, one card changed" "Home, one card changed" Habits habit person Log; do line "render $page µs" "render,$page"; done
for page in Home Habits "Habits p2" People "People p2" habit "habit p2" person Log "Log p2"; do
    line "bytes $page" "bytes,$page"
done
line "largest page bytes" largest
line "RSS MB after the pages" rss
line "peak RSS MB" hwm
line "load average (1 min)" load
