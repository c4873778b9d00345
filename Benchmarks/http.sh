#!/usr/bin/env bash
# Benchmarks our HTTP server against nginx on the same ~20 KB HTML page, with wrk on loopback.
#
# Ours: the release-built `http-bench-server` (Benchmarks/http-bench-server, built only with HABITS_BENCH=1),
# serving the page from memory through the real Server/Router/Connection stack, with its access log on
# (one line per request, written to /dev/null here).
# nginx: 1 worker, access_log off, keep-alive on (1000 requests per connection, like ours), sendfile,
# serving the very same bytes from a file. Both run in the same invocation, alternately (ours, nginx, nginx,
# ours for each concurrency, so drifting load from other work hits both alike); the better run of each counts.
#
# Prints req/s, p99 latency and the ratio ours/nginx for each concurrency, the CPU time each server spent
# per request (user+sys; steadier than req/s on a busy machine), and our peak RSS (VmHWM).
# Usage: Benchmarks/http.sh            (DURATION=10s CONNECTIONS="1 16 64 256" THREADS=2 by default)
#        NGINX_WORKERS=2 Benchmarks/http.sh   (nginx with as many workers as our event loops; 1 by default)
set -euo pipefail
cd "$(dirname "$0")/.."
source Benchmarks/lib.sh

DURATION=${DURATION:-10s}
CONNECTIONS=${CONNECTIONS:-"1 16 64 256"}
THREADS=${THREADS:-2}

work=$(mktemp -d)
ours_pid=""
cleanup() {
    if [[ -n "$ours_pid" ]]; then kill "$ours_pid" 2>/dev/null || true; fi
    if [[ -f "$work/nginx.pid" ]]; then kill "$(cat "$work/nginx.pid")" 2>/dev/null || true; fi
    rm -rf "$work"
}
trap cleanup EXIT

bench_require wrk nginx curl

echo "==> building http-bench-server (release)"
export HABITS_BENCH=1
swift build -c release --product http-bench-server 2>&1 | tail -1
bin="$(swift build -c release --show-bin-path)/http-bench-server"

mkdir -p "$work/html"
"$bin" --dump-page "$work/html/index.html"
chmod 644 "$work/html/index.html"
page_bytes=$(stat -c %s "$work/html/index.html")

# Ours, on a kernel-chosen port that it announces on stdout.
"$bin" --port 0 >"$work/ours.out" 2>/dev/null &
ours_pid=$!
for _ in $(seq 50); do grep -q http "$work/ours.out" 2>/dev/null && break; sleep 0.1; done
ours_port=$(sed -n 's#.*127.0.0.1:\([0-9]*\)/.*#\1#p' "$work/ours.out")

# nginx, on a free loopback port.
start_static_nginx "$work" "$work/html"

check() {
    local got
    got=$(curl -s "$1" | wc -c)
    if [[ "$got" != "$page_bytes" ]]; then echo "$1 served $got bytes, expected $page_bytes" >&2; exit 1; fi
}
check "http://127.0.0.1:$ours_port/"
check "http://127.0.0.1:$nginx_port/index.html"

echo "==> warm-up"
wrk -t 2 -c 16 -d 2s "http://127.0.0.1:$ours_port/" >/dev/null
wrk -t 2 -c 16 -d 2s "http://127.0.0.1:$nginx_port/index.html" >/dev/null

echo "==> page: $page_bytes bytes; wrk $DURATION per run, $THREADS threads; $(nproc) cores"
echo "==> ours writes one access-log line per request (to /dev/null here); nginx has access_log off"
echo "==> each concurrency runs ours, nginx, nginx, ours; the better run of each is shown (CPU: the lower)"
echo "==> load average before: $(cut -d' ' -f1-3 /proc/loadavg) (other work on the machine skews req/s)"
printf '%-6s %12s %9s %8s %12s %9s %8s %7s\n' "conns" "ours req/s" "ours p99" "us CPU" "nginx req/s" "nginx p99" "us CPU" \
    "ratio"
for c in $CONNECTIONS; do
    ours_url="http://127.0.0.1:$ours_port/"
    nginx_url="http://127.0.0.1:$nginx_port/index.html"
    ours1=$(run_wrk "$ours_url" "$c" "$ours_pid")
    nginx1=$(run_wrk "$nginx_url" "$c" "$nginx_worker")
    nginx2=$(run_wrk "$nginx_url" "$c" "$nginx_worker")
    ours2=$(run_wrk "$ours_url" "$c" "$ours_pid")
    read -r ours_rps ours_p99 ours_cpu ours_err <<<"$(better "$ours1" "$ours2")"
    read -r nginx_rps nginx_p99 nginx_cpu nginx_err <<<"$(better "$nginx1" "$nginx2")"
    ratio=$(ratio "$ours_rps" "$nginx_rps")
    printf '%-6s %12s %9s %8s %12s %9s %8s %7s\n' "$c" "$ours_rps" "$ours_p99" "$ours_cpu" "$nginx_rps" "$nginx_p99" \
        "$nginx_cpu" "$ratio"
    if [[ "$ours_err" != "none" ]]; then echo "       ours: ${ours_err//_/ }"; fi
    if [[ "$nginx_err" != "none" ]]; then echo "       nginx: ${nginx_err//_/ }"; fi
done
echo "==> load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "ours peak RSS: $(awk '/VmHWM/ {print $2, $3}' "/proc/$ours_pid/status")"
