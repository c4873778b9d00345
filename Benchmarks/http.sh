#!/usr/bin/env bash
# Benchmarks our HTTP server against nginx on the same ~20 KB HTML page, with wrk on loopback.
#
# Ours: the release-built `http-bench-server` (Benchmarks/http-bench-server, built only with HABITS_BENCH=1),
# serving the page from memory through the real Server/Router/Connection stack, access log off.
# nginx: 1 worker, access_log off, keep-alive on (1000 requests per connection, like ours), sendfile,
# serving the very same bytes from a file. Both run in the same invocation, one after the other.
#
# Prints req/s, p99 latency and the ratio ours/nginx for each concurrency, the CPU time each server spent
# per request (user+sys; steadier than req/s on a busy machine), and our peak RSS (VmHWM).
# Usage: Benchmarks/http.sh            (DURATION=10s CONNECTIONS="1 16 64 256" THREADS=2 by default)
set -euo pipefail
cd "$(dirname "$0")/.."

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

missing=()
command -v wrk >/dev/null || missing+=(wrk)
command -v nginx >/dev/null || [[ -x /usr/sbin/nginx ]] || missing+=(nginx)
if ((${#missing[@]})); then
    echo "==> installing ${missing[*]}"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
NGINX=$(command -v nginx || echo /usr/sbin/nginx)

echo "==> building http-bench-server (release)"
export HABITS_BENCH=1
swift build -c release --product http-bench-server 2>&1 | tail -1
bin="$(swift build -c release --show-bin-path)/http-bench-server"

mkdir -p "$work/html" "$work/tmp"
chmod 755 "$work" "$work/html"  # nginx workers run as an unprivileged user
"$bin" --dump-page "$work/html/index.html"
chmod 644 "$work/html/index.html"
page_bytes=$(stat -c %s "$work/html/index.html")

# Ours, on a kernel-chosen port that it announces on stdout.
"$bin" --port 0 >"$work/ours.out" &
ours_pid=$!
for _ in $(seq 50); do grep -q http "$work/ours.out" 2>/dev/null && break; sleep 0.1; done
ours_port=$(sed -n 's#.*127.0.0.1:\([0-9]*\)/.*#\1#p' "$work/ours.out")

# nginx, on a free loopback port.
nginx_port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
cat >"$work/nginx.conf" <<CONF
worker_processes 1;
daemon on;
pid $work/nginx.pid;
error_log $work/nginx-error.log warn;
events { worker_connections 4096; }
http {
    access_log off;
    sendfile on;
    tcp_nopush on;
    tcp_nodelay on;
    keepalive_timeout 65;
    keepalive_requests 1000;
    open_file_cache max=16 inactive=60s;
    default_type text/html;
    client_body_temp_path $work/tmp/body;
    proxy_temp_path $work/tmp/proxy;
    fastcgi_temp_path $work/tmp/fastcgi;
    uwsgi_temp_path $work/tmp/uwsgi;
    scgi_temp_path $work/tmp/scgi;
    server {
        listen 127.0.0.1:$nginx_port;
        root $work/html;
    }
}
CONF
"$NGINX" -p "$work" -c "$work/nginx.conf"
sleep 0.3

check() {
    local got
    got=$(curl -s "$1" | wc -c)
    if [[ "$got" != "$page_bytes" ]]; then echo "$1 served $got bytes, expected $page_bytes" >&2; exit 1; fi
}
check "http://127.0.0.1:$ours_port/"
check "http://127.0.0.1:$nginx_port/index.html"

nginx_worker=$(pgrep -P "$(cat "$work/nginx.pid")" | head -1)
cpu_ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }

# Runs wrk against the server with pid $3; prints "req/s p99 cpu-us-per-request errors".
run_wrk() {
    local url=$1 connections=$2 pid=$3 threads=$THREADS out before after
    if ((threads > connections)); then threads=$connections; fi
    before=$(cpu_ticks "$pid")
    out=$(wrk -t "$threads" -c "$connections" -d "$DURATION" --latency "$url")
    after=$(cpu_ticks "$pid")
    local rps p99 requests cpu errors
    rps=$(awk '/^Requests\/sec:/ {print $2}' <<<"$out")
    p99=$(awk '$1 == "99%" {print $2}' <<<"$out")
    requests=$(awk '/requests in/ {print $1}' <<<"$out")
    cpu=$(awk -v t=$((after - before)) -v r="$requests" -v hz="$(getconf CLK_TCK)" \
        'BEGIN { if (r > 0) printf "%.1f", t * 1e6 / hz / r; else print "n/a" }')
    errors=$(grep -E 'Socket errors|Non-2xx' <<<"$out" | tr -s ' ' | paste -sd ';' - || true)
    echo "$rps $p99 $cpu ${errors:-none}"
}

echo "==> warm-up"
wrk -t 2 -c 16 -d 2s "http://127.0.0.1:$ours_port/" >/dev/null
wrk -t 2 -c 16 -d 2s "http://127.0.0.1:$nginx_port/index.html" >/dev/null

echo "==> page: $page_bytes bytes; wrk $DURATION per run, $THREADS threads; $(nproc) cores"
echo "==> load average before: $(cut -d' ' -f1-3 /proc/loadavg) (other work on the machine skews req/s)"
printf '%-6s %12s %9s %8s %12s %9s %8s %7s\n' "conns" "ours req/s" "ours p99" "us CPU" "nginx req/s" "nginx p99" "us CPU" \
    "ratio"
for c in $CONNECTIONS; do
    read -r ours_rps ours_p99 ours_cpu ours_err <<<"$(run_wrk "http://127.0.0.1:$ours_port/" "$c" "$ours_pid")"
    read -r nginx_rps nginx_p99 nginx_cpu nginx_err \
        <<<"$(run_wrk "http://127.0.0.1:$nginx_port/index.html" "$c" "$nginx_worker")"
    ratio=$(awk -v a="$ours_rps" -v b="$nginx_rps" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "n/a" }')
    printf '%-6s %12s %9s %8s %12s %9s %8s %7s\n' "$c" "$ours_rps" "$ours_p99" "$ours_cpu" "$nginx_rps" "$nginx_p99" \
        "$nginx_cpu" "$ratio"
    if [[ "$ours_err" != "none" ]]; then echo "       ours: $ours_err"; fi
    if [[ "$nginx_err" != "none" ]]; then echo "       nginx: $nginx_err"; fi
done
echo "ours peak RSS: $(awk '/VmHWM/ {print $2, $3}' "/proc/$ours_pid/status")"
