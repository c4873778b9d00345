#!/usr/bin/env bash
# Benchmarks scripts/cluster.sh (issue 11 point 5): N dashboards behind nginx on this machine.
#
# 1. Pages through nginx with 1, 2 and 3 dashboards (and one dashboard directly, without nginx, for reference):
#    wrk, c = 64, $DURATION per run, against a frozen habits-api (--no-simulation). 64 browsers, each with its own
#    settings cookie and a few favourites and follows made through the forms, are spread over the requests (a wrk
#    Lua script), so nginx's hash on the cookie spreads them over the dashboards as real browsers would be.
#    Home (/) and Habits (/habits) are measured; req/s and p99 are printed.
# 2. Upstream statistics calls per second with $VIEWERS waiting viewers (live habit pages long-polling with
#    Prefer: wait=25, Benchmarks/cluster-viewers.py) against a live habits-api (simulation running): one dashboard
#    straight at the API (no cache), then 1 and 3 dashboards behind the cluster's nginx micro-cache. Calls are counted
#    at the API itself (its access log: GET /combinedStats lines) over $WINDOW seconds.
#
# Usage: Benchmarks/cluster.sh     (DURATION=5s VIEWERS=500 WINDOW=10 by default; release builds; installs wrk, nginx)
set -euo pipefail
cd "$(dirname "$0")/.."
source Benchmarks/lib.sh

DURATION=${DURATION:-5s}
VIEWERS=${VIEWERS:-500}
WINDOW=${WINDOW:-10}
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

echo "==> building habits-api and habits-dashboard (release)"
swift build -c release --product habits-api 2>&1 | tail -1
swift build -c release --product habits-dashboard 2>&1 | tail -1
bin=$(swift build -c release --show-bin-path)

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
start_cluster() {  # instances, upstream, settings dir
    local out="$work/cluster-$1-$RANDOM.out"
    setsid scripts/cluster.sh --instances "$1" --port 0 --bin "$bin" --upstream "$2" --settings-dir "$3" \
        >"$out" 2>>"$work/cluster.log" &
    cluster_pids+=($!)
    front=$(announced "$out" "Open:")
    [[ -n $front ]] || { echo "cluster did not start: $(tail -5 "$work/cluster.log")" >&2; exit 1; }
    dashboards=$(sed -n 's#^Dashboard [0-9]*: \(http://[^ /]*\).*#\1#p' "$out" | tr '\n' ' ')
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

# --- 1. Pages ---------------------------------------------------------------------------------------------------
settings="$work/settings"
start_cluster 1 "$frozen" "$settings"
echo "==> 64 browsers with settings, made through the front's forms"
python3 - "$front" "$frozen" "$work/cookies.lua" <<'PY'
import http.client, json, sys, urllib.parse, urllib.request
front, api, out = sys.argv[1:4]
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
with open(out, "w") as lua:
    lua.write("cookies = {%s}\n" % ", ".join('"%s"' % cookie for cookie in cookies))
    lua.write("""
counter = 0
request = function()
    counter = counter + 1
    return wrk.format("GET", wrk.path, {["Cookie"] = cookies[counter % #cookies + 1]})
end
""")
PY

declare -A rps p99
measure() {  # label, base URL
    for page in / /habits; do
        wrk -t 2 -c 16 -d 1s -s "$work/cookies.lua" "$2$page" >/dev/null  # warm the render caches
        read -r r p _ e <<<"$(THREADS=2 run_wrk "$2$page" "$CONNECTIONS" "" -s "$work/cookies.lua")"
        rps[$1$page]=$r
        p99[$1$page]=$p
        [[ $e == none ]] || echo "    $1 $page: ${e//_/ }"
    done
}

echo "==> pages: wrk -t 2 -c $CONNECTIONS -d $DURATION; $(nproc) cores; load average $(cut -d' ' -f1-3 /proc/loadavg)"
measure "direct" "${dashboards%% *}"
measure "1" "$front"
stop_cluster
for n in 2 3; do
    start_cluster "$n" "$frozen" "$settings"
    measure "$n" "$front"
    stop_cluster
done

# --- 2. Upstream statistics calls with waiting viewers ----------------------------------------------------------
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
    printf ' %s\n' "$(cat "$work/viewers.out")"
}

echo "==> upstream statistics calls with $VIEWERS waiting viewers, counted at the API over $WINDOW s"
"$bin/habits-dashboard" --port 0 --upstream "$live" --settings-dir "$work/settings-direct" \
    >"$work/direct.out" 2>/dev/null &
other_pids+=($!)
direct=$(announced "$work/direct.out" "Habits Dashboard:")
read -r calls_direct viewers_direct <<<"$(viewers_against "$direct")"
kill -TERM "${other_pids[-1]}"

start_cluster 1 "$live" "$work/settings-live"
read -r calls_1 viewers_1 <<<"$(viewers_against "$front")"
stop_cluster
start_cluster 3 "$live" "$work/settings-live"
read -r calls_3 viewers_3 <<<"$(viewers_against "$front")"
stop_cluster

echo
echo "Pages (req/s, p99), wrk c=$CONNECTIONS, $DURATION per run, 64 browsers' cookies:"
printf '  %-28s %12s %10s %12s %10s\n' setup "Home req/s" "Home p99" "Habits req/s" "Habits p99"
for label in direct 1 2 3; do
    case $label in
        direct) name="1 dashboard, no nginx" ;;
        1) name="nginx + 1 dashboard" ;;
        *) name="nginx + $label dashboards" ;;
    esac
    printf '  %-28s %12s %10s %12s %10s\n' "$name" "${rps[$label/]}" "${p99[$label/]}" "${rps[$label/habits]}" \
        "${p99[$label/habits]}"
done
echo
echo "Upstream GET /combinedStats calls per second at the API, $VIEWERS waiting viewers:"
printf '  %-36s %8s   %s\n' setup "calls/s" viewers
printf '  %-36s %8s   %s\n' "1 dashboard, straight at the API" "$calls_direct" "$viewers_direct"
printf '  %-36s %8s   %s\n' "nginx cache + 1 dashboard" "$calls_1" "$viewers_1"
printf '  %-36s %8s   %s\n' "nginx cache + 3 dashboards" "$calls_3" "$viewers_3"
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
