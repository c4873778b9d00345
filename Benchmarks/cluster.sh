#!/usr/bin/env bash
# Benchmarks scripts/cluster.sh in its two modes (issue 11 point 5, issue 19 point 9): three dashboards behind nginx
# sharing a settings directory and an nginx micro-cache in front of the API (--store files), or sharing a throwaway
# PostgreSQL with one refresher (--store postgres).
#
# Per mode, against a frozen habits-api (--no-simulation), 64 browsers with settings made through the forms:
# 1. pages through the front: wrk, c = 64, $DURATION, Home (/) and Habits (/habits), the browsers' cookies spread
#    over the requests (a wrk Lua script), so nginx's hash spreads them over the dashboards; req/s and p99;
# 2. toggles through the front: wrk, c = 16, $DURATION, each request a favourite flipped for one of the browsers
#    (POST, 303); toggles/s and p99.
# Per mode, against a live habits-api (simulation running):
# 3. upstream statistics calls per second with $VIEWERS waiting viewers (live habit pages long-polling with
#    Prefer: wait=25, Benchmarks/cluster-viewers.py), counted at the API (its access log) over $WINDOW seconds; and
#    for reference one dashboard straight at the API;
# 4. the time from a habit logged at the API to a held poll's answer on a dashboard that is not the refresher
#    (Benchmarks/cluster-latency.py, $ROUNDS rounds): median and max.
#
# Usage: Benchmarks/cluster.sh   (DURATION=5s VIEWERS=500 WINDOW=10 ROUNDS=10; release builds, or BIN=DIR;
#                                 installs wrk, nginx)
set -euo pipefail
cd "$(dirname "$0")/.."
source Benchmarks/lib.sh

DURATION=${DURATION:-5s}
VIEWERS=${VIEWERS:-500}
WINDOW=${WINDOW:-10}
ROUNDS=${ROUNDS:-10}
CONNECTIONS=64

work=$(mktemp -d)
cluster_pids=()
other_pids=()
cleanup() {
    # The clusters stop everything they started on SIGTERM; wait for them so no process outlives this script.
    for pid in "${cluster_pids[@]}" "${other_pids[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
    for pid in "${cluster_pids[@]}" "${other_pids[@]}"; do
        for _ in $(seq 300); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
        kill -KILL "$pid" 2>/dev/null || true
    done
    rm -rf "$work"
}
trap cleanup EXIT

bench_require wrk nginx curl

if [[ -n ${BIN:-} ]]; then
    bin=$BIN  # executables built already (BIN=.build/release)
else
    echo "==> building habits-api and habits-dashboard (release)"
    swift build -c release --product habits-api 2>&1 | tail -1
    swift build -c release --product habits-dashboard 2>&1 | tail -1
    bin=$(swift build -c release --show-bin-path)
fi

# Waits for "$2 http://…" in file $1 and prints the URL without its trailing slash.
announced() {
    for _ in $(seq 600); do grep -q "$2" "$1" 2>/dev/null && break; sleep 0.1; done
    sed -n "s#.*$2 *\(http://[^ /]*\).*#\1#p" "$1" | head -1
}

start_api() {  # name, flags...; sets $api_url
    local name=$1
    shift
    "$bin/habits-api" --port 0 --seed 42 "$@" >"$work/$name.out" 2>"$work/$name.log" &
    other_pids+=($!)
    api_url=$(announced "$work/$name.out" "Habits API simulator:")
}

# Starts scripts/cluster.sh in a session of its own; sets $front and $dashboards (space-separated URLs).
start_cluster() {  # instances, upstream, settings dir, store
    local out="$work/cluster-$1-$RANDOM.out"
    setsid scripts/cluster.sh --instances "$1" --port 0 --bin "$bin" --upstream "$2" --settings-dir "$3" \
        --store "${4:-files}" >"$out" 2>>"$work/cluster.log" &
    cluster_pids+=($!)
    front=$(announced "$out" "Open:")
    [[ -n $front ]] || { echo "cluster did not start: $(tail -5 "$work/cluster.log")" >&2; exit 1; }
    dashboards=$(sed -n 's#^Dashboard [0-9]*: \(http://[^ /]*\).*#\1#p' "$out" | tr '\n' ' ')
    # url=metrics-url pairs: each dashboard's counters are on a loopback port of its own (--metrics-port).
    local pairs='s#^Dashboard [0-9]*: \(http://[^ /]*\)/ (pid [0-9]*, metrics \(http://[^)]*\))$#\1=\2#p'
    dashboard_metrics=$(sed -n "$pairs" "$out" | tr '\n' ' ')
}

# The dashboard of $dashboards that plays `role` ("follower", "leader"); with files (no roles) the last, or nothing
# for the leader.
dashboard_with_role() {
    local pair url chosen=""
    for pair in $dashboard_metrics; do
        url=${pair%%=*}
        [[ $1 == leader ]] || chosen=$url
        curl -s "${pair#*=}" | grep -q "habits_cluster_role{role=\"$1\"} 1" && { chosen=$url; break; }
    done
    echo "$chosen"
}

stop_cluster() {
    local pid=${cluster_pids[-1]}
    kill -TERM "$pid"
    for _ in $(seq 300); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    unset 'cluster_pids[-1]'
}

start_api frozen --no-simulation
frozen=$api_url
start_api live
live=$api_url
echo "==> frozen API $frozen, live API $live"
mapfile -t habits < <(curl -s "$frozen/habits" |
    python3 -c 'import json, sys; print("\n".join(sorted(json.load(sys.stdin))))')

# --- Browsers with settings, and the wrk scripts over their cookies ------------------------------------------
make_browsers() {  # front; writes $work/cookies.lua and $work/toggles.lua
    python3 - "$1" "$frozen" "$work/cookies.lua" "$work/toggles.lua" <<'PY'
import http.client, json, sys, urllib.parse, urllib.request
front, api, out, toggles = sys.argv[1:5]
habits = sorted(json.load(urllib.request.urlopen(api + "/habits")))
users = sorted(u for u in json.load(urllib.request.urlopen(api + "/users")) if u != "activeUser")
host = urllib.parse.urlsplit(front)
cookies = []
for index in range(64):
    cookie = None
    source = (f"127.0.2.{index + 1}", 0)  # one address per browser: the new-browser limit counts per address
    changes = [("/habits/%s/favorite" % urllib.parse.quote(habits[(index + k) % len(habits)], safe=""), "favorite=true")
               for k in range(3)]
    changes += [("/people/%s/follow" % users[(index + k) % len(users)], "follow=true") for k in range(2)]
    for path, form in changes:
        connection = http.client.HTTPConnection(host.hostname, host.port, source_address=source)
        headers = {"Origin": front, "Content-Type": "application/x-www-form-urlencoded"}
        if cookie:
            headers["Cookie"] = cookie
        connection.request("POST", path, body=form, headers=headers)
        response = connection.getresponse()
        assert response.status == 303, (path, response.status, response.read())
        cookie = cookie or response.getheader("Set-Cookie").split(";")[0]
        connection.close()
    cookies.append(cookie)
table = "cookies = {%s}\n" % ", ".join('"%s"' % cookie for cookie in cookies)
with open(out, "w") as lua:
    lua.write(table + """
counter = 0
request = function()
    counter = counter + 1
    return wrk.format("GET", wrk.path, {["Cookie"] = cookies[counter % #cookies + 1]})
end
""")
with open(toggles, "w") as lua:
    lua.write(table + 'origin = "%s"\npath = "/habits/%s/favorite"\n' % (front, urllib.parse.quote(habits[0], safe="")))
    lua.write("""
counter = 0
request = function()
    counter = counter + 1
    local body = (math.floor(counter / #cookies) % 2 == 0) and "favorite=false" or "favorite=true"
    return wrk.format("POST", path, {["Cookie"] = cookies[counter % #cookies + 1], ["Origin"] = origin,
        ["Content-Type"] = "application/x-www-form-urlencoded"}, body)
end
""")
PY
}

declare -A rps p99
measure() {  # label, base URL
    for page in / /habits; do
        wrk -t 2 -c 16 -d 1s -s "$work/cookies.lua" "$2$page" >/dev/null  # warm the render caches
        read -r r p _ e <<<"$(THREADS=2 run_wrk "$2$page" "$CONNECTIONS" "" -s "$work/cookies.lua")"
        rps[$1$page]=$r
        p99[$1$page]=$p
        [[ $e == none ]] || echo "    $1 $page: ${e//_/ }"
    done
    read -r r p _ e <<<"$(THREADS=2 run_wrk "$2/" 16 "" -s "$work/toggles.lua")"
    rps[$1toggle]=$r
    p99[$1toggle]=$p
    [[ $e == none ]] || echo "    $1 toggles: ${e//_/ }"
}

echo "==> pages and toggles: wrk -d $DURATION; $(nproc) cores; load average $(cut -d' ' -f1-3 /proc/loadavg)"
for mode in files postgres; do
    start_cluster 3 "$frozen" "$work/settings-$mode" "$mode"
    make_browsers "$front"
    measure "$mode" "$front"
    stop_cluster
done

# --- Upstream statistics calls with waiting viewers, and a change's way to a held poll ---------------------------
# A summed line (issue 23: repeated identical answers to one address within a second) stands for its repeated=N.
stats_calls() {
    awk '/http.path=\/combinedStats/ { n += match($0, /repeated=[0-9]+/) ? substr($0, RSTART + 9, RLENGTH - 9) : 1 }
         END { print n + 0 }' "$work/live.log"
}

# Runs the viewers against $1 and prints "calls/s viewer-summary".
viewers_against() {
    python3 Benchmarks/cluster-viewers.py "$1" "$VIEWERS" $((WINDOW + 5)) "${habits[@]}" >"$work/viewers.out" &
    local viewers_pid=$!
    sleep 5  # every viewer connected and parked (a warm-up, not a wait for a condition: the figure is a rate)
    local before after
    before=$(stats_calls)
    sleep "$WINDOW"
    after=$(stats_calls)
    wait "$viewers_pid"
    awk -v a="$before" -v b="$after" -v w="$WINDOW" 'BEGIN { printf "%.2f", (b - a) / w }'
    printf ' %s\n' "$(sed 's/ /_/g' "$work/viewers.out")"
}

echo "==> upstream statistics calls with $VIEWERS waiting viewers, counted at the API over $WINDOW s"
"$bin/habits-dashboard" --port 0 --upstream "$live" --settings-dir "$work/settings-direct" \
    --cache-dir "$work/cache-direct" >"$work/direct.out" 2>/dev/null &
other_pids+=($!)
direct=$(announced "$work/direct.out" "Habits Dashboard:")
read -r calls_direct viewers_direct <<<"$(viewers_against "$direct")"
kill -TERM "${other_pids[-1]}"

declare -A calls viewers latency
for mode in files postgres; do
    start_cluster 3 "$live" "$work/settings-live-$mode" "$mode"
    read -r calls[$mode] viewers[$mode] <<<"$(viewers_against "$front")"
    # shellcheck disable=SC2046 # no refresher with files: the argument is left out
    latency[$mode]=$(python3 Benchmarks/cluster-latency.py "$live" "$(dashboard_with_role follower)" "$ROUNDS" \
        "${habits[0]}" $(dashboard_with_role leader) | tr '\n' ' ')
    stop_cluster
done

echo
echo "Three dashboards behind nginx; wrk c=$CONNECTIONS (pages) and c=16 (toggles), $DURATION per run, 64 browsers:"
printf '  %-10s %11s %9s %13s %11s %11s %9s\n' mode "Home req/s" "Home p99" "Habits req/s" "Habits p99" \
    "toggles/s" "tog. p99"
for mode in files postgres; do
    printf '  %-10s %11s %9s %13s %11s %11s %9s\n' "$mode" "${rps[$mode/]}" "${p99[$mode/]}" \
        "${rps[$mode/habits]}" "${p99[$mode/habits]}" "${rps[${mode}toggle]}" "${p99[${mode}toggle]}"
done
echo
echo "Upstream GET /combinedStats calls per second at the API, $VIEWERS waiting viewers; a change at the API to a held"
echo "poll's answer on a dashboard that is not the refresher ($ROUNDS rounds, seconds):"
printf '  %-34s %8s   %-26s %s\n' setup "calls/s" "change -> poll answer" viewers
printf '  %-34s %8s   %-26s %s\n' "1 dashboard, straight at the API" "$calls_direct" "-" "${viewers_direct//_/ }"
printf '  %-34s %8s   %-26s %s\n' "files: nginx cache + 3 dashboards" "${calls[files]}" \
    "$(cut -d' ' -f1-2 <<<"${latency[files]}")" "${viewers[files]//_/ }"
printf '  %-34s %8s   %-26s %s\n' "postgres: 3 dashboards, 1 refresher" "${calls[postgres]}" \
    "$(cut -d' ' -f1-2 <<<"${latency[postgres]}")" "${viewers[postgres]//_/ }"
echo "  postgres: a follower's answer after the refresher's: $(grep -o 'behind_[^ ]*' <<<"${latency[postgres]}" |
    tr '\n' ' ')"
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
