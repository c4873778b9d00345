"""Issue 20: deploy/habits-dashboard.service is a sandboxed Type=notify unit that systemd rates "OK" or better.

The notifications themselves are tested without systemd (Tests/CommandLineKitTests/ServiceNotifierTests.swift and
Tests/HTTPServerTests/ExecutableTests+Deploy.swift bind their own notify socket).
"""

import os
import pathlib
import re
import shutil
import subprocess

import pytest

UNIT = pathlib.Path(__file__).resolve().parents[2] / "deploy" / "habits-dashboard.service"


def directives():
    pairs = {}
    for line in UNIT.read_text().replace("\\\n", " ").splitlines():
        if "=" in line and not line.startswith("#"):
            name, value = line.split("=", 1)
            pairs.setdefault(name.strip(), []).append(value.strip())
    return pairs


def test_the_unit_runs_as_its_own_user_with_state_directories_and_notifies():
    unit = directives()
    assert unit["Type"] == ["notify"] and unit["DynamicUser"] == ["yes"] and unit["ProtectSystem"] == ["strict"]
    assert unit["StateDirectory"] == ["habits-dashboard/settings habits-dashboard/cache"]
    start = unit["ExecStart"][0]
    assert "--settings-dir /var/lib/habits-dashboard/settings" in start
    assert "--cache-dir /var/lib/habits-dashboard/cache" in start
    # Issue 48: the counters on their own port, loopback by default, never on the public one.
    assert "--metrics-port 9464" in start and "--metrics-host" not in start
    assert unit["WatchdogSec"] and unit["NoNewPrivileges"] == ["yes"] and unit["CapabilityBoundingSet"] == [""]


def test_systemd_rates_the_unit_ok_or_better():
    analyze = shutil.which("systemd-analyze")
    if not analyze:
        if os.environ.get("CI") == "true":
            pytest.fail("systemd-analyze is missing; CI needs it to rate the unit")
        pytest.skip("systemd-analyze is missing")
    result = subprocess.run(
        [analyze, "security", "--offline=true", "--no-pager", str(UNIT)], capture_output=True, text=True
    )
    match = re.search(r"Overall exposure level for \S+: (\d+\.\d) (\w+)", result.stdout)
    assert match, result.stdout + result.stderr
    score, rating = float(match.group(1)), match.group(2)
    print(f"systemd-analyze security: {score} {rating}")
    assert rating in ("SAFE", "OK") and score < 5.0, match.group(0)
