"""Issue 20: the release tarball runs on a machine without a Swift toolchain.

scripts/test.sh builds it once with scripts/package.sh and names it in $HABITS_PACKAGE (run alone, this test builds
it itself). The tarball is unpacked into a temporary directory and started from another working directory with a
PATH that has no Swift toolchain in it; it must serve every page, and ldd may list only base-system libraries
(PostgreSQL's libpq5 is opened at run time, and only with --database).
"""

import json
import os
import pathlib
import queue
import re
import shutil
import signal
import subprocess
import tarfile
import tempfile
import threading
import time
import urllib.parse
import urllib.request

import pytest

from conftest import browser_conftest, cluster_conftest

ROOT = pathlib.Path(__file__).resolve().parents[2]
# glibc's libraries and loader, libcrypto (OpenSSL 3) and zlib, plus the C++ runtime the Swift runtime is written
# against: libstdc++ and libgcc_s, which the toolchain's static-stdlib-args.lnk links dynamically and which every
# Debian or Ubuntu system has (apt itself needs libstdc++6; libgcc-s1 is "required"). Anything else (libcurl for
# FoundationNetworking, libxml2, ICU) would have to be installed beside the release, so it must not appear.
BASE_LIBRARIES = re.compile(
    r"^(linux-vdso\.so\.1|/lib\S*/ld-linux\S*\.so\.\d+|ld-linux\S*\.so\.\d+|"
    r"lib(c|m|dl|rt|pthread|util|resolv)\.so\.\d+|libcrypto\.so\.3|libz\.so\.1|libstdc\+\+\.so\.6|libgcc_s\.so\.1)$"
)


@pytest.fixture(scope="module")
def release():
    tarball = os.environ.get("HABITS_PACKAGE")
    if not tarball:
        built = subprocess.run(["scripts/package.sh"], cwd=ROOT, check=True, stdout=subprocess.PIPE, text=True)
        tarball = built.stdout.strip().splitlines()[-1]
    tarball = ROOT / tarball
    assert re.fullmatch(r"habits-dashboard-.+-linux-(x86_64|aarch64)\.tar\.gz", tarball.name), tarball.name
    directory = tempfile.mkdtemp(prefix="habits-release-")
    with tarfile.open(tarball) as archive:
        archive.extractall(directory, filter="data")
    (root,) = pathlib.Path(directory).iterdir()
    yield root
    shutil.rmtree(directory, ignore_errors=True)


def test_the_tarball_holds_both_binaries_the_resources_the_unit_and_install(release):
    for path in ("bin/habits-dashboard", "bin/habits-api", "share/Templates/layout.html", "share/Public/live.js",
                 "habits-dashboard.service", "nginx-https.conf.template", "INSTALL"):
        assert (release / path).exists(), path
    assert os.access(release / "bin" / "habits-dashboard", os.X_OK)
    assert "Type=notify" in (release / "habits-dashboard.service").read_text()


def ldd_names(path):
    ldd = shutil.which("ldd")
    assert ldd, "ldd is part of libc-bin"
    output = subprocess.run([ldd, str(path)], check=True, capture_output=True, text=True).stdout
    names = [line.split()[0] for line in output.splitlines() if line.strip()]
    assert names, output
    return names, output


# libpq is not among them: the dashboard opens it with dlopen when --database is given (Sources/Postgres/LibPQ.swift),
# so a machine without PostgreSQL's client runs everything else.
@pytest.mark.parametrize("binary", ["habits-dashboard", "habits-api"])
def test_ldd_lists_only_base_system_libraries(release, binary):
    names, output = ldd_names(release / "bin" / binary)
    others = [name for name in names if not BASE_LIBRARIES.match(name)]
    assert not others, f"{binary} needs libraries outside the base system: {others}\n{output}"


def clean_environment(home):
    """No Swift toolchain (an empty PATH directory), no library path: what a fresh server has."""
    empty = home / "empty-bin"
    empty.mkdir(exist_ok=True)
    assert shutil.which("swift", path=str(empty)) is None
    return {"PATH": str(empty), "HOME": str(home), "LANG": "C.UTF-8"}


def start(release, work, arguments=()):
    process = subprocess.Popen(
        [str(release / "bin" / "habits-dashboard"), "--port", "0", "--api-port", "0", "--seed", "7",
         "--settings-dir", "state/settings", "--cache-dir", "state/cache", *arguments],
        cwd=work, env=clean_environment(work), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    lines = queue.Queue()
    threading.Thread(target=lambda: [lines.put(line) for line in process.stdout], daemon=True).start()
    urls = {}
    deadline = time.monotonic() + 60
    while len(urls) < 2 and time.monotonic() < deadline and process.poll() is None:
        try:
            line = lines.get(timeout=1)
        except queue.Empty:
            continue
        for key, prefix in (("api", "Habits API simulator: "), ("dashboard", "Habits Dashboard: ")):
            if line.startswith(prefix):
                urls[key] = line[len(prefix):].strip().rstrip("/")
    return process, urls


def get(url):
    with urllib.request.urlopen(url, timeout=30) as response:
        return response.status, response.read().decode(errors="replace")


def test_the_release_serves_every_page_from_another_directory_without_a_toolchain(release):
    work = pathlib.Path(tempfile.mkdtemp(prefix="habits-release-run-"))
    process, urls = start(release, work)
    try:
        assert "dashboard" in urls, process.stderr.read() if process.poll() is not None else "no URL announced"
        base, api = urls["dashboard"], urls["api"]
        habit = sorted(json.loads(get(api + "/habits")[1]))[0]
        person = sorted(json.loads(get(api + "/users")[1]))[0]
        pages = ["/", "/habits", "/habits/" + urllib.parse.quote(habit, safe=""), "/people",
                 "/people/" + urllib.parse.quote(person, safe=""), "/log"]
        assets = set()
        for page in pages:
            status, html = get(base + page)
            assert status == 200 and "<h1" in html and "</html>" in html, page
            assets.update(re.findall(r'(?:href|src)="(/static/[^"]+|/colors\.css[^"]*)"', html))
        assert any(a.startswith("/static/") and a.endswith(".css") for a in assets), assets
        for asset in sorted(assets) + ["/fragments/home", "/healthz", "/images/" + urllib.parse.quote(person, safe="")]:
            assert get(base + asset.replace("&amp;", "&"))[0] == 200, asset
    finally:
        process.send_signal(signal.SIGTERM)
        assert process.wait(timeout=30) == 0
        log = process.stderr.read()
        shutil.rmtree(work, ignore_errors=True)
    # It found its templates beside its own bin/, not in the working directory.
    assert f"templates.dir={release}/share/Templates" in log, log[-2000:]


def test_resources_flag_overrides_the_share_directory(release):
    work = pathlib.Path(tempfile.mkdtemp(prefix="habits-release-run-"))
    try:
        process, urls = start(release, work, ["--resources", str(work / "nowhere")])
        assert process.wait(timeout=60) == 1 and not urls.get("dashboard")
        assert str(work / "nowhere" / "Templates") in process.stderr.read()
    finally:
        shutil.rmtree(work, ignore_errors=True)


def test_the_release_opens_libpq_at_run_time_for_a_database(release):
    """libpq is not linked (ldd above): the unpacked release, in a clean environment, must open it with dlopen for
    --database (Sources/Postgres/LibPQ.swift), against a throwaway PostgreSQL (scripts/postgres.sh)."""
    postgres = cluster_conftest.Postgres()
    work = pathlib.Path(tempfile.mkdtemp(prefix="habits-release-run-"))
    process, urls = start(release, work, ["--database", postgres.url])
    try:
        assert "dashboard" in urls, process.stderr.read() if process.poll() is not None else "no URL announced"
        # A hang guard: the database is up within a second or two.
        browser_conftest.wait_until(lambda: "database: up" in get(urls["dashboard"] + "/healthz")[1], timeout=60,
                                    message="/healthz to say the database is up")
        assert "/libpq.so.5" in pathlib.Path(f"/proc/{process.pid}/maps").read_text()
    finally:
        process.send_signal(signal.SIGTERM)
        try:
            status = process.wait(timeout=30)
        finally:
            # Closed whatever the dashboard did, so a failed run leaves no PostgreSQL behind.
            postgres.close()
            shutil.rmtree(work, ignore_errors=True)
    log = process.stderr.read()
    assert status == 0, log[-2000:]
    assert "could not be loaded" not in log and "database unreachable" not in log, log[-2000:]
