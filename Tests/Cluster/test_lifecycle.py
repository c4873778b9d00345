"""scripts/cluster.sh on its own: it starts its own Habits API, serves through nginx, and stops everything it started.

The script runs in a session of its own (as in a terminal), so every process it starts lands in its process group:
after SIGTERM, `ps` must show none of them.
"""

from conftest import get, maps_libpq, start_cluster


def test_the_script_starts_an_api_two_dashboards_and_nginx_and_sigterm_leaves_no_process(tmp_path):
    cluster = start_cluster(2, tmp_path)
    try:
        started = cluster.group_processes()
        # The script, habits-api, two dashboards, nginx's master and its two workers.
        assert len(started) >= 7, started
        assert get(cluster.front, "/").status == 200
        assert get(cluster.api_cache, "/habits").status == 200
        for url, _ in cluster.dashboards:
            assert get(url, "/healthz").status == 200
        assert (cluster.settings_dir / ".cookie-secret").exists(), "the dashboards share one secret in the directory"
        for _, pid in cluster.dashboards:
            assert not maps_libpq(pid), "a dashboard without --database never loads libpq (issue 21's RSS budget)"
    finally:
        status = cluster.stop()
        leftover = cluster.group_processes()
    assert status == 143, "cluster.sh reports that it was stopped by SIGTERM"
    assert leftover == [], f"processes left behind: {leftover}"
