"""Fixtures for the deployment tests (issue 20): nginx terminating TLS in front of the built dashboard, and the
release tarball `scripts/package.sh` wrote.

The browser helpers (launching executables, headless Chromium, waiting) are Tests/Browser/conftest.py's, and the
throwaway PostgreSQL is Tests/Cluster/conftest.py's, each loaded under another module name so pytest keeps the
conftest files apart.
"""

import importlib.util
import os
import pathlib
import shutil
import subprocess
import tempfile

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]


def _load(name, directory):
    spec = importlib.util.spec_from_file_location(name, ROOT / "Tests" / directory / "conftest.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


browser_conftest = _load("browser_conftest", "Browser")
# The cluster tests' throwaway PostgreSQL (scripts/postgres.sh), for the release's test with a database.
cluster_conftest = _load("cluster_conftest", "Cluster")


def require_tool(name, *fallbacks):
    """The path of `name` (scripts/test.sh installs it); under CI its absence fails, elsewhere it skips."""
    for candidate in (shutil.which(name), *fallbacks):
        if candidate and os.access(candidate, os.X_OK):
            return candidate
    if os.environ.get("CI") == "true":
        pytest.fail(f"{name} is missing; CI needs it for the deployment tests")
    pytest.skip(f"{name} is missing (scripts/test.sh installs it)")


class HTTPSSite:
    """nginx on https://127.0.0.1:<port><prefix>/ in front of a dashboard started with that --public-url."""

    def __init__(self, prefix):
        self.prefix = prefix
        self.run = tempfile.mkdtemp(prefix="habits-https-")
        os.chmod(self.run, 0o755)  # nginx's workers run as another user when started as root
        self.port = browser_conftest.free_port()
        self.url = f"https://127.0.0.1:{self.port}{prefix}"
        self.nginx = None
        self.dashboard = None

    def start(self):
        openssl = require_tool("openssl")
        nginx = require_tool("nginx", "/usr/sbin/nginx")
        cert, key = f"{self.run}/cert.pem", f"{self.run}/key.pem"
        subprocess.run(
            [openssl, "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=127.0.0.1",
             "-addext", "subjectAltName=IP:127.0.0.1", "-keyout", key, "-out", cert],
            check=True, capture_output=True,
        )
        settings = f"{self.run}/settings"
        self.dashboard = browser_conftest.launch(
            "habits-dashboard",
            [
                *("--port", "0", "--api-port", "0", "--seed", "42", "--speed", "10", "--settings-dir", settings),
                *("--cache-dir", f"{self.run}/cache", "--trusted-proxy", "127.0.0.1"),
                *("--public-url", self.url + "/"),
            ],
            {"dashboard": browser_conftest.DASHBOARD_LINE, "api": browser_conftest.API_LINE},
            "https-tests-dashboard" + self.prefix.replace("/", "-"),
        )
        self.api_url = self.dashboard.urls["api"]
        local = self.dashboard.urls["dashboard"].removeprefix("http://")
        config = (ROOT / "deploy" / "nginx-https.conf.template").read_text()
        for name, value in {
            "@RUN_DIR@": self.run, "@PORT@": str(self.port), "@CERT@": cert, "@KEY@": key,
            "@PREFIX@": self.prefix, "@DASHBOARD@": local,
        }.items():
            config = config.replace(name, value)
        os.makedirs(f"{self.run}/tmp", exist_ok=True)
        (pathlib.Path(self.run) / "nginx.conf").write_text(config)
        command = [nginx, "-p", self.run, "-e", f"{self.run}/nginx-error.log", "-c", f"{self.run}/nginx.conf"]
        self.nginx = subprocess.Popen([*command, "-g", "daemon off;"], stderr=subprocess.DEVNULL)
        browser_conftest.wait_until(
            lambda: self.nginx.poll() is not None or _listening(self.port), timeout=30, message="nginx to listen"
        )
        assert self.nginx.poll() is None, (pathlib.Path(self.run) / "nginx-error.log").read_text()
        return self

    def stop(self):
        try:
            if self.nginx and self.nginx.poll() is None:
                self.nginx.terminate()
                self.nginx.wait(timeout=15)
            if self.dashboard:
                assert self.dashboard.stop() == 0, "the dashboard did not exit cleanly on SIGTERM"
        finally:
            shutil.rmtree(self.run, ignore_errors=True)


def _listening(port):
    import socket

    with socket.socket() as probe:
        return probe.connect_ex(("127.0.0.1", port)) == 0


@pytest.fixture(scope="module", params=["", "/habits"], ids=["root", "prefix"])
def https_site(request):
    site = HTTPSSite(request.param).start()
    yield site
    site.stop()


@pytest.fixture
def tls_browser():
    driver = browser_conftest._chrome(arguments=("--ignore-certificate-errors",))
    yield driver
    driver.quit()
