"""Issue 14: fewer bytes and fewer round trips, measured in the browser with the Resource Timing API.

A first visit (empty cache) and a repeat visit of Home, Habits, People and a habit page: how many requests went to
the network and how many bytes they transferred. Targets: a repeat visit asks the network for the page itself and
nothing else (fingerprinted assets, the versioned colour sheet and avatars come from the browser's cache), and a first
visit of People transfers at most a third of what it would without compression and lazy images.
"""

import urllib.parse

import pytest
from conftest import Dashboard, _chrome, launch_frozen

# Every entry the page loaded: the navigation and each resource, with what went over the wire. transferSize is 0 for
# a resource the browser took from its cache without asking; a revalidation (304) transfers its headers.
MEASURE = """
const entries = [performance.getEntriesByType('navigation')[0], ...performance.getEntriesByType('resource')];
return entries.map(e => ({name: e.name, transfer: e.transferSize, decoded: e.decodedBodySize,
                          encoded: e.encodedBodySize}));
"""

WAIT_FOR_LOAD = """
const done = arguments[arguments.length - 1];
if (document.readyState === 'complete') { setTimeout(done, 300); }
else { window.addEventListener('load', () => setTimeout(done, 300)); }
"""


# People's first visit before issue 14, measured with this very test on dbc9e43 (main before issue 14; the built-in
# data, seed 42): every body uncompressed, 41 avatars of ~4.3 KB in stored-deflate PNGs, 45 requests.
PEOPLE_FIRST_VISIT_BEFORE = 234_652


def visit(driver, url):
    driver.get(url)
    driver.execute_async_script(WAIT_FOR_LOAD)
    entries = driver.execute_script(MEASURE)
    # Long polls of live pages are still in flight (transfer 0 until they end) and are not part of the visit.
    return [e for e in entries if "/fragments/" not in e["name"]]


def network(entries):
    return [e for e in entries if e["transfer"] > 0]


def first_habit(dashboard):
    return sorted(dashboard.api("/habits"))[0]


@pytest.fixture(scope="module")
def still_dashboard(tmp_path_factory):
    """A dashboard over a simulator with no live activity. On live data a person who joins a habit between the two
    visits brings an avatar the first visit never loaded, and the repeat visit rightly fetches it."""
    directory = tmp_path_factory.mktemp("transfer")
    api, dashboard = launch_frozen(42, directory, "transfer")
    try:
        yield Dashboard(dashboard.urls["dashboard"], api.urls["api"], dashboard.process, directory)
    finally:
        for process in (dashboard, api):
            process.stop()


@pytest.fixture
def fresh_browser():
    driver = _chrome()
    driver.execute_cdp_cmd("Network.enable", {})
    driver.execute_cdp_cmd("Network.clearBrowserCache", {})
    yield driver
    driver.quit()


def test_repeat_visits_fetch_only_the_page_and_first_visits_are_small(still_dashboard, fresh_browser):
    dashboard = still_dashboard
    pages = {
        "Home": "/",
        "Habits": "/habits",
        "People": "/people",
        "habit": "/habits/" + urllib.parse.quote(first_habit(dashboard), safe=""),
    }
    rows = []
    for name, path in pages.items():
        url = dashboard.url + path
        fresh_browser.execute_cdp_cmd("Network.clearBrowserCache", {})  # each first visit starts empty
        first = visit(fresh_browser, url)
        repeat = visit(fresh_browser, url)
        rows.append((name, first, repeat))
        # The repeat visit: only the page goes to the network. Avatars are lazy, so how many load depends on when
        # the layout settles; one the first visit did not load is not in the cache yet, and is not a repeat.
        loaded_before = {e["name"] for e in first}
        fetched = [e["name"] for e in network(repeat) if e["name"] in loaded_before]
        transfers = [(e["name"], e["transfer"]) for e in repeat]
        assert fetched == [url], f"{name}: the repeat visit fetched {fetched} again (it loaded {transfers})"
        assert any(e["name"] != url for e in repeat if e["name"] in loaded_before), f"{name}: nothing repeated"

    print()
    print(f"{'page':8} {'first: requests':>16} {'bytes':>8} {'uncompressed':>13} {'repeat: requests':>17} {'bytes':>7}")
    for name, first, repeat in rows:
        print(
            f"{name:8} {len(network(first)):>16} {sum(e['transfer'] for e in first):>8} "
            f"{sum(e['decoded'] for e in first):>13} {len(network(repeat)):>17} "
            f"{sum(e['transfer'] for e in repeat):>7}"
        )

    people_first = next(first for name, first, _ in rows if name == "People")
    transferred = sum(e["transfer"] for e in people_first)
    print(f"People, first visit: {transferred} bytes transferred (before issue 14: {PEOPLE_FIRST_VISIT_BEFORE})")
    assert transferred * 3 <= PEOPLE_FIRST_VISIT_BEFORE, f"People's first visit transferred {transferred} bytes"
