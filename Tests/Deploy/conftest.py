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
import socket
import ssl
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
    """nginx on https://127.0.0.1:<port><prefix>/ in front of a dashboard started with that --public-url, and on
    http://127.0.0.1:<http_port>/ redirecting to it."""

    # How many ports to try: one picked as free may be taken before nginx binds it, by any process on the machine
    # that binds port 0 or connects out (an ephemeral port), such as another test run.
    attempts = 5

    def __init__(self, prefix):
        self.prefix = prefix
        self.run = tempfile.mkdtemp(prefix="habits-https-")
        os.chmod(self.run, 0o755)  # nginx's workers run as another user when started as root
        self.port = None
        self.http_port = None
        self.url = None
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
        for _ in range(self.attempts):
            if self._start_on_a_free_port(nginx, cert, key):
                return self
            self._stop_processes()
        raise AssertionError(f"nginx found no free port in {self.attempts} tries")

    def _start_on_a_free_port(self, nginx, cert, key):
        """Starts the dashboard and nginx on a port picked as free; False when nginx could not bind it (taken
        meanwhile). True only once nginx answers there with this site's certificate, never another server that
        holds the port."""
        self.port = browser_conftest.free_port()
        self.http_port = browser_conftest.free_port()
        if self.http_port == self.port:
            return False
        self.url = f"https://127.0.0.1:{self.port}{self.prefix}"
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
            "@PREFIX@": self.prefix, "@DASHBOARD@": local, "@HTTP_PORT@": str(self.http_port),
            "@PUBLIC_AUTHORITY@": f"127.0.0.1:{self.port}",
        }.items():
            config = config.replace(name, value)
        os.makedirs(f"{self.run}/tmp", exist_ok=True)
        (pathlib.Path(self.run) / "nginx.conf").write_text(config)
        error_log = pathlib.Path(self.run) / "nginx-error.log"
        command = [nginx, "-p", self.run, "-e", str(error_log), "-c", f"{self.run}/nginx.conf"]
        self.nginx = subprocess.Popen([*command, "-g", "daemon off;"], stderr=subprocess.DEVNULL)
        browser_conftest.wait_until(
            lambda: self.nginx.poll() is not None or _answers_tls_with(self.port, cert),
            timeout=30, message="nginx to answer with the site's certificate",
        )
        if self.nginx.poll() is None:
            return True
        log = error_log.read_text() if error_log.exists() else ""
        assert "Address already in use" in log, log
        return False

    def stop(self):
        try:
            self._stop_processes()
        finally:
            shutil.rmtree(self.run, ignore_errors=True)

    def _stop_processes(self):
        nginx, dashboard = self.nginx, self.dashboard
        self.nginx = self.dashboard = None
        if nginx and nginx.poll() is None:
            nginx.terminate()
            nginx.wait(timeout=15)
        if dashboard:
            assert dashboard.stop() == 0, "the dashboard did not exit cleanly on SIGTERM"


def _answers_tls_with(port, cert):
    """Whether a TLS server on `port` presents `cert` (a listener that is not this site's nginx fails)."""
    context = ssl.create_default_context(cafile=cert)
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=2) as raw:
            with context.wrap_socket(raw, server_hostname="127.0.0.1"):
                return True
    except (OSError, ssl.SSLError):
        return False


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
