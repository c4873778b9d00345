#!/usr/bin/env bash
# Benchmarks the dashboard as a crowd uses it (issue 46 point 1): BROWSERS distinct browsers, each with its own settings
# made through the dashboard's own forms (1-4 favourites, 0-5 follows), and wrk cycling through (browser, page) pairs,
# so consecutive requests differ, against nginx serving each pair's own bytes from its own file (open_file_cache large
# enough for all of them). pages.sh measures one browser repeating one request; this is the figure that says how the
# dashboard meets many.
#
# Release builds of habits-api (frozen: --no-simulation) and habits-dashboard (--upstream that API). Benchmarks/crowd.py
# makes the browsers, fetches every (browser, page) pair's bytes into nginx's root (with a gzip copy for gzip_static)
# and writes the wrk scripts. Each cell runs ours, nginx, nginx, ours; the better run of each is shown. Prints, per
# page, identity and gzip: the median size, req/s of both, their ratio, CPU time per request of both and its ratio;
# then the dashboard's peak RSS and its RSS at the end.
# Usage: Benchmarks/crowd.sh                  (BROWSERS=1000 DURATION=4s CONNECTIONS=64 THREADS=2 SEED=1)
#        BROWSERS=10000 Benchmarks/crowd.sh  (making 10 000 browsers through the forms takes a few minutes)
set -euo pipefail
cd "$(dirname "$0")/.."
source Benchmarks/lib.sh

BROWSERS=${BROWSERS:-1000}
DURATION=${DURATION:-4s}
CONNECTIONS=${CONNECTIONS:-64}
THREADS=${THREADS:-2}
SEED=${SEED:-1}

bench_work
bench_require wrk nginx curl
bench_build habits-api habits-dashboard
api=$(bench_start habits-api "Habits API simulator:" --port 0 --seed 42 --no-simulation)
# Every browser comes from 127.0.0.1: the new-browser rate (30 a minute per address by default) would refuse the
# crowd, so it is raised for the run.
dash=$(bench_start habits-dashboard "Habits Dashboard:" --port 0 --upstream "$api" --settings-dir "$work/settings" \
    --cache-dir "$work/cache" --new-browser-rate 1000000)
dash_pid=$(cat "$work/habits-dashboard.pid")
echo "==> upstream $api, dashboard $dash; making $BROWSERS browsers through the forms"

declare -A size
while read -r name bytes; do size[$name]=$bytes; done < <(python3 Benchmarks/crowd.py browsers "$api" "$dash" \
    "$BROWSERS" "$SEED" "$work")
names=(home habit person habits people)
files=$((BROWSERS * 10 + 100))
# nginx keeps every cached file open: past the open-file limit (20 000 in this container) it fails requests instead
# (10 000 browsers are 100 000 files), so the cache holds what the limit allows and the rest are opened per request.
limit=$(($(ulimit -n) - 1000))
((files <= limit)) || files=$limit
start_static_nginx "$work" "$work/html" "gzip_static on;" "gzip_vary on;" "open_file_cache max=$files inactive=600s;"
echo "==> nginx on $nginx_port serving $((BROWSERS * 5)) pages (and their .gz)"
sed -i "s/__HOST__/${dash#http://}/" "$work"/*-ours.lua
sed -i "s/__HOST__/127.0.0.1:$nginx_port/" "$work"/*-nginx.lua
# The same bytes from both, or the comparison means nothing: a sample of the pairs is checked before the runs.
python3 - "$work" "$dash" "$nginx_port" <<'PY'
import re, sys, urllib.request
work, dash, port = sys.argv[1:4]
for name in ["home", "habit", "person", "habits", "people"]:
    ours = open(f"{work}/{name}-ours.lua").read()
    theirs = open(f"{work}/{name}-nginx.lua").read()
    pattern = r"wrk.format\('GET', \"([^\"]*)\", \{\['Host'\] = host, \['Cookie'\] = \"([^\"]*)\"\}\)"
    pairs = list(zip(re.findall(pattern, ours), re.findall(pattern, theirs)))
    for (path, cookie), (file, _) in pairs[:: max(1, len(pairs) // 20)]:
        a = urllib.request.urlopen(urllib.request.Request(dash + path, headers={"Cookie": cookie})).read()
        b = urllib.request.urlopen(f"http://127.0.0.1:{port}{file}").read()
        # Home's sparklines gain a point every history slot (10 s) while the crowd is made, and a card's trend line
        # appears once it has two samples: compared without them, the pages differ by a few bytes at most.
        if name == "home":
            a, b = (re.sub(rb"<svg.*?</svg>", b"", page, flags=re.S) for page in (a, b))
        if abs(len(a) - len(b)) > 64:
            sys.exit(f"crowd.sh: {name} {path}: ours {len(a)} bytes, nginx {len(b)}")
PY

# cell NAME [WRK OPTION...]: ours, nginx, nginx, ours for page NAME; sets ours and nginx to the better run of each.
cell() {
    local name=$1
    shift
    local o1 n1 n2 o2
    o1=$(run_wrk "$dash/" "$CONNECTIONS" "$dash_pid" -s "$work/$name-ours.lua" "$@")
    n1=$(run_wrk "http://127.0.0.1:$nginx_port/" "$CONNECTIONS" "$nginx_worker" -s "$work/$name-nginx.lua" "$@")
    n2=$(run_wrk "http://127.0.0.1:$nginx_port/" "$CONNECTIONS" "$nginx_worker" -s "$work/$name-nginx.lua" "$@")
    o2=$(run_wrk "$dash/" "$CONNECTIONS" "$dash_pid" -s "$work/$name-ours.lua" "$@")
    ours=$(better "$o1" "$o2")
    nginx=$(better "$n1" "$n2")
}

for encoding in identity gzip; do
    echo
    echo "==> $BROWSERS browsers, c = $CONNECTIONS, $DURATION runs, Accept-Encoding: $encoding; $(nproc) cores; load" \
        "average $(cut -d' ' -f1-3 /proc/loadavg)"
    printf '%-7s %7s %11s %11s %6s %9s %9s %6s  %s\n' page bytes "ours req/s" "nginx req/s" ratio "ours us" \
        "nginx us" "CPU x" errors
    for name in "${names[@]}"; do
        if [[ $encoding == gzip ]]; then cell "$name" -H "Accept-Encoding: gzip"; else cell "$name"; fi
        read -r ours_rps _ ours_cpu ours_errors <<<"$ours"
        read -r nginx_rps _ nginx_cpu nginx_errors <<<"$nginx"
        errors=""
        [[ $ours_errors == none ]] || errors+="ours: ${ours_errors//_/ } "
        [[ $nginx_errors == none ]] || errors+="nginx: ${nginx_errors//_/ }"
        printf '%-7s %7s %11s %11s %6s %9s %9s %6s  %s\n' "$name" "${size[$name]}" "$ours_rps" "$nginx_rps" \
            "$(ratio "$ours_rps" "$nginx_rps")" "$ours_cpu" "$nginx_cpu" "$(ratio "$ours_cpu" "$nginx_cpu")" "$errors"
    done
done

echo
awk '/^VmHWM/ {printf "dashboard peak RSS: %.1f MB", $2 / 1024}
    /^VmRSS/ {printf ", at the end: %.1f MB\n", $2 / 1024}' \
    "/proc/$dash_pid/status"
echo "targets (issue 46): every page >= 1.0x nginx at N = 1 000 (>= 0.8x at 10 000), CPU per request <= 1.25x" \
    "nginx's; RSS <= 64 MB at N = 1 000, <= 96 MB at 10 000"
