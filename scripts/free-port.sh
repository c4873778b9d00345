# Sourced by scripts/cluster.sh and Benchmarks/lib.sh: the one way the scripts pick a loopback port for a server of
# their own. (Tests/Browser/conftest.py's free_port is the same rule for the Python tests.)
# shellcheck shell=bash

# port_in_use PORT: whether something listens on PORT (IPv4 or IPv6), from /proc, without connecting to it.
port_in_use() {
    local hex
    hex=$(printf ':%04X' "$1")
    awk -v p="$hex" '$4 == "0A" && substr($2, length($2) - 4) == p { found = 1 } END { exit !found }' \
        /proc/net/tcp /proc/net/tcp6 2>/dev/null
}

# free_port: a port nobody listens on, below the kernel's ephemeral range, so that a port the kernel picks for another
# process (a bind to port 0, an outgoing connection) cannot take it before it is used. Fails after 200 tries.
free_port() {
    local low port
    low=$(cut -f1 /proc/sys/net/ipv4/ip_local_port_range 2>/dev/null || echo 32768)
    ((low > 10001)) || low=32768
    for _ in $(seq 200); do
        port=$((10000 + RANDOM % (low - 10000)))
        port_in_use "$port" || { echo "$port"; return 0; }
    done
    echo "free_port: no free port found between 10000 and $low" >&2
    return 1
}
