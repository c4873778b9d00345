# Sourced by scripts/test.sh and scripts/cluster.sh (both cd to the repository root first).
# apt_install PACKAGE...: installs Debian packages as root, or through passwordless sudo; returns 1 when neither is
# possible, so the caller can say what is missing and why it matters.
apt_install() {
    if [ "$(id -u)" = 0 ]; then
        apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$@"
    elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
        sudo apt-get update -qq && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$@"
    else
        return 1
    fi
}
