#!/usr/bin/env bash
# Builds a release you can copy to a server without a Swift toolchain (issue 20; docs/DEPLOY.md):
#   dist/habits-dashboard-<version>-linux-<arch>.tar.gz
#     habits-dashboard-<version>-linux-<arch>/
#       bin/habits-dashboard, bin/habits-api   release builds with the Swift runtime linked statically
#       share/Public, share/Templates          found by the binaries beside their bin/ (--resources DIR overrides)
#       habits-dashboard.service               the systemd unit (deploy/habits-dashboard.service)
#       nginx-https.conf.template              nginx terminating TLS in front of it (deploy/)
#       INSTALL                                the steps, short
# Usage: scripts/package.sh   (VERSION=1.2.3 names the release; else `git describe`). The tarball's path is the last
# line on stdout. The build is incremental, so a second run with nothing changed only re-packs.
set -euo pipefail
cd "$(dirname "$0")/.."

version=${VERSION:-$(git describe --tags --always --dirty 2>/dev/null || echo dev)}
arch=$(uname -m)
name="habits-dashboard-$version-linux-$arch"

echo "==> swift build -c release --static-swift-stdlib (habits-dashboard, habits-api)" >&2
# The two products only: the tarball ships nothing else, and the test-support library (it imports Swift Testing, which
# has no static build) is not part of a release.
for product in habits-dashboard habits-api; do
    swift build -c release --static-swift-stdlib --product "$product" >&2
done
bin=$(swift build -c release --static-swift-stdlib --show-bin-path)

stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
root="$stage/$name"
mkdir -p "$root/bin" "$root/share"
for executable in habits-dashboard habits-api; do
    install -m 0755 "$bin/$executable" "$root/bin/$executable"
    # Symbols are for debugging a build, not for running it; they are most of the file.
    if command -v strip >/dev/null 2>&1; then strip --strip-unneeded "$root/bin/$executable"; fi
done
cp -R Public Templates "$root/share/"
cp deploy/habits-dashboard.service deploy/nginx-https.conf.template "$root/"
cat >"$root/INSTALL" <<INSTALL
Habits Dashboard $version (linux-$arch)

Needs the base system (glibc, libcrypto from OpenSSL 3, zlib); with --database also PostgreSQL's client library,
libpq5 (apt-get install libpq5), which habits-dashboard opens when a database is given.
Full guide: docs/DEPLOY.md in the repository.

1. Unpack to /opt/habits-dashboard:
     sudo mkdir -p /opt/habits-dashboard
     sudo tar -xzf $name.tar.gz -C /opt/habits-dashboard --strip-components=1
   The binaries find share/ beside their bin/ (--resources DIR names another directory).

2. Say where people reach it, in /etc/habits-dashboard.env:
     PUBLIC_URL=https://habits.example/
     # HABITS_API_URL=http://habits-api.internal:8080   (without it, the embedded simulator runs)

3. Install and start the service (Type=notify: it is "active" once it listens and has data):
     sudo cp /opt/habits-dashboard/habits-dashboard.service /etc/systemd/system/
     sudo systemctl daemon-reload
     sudo systemctl enable --now habits-dashboard
     journalctl -u habits-dashboard -f
   Settings and the snapshot cache live in /var/lib/habits-dashboard (StateDirectory=).

4. Put nginx with TLS in front (nginx-https.conf.template shows the server block: Host, X-Forwarded-Proto,
   and a path prefix that the proxy strips), then open the PUBLIC_URL.

Try it first by hand: bin/habits-dashboard --port 8000, then http://127.0.0.1:8000/.
INSTALL

mkdir -p dist
tarball="dist/$name.tar.gz"
tar -C "$stage" -czf "$tarball.partial" "$name"
mv "$tarball.partial" "$tarball"
echo "$tarball"
