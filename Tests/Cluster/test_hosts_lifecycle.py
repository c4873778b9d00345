"""scripts/cluster.sh --hosts (issue 49 point 1): every piece on a host of its own, and nothing left behind.

A run killed with SIGKILL (its traps never run) leaves its namespaces, and the servers in them, behind; the next run
removes them before it starts. A run stopped with SIGTERM removes its own.
"""

import os
import re
import shutil
import signal
import time

from conftest import get, in_namespace, start_cluster


def namespaces_of(cluster):
    """The namespaces named after `cluster`'s script (habits-<pid>-…) that exist now."""
    prefix = cluster.switch[: -len("net")]
    return [line.split()[0] for line in in_namespace(None, "netns", "list").splitlines() if line.startswith(prefix)]


def alive(pid):
    try:
        os.kill(pid, 0)
        return True
    except ProcessLookupError:
        return False


def test_a_killed_run_is_cleaned_up_by_the_next_and_a_stopped_one_leaves_nothing():
    first = start_cluster(2, store="postgres", hosts=True)
    try:
        addresses = {name: address for name, (_, address) in first.hosts.items()}
        assert set(addresses) == {"pg", "api", "d1", "d2"}, addresses
        assert all(re.match(r"198\.1[89]\.\d+\.\d+$", address) for address in addresses.values()), addresses
        assert len(set(addresses.values())) == 4, "each host has an address of its own"
        assert get(first.front, "/habits").status == 200
        for url, _ in first.dashboards:
            assert get(url, "/healthz").status == 200
        # Each dashboard runs in its own namespace: the kernel says so.
        spaces = {os.readlink(f"/proc/{pid}/ns/net") for _, pid in first.dashboards}
        assert len(spaces) == 2 and os.readlink("/proc/self/ns/net") not in spaces, spaces
        os.kill(first.process.pid, signal.SIGKILL)
        first.process.wait(timeout=30)
        assert len(namespaces_of(first)) == 5, "a SIGKILLed run cannot clean up"
        second = start_cluster(1, store="postgres", hosts=True)
        try:
            assert namespaces_of(first) == [], "the next run removes what a killed one left"
            deadline = time.monotonic() + 30  # a hang guard: SIGKILLed processes go at once
            while any(alive(pid) for _, pid in first.dashboards):
                assert time.monotonic() < deadline, "the killed run's dashboards still run"
                time.sleep(0.1)
            assert get(second.front, "/habits").status == 200
        finally:
            status = second.stop()
        assert status == 143
        assert namespaces_of(second) == [], "SIGTERM removes the run's namespaces"
        assert f"hcl-{second.process.pid}" not in in_namespace(None, "-o", "link", "show")
    finally:
        first.stop()  # nginx and the script's other root-namespace children, still in its process group
        shutil.rmtree(first.logs.parent, ignore_errors=True)  # the killed run's directory (its trap never ran)
