"""Fixtures for the browser tests: the built dashboard with its embedded simulator, and headless Chromium.

The dashboard runs as the real executable on port 0 (so other processes' ports never matter) against the embedded
simulator on port 0 with a fixed seed; both URLs are read from its standard output. Every test gets a fresh browser
profile, so cookies (and so settings) never leak from one test into another.
"""

import contextlib
import json
import os
import pathlib
import queue
import random
import re
import shutil
import signal
import socket
import subprocess
import threading
import time
import urllib.error
import urllib.request

import pytest
from selenium import webdriver
from selenium.common.exceptions import StaleElementReferenceException, WebDriverException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By

ROOT = pathlib.Path(__file__).resolve().parents[2]
# Where screenshots go: $SCREENSHOTS_DIR, else .build/screenshots/ (never committed, so a run leaves the clone clean).
SCREENSHOTS = pathlib.Path(os.environ.get("SCREENSHOTS_DIR") or ROOT / ".build" / "screenshots").resolve()
DASHBOARD_LINE = r"Habits Dashboard: (http://\S+)"
API_LINE = r"Habits API simulator: (http://\S+)"


METRICS_LINE = r"Metrics: (http://\S+)"
# Each launched dashboard's /metrics URL by its own URL: the counters are served on a loopback port of their own
# (`--metrics-port 0`, which `launch` adds), never on the dashboard's port (issue 48).
METRICS = {}


def metric(base_url, name):
    """The value of `name` (an unlabelled counter or gauge) on the dashboard's /metrics: the server's own count of
    what the tests wait for (a poll parked, a refresh run), so a check waits on an event, not for a time to pass."""
    url = METRICS[base_url.rstrip("/")]
    text = urllib.request.urlopen(url, timeout=10).read().decode()
    for line in text.splitlines():
        if line.startswith(name + " "):
            return int(line.split()[1])
    raise AssertionError(f"{name} not on {url}")


def wait_until(predicate, timeout=60.0, message="condition"):
    """Polls `predicate` until it returns something truthy; generous: two shared cores run everything. A page element
    replaced under the predicate (live regions swap their content) counts as not yet."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            value = predicate()
        except (StaleElementReferenceException, WebDriverException):
            value = None
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout} s waiting for {message}")
        time.sleep(0.1)


def active_user_count(browser):
    """The count heading of Active User's group in a habit page's live region (one script reads the region at once:
    elements found one by one may be swapped out in between), or None while there is none."""
    return browser.execute_script(
        "const group = [...document.querySelectorAll('[data-live-src] li.count-group')]"
        ".find(s => s.textContent.includes('Active User'));"
        "return group ? group.querySelector('h3 .count').textContent : null;"
    )


def live_texts(browser, selector, *fields):
    """The rendered text of every element matching `selector` or, given `fields` (selectors inside it), for each such
    element the text of the first match of each field (None where there is none). Read in one script run: live.js
    swaps a region only between tasks, so the list is never half old and half new, and no element can go stale
    between two reads."""
    return browser.execute_script(
        "const [selector, fields] = arguments;"
        "const text = e => e ? e.innerText.trim() : null;"
        "return [...document.querySelectorAll(selector)]"
        ".map(e => fields.length ? fields.map(f => text(e.querySelector(f))) : text(e));",
        selector,
        list(fields),
    )


def free_port():
    """A loopback port nobody has bound, for an upstream that is down or a server that must come back on the same
    port. It is picked below the kernel's ephemeral range (as scripts/cluster.sh does): a port the kernel chose (bind
    to port 0) could be handed to another test's server started with --port 0 before this one is used, or while it
    is meant to be dead; the kernel never hands out a port below that range."""
    ephemeral_low = int(pathlib.Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split()[0])
    for _ in range(200):
        port = random.randrange(10000, max(10001, ephemeral_low))
        with socket.socket() as probe:
            try:
                probe.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port
    raise AssertionError(f"no free port below {ephemeral_low}")


class Dashboard:
    """A running habits-dashboard process and the URLs it printed."""

    def __init__(self, url, api_url, process, settings_dir):
        self.url = url
        self.api_url = api_url
        self.process = process
        self.settings_dir = settings_dir

    def api(self, path):
        """GET a JSON document from the embedded Habits API."""
        with urllib.request.urlopen(self.api_url + path, timeout=5) as response:
            return json.load(response)

    def log_habit(self, habit, user="activeUser"):
        """POST /loggedHabit to the embedded API, as another client of the API would."""
        body = json.dumps(
            {"userID": user, "habitName": habit, "timestamp": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())}
        ).encode()
        request = urllib.request.Request(
            self.api_url + "/loggedHabit", data=body, method="POST", headers={"Content-Type": "application/json"}
        )
        with urllib.request.urlopen(request, timeout=5) as response:
            assert response.status == 200


def binary(name):
    """A built executable: .build/debug/<name>, or the directory in $BINARY_DIR."""
    directory = os.environ.get("BINARY_DIR")
    return (pathlib.Path(directory) if directory else ROOT / ".build" / "debug") / name


class Launched:
    """A process started by `launch`, with the URLs it announced on stdout."""

    def __init__(self, process, urls):
        self.process = process
        self.urls = urls

    def stop(self):
        """SIGTERM, then the exit status (a clean shutdown is 0)."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
        try:
            return self.process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            self.process.kill()
            raise


def launch(name, arguments, wanted, log_name):
    """Starts .build/debug/<name> with `arguments` and waits for a stdout line matching each regex in `wanted`."""
    path = binary(name)
    if not path.exists():
        pytest.fail(f"{path} is missing: build it first (scripts/test.sh does)")
    if "dashboard" in wanted and "--metrics-port" not in arguments:
        arguments = [*arguments, "--metrics-port", "0"]
        wanted = {**wanted, "metrics": METRICS_LINE}
    process = subprocess.Popen(
        [str(path), *arguments],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=open(ROOT / ".build" / f"{log_name}.log", "w"),
        text=True,
    )
    lines = queue.Queue()
    threading.Thread(target=lambda: [lines.put(line) for line in process.stdout], daemon=True).start()
    urls = {}
    deadline = time.monotonic() + 60
    while len(urls) < len(wanted) and time.monotonic() < deadline:
        try:
            line = lines.get(timeout=1).strip()
        except queue.Empty:
            if process.poll() is not None:
                break
            continue
        for key, pattern in wanted.items():
            if match := re.search(pattern, line):
                urls[key] = match.group(1).rstrip("/")
    if len(urls) < len(wanted):
        process.kill()
        pytest.fail(f"{name} did not print its URLs; see .build/{log_name}.log")
    if "metrics" in urls:
        METRICS[urls["dashboard"]] = urls["metrics"]
    if "dashboard" in urls:
        wait_for_first_refresh(urls["dashboard"])
    return Launched(process, urls)


def wait_for_first_refresh(base_url, timeout=120.0):
    """Asks for a page that needs data until its answer is not the 503 of a first refresh still out (issue 23: a
    request with no data waits at most 3 s on the upstream, then gets 503 with Retry-After). A loaded machine can take
    longer than that over a first refresh; the tests wait for it to end (data, or the upstream's refusal), as a viewer
    would by reloading, instead of counting on it being fast. The 120 s are a hang guard only."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            with urllib.request.urlopen(base_url + "/habits", timeout=timeout) as response:
                return response.status
        except urllib.error.HTTPError as error:
            if error.code != 503 or error.headers.get("Retry-After") is None:
                return error.code
        if time.monotonic() > deadline:
            raise AssertionError(f"{base_url}: the first refresh did not end within {timeout} s")
        time.sleep(0.5)


def launch_dashboard(upstream, directory, log_name, extra=()):
    """A habits-dashboard in front of `upstream`, keeping its settings in `directory` (a pathlib.Path, usually pytest's
    `tmp_path`) and its cache in `directory`/cache; `extra` are more of its flags. Returns the `Launched` process."""
    return launch(
        "habits-dashboard",
        [
            *("--port", "0", "--upstream", upstream, "--settings-dir", str(directory)),
            *("--cache-dir", str(directory / "cache"), *extra),
        ],
        {"dashboard": DASHBOARD_LINE},
        log_name,
    )


def launch_frozen(seed, directory, log_name):
    """A habits-api with history and no live activity (`--seed`), and a dashboard in front of it keeping its settings
    and cache in `directory`: the same pages on every run. Returns both `Launched` processes (api, dashboard)."""
    api = launch(
        "habits-api", ["--port", "0", "--seed", str(seed), "--no-simulation"], {"api": API_LINE}, log_name + "-api"
    )
    return api, launch_dashboard(api.urls["api"], directory, log_name + "-dashboard")


@contextlib.contextmanager
def generated_dashboard(directory, seed, users, habits, log_name):
    """A dashboard in front of a made-up network (`habits-api --users --habits`, deterministic by `seed`), with its
    settings and cache in `directory`; yields the dashboard's URL and stops both on the way out."""
    api = launch(
        "habits-api",
        ["--port", "0", "--seed", str(seed), "--users", str(users), "--habits", str(habits)],
        {"api": API_LINE},
        f"browser-tests-{log_name}-api",
    )
    try:
        dashboard = launch_dashboard(api.urls["api"], directory, f"browser-tests-{log_name}-dashboard")
        try:
            yield dashboard.urls["dashboard"]
        finally:
            assert dashboard.stop() == 0, "the dashboard did not exit cleanly on SIGTERM"
    finally:
        api.stop()


def current_page(driver):
    """The number the pager marks as the page shown."""
    return driver.find_element(By.CSS_SELECTOR, 'nav.pager a[aria-current="page"]').text


@pytest.fixture(scope="session")
def dashboard(tmp_path_factory):
    settings_dir = tmp_path_factory.mktemp("settings")
    launched = launch(
        "habits-dashboard",
        [
            *("--port", "0", "--api-port", "0", "--seed", "42", "--speed", "10", "--settings-dir", str(settings_dir)),
            *("--cache-dir", str(settings_dir / "cache")),
        ],
        {"dashboard": DASHBOARD_LINE, "api": API_LINE},
        "browser-tests-dashboard",
    )
    yield Dashboard(launched.urls["dashboard"], launched.urls["api"], launched.process, settings_dir)
    assert launched.stop() == 0, "the dashboard did not exit cleanly on SIGTERM"


def _chrome(javascript=True, arguments=()):
    """Headless Chromium; `arguments` are extra command-line switches (the HTTPS test's `--ignore-certificate-errors`)."""
    options = webdriver.ChromeOptions()
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1280,1000", *arguments):
        options.add_argument(argument)
    if not javascript:
        options.add_experimental_option("prefs", {"profile.managed_default_content_settings.javascript": 2})
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    # Always name the driver: without it Selenium tries to download one, and nothing can be downloaded here.
    driver = webdriver.Chrome(service=Service(shutil.which("chromedriver") or "/usr/bin/chromedriver"), options=options)
    driver.implicitly_wait(0)
    return driver


@pytest.fixture
def browser():
    driver = _chrome()
    yield driver
    driver.quit()


@pytest.fixture
def browser_without_js():
    driver = _chrome(javascript=False)
    yield driver
    driver.quit()


def screenshot(driver, name, dark=False):
    """Saves a full-page screenshot as SCREENSHOTS/<name>.png (optionally in dark mode)."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    if dark:
        driver.execute_cdp_cmd(
            "Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": "dark"}]}
        )
    height = driver.execute_script("return document.documentElement.scrollHeight")
    driver.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride",
        {"width": 1280, "height": min(max(height, 720), 6000), "deviceScaleFactor": 1, "mobile": False},
    )
    try:
        driver.save_screenshot(str(SCREENSHOTS / f"{name}.png"))
    finally:
        driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
        if dark:
            driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": []})
