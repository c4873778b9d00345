# Sourced by the benchmark scripts (http.sh, pages.sh, scale.sh, cluster.sh) after they cd to the repository root:
# installing what they need, a work directory cleaned up at exit, release builds, starting our servers and a browser
# with settings, nginx serving files, and wrk runs summed up the same way everywhere.
# shellcheck shell=bash

source scripts/apt-install.sh

# bench_require TOOL...: installs the Debian packages of the missing tools (named like their packages: wrk, nginx,
# curl) and sets NGINX to the nginx binary (Debian's is in /usr/sbin, often not on a user's PATH).
bench_require() {
    local missing=() tool
    for tool in "$@"; do
        if [[ $tool == nginx ]]; then
            command -v nginx >/dev/null || [[ -x /usr/sbin/nginx ]] || missing+=(nginx)
        else
            command -v "$tool" >/dev/null || missing+=("$tool")
        fi
    done
    if ((${#missing[@]})); then
        echo "==> installing ${missing[*]}"
        apt_install "${missing[@]}" >/dev/null || { echo "cannot install ${missing[*]} (apt-get as root or sudo)" >&2; exit 1; }
    fi
    NGINX=$(command -v nginx || echo /usr/sbin/nginx)
}

# bench_work: a temporary directory in $work, removed at exit together with every server whose pid file (NAME.pid,
# as bench_start writes it) is in it. Servers are started inside $(…) subshells, so their pids come from the files.
bench_work() {
    work=$(mktemp -d)
    trap bench_cleanup EXIT
}
bench_cleanup() {
    local file pids=()
    for file in "$work"/*.pid; do [[ -f "$file" ]] && pids+=("$(cat "$file")"); done
    ((${#pids[@]})) && kill "${pids[@]}" 2>/dev/null || true
    local pid
    for pid in "${pids[@]}"; do bench_gone "$pid"; done
    rm -rf "$work"
}

# bench_gone PID: returns once PID has exited (10 s at most). What bench_start starts is not this shell's child (it
# runs in a command substitution), so `wait` cannot see it: a dashboard still writing its cache while it stops made
# rm fail on a directory that was not empty.
bench_gone() {
    for _ in $(seq 100); do kill -0 "$1" 2>/dev/null || return 0; sleep 0.1; done
}

# bench_build PRODUCT...: release builds of the products, with HABITS_BENCH=1 so the benchmark executables exist;
# sets bin to the directory they are in.
bench_build() {
    echo "==> building $* (release)"
    export HABITS_BENCH=1
    local product
    for product in "$@"; do
        swift build -c release --product "$product" 2>&1 | tail -1
    done
    bin=$(swift build -c release --show-bin-path)
}

# bench_start NAME PATTERN [ARG...]: starts $bin/NAME with the ARGs in the background (stdout in $work/NAME.out, pid
# in $work/NAME.pid) and prints the URL it announces after PATTERN, without the trailing slash. Waits up to 60 s: a
# dashboard in front of 100 times the data announces late. Access logs (stderr) go to /dev/null, as in http.sh:
# the figure is the server's, not the disk's.
bench_start() {
    local name=$1 pattern=$2
    shift 2
    "$bin/$name" "$@" >"$work/$name.out" 2>/dev/null &
    echo $! >"$work/$name.pid"
    for _ in $(seq 600); do grep -q "$pattern" "$work/$name.out" 2>/dev/null && break; sleep 0.1; done
    sed -n "s#.*$pattern \(http://[^ ]*\)#\1#p" "$work/$name.out" | sed 's#/$##' | head -1
}

# bench_stop NAME: stops what bench_start started as NAME and waits for it.
bench_stop() {
    local pid
    pid=$(cat "$work/$1.pid")
    kill "$pid" 2>/dev/null || true
    bench_gone "$pid"
    rm -f "$work/$1.pid"
}

# bench_browser API DASHBOARD: a browser whose settings are made through the dashboard's own forms (the first 4
# habits favourited, the first 5 people followed), so its cookie is whatever the dashboard mints. Prints "COOKIE
# HABIT_PATH PERSON_PATH" (the first of each); a form not answered 303 is named on stderr, and the status is then 1.
bench_browser() {
    python3 - "$1" "$2" <<'PY'
import http.client, json, sys, urllib.parse, urllib.request
api, dash = sys.argv[1], sys.argv[2]
habits = sorted(json.load(urllib.request.urlopen(api + "/habits")))[:4]
users = sorted(u for u in json.load(urllib.request.urlopen(api + "/users")) if u != "activeUser")[:5]
host = urllib.parse.urlsplit(dash).netloc
cookie, failed = None, 0
def post(path, form):
    global cookie, failed
    connection = http.client.HTTPConnection(host, timeout=120)
    headers = {"Origin": dash, "Content-Type": "application/x-www-form-urlencoded"}
    if cookie: headers["Cookie"] = cookie
    connection.request("POST", path, body=form, headers=headers)
    response = connection.getresponse()
    response.read()
    if response.status != 303:
        print(f"bench_browser: POST {path} answered {response.status}", file=sys.stderr)
        failed += 1
    minted = response.getheader("Set-Cookie")
    if minted: cookie = minted.split(";")[0]
q = lambda value: urllib.parse.quote(value, safe="")
for habit in habits: post("/habits/" + q(habit) + "/favorite", "favorite=true")
for user in users: post("/people/" + q(user) + "/follow", "follow=true")
print(cookie, "/habits/" + q(habits[0]), "/people/" + q(users[0]))
sys.exit(1 if failed else 0)
PY
}

# bench_visit DASHBOARD COOKIE: COOKIE with the last-visit cookie a browser holds after loading Home now, for a Cookie
# header. A browser sends it back, so its pages come without a Set-Cookie until the cookie is a minute old; without
# it every answer would renew it (a Set-Cookie on each, unlike any browser's). Fetch it again for each run.
bench_visit() {
    local visit
    visit=$(curl -s -o /dev/null -D - -H "Cookie: $2" "$1/" | tr -d '\r' |
        sed -n 's/^[Ss]et-[Cc]ookie: \(habits_visit=[^;]*\).*/\1/p' | head -1)
    echo "$2${visit:+; $visit}"
}

source scripts/free-port.sh  # free_port: below the kernel's ephemeral range, as every script picks a port

# start_static_nginx WORK ROOT [DIRECTIVE...]: nginx as the reference static server: 1 worker (NGINX_WORKERS to
# give it as many as we have event loops: with wrk on the same cores, a second worker widens its p99 as our second
# loop widens ours), access log off,
# keep-alive on (1000 requests per connection, like ours), sendfile, serving ROOT; extra server DIRECTIVEs (such as
# "gzip_static on;") go into its server block. Its files live in WORK (WORK/nginx.pid for the caller's clean-up).
# Sets nginx_port and nginx_worker (the workers' pids, comma-separated, whose CPU time run_wrk reads).
start_static_nginx() {
    local work=$1 root=$2
    shift 2
    nginx_port=$(free_port)
    mkdir -p "$work/tmp"
    chmod 755 "$work" "$root"  # nginx workers run as an unprivileged user
    cat >"$work/nginx.conf" <<CONF
worker_processes ${NGINX_WORKERS:-1};
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
        root $root;
        $*
    }
}
CONF
    "$NGINX" -p "$work" -c "$work/nginx.conf"
    sleep 0.3
    nginx_worker=$(pgrep -d, -P "$(cat "$work/nginx.pid")")
}

# cpu_ticks PID[,PID...]: user + system time of the processes so far, in clock ticks.
cpu_ticks() {
    local pids=() pid
    IFS=, read -ra pids <<<"$1"
    for pid in "${pids[@]}"; do echo "/proc/$pid/stat"; done | xargs awk '{sum += $14 + $15} END {print sum}'
}

# run_wrk URL CONNECTIONS PIDS [WRK OPTION...]: one wrk run of $DURATION with up to $THREADS threads (2 by default);
# prints "req/s p99 cpu-us-per-request errors". CPU time per request (user + sys of the PIDS, from /proc; "n/a"
# when PIDS is empty) is steadier than req/s on a machine shared with other work. Spaces in errors become "_".
run_wrk() {
    local url=$1 connections=$2 pid=$3 threads=${THREADS:-2} out before=0 after=0
    shift 3
    if ((threads > connections)); then threads=$connections; fi
    [[ -z $pid ]] || before=$(cpu_ticks "$pid")
    out=$(wrk -t "$threads" -c "$connections" -d "$DURATION" --latency "$@" "$url")
    [[ -z $pid ]] || after=$(cpu_ticks "$pid")
    local rps p99 requests cpu=n/a errors
    rps=$(awk '/^Requests\/sec:/ {print $2}' <<<"$out")
    p99=$(awk '$1 == "99%" {print $2}' <<<"$out")
    requests=$(awk '/requests in/ {print $1}' <<<"$out")
    if [[ -n $pid ]]; then
        cpu=$(awk -v t=$((after - before)) -v r="$requests" -v hz="$(getconf CLK_TCK)" \
            'BEGIN { if (r > 0) printf "%.1f", t * 1e6 / hz / r; else print "n/a" }')
    fi
    errors=$(grep -E 'Socket errors|Non-2xx' <<<"$out" | tr -s ' ' | paste -sd ';' - || true)
    errors=${errors:-none}
    echo "$rps $p99 $cpu ${errors// /_}"
}

# better RUN RUN [p99]: the better of two run_wrk lines: higher req/s wins, or with "p99" (two runs at the same load)
# the lower p99; the run's other figures go with it, and CPU per request is the lower of the two.
better() {
    awk -v a="$1" -v b="$2" -v by="${3:-rps}" -v ma="$(milliseconds "$(cut -d' ' -f2 <<<"$1")")" \
        -v mb="$(milliseconds "$(cut -d' ' -f2 <<<"$2")")" 'BEGIN {
        split(a, x, " "); split(b, y, " ")
        first = (by == "p99") ? (ma <= mb) : (x[1] + 0 >= y[1] + 0)
        best = first ? a : b
        split(best, z, " ")
        cpu = (x[3] + 0 <= y[3] + 0) ? x[3] : y[3]
        print z[1], z[2], cpu, z[4]
    }'
}

# ratio A B: A / B to two places, "n/a" when B is zero.
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "n/a" }'; }

# milliseconds DURATION: wrk's latency ("812.00us", "3.41ms", "1.02s") in milliseconds.
milliseconds() {
    awk -v d="$1" 'BEGIN {
        if (d ~ /us$/) print d / 1000; else if (d ~ /ms$/) print d + 0; else if (d ~ /s$/) print d * 1000; else print 0
    }'
}
