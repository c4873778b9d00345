"""Issue 48 point 5: deploy/nginx-https.conf.template's TLS, checked by testssl.sh (Debian's `testssl`) on loopback.

The template follows Mozilla's "intermediate" configuration; testssl.sh checks protocols, cipher categories, forward
secrecy, the server's cipher choice, the HTTP headers and the known vulnerabilities. Any "NOT ok" or "VULNERABLE"
line fails the test unless it is in ACCEPTED below, with the reason. The certificate checks (-S) are left out: the
certificate is the test's own, self-signed and valid for a day, which says nothing about the template.
"""

import re
import subprocess

import pytest

from conftest import HTTPSSite, require_tool

# (pattern a flagged line matches, why it is accepted). Keep it short: each entry is a finding someone decided on.
ACCEPTED = [
    (
        r"^Has server cipher order\?\s+no",
        "Mozilla's intermediate configuration turns the server's order off on purpose (ssl_prefer_server_ciphers "
        "off): every suite offered is forward-secret AEAD, so the client may pick the one fastest for it (ChaCha20 "
        "on a phone without AES instructions)",
    ),
    (
        r"^BREACH ",
        "the dashboard gzips its pages, and BREACH reads a secret that is reflected in a compressed body next to "
        "attacker input; the pages carry no secret (no CSRF token: forms are checked by Origin, the cookie is never "
        "in a body), so there is nothing to read (it fires when testssl.sh is given a page: on port 443, where its "
        "Host names the public URL)",
    ),
]

# testssl.sh's own timeouts stop a connection that hangs; this one only stops a run that hangs (a normal run on
# loopback takes well under a minute).
HANG_GUARD_SECONDS = 600


@pytest.fixture(scope="module")
def tls_site():
    site = HTTPSSite("/habits").start()
    yield site
    site.stop()


def flagged(report):
    """The lines of a testssl.sh report that say "NOT ok" or "VULNERABLE" and are not accepted."""
    lines = [line.strip() for line in report.splitlines()]
    bad = [line for line in lines if "NOT ok" in line or ("VULNERABLE" in line and "not vulnerable" not in line)]
    return [line for line in bad if not any(re.search(pattern, line) for pattern, _ in ACCEPTED)]


def test_flagged_lines_are_found_and_accepted_ones_left_out():
    report = "\n".join([
        " SSLv3     offered (NOT ok)",
        " BREACH (CVE-2013-3587)  potentially NOT ok, \"gzip\" HTTP compression detected.",
        " ROBOT                   VULNERABLE (NOT ok)",
        " POODLE, SSL (CVE-2014-3566)  not vulnerable (OK)",
    ])
    assert flagged(report) == ["SSLv3     offered (NOT ok)", "ROBOT                   VULNERABLE (NOT ok)"]


def test_testssl_finds_nothing_wrong_with_the_tls_template(tls_site):
    testssl = require_tool("testssl", "/usr/bin/testssl.sh")
    command = [
        testssl, "--quiet", "--color", "0", "--warnings", "off", "--sneaky", "--fast",
        "--connect-timeout", "10", "--openssl-timeout", "10",
        "-p", "-s", "-f", "-P", "-h", "-U",
        f"https://127.0.0.1:{tls_site.port}/habits/",
    ]
    run = subprocess.run(command, capture_output=True, text=True, timeout=HANG_GUARD_SECONDS)
    report = run.stdout
    # A run that tested nothing (no connection, a changed option) must not pass as clean.
    assert "Testing protocols" in report and "Testing vulnerabilities" in report, report[-3000:] + run.stderr[-2000:]
    assert "TLS 1.3" in report and re.search(r"TLS 1\.3\s+offered", report), report
    # testssl.sh's Host names no port, so its header checks meet the dashboard's 421, which must carry HSTS too.
    assert re.search(r"Strict Transport Security\s+365 days", report), report
    assert re.search(r"Server banner\s+nginx$", report, re.M), report
    assert flagged(report) == [], report
