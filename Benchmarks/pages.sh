#!/usr/bin/env bash
# Benchmarks the dashboard's rendered pages against nginx serving the very bytes they produced (issue 9).
#
# Release builds of habits-api (frozen: --no-simulation, so every run sees the same bytes) and habits-dashboard
# (--upstream that API). A browser's settings are made through the dashboard's own forms (4 favourites, 5 follows),
# so its cookie is whatever the dashboard mints. The five pages (Home, a habit, a person, Habits, People) are fetched
# with that cookie and written to nginx's root; wrk then runs each page at each concurrency against ours and against
# nginx (1 worker, access log off), alternately (ours, nginx, nginx, ours; the better run of each counts), with the
# same Cookie header for both: the settings cookie and a last-visit cookie fetched for each cell (bench_visit), as a
# browser sends them. The dashboard keeps refreshing its snapshot while live pages are requested, as it
# does in production, and pages are served from its render cache.
#
# Prints req/s, p99, CPU time per request and the ratio per page and concurrency; the upstream calls per second during the runs (from
# /metrics); the size on the wire of an unchanged live poll (304); peak RSS; RSS with 1 000 idle keep-alive
# connections; the render time of a new snapshot version for People and Home (pages-render-bench); and the p99 of
# both at the same request rate (the last table). Under the c = 64 and gzip tables, the p99 of every run of each cell
# (the table's two of each server and P99_ROUNDS more alternations, 1 by default) with the medians and their ratio:
# the tables show one run of each server, and a 4 s run's p99 swings from run to run.
# Usage: Benchmarks/pages.sh            (DURATION=4s CONNECTIONS="1 64 256" GZIP_CONNECTIONS=64 THREADS=2 by default)
#        NGINX_WORKERS=2 Benchmarks/pages.sh   (nginx with as many workers as our event loops; 1 by default)
#        PACED=0 Benchmarks/pages.sh           (skips the last table: both at the same request rate)
#        P99_ROUNDS=0 Benchmarks/pages.sh      (no more runs for the p99 medians than the tables' own)
# A second table compares the pages gzipped: ours from the render cache, nginx with gzip_static on .gz files.
set -euo pipefail
cd "$(dirname "$0")/.."
source Benchmarks/lib.sh

DURATION=${DURATION:-4s}
CONNECTIONS=${CONNECTIONS:-"1 64 256"}
THREADS=${THREADS:-2}

bench_work
bench_require wrk nginx curl
bench_build habits-api habits-dashboard pages-render-bench
api=$(bench_start habits-api "Habits API simulator:" --port 0 --seed 42 --no-simulation)
dash=$(bench_start habits-dashboard "Habits Dashboard:" --port 0 --upstream "$api" --settings-dir "$work/settings" \
    --cache-dir "$work/cache" --metrics-port 0)
dash_pid=$(cat "$work/habits-dashboard.pid")
# The counters are on a loopback port of their own, announced before the dashboard's URL (issue 48).
dash_metrics=$(sed -n 's#^Metrics: \(http://[^ ]*\)#\1#p' "$work/habits-dashboard.out" | head -1)
echo "==> upstream $api, dashboard $dash"

# The browser: 4 favourites and 5 follows through the forms; its cookie and the habit and person paths.
browser=$(bench_browser "$api" "$dash")
read -r cookie habit_path person_path <<<"$browser"

names=(home habit person habits people)
paths=("/" "$habit_path" "$person_path" "/habits" "/people")
mkdir -p "$work/html"
# The same bytes from both, or the comparison means nothing. A page changes when a 10 s slot of the history passes
# early on (a sparkline gains its second point), so pages that changed between two fetches are fetched again.
for attempt in 1 2 3; do
    for i in "${!names[@]}"; do
        curl -sf -H "Cookie: $cookie" "$dash${paths[$i]}" >"$work/html/${names[$i]}.html"
        chmod 644 "$work/html/${names[$i]}.html"
        # The compressed column (issue 14): nginx's gzip_static serves this file for "Accept-Encoding: gzip".
        gzip -9 -k -n -f "$work/html/${names[$i]}.html"
        chmod 644 "$work/html/${names[$i]}.html.gz"
    done
    changed=""
    for i in "${!names[@]}"; do
        ours=$(curl -s -H "Cookie: $cookie" "$dash${paths[$i]}" | md5sum)
        [[ "$ours" == "$(md5sum <"$work/html/${names[$i]}.html")" ]] || changed+=" ${names[$i]}"
    done
    [[ -z "$changed" ]] && break
    if ((attempt == 3)); then echo "${changed# }: the dashboard's bytes changed between fetches" >&2; exit 1; fi
    sleep 1
done

# The compressed column (issue 14): .gz files next to the pages, served for "Accept-Encoding: gzip".
start_static_nginx "$work" "$work/html" "gzip_static on;" "gzip_vary on;"
for i in "${!names[@]}"; do
    theirs=$(curl -s "http://127.0.0.1:$nginx_port/${names[$i]}.html" | md5sum)
    if [[ "$theirs" != "$(md5sum <"$work/html/${names[$i]}.html")" ]]; then
        echo "${names[$i]}: nginx does not serve the dashboard's bytes" >&2
        exit 1
    fi
done

upstream_calls() {
    curl -s "$dash_metrics" | awk '/^habits_upstream_calls_total/ {sum += $2} /combinedStats/ && /^habits_upstream_calls_total/ {stats += $2}
        END {print sum + 0, stats + 0}'
}

# alternate OURS_URL NGINX_URL CONNECTIONS rps|p99 WRK_ARG...: runs ours, nginx, nginx, ours (so drifting load from
# other work hits both alike) and sets `ours` and `nginx` to the better run of each (`better`: by req/s, or by p99).
# Every run's p99 goes into `ours_p99s` and `nginx_p99s`: a single run's p99 swings, and the table shows one run of each.
alternate() {
    local ours_url=$1 nginx_url=$2 connections=$3 by=$4 o1 n1 n2 o2
    shift 4
    o1=$(run_wrk "$ours_url" "$connections" "$dash_pid" "$@")
    n1=$(run_wrk "$nginx_url" "$connections" "$nginx_worker" "$@")
    n2=$(run_wrk "$nginx_url" "$connections" "$nginx_worker" "$@")
    o2=$(run_wrk "$ours_url" "$connections" "$dash_pid" "$@")
    ours=$(better "$o1" "$o2" "$by")
    nginx=$(better "$n1" "$n2" "$by")
    ours_p99s="$(cut -d' ' -f2 <<<"$o1") $(cut -d' ' -f2 <<<"$o2")"
    nginx_p99s="$(cut -d' ' -f2 <<<"$n1") $(cut -d' ' -f2 <<<"$n2")"
}

# more_p99_runs OURS_URL NGINX_URL CONNECTIONS WRK_ARG...: P99_ROUNDS more alternations (ours, nginx, nginx, ours),
# their p99s added to `ours_p99s` and `nginx_p99s`. Either server's 4 s p99 at c = 64 lands anywhere from about 1 ms
# to the scheduler's 4 ms tick, run to run, so a ratio of two single runs says little; the median over the runs does.
more_p99_runs() {
    local ours_url=$1 nginx_url=$2 connections=$3 round kept_ours kept_nginx
    shift 3
    kept_ours=$ours_p99s kept_nginx=$nginx_p99s
    for ((round = 0; round < ${P99_ROUNDS:-1}; round++)); do
        alternate "$ours_url" "$nginx_url" "$connections" rps "$@"
        kept_ours+=" $ours_p99s" kept_nginx+=" $nginx_p99s"
    done
    ours_p99s=$kept_ours nginx_p99s=$kept_nginx
}

# print_p99_runs LINE...: each cell's runs' p99 (lines of "page conns|ours p99s|nginx p99s"), their medians, the ratio
# of the medians, and how many cells are within issue 21's 1.5x.
print_p99_runs() {
    echo "==> p99 of every run (ours, then nginx, in the order they ran), the medians and their ratio:"
    printf '%-7s %5s  %-36s %-36s %7s %7s %6s\n' page conns ours nginx "ours ~" "nginx ~" ratio
    local line head ours_list nginx_list ours_median nginx_median cell_ratio within=0
    for line in "$@"; do
        IFS='|' read -r head ours_list nginx_list <<<"$line"
        read -r ours_median nginx_median <<<"$(median_ms "$ours_list") $(median_ms "$nginx_list")"
        cell_ratio=$(ratio "$ours_median" "$nginx_median")
        # shellcheck disable=SC2086 # the head's two fields, split on purpose
        printf '%-7s %5s  %-36s %-36s %7s %7s %6s\n' $head "$ours_list" "$nginx_list" "${ours_median}ms" \
            "${nginx_median}ms" "$cell_ratio"
        if awk -v r="$cell_ratio" 'BEGIN { exit !(r <= 1.5) }'; then within=$((within + 1)); fi
    done
    echo "medians within 1.5x of nginx's: $within of $#"
}

# median_ms P99...: the median of wrk latencies, in milliseconds to two places.
median_ms() {
    local d
    for d in $1; do milliseconds "$d"; done | sort -g | awk '{ v[NR] = $1 }
        END { printf "%.2f", (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

echo "==> warm-up"
for i in "${!names[@]}"; do wrk -t 2 -c 16 -d 1s -H "Cookie: $cookie" "$dash${paths[$i]}" >/dev/null; done
wrk -t 2 -c 16 -d 1s "http://127.0.0.1:$nginx_port/home.html" >/dev/null

echo "==> wrk $DURATION per run, $THREADS threads; $(nproc) cores; load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo "==> each cell runs ours, nginx, nginx, ours; the better run of each is shown"
read -r calls_before stats_before <<<"$(upstream_calls)"
started=$(date +%s.%N)
printf '%-7s %6s %5s %11s %9s %7s %11s %9s %7s %6s\n' page bytes conns "ours req/s" "ours p99" "us CPU" \
    "nginx req/s" "nginx p99" "us CPU" ratio
p99_lines=()
for i in "${!names[@]}"; do
    name=${names[$i]}
    size=$(stat -c %s "$work/html/$name.html")
    for c in $CONNECTIONS; do
        ours_url="$dash${paths[$i]}"
        nginx_url="http://127.0.0.1:$nginx_port/$name.html"
        visitor=$(bench_visit "$dash" "$cookie")
        alternate "$ours_url" "$nginx_url" "$c" rps -H "Cookie: $visitor" -H "Accept-Encoding: identity"
        read -r ours_rps ours_p99 ours_cpu ours_err <<<"$ours"
        read -r nginx_rps nginx_p99 nginx_cpu _ <<<"$nginx"
        ratio=$(ratio "$ours_rps" "$nginx_rps")
        printf '%-7s %6s %5s %11s %9s %7s %11s %9s %7s %6s\n' "$name" "$size" "$c" "$ours_rps" "$ours_p99" \
            "$ours_cpu" "$nginx_rps" "$nginx_p99" "$nginx_cpu" "$ratio"
        if [[ "$ours_err" != "none" ]]; then echo "        ours: ${ours_err//_/ }"; fi
        if ((c == 64)); then
            more_p99_runs "$ours_url" "$nginx_url" "$c" -H "Cookie: $visitor" -H "Accept-Encoding: identity"
            p99_lines+=("$name $c|$ours_p99s|$nginx_p99s")
        fi
    done
done
if ((${#p99_lines[@]} > 0)); then print_p99_runs "${p99_lines[@]}"; fi

# Compressed (issue 14): the same pages with "Accept-Encoding: gzip", ours from the render cache's gzip bytes (made
# once per rendering), nginx from the .gz files next to the pages (gzip_static), at one concurrency.
echo
echo "==> compressed: Accept-Encoding: gzip, c = ${GZIP_CONNECTIONS:=64}"
printf '%-7s %8s %8s %11s %9s %11s %9s %6s\n' page "ours gz" "nginx gz" "ours req/s" "ours p99" "nginx req/s" \
    "nginx p99" ratio
gzip_p99_lines=()
for i in "${!names[@]}"; do
    name=${names[$i]}
    ours_url="$dash${paths[$i]}"
    nginx_url="http://127.0.0.1:$nginx_port/$name.html"
    ours_size=$(curl -s -H "Cookie: $cookie" -H "Accept-Encoding: gzip" "$ours_url" | wc -c)
    nginx_size=$(stat -c %s "$work/html/$name.html.gz")
    visitor=$(bench_visit "$dash" "$cookie")
    alternate "$ours_url" "$nginx_url" "$GZIP_CONNECTIONS" rps -H "Cookie: $visitor" -H "Accept-Encoding: gzip"
    read -r ours_rps ours_p99 _ _ <<<"$ours"
    read -r nginx_rps nginx_p99 _ _ <<<"$nginx"
    ratio=$(ratio "$ours_rps" "$nginx_rps")
    printf '%-7s %8s %8s %11s %9s %11s %9s %6s\n' "$name" "$ours_size" "$nginx_size" "$ours_rps" "$ours_p99" \
        "$nginx_rps" "$nginx_p99" "$ratio"
    more_p99_runs "$ours_url" "$nginx_url" "$GZIP_CONNECTIONS" -H "Cookie: $visitor" -H "Accept-Encoding: gzip"
    gzip_p99_lines+=("$name $GZIP_CONNECTIONS|$ours_p99s|$nginx_p99s")
done
print_p99_runs "${gzip_p99_lines[@]}"
finished=$(date +%s.%N)
read -r calls_after stats_after <<<"$(upstream_calls)"
awk -v a="$calls_before" -v b="$calls_after" -v s="$stats_before" -v t="$stats_after" -v d="$(echo "$finished - $started" | bc)" \
    'BEGIN { printf "upstream calls during the runs: %.2f/s (statistics: %.2f/s) over %.0f s\n", (b - a) / d, (t - s) / d, d }'
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"

# An unchanged live poll, as live.js sends it, measured on the wire.
python3 - "$dash" "$cookie" <<'PY'
import socket, sys, urllib.parse, urllib.request
dash, cookie = sys.argv[1], sys.argv[2]
host = urllib.parse.urlsplit(dash)
request = urllib.request.Request(dash + "/fragments/home", headers={"Cookie": cookie})
etag = urllib.request.urlopen(request).headers["ETag"]
with socket.create_connection((host.hostname, host.port)) as s:
    s.sendall(f"GET /fragments/home HTTP/1.1\r\nHost: {host.netloc}\r\nCookie: {cookie}\r\nIf-None-Match: {etag}\r\n\r\n".encode())
    answer = b""
    while b"\r\n\r\n" not in answer:
        answer += s.recv(4096)
print(f"304 on the wire: {len(answer)} bytes ({answer.split(b' ')[1].decode()})")
PY
echo "dashboard peak RSS: $(awk '/VmHWM/ {print $2, $3}' "/proc/$dash_pid/status")"

# RSS with 1 000 idle keep-alive connections (each has made one request) from 4 client addresses (127.0.0.10-13, 250
# each, within the default per-address limit of 256), as issue 21 counts them.
python3 - "$dash" "$dash_pid" <<'PY'
import resource, socket, sys, urllib.parse
dash, pid = sys.argv[1], sys.argv[2]
resource.setrlimit(resource.RLIMIT_NOFILE, (4096, resource.getrlimit(resource.RLIMIT_NOFILE)[1]))
host = urllib.parse.urlsplit(dash)
def rss():
    for line in open(f"/proc/{pid}/status"):
        if line.startswith("VmRSS"): return line.split()[1]
before = rss()
sockets = []
for index in range(1000):
    s = socket.create_connection((host.hostname, host.port), source_address=(f"127.0.0.{10 + index % 4}", 0))
    s.sendall(f"GET /healthz HTTP/1.1\r\nHost: {host.netloc}\r\n\r\n".encode())
    answer = b""
    while b"ok\n" not in answer:
        answer += s.recv(4096)
    sockets.append(s)
print(f"RSS with 1000 idle keep-alive connections from 4 addresses: {int(rss()) / 1024:.1f} MB "
      f"(before: {int(before) / 1024:.1f} MB)")
for s in sockets: s.close()
PY

echo "==> new snapshot version, rendered with nothing cached (release, median)"
"$bin/pages-render-bench" "$api" Templates 2000

# At the same load (PACED=0 skips it): the same pages at c = 64, each connection waiting 1 ms after each answer
# before its next request (Benchmarks/paced.lua), so both servers get about the same request rate, well below what
# either can serve. wrk's two threads share this machine's two cores with the server: in the tables above the faster
# server also gives wrk more work, and the busier the cores, the longer a thread waits for one, so the p99 at full
# speed measures that contention as much as the server. Here the p99s compare at one load.
if [[ ${PACED:-1} != 0 ]]; then
    echo
    echo "==> at the same load: c = 64, each connection waits 1 ms between an answer and its next request"
    printf '%-7s %11s %9s %7s %11s %9s %7s %9s\n' page "ours req/s" "ours p99" "us CPU" "nginx req/s" "nginx p99" \
        "us CPU" "p99 ratio"
    for i in "${!names[@]}"; do
        name=${names[$i]}
        ours_url="$dash${paths[$i]}"
        nginx_url="http://127.0.0.1:$nginx_port/$name.html"
        visitor=$(bench_visit "$dash" "$cookie")
        alternate "$ours_url" "$nginx_url" 64 p99 -s Benchmarks/paced.lua -H "Cookie: $visitor" \
            -H "Accept-Encoding: identity"
        read -r ours_rps ours_p99 ours_cpu _ <<<"$ours"
        read -r nginx_rps nginx_p99 nginx_cpu _ <<<"$nginx"
        printf '%-7s %11s %9s %7s %11s %9s %7s %9s\n' "$name" "$ours_rps" "$ours_p99" "$ours_cpu" "$nginx_rps" \
            "$nginx_p99" "$nginx_cpu" "$(ratio "$(milliseconds "$ours_p99")" "$(milliseconds "$nginx_p99")")"
    done
fi
