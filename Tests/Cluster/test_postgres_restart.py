"""A PostgreSQL cluster started on a fresh database, stopped whole and started again (issue 19 points 2, 5 and 8).

- Three dashboards starting together on an empty database apply each migration exactly once (the advisory lock of
  the migrations' runner): `schema_migrations` holds every version once, and all three serve.
- The history lives in the database: once a habit's chart is drawn, every dashboard of a new cluster on the same
  database draws it on its first answer, with at least the samples it had, though none of them recorded any.
"""

import re
import time

from conftest import Postgres, api_json, get, quote, start_postgres_cluster

# A line needs two samples 10 s apart (the history's slot); a hang guard, far above the expected 10-20 s.
CHART_GUARD_SECONDS = 90


def chart_points(body):
    """How many 10 s slots the habit page's hour chart spans (0 without one): from where its line starts to its right
    edge. A flat line is drawn as one segment, so its points say nothing; its start does (600 px for 360 slots)."""
    match = re.search(r'<svg class="chart-svg" viewBox="0 0 ([\d.]+) [\d.]+".*?<path class="chart-line" d="M([\d.]+)', body)
    if not match:
        return 0
    width, start = float(match.group(1)), float(match.group(2))
    return round((width - start) / (width / 360)) + 1


def test_three_dashboards_starting_together_apply_each_migration_once_and_the_history_survives_a_restart(api):
    database = Postgres()
    try:
        cluster = start_postgres_cluster(3, database, api)
        try:
            versions = database.query("SELECT version FROM schema_migrations ORDER BY version")
            numbers = [int(row[0]) for row in versions]
            assert numbers == list(range(1, len(numbers) + 1)) and len(numbers) >= 2, numbers
            for url, _ in cluster.dashboards:
                assert get(url, "/healthz").status == 200

            habit = sorted(api_json(cluster.api, "/habits"))[0]
            path = f"/habits/{quote(habit)}"
            deadline = time.monotonic() + CHART_GUARD_SECONDS
            points = 0
            while points < 3:
                assert time.monotonic() < deadline, "no chart of three points"
                points = min(chart_points(get(url, path).body) for url, _ in cluster.dashboards)
                time.sleep(0.5)
            before = points
        finally:
            assert cluster.stop() in (0, 143)

        launched = time.monotonic()
        restarted = start_postgres_cluster(3, database, api)
        try:
            # Slot arithmetic, no time bound: a history lost with the processes would be a fresh line, whose first
            # sample is in a slot after the relaunch, so T seconds after it at most floor(T / 10) + 2 slots wide. The
            # stored one is at least `before` (>= 3) plus the slots passed since, so at least floor(T / 10) + 3.
            for url, _ in restarted.dashboards:
                deadline = time.monotonic() + CHART_GUARD_SECONDS
                drawn = chart_points(get(url, path).body)
                while drawn == 0:
                    assert time.monotonic() < deadline, f"{url} draws no chart after the restart"
                    time.sleep(0.2)
                    drawn = chart_points(get(url, path).body)
                elapsed = time.monotonic() - launched
                assert drawn >= before and drawn >= int(elapsed // 10) + 3, (url, drawn, before, elapsed)
        finally:
            assert restarted.stop() in (0, 143)
    finally:
        database.close()
