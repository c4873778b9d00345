#!/usr/bin/env bash
# How the dashboard's costs grow with the data (issue 21 point 4): 1x, 10x and 100x the built-in data's scale (41 →
# 4 100 people, 19 → 1 900 habits), made up by `habits-api --users N --habits M --seed 42` (frozen: --no-simulation),
# each with a release habits-dashboard in front of it.
#
# Per scale it prints the snapshot build time, the CPU of one refresh with an hour of history (decode + build +
# history, from pages-render-bench), each page's render time for a new version (pages-render-bench: People with one
# card changed, the others with nothing cached), the bytes of each page as served (raw and gzip; People and the most
# logged habit on page 1 and, when there is one, page 2) and the dashboard's RSS after serving them. Build and render
# should grow at most linearly in the data, and no page should pass 128 KB.
# Usage: Benchmarks/scale.sh            (SCALES="1 10 100" ITERATIONS=400 by default)
set -euo pipefail
cd "$(dirname "$0")/.."

SCALES=${SCALES:-"1 10 100"}
ITERATIONS=${ITERATIONS:-400}

work=$(mktemp -d)
cleanup() {
    for file in "$work"/*.pid; do [[ -f "$file" ]] && kill "$(cat "$file")" 2>/dev/null || true; done
    rm -rf "$work"
}
trap cleanup EXIT

echo "==> building habits-api, habits-dashboard and pages-render-bench (release)"
export HABITS_BENCH=1
for product in habits-api habits-dashboard pages-render-bench; do
    swift build -c release --product "$product" 2>&1 | tail -1
done
bin=$(swift build -c release --show-bin-path)

# Starts a server in the background and prints the URL it announces on stdout (matching $2).
start() {
    local name=$1 pattern=$2
    shift 2
    "$bin/$name" "$@" >"$work/$name.out" 2>/dev/null &
    echo $! >"$work/$name.pid"
    for _ in $(seq 600); do grep -q "$pattern" "$work/$name.out" 2>/dev/null && break; sleep 0.1; done
    sed -n "s#.*$pattern \(http://[^ ]*\)#\1#p" "$work/$name.out" | sed 's#/$##' | head -1
}
stop() { kill "$(cat "$work/$1.pid")" 2>/dev/null || true; wait "$(cat "$work/$1.pid")" 2>/dev/null || true; rm -f "$work/$1.pid"; }

declare -A table
for scale in $SCALES; do
    users=$((41 * scale))
    habits=$((19 * scale))
    echo "==> ${scale}x: $users people, $habits habits; load average $(cut -d' ' -f1-3 /proc/loadavg)"
    api=$(start habits-api "Habits API simulator:" --port 0 --seed 42 --no-simulation --users "$users" --habits "$habits")
    dash=$(start habits-dashboard "Habits Dashboard:" --port 0 --upstream "$api" --settings-dir "$work/settings-$scale" \
        --cache-dir "$work/cache-$scale")
    dash_pid=$(cat "$work/habits-dashboard.pid")
    bench=$("$bin/pages-render-bench" "$api" Templates "$ITERATIONS")
    echo "$bench" | sed 's/^/    /'
    # The pages as a browser with 4 favourites and 5 follows gets them, page 2 where a list has one.
    python3 - "$api" "$dash" "$dash_pid" >"$work/pages-$scale" <<'PY'
import gzip, http.client, json, sys, urllib.parse, urllib.request
api, dash, pid = sys.argv[1:4]
users = json.load(urllib.request.urlopen(api + "/users"))
stats = json.load(urllib.request.urlopen(api + "/combinedStats"))
habits = sorted(h["habit"]["name"] for h in stats["habitStatistics"])
popular = max(stats["habitStatistics"], key=lambda h: len(h["userCounts"]))["habit"]["name"]
busy = max(stats["userStatistics"], key=lambda u: len(u["habitCounts"]))["user"]["id"]
host = urllib.parse.urlsplit(dash).netloc
cookie = None
def post(path, form):
    global cookie
    c = http.client.HTTPConnection(host)
    h = {"Origin": dash, "Content-Type": "application/x-www-form-urlencoded"}
    if cookie: h["Cookie"] = cookie
    c.request("POST", path, body=form, headers=h)
    r = c.getresponse(); r.read()
    m = r.getheader("Set-Cookie")
    if m: cookie = m.split(";")[0]
q = lambda v: urllib.parse.quote(v, safe="")
for name in habits[:4]: post("/habits/" + q(name) + "/favorite", "favorite=true")
for uid in sorted(u for u in users if u != "activeUser")[:5]: post("/people/" + q(uid) + "/follow", "follow=true")
pages = [("Home", "/"), ("Habits", "/habits"), ("People", "/people"), ("People p2", "/people?page=2"),
         ("habit", "/habits/" + q(popular)), ("habit p2", "/habits/" + q(popular) + "?page=2"),
         ("person", "/people/" + q(busy)), ("Log", "/log")]
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
    table[$scale,decode]=$(echo "$bench" | sed -n 's/.*decode \([0-9]*\) µs.*/\1/p')
    for page in "People, one card changed" Home Habits habit person Log; do
        table[$scale,render,$page]=$(echo "$bench" | sed -n "s/^new version, $page: *\([0-9]*\) µs.*/\1/p")
    done
    while IFS=$'\t' read -r label size gz status; do
        table[$scale,bytes,$label]="$size/$gz"
    done < <(grep -v "^Vm" "$work/pages-$scale")
    table[$scale,rss]=$(awk '$1 == "VmRSS" {printf "%.1f", $2 / 1024}' "$work/pages-$scale")
    table[$scale,hwm]=$(awk '$1 == "VmHWM" {printf "%.1f", $2 / 1024}' "$work/pages-$scale")
    table[$scale,load]=$(cut -d' ' -f1 /proc/loadavg)
    stop habits-dashboard
    stop habits-api
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
line "snapshot build µs" build
line "refresh CPU µs (all)" refresh
line "  of which decode µs" decode
for page in "People, one card changed" Home Habits habit person Log; do line "render $page µs" "render,$page"; done
for page in Home Habits People "People p2" habit "habit p2" person Log; do line "bytes $page" "bytes,$page"; done
line "RSS MB (peak)" rss
line "peak RSS MB" hwm
line "load average (1 min)" load
