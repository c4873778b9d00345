#!/usr/bin/env bash
# N habits-dashboard processes behind nginx on one machine (issue 11; docs/DEPLOY.md explains every piece).
#
#   scripts/cluster.sh --instances N [--store files|postgres] [--database URL] [--port P] [--upstream URL]
#                      [--balance hash|round-robin] [--settings-dir DIR] [--bin DIR] [--hosts] [--api-seed N]
#                      [-- FLAGS...]
#
# Starts, all on 127.0.0.1:
#   - one habits-api (release build, kernel-chosen port), unless --upstream names a Habits API to use;
#   - --store files (the default): nginx (one process, deploy/nginx-cluster.conf.template) as a 1 s shared
#     micro-cache in front of that API, and as the front on port P (default 8000) routing browsers to the dashboards
#     by their settings cookie; N habits-dashboard processes on kernel-chosen ports, all with --upstream pointed at
#     the cache, one shared --settings-dir (default ./var/settings, as for one dashboard), --trusted-proxy 127.0.0.1
#     and FLAGS;
#   - --store postgres (issue 19): a throwaway PostgreSQL in the run directory (scripts/postgres.sh: loopback only,
#     a generated password, as the postgres user when run as root), or the one --database URL names; the N dashboards
#     get that URL (in DATABASE_URL), a --settings-dir and --cache-dir of their own (nothing is shared through
#     files) and the API itself as --upstream (one refresher calls it; no cache in front); nginx is only the front.
#     Prints `database: URL`.
# Each dashboard serves /metrics only on a kernel-chosen loopback port of its own (--metrics-port 0), printed
# beside it as `Dashboard i: URL/ (pid P, metrics URL)`.
# Prints the URL to open as its last line, then runs until Ctrl-C or SIGTERM, which stop every process it started.
# A dashboard that dies is not restarted (nginx routes around it); nginx dying stops the cluster.
# --balance round-robin makes the front send each request to the next dashboard instead of by a hash of the settings
# cookie (hash, the default), so a browser's toggle and its page's poll reach different dashboards (issue 49 point 4).
# --bin DIR uses the executables in DIR instead of building release ones (the tests use .build/debug).
# --api-seed N runs the habits-api frozen (--seed N --no-simulation): the same data until someone logs a habit.
# --hosts (issue 49 point 1; root only; implies --store postgres with its own database and API) gives PostgreSQL, the
# habits-api and each dashboard a network namespace of its own (habits-<pid>-pg, -api, -d1 ... -dN), each with one
# address on a /24 taken from 198.18.0.0/15 (the range set aside for network benchmarking; never any other): a veth
# pair from the host's eth0 to a port named after it (pg, api, d1 ...) on a bridge in habits-<pid>-net, and one from
# the root namespace (hcl-<pid>, the .1 address) for nginx and the tests. Nothing is shared but that network: each
# dashboard has its own directories and serves /metrics on its own address. Prints `Host NAME: NAMESPACE ADDRESS`
# for each. The namespaces and links are deleted on exit, and those of an earlier run that was killed (its pid gone)
# at start.
# Logs: <run dir>/logs (printed at start; the run dir is deleted on exit unless KEEP_RUN_DIR=1).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

usage() {
    sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'
}

instances=""
front_port=8000
upstream=""
settings_dir="var/settings"
store=files
balance=hash
database=""
bin_dir=""
hosts=0
api_seed=""
dashboard_flags=()
while (($#)); do
    case $1 in
        --instances) instances=${2:-}; shift 2 || { echo "cluster.sh: --instances needs a number" >&2; exit 2; } ;;
        --port) front_port=${2:-}; shift 2 || { echo "cluster.sh: --port needs a number" >&2; exit 2; } ;;
        --upstream) upstream=${2:-}; shift 2 || { echo "cluster.sh: --upstream needs a URL" >&2; exit 2; } ;;
        --settings-dir)
            settings_dir=${2:-}
            shift 2 || { echo "cluster.sh: --settings-dir needs a directory" >&2; exit 2; } ;;
        --bin) bin_dir=${2:-}; shift 2 || { echo "cluster.sh: --bin needs a directory" >&2; exit 2; } ;;
        --store) store=${2:-}; shift 2 || { echo "cluster.sh: --store needs files or postgres" >&2; exit 2; } ;;
        --database) database=${2:-}; shift 2 || { echo "cluster.sh: --database needs a URL" >&2; exit 2; } ;;
        --balance) balance=${2:-}; shift 2 || { echo "cluster.sh: --balance needs hash or round-robin" >&2; exit 2; } ;;
        --hosts) hosts=1; store=postgres; shift ;;
        --api-seed) api_seed=${2:-}; shift 2 || { echo "cluster.sh: --api-seed needs a number" >&2; exit 2; } ;;
        --help | -h) usage; exit 0 ;;
        --) shift; dashboard_flags=("$@"); break ;;
        *) echo "cluster.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
    esac
done
if ! [[ $instances =~ ^[0-9]+$ ]] || ((instances < 1 || instances > 64)); then
    echo "cluster.sh: --instances N is required, N from 1 to 64 (got '${instances}')" >&2
    exit 2
fi
if ! [[ $front_port =~ ^[0-9]+$ ]] || ((front_port > 65535)); then
    echo "cluster.sh: --port expects 0 to 65535 (0 picks a free one), got '$front_port'" >&2
    exit 2
fi
if [[ $store != files && $store != postgres ]]; then
    echo "cluster.sh: --store expects files or postgres, got '$store'" >&2
    exit 2
fi
if [[ $balance != hash && $balance != round-robin ]]; then
    echo "cluster.sh: --balance expects hash or round-robin, got '$balance'" >&2
    exit 2
fi
if [[ -n $database && $store != postgres ]]; then
    echo "cluster.sh: --database goes with --store postgres" >&2
    exit 2
fi
if [[ -n $database && ! $database =~ ^postgres(ql)?:// ]]; then
    echo "cluster.sh: --database expects postgres://user@host:port/db, got '$database'" >&2
    exit 2
fi
if [[ -n $api_seed && ! $api_seed =~ ^[0-9]+$ ]]; then
    echo "cluster.sh: --api-seed expects a number, got '$api_seed'" >&2
    exit 2
fi
if ((hosts)) && [[ -n $database || -n $upstream ]]; then
    echo "cluster.sh: --hosts starts its own database and API in namespaces: leave out --database and --upstream" >&2
    exit 2
fi
if ((hosts)) && [[ $(id -u) != 0 ]]; then
    echo "cluster.sh: --hosts makes network namespaces, which needs root" >&2
    exit 2
fi
if [[ -n $upstream && ! $upstream =~ ^http://([^/?#@]+)/?$ ]]; then
    echo "cluster.sh: --upstream expects http://host:port, got '$upstream'" >&2
    exit 2
fi

# ---------------------------------------------------------------------------------------------------------------------
# Processes and clean-up. Every process started here is recorded in $pids; on exit (normal, error, Ctrl-C, SIGTERM)
# each gets SIGTERM (the dashboards and habits-api finish in-flight requests; nginx's master stops its workers), then,
# after 15 s, SIGKILL for any still running.
# ---------------------------------------------------------------------------------------------------------------------
pids=()
run=$(mktemp -d "${TMPDIR:-/tmp}/habits-cluster.XXXXXX")
stopping=0
own_postgres=0
caught=""  # the signal that stops the cluster (its trap sets it), for stop_all's message

stop_all() {
    local status=$?
    ((stopping)) && return
    stopping=1
    # Bounded (15 s, then SIGKILL), so it always runs to the end: a second Ctrl-C must not leave processes behind.
    trap - EXIT
    trap '' INT TERM
    if ((${#pids[@]})); then
        echo "==> ${caught:+$caught received: }stopping ${#pids[@]} processes" >&2
        # nginx first, so no browser request reaches a dashboard that is going away; then the rest.
        kill -TERM "${pids[@]}" 2>/dev/null || true
        local deadline=$((SECONDS + 15))
        while ((SECONDS < deadline)); do
            local alive=0
            for pid in "${pids[@]}"; do kill -0 "$pid" 2>/dev/null && alive=1; done
            ((alive)) || break
            sleep 0.1
        done
        for pid in "${pids[@]}"; do kill -KILL "$pid" 2>/dev/null || true; done
        wait 2>/dev/null || true
    fi
    # The throwaway PostgreSQL last, once no dashboard uses it (pg_ctl runs it in a session of its own).
    if ((own_postgres)); then scripts/postgres.sh stop "$run/postgres" >&2 || true; fi
    ((hosts)) && remove_network $$
    # nginx's workers leave with their master; anything else left in our process group goes now (only when this
    # script leads its own group, as in a terminal or under setsid, so a caller's processes are never touched).
    if [[ "$(ps -o pgid= $$ | tr -d ' ')" == "$$" ]]; then
        kill -TERM -- -$$ 2>/dev/null || true
    fi
    if [[ "${KEEP_RUN_DIR:-}" == 1 ]]; then echo "==> logs kept in $run/logs" >&2; else rm -rf "$run"; fi
    exit "$status"
}
trap stop_all EXIT
trap 'caught=SIGINT; exit 130' INT
trap 'caught=SIGTERM; exit 143' TERM

fail() {
    echo "cluster.sh: $*" >&2
    exit 1
}

# Waits (up to 120 s: a debug build on a loaded machine starts slowly) until $1 holds a line matching $2 and prints
# the URL after it; fails if process $3 exits first.
announced_url() {
    local file=$1 pattern=$2 pid=$3 deadline=$((SECONDS + 120))
    while ! grep -q "$pattern" "$file" 2>/dev/null; do
        kill -0 "$pid" 2>/dev/null || return 1
        ((SECONDS < deadline)) || return 1
        sleep 0.05
    done
    sed -n "s#.*$pattern \(http://[^ ]*\).*#\1#p" "$file" | sed 's#/$##' | head -1
}

. scripts/free-port.sh  # port_in_use and free_port, the same rule as every script's

# ---------------------------------------------------------------------------------------------------------------------
# --hosts: the network. Every name carries the pid of the script that made it, so a run finds what an earlier one
# left behind (killed with SIGKILL, its traps never ran) and leaves a running one alone.
# ---------------------------------------------------------------------------------------------------------------------
# Deletes run $1's namespaces (first SIGKILLing anything still running in them: a server of that run) and its link.
remove_network() {
    local owner=$1 ns pid
    for ns in $(ip netns list 2>/dev/null | sed -n "s/^\(habits-$owner-[a-z0-9]*\).*/\1/p"); do
        for pid in $(ip netns pids "$ns" 2>/dev/null); do kill -KILL "$pid" 2>/dev/null || true; done
        ip netns delete "$ns" 2>/dev/null || true
    done
    ip link delete "hcl-$owner" 2>/dev/null || true
}

# Removes what runs whose script is gone left behind.
remove_stale_networks() {
    local owner
    for owner in $( (ip netns list 2>/dev/null | sed -n 's/^habits-\([0-9]*\)-.*/\1/p'
        ip -o link show 2>/dev/null | sed -n 's/^[0-9]*: hcl-\([0-9]*\)[@:].*/\1/p') | sort -u); do
        kill -0 "$owner" 2>/dev/null && continue
        echo "==> removing the network namespaces of an earlier run (pid $owner, gone)" >&2
        remove_network "$owner"
    done
}

# A /24 of 198.18.0.0/15 that no interface of the root namespace is on (two runs side by side get two).
free_subnet() {
    local n prefix
    for n in $(seq $(($$ % 512)) 511) $(seq 0 $(($$ % 512))); do
        prefix=198.$((18 + n / 256)).$((n % 256))
        ip -4 -o addr show | grep -q " inet $prefix\." || { echo "$prefix"; return 0; }
    done
    return 1
}

# add_host NAME ADDRESS: namespace habits-<pid>-NAME with eth0 at ADDRESS/24, wired to port NAME of the switch.
add_host() {
    local ns=habits-$$-$1
    ip netns add "$ns"
    ip -n "$ns" link set lo up
    ip link add eth0 netns "$ns" type veth peer name "$1" netns "$switch"
    ip -n "$switch" link set "$1" master br0 up
    ip -n "$ns" addr add "$2/24" dev eth0
    ip -n "$ns" link set eth0 up
    echo "Host $1: $ns $2"
}

if ((hosts)); then
    command -v ip >/dev/null || fail "--hosts needs ip (iproute2)"
    remove_stale_networks
    subnet=$(free_subnet) || fail "no free /24 left in 198.18.0.0/15"
    switch=habits-$$-net
    ip netns add "$switch" || fail "cannot make network namespaces here (ip netns add failed)"
    ip -n "$switch" link add br0 type bridge
    ip -n "$switch" link set br0 up
    ip link add "hcl-$$" type veth peer name root netns "$switch"
    ip -n "$switch" link set root master br0 up
    ip addr add "$subnet.1/24" dev "hcl-$$"
    ip link set "hcl-$$" up
    echo "Network:     $subnet.0/24, switch $switch, root namespace hcl-$$ $subnet.1"
fi

# ---------------------------------------------------------------------------------------------------------------------
# Tools and executables.
# ---------------------------------------------------------------------------------------------------------------------
. scripts/apt-install.sh

nginx_bin=$(command -v nginx || true)
[[ -n $nginx_bin ]] || { [[ -x /usr/sbin/nginx ]] && nginx_bin=/usr/sbin/nginx; }
if [[ -z $nginx_bin ]]; then
    echo "==> installing nginx (apt-get)" >&2
    if ! command -v apt-get >/dev/null 2>&1 || ! apt_install nginx >/dev/null; then
        fail "nginx is missing and could not be installed (apt-get as root or with sudo)"
    fi
    nginx_bin=$(command -v nginx || echo /usr/sbin/nginx)
fi
# Debian's nginx package starts a system service on install; this script never uses it (its own prefix, its own
# ports), and leaves whatever the system runs alone.

if [[ -z $bin_dir ]]; then
    echo "==> building habits-api and habits-dashboard (release)" >&2
    swift build -c release --product habits-api >&2
    swift build -c release --product habits-dashboard >&2
    bin_dir=$(swift build -c release --show-bin-path)
fi
for name in habits-api habits-dashboard; do
    [[ -x "$bin_dir/$name" ]] || fail "$bin_dir/$name is missing (build it, or leave --bin out to build it here)"
done

mkdir -p "$run/logs" "$run/tmp"
# nginx's workers run as an unprivileged user when started as root; they must reach the cache and temp directories.
chmod 755 "$run"
if [[ $store == files ]]; then
    mkdir -p "$settings_dir"
    settings_dir=$(cd "$settings_dir" && pwd)
fi

# ---------------------------------------------------------------------------------------------------------------------
# 1. The Habits API.
# ---------------------------------------------------------------------------------------------------------------------
api_flags=(--port 0)
[[ -z $api_seed ]] || api_flags+=(--seed "$api_seed" --no-simulation)
in_host=()  # the command prefix that runs a process in its namespace (--hosts)
if ((hosts)); then
    add_host api "$subnet.3"
    api_flags+=(--host "$subnet.3")
    in_host=(ip netns exec "habits-$$-api")
fi
if [[ -z $upstream ]]; then
    "${in_host[@]}" "$bin_dir/habits-api" "${api_flags[@]}" >"$run/logs/habits-api.out" 2>"$run/logs/habits-api.log" &
    pids+=($!)
    upstream=$(announced_url "$run/logs/habits-api.out" "Habits API simulator:" $!) ||
        fail "habits-api did not start; its log: $(tail -3 "$run/logs/habits-api.log")"
    echo "Habits API:  $upstream/ (habits-api, pid ${pids[-1]})"
else
    upstream=${upstream%/}
    echo "Habits API:  $upstream/ (--upstream)"
fi
api_host=${upstream#http://}

# ---------------------------------------------------------------------------------------------------------------------
# 2. The database (--store postgres): the one --database names, or a throwaway one in the run directory.
# ---------------------------------------------------------------------------------------------------------------------
if [[ $store == postgres && -z $database ]]; then
    own_postgres=1
    postgres_where=()
    in_host=()
    if ((hosts)); then
        add_host pg "$subnet.2"
        postgres_where=(5432 "$subnet.2")
        in_host=(ip netns exec "habits-$$-pg")
    fi
    database=$("${in_host[@]}" scripts/postgres.sh start "$run/postgres" "${postgres_where[@]}" \
        2>"$run/logs/postgres-start.log" | sed -n 's/^database: //p') || true
    [[ -n $database ]] || fail "PostgreSQL did not start: $(tail -3 "$run/logs/postgres-start.log")"
    echo "database: $database (throwaway, in $run/postgres)"
elif [[ $store == postgres ]]; then
    echo "database: $database (--database)"
fi

# ---------------------------------------------------------------------------------------------------------------------
# 3. The dashboards, pointed at the API cache's port with files, at the API itself with PostgreSQL (nginx starts after
#    them, once their ports are known; until then a dashboard that needs data waits and retries like after any
#    upstream failure).
# ---------------------------------------------------------------------------------------------------------------------
api_cache_port=$(free_port)
if ((front_port == 0)); then
    front_port=$(free_port)
    while ((front_port == api_cache_port)); do front_port=$(free_port); done
fi
port_in_use "$front_port" && fail "port $front_port is taken; choose another with --port P (0 picks a free one)"

servers=""
dashboard_urls=()
for i in $(seq "$instances"); do
    if [[ $store == files ]]; then
        placement=(--upstream "http://127.0.0.1:$api_cache_port" --settings-dir "$settings_dir")
    else
        mkdir -p "$run/dashboard-$i"
        # The URL (with the throwaway server's password) goes in the environment, not in the arguments every local
        # user can read in ps (issue 48 point 4).
        export DATABASE_URL=$database
        placement=(--upstream "$upstream" --settings-dir "$run/dashboard-$i/settings"
            --cache-dir "$run/dashboard-$i/cache")
    fi
    network=(--port 0 --metrics-port 0 --trusted-proxy 127.0.0.1)
    in_host=()
    if ((hosts)); then
        add_host "d$i" "$subnet.$((10 + i))"
        # Its own host: a fixed port on its own address, the counters on that address too (the namespace network is
        # the test's, nobody else's), and nginx coming from the root namespace's address.
        network=(--host "$subnet.$((10 + i))" --port 8000 --metrics-host "$subnet.$((10 + i))" --metrics-port 9100
            --trusted-proxy "$subnet.1")
        in_host=(ip netns exec "habits-$$-d$i")
    fi
    "${in_host[@]}" "$bin_dir/habits-dashboard" "${network[@]}" "${placement[@]}" \
        --max-connections-per-client 1024 "${dashboard_flags[@]}" \
        >"$run/logs/dashboard-$i.out" 2>"$run/logs/dashboard-$i.log" &
    pids+=($!)
done
for i in $(seq "$instances"); do
    pid=${pids[-instances + i - 1]}
    url=$(announced_url "$run/logs/dashboard-$i.out" "Habits Dashboard:" "$pid") ||
        fail "dashboard $i did not start; its log: $(tail -3 "$run/logs/dashboard-$i.log")"
    metrics=$(announced_url "$run/logs/dashboard-$i.out" "Metrics:" "$pid") ||
        fail "dashboard $i did not say where its metrics are; its log: $(tail -3 "$run/logs/dashboard-$i.log")"
    dashboard_urls+=("$url")
    # One failure takes a dashboard out for 10 s; nginx then tries it again with one request.
    servers+="        server ${url#http://} max_fails=1 fail_timeout=10s;"$'\n'
    echo "Dashboard $i: $url/ (pid $pid, metrics $metrics)"
done

# ---------------------------------------------------------------------------------------------------------------------
# 4. nginx: the configuration is deploy/nginx-cluster.conf.template with its @NAMES@ filled in; with PostgreSQL
#    without its API cache (the lines between the @API_CACHE@ markers).
# ---------------------------------------------------------------------------------------------------------------------
if [[ $store == files ]]; then
    config=$(grep -v '@API_CACHE@' deploy/nginx-cluster.conf.template)
else
    config=$(sed '/@API_CACHE@ begin/,/@API_CACHE@ end/d' deploy/nginx-cluster.conf.template)
fi
config=${config//@RUN_DIR@/$run}
config=${config//@LOG_DIR@/$run/logs}
config=${config//@API_HOST@/$api_host}
config=${config//@API_CACHE_PORT@/$api_cache_port}
config=${config//@FRONT_PORT@/$front_port}
config=${config//@DASHBOARD_SERVERS@/${servers%$'\n'}}
# Round robin is nginx's own default: the hash line goes.
[[ $balance == hash ]] || config=$(grep -v 'hash $dashboard_key consistent;' <<<"$config")
printf '%s\n' "$config" >"$run/nginx.conf"
"$nginx_bin" -t -q -p "$run" -e "$run/logs/nginx-error.log" -c "$run/nginx.conf" -g 'daemon off;' \
    2>"$run/logs/nginx-test.log" ||
    fail "the generated nginx configuration does not load: $(cat "$run/logs/nginx-test.log")"
"$nginx_bin" -p "$run" -e "$run/logs/nginx-error.log" -c "$run/nginx.conf" -g 'daemon off;' \
    2>>"$run/logs/nginx-error.log" &
nginx_pid=$!
pids=("$nginx_pid" "${pids[@]}")

# Ready when both servers answer (nginx exits at once if a port was taken meanwhile).
deadline=$((SECONDS + 30))
until port_in_use "$front_port" && { [[ $store == postgres ]] || port_in_use "$api_cache_port"; }; do
    kill -0 "$nginx_pid" 2>/dev/null || fail "nginx did not start: $(tail -3 "$run/logs/nginx-error.log")"
    ((SECONDS < deadline)) || fail "nginx did not listen within 30 s"
    sleep 0.05
done
if [[ $store == files ]]; then
    echo "API cache:   http://127.0.0.1:$api_cache_port/ (nginx, pid $nginx_pid)"
    echo "Settings:    $settings_dir"
else
    echo "Front:       nginx, pid $nginx_pid (no API cache: one dashboard refreshes, the others read PostgreSQL)"
fi
echo "Logs:        $run/logs"
echo "Open:        http://127.0.0.1:$front_port/"

# Runs until nginx exits or a signal arrives (the traps above then stop everything). Ctrl-C signals the whole process
# group, nginx too, and nginx may have exited before this shell takes its own SIGINT: a trap still pending runs at the
# next command (the `:`), so the signal is what it reports. nginx exits 0 only when a signal told it to stop (SIGINT,
# SIGTERM, SIGQUIT), and so with nobody signalling this shell as well (nginx alone, or a shell that ignores SIGINT)
# that is said too, and only any other exit is nginx failing.
nginx_status=0
wait "$nginx_pid" || nginx_status=$?
:
if ((nginx_status == 0)); then
    echo "==> nginx was stopped by a signal; stopping the cluster" >&2
    exit 0
fi
fail "nginx exited with status $nginx_status; stopping the cluster: $(tail -3 "$run/logs/nginx-error.log")"
