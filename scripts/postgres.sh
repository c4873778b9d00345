#!/usr/bin/env bash
# A throwaway PostgreSQL in a directory of its own (issue 19): for scripts/cluster.sh --store postgres and the cluster
# tests, never for data anyone keeps (fsync is off).
#
#   scripts/postgres.sh start DIR [PORT [ADDRESS]]
#                                          initdb on first use, then start it; prints "database: URL" and "pid: PID"
#   scripts/postgres.sh stop DIR           fast shutdown (open sessions are ended); nothing when it is not running
#
# It listens on 127.0.0.1:PORT (a free one below the ephemeral range when not given; kept in DIR's configuration, so a
# restart after `stop` has the same URL), or on ADDRESS instead, taking connections from ADDRESS's subnet (a host of
# its own in scripts/cluster.sh --hosts), and on a Unix socket in DIR that only its owner (and root) may open. Every
# connection needs the password generated on first use (scram-sha-256; kept in DIR/password, mode 0600, and part of
# the printed URL): never `trust`, which let any local user on 127.0.0.1 in as the superuser (issue 48 point 4).
# Run as root, the server runs as the `postgres` user (PostgreSQL refuses root), and DIR is made its own.
set -euo pipefail

usage() { sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; }

command=${1:-}
dir=${2:-}
[[ ($command == start || $command == stop) && -n $dir ]] || { usage >&2; exit 2; }

bin=""
for candidate in "$(dirname "$(command -v pg_ctl 2>/dev/null || echo /x)")" /usr/lib/postgresql/*/bin; do
    [[ -x $candidate/initdb && -x $candidate/pg_ctl ]] && { bin=$candidate; break; }
done
[[ -n $bin ]] || { echo "postgres.sh: PostgreSQL's initdb and pg_ctl are missing (apt-get install postgresql)" >&2; exit 1; }
# pg_ctl is a symlink on Debian; initdb must be found beside the real postgres binary.
bin=$(dirname "$(readlink -f "$bin/pg_ctl")")

# Runs PostgreSQL's tools as its owner: root cannot run them.
as_owner() {
    if [[ $(id -u) == 0 ]]; then
        setpriv --reuid=postgres --regid=postgres --init-groups -- "$@"
    else
        "$@"
    fi
}

mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
data=$dir/data

if [[ $command == stop ]]; then
    [[ -f $data/postmaster.pid ]] || exit 0
    as_owner "$bin/pg_ctl" -D "$data" -m fast -w -t 30 stop >/dev/null
    exit 0
fi

port=${3:-}
address=${4:-127.0.0.1}
if [[ ! -f $data/PG_VERSION ]]; then
    if [[ -z $port ]]; then
        for _ in $(seq 200); do
            port=$((20000 + RANDOM % 12000))
            hex=$(printf ':%04X' "$port")
            awk -v p="$hex" '$4 == "0A" && substr($2, length($2) - 4) == p { f = 1 } END { exit !f }' \
                /proc/net/tcp /proc/net/tcp6 2>/dev/null || break
        done
    fi
    if [[ $(id -u) == 0 ]]; then
        chown postgres: "$dir"
        # Every directory above DIR must be traversable by the server's user (mktemp makes them 0700).
        parent=$dir
        while parent=$(dirname "$parent") && [[ $parent != / ]]; do
            [[ -x $parent ]] && setpriv --reuid=postgres --regid=postgres --init-groups -- test -x "$parent" ||
                chmod o+x "$parent"
        done
    fi
    # The password: 32 hex digits, readable by the one who started the script (and the server's user, for initdb).
    (umask 077 && od -An -N16 -tx1 /dev/urandom | tr -d ' \n' >"$dir/password")
    [[ $(id -u) == 0 ]] && chown postgres: "$dir/password"
    as_owner "$bin/initdb" -D "$data" -U postgres --auth=scram-sha-256 --pwfile="$dir/password" --no-sync -E UTF8 \
        --locale=C >"$dir/initdb.log"
    cat >>"$data/postgresql.conf" <<CONF
# scripts/postgres.sh: a throwaway server on loopback.
listen_addresses = '$address'
port = $port
unix_socket_directories = '$dir'
unix_socket_permissions = 0700
fsync = off
# synchronous_commit stays on: a commit is written to the kernel before it is acknowledged, so a server killed with
# SIGKILL keeps it (off, the last 200 ms of acknowledged commits died with its shared memory; issue 49 point 2).
# Without fsync that write costs no disk flush.
full_page_writes = off
max_connections = 300
shared_buffers = 32MB
CONF
    # A server on a network address takes its subnet's hosts (the dashboards), with the same password.
    [[ $address == 127.0.0.1 ]] || echo "host all all samenet scram-sha-256" >>"$data/pg_hba.conf"
fi
address=$(sed -n "s/^listen_addresses = '\(.*\)'$/\1/p" "$data/postgresql.conf" | tail -1)
port=$(sed -n 's/^port = \([0-9]*\)$/\1/p' "$data/postgresql.conf" | tail -1)
as_owner "$bin/pg_ctl" -D "$data" -l "$dir/postgres.log" -w -t 60 start >/dev/null ||
    { echo "postgres.sh: PostgreSQL did not start: $(tail -3 "$dir/postgres.log")" >&2; exit 1; }
echo "database: postgres://postgres:$(cat "$dir/password")@$address:$port/postgres?sslmode=disable"
echo "pid: $(head -1 "$data/postmaster.pid")"
