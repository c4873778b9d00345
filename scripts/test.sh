#!/usr/bin/env bash
# Runs every test of the project. Safe on a fresh clone and under CI (CI=true, no stdin, no TTY).
# Usage: ./scripts/test.sh            (extra arguments are passed to `swift test`, e.g. --filter RouterTests)
set -euo pipefail

cd "$(dirname "$0")/.."
exec </dev/null  # nothing below may wait for input

if ! command -v swift >/dev/null 2>&1; then
    echo "test.sh: the Swift toolchain (swift 6) is required and was not found on PATH" >&2
    exit 1
fi

. scripts/apt-install.sh

# have THING: THING is a command on PATH (or in /usr/sbin) or, starting with /, a file path or glob; `a|b`: either.
have() {
    local alternative alternatives
    IFS='|' read -ra alternatives <<<"$1"
    for alternative in "${alternatives[@]}"; do
        case "$alternative" in
            /*) compgen -G "$alternative" >/dev/null && return 0 ;;
            *) { command -v "$alternative" >/dev/null 2>&1 || [ -x "/usr/sbin/$alternative" ]; } && return 0 ;;
        esac
    done
    return 1
}

# need_tool "THINGS" "PACKAGES" WHAT [required]: the one install-or-fail guard. 0 when every one of THINGS is there
# (`have`) or apt-get installed PACKAGES; else a failure (exit 1) when `required` or under CI, elsewhere a warning
# naming WHAT is not run, and 1.
need_tool() {
    local thing things missing=0
    read -ra things <<<"$1"
    for thing in "${things[@]}"; do have "$thing" || missing=1; done
    if [ "$missing" = 0 ]; then return 0; fi
    echo "==> installing $2 (apt-get)"
    # shellcheck disable=SC2086 # PACKAGES is a list of package names
    if command -v apt-get >/dev/null 2>&1 && apt_install $2; then return 0; fi
    if [ "${4:-}" = "required" ] || [ "${CI:-}" = "true" ]; then
        echo "test.sh: $2 missing and could not be installed (apt-get as root or sudo); needed for the $3" >&2
        exit 1
    fi
    echo "test.sh: WARNING: $2 missing and not installable here; $3 NOT run" >&2
    return 1
}

# System libraries the build links (Package.swift's .systemLibrary targets): libcrypto from libssl-dev (settings
# cookie tags) and zlib. Installed the same way as the browser below when their headers are missing.
need_tool "/usr/include/openssl/hmac.h /usr/include/zlib.h" "libssl-dev zlib1g-dev pkg-config" build required

# PostgreSQL (issue 19): libpq-dev for the CLibPQ target, and the server binaries (initdb, pg_ctl) for the throwaway
# databases the Postgres and settings tests start (Tests/TestSupport/ThrowawayPostgres.swift). Those tests skip
# without the binaries, except under CI, where they fail.
need_tool /usr/include/postgresql/libpq-fe.h "libpq-dev pkg-config" build required
need_tool "/usr/lib/postgresql/*/bin/initdb|initdb" postgresql "database tests" || true

# The executable tests launch .build/debug/habits-api and habits-dashboard, so build everything first.
echo "==> swift build (debug, all targets)"
swift build --build-tests

echo "==> swift test"
swift test --skip-build "$@"

# The benchmarks' own executables exist only with HABITS_BENCH=1, so no other step builds them: built here (debug, a few
# seconds on top of the build above), a benchmark broken by an API change fails CI, not the next person's measurement.
echo "==> benchmark executables (HABITS_BENCH=1)"
for product in http-bench-server pages-render-bench; do HABITS_BENCH=1 swift build --product "$product"; done

# Browser tests (issue 5): the built dashboard in headless Chromium, driven by Selenium + pytest.
# Runs only for a full run (no arguments). Set-up happens here when something is missing: Debian's chromium and
# chromium-driver through apt-get (as root or with passwordless sudo), Selenium and pytest in .venv from PyPI.
# Under CI a browser that cannot be installed is a failure, never a skip.
if [ "$#" -gt 0 ]; then
    echo "==> browser tests skipped (arguments given: a partial run)"
    exit 0
fi

browsers=1
need_tool "chromium chromedriver" "chromium chromium-driver" "browser tests" || browsers=0

if [ ! -x .venv/bin/python ] || ! .venv/bin/python -c "import selenium, pytest, axe_selenium_python" >/dev/null 2>&1; then
    echo "==> creating .venv with selenium, pytest and axe-selenium-python (PyPI)"
    if ! python3 -m venv .venv >/dev/null 2>&1; then
        apt_install python3-venv || { echo "test.sh: python3 -m venv does not work and python3-venv could not be installed" >&2; exit 1; }
        python3 -m venv .venv
    fi
    .venv/bin/pip install --quiet --disable-pip-version-check selenium pytest axe-selenium-python
fi

# lynx reads the pages as a text browser would (Tests/Browser/test_text_browser.py, issue 47 point 5).
need_tool lynx lynx "text-browser tests" || true

if [ "$browsers" = 1 ]; then
    echo "==> browser tests (screenshots in .build/screenshots/)"
    .venv/bin/python -m pytest -q -p no:cacheprovider Tests/Browser
fi

# Cluster tests (issue 11): scripts/cluster.sh with real nginx in front of three built dashboards, a habits-api behind
# nginx's micro-cache; 200 clients toggling while a dashboard is SIGKILLed. nginx comes from apt-get when missing
# (the script never uses the system's nginx service); under CI a missing nginx is a failure, never a skip.
nginx=1
need_tool nginx nginx "cluster and HTTPS tests" || nginx=0
# ip (iproute2) makes the network namespaces of the --hosts cluster tests (issue 49; run as root, and under CI a
# machine that cannot make them fails those tests).
need_tool ip iproute2 "network-namespace cluster tests" || true

if [ "$nginx" = 1 ]; then
    echo "==> cluster tests (nginx + 3 dashboards; logs in .build/cluster-tests-script.log)"
    .venv/bin/python -m pytest -q -p no:cacheprovider Tests/Cluster
fi

# Deployment tests (issue 20): the release tarball (scripts/package.sh, one release build reused by every test; a
# second run with nothing changed only re-packs) unpacked and run without a toolchain, and nginx terminating TLS
# with a certificate made by openssl in front of the dashboard in Chromium. Under CI a missing tool is a failure.
need_tool openssl openssl "HTTPS tests" || nginx=0
# testssl.sh (Debian's command is `testssl`) checks the TLS template's protocols, ciphers and known flaws (issue 48).
testssl=1
need_tool testssl testssl.sh "TLS configuration test" || testssl=0
echo "==> release package (scripts/package.sh: swift build -c release --static-swift-stdlib)"
package=$(scripts/package.sh | tail -n 1)
deploy_tests=(Tests/Deploy/test_package.py Tests/Deploy/test_unit.py)
if [ "$nginx" = 1 ] && [ "$browsers" = 1 ]; then deploy_tests+=(Tests/Deploy/test_https.py); fi
# The noisy-client test (issue 46 point 3): one client holding hundreds of polls through the TLS proxy.
if [ "$nginx" = 1 ]; then deploy_tests+=(Tests/Deploy/test_https_proxy.py Tests/Deploy/test_noisy_client.py); fi
if [ "$nginx" = 1 ] && [ "$testssl" = 1 ]; then deploy_tests+=(Tests/Deploy/test_tls.py); fi
echo "==> deployment tests (${deploy_tests[*]}; the release $package)"
HABITS_PACKAGE="$package" .venv/bin/python -m pytest -q -p no:cacheprovider "${deploy_tests[@]}"
