"""Issue 46 point 3 through deploy/nginx-https.conf.template: behind its proxy the dashboard counts connections and
parked polls by the forwarded client, so one client holding hundreds of live polls through nginx leaves another
client's pages at 200. Before, every visitor arrived from nginx's one address and shared its 256 connections: one
client holding 300 polls made most of another client's pages 503.
"""

import asyncio
import http.client
import re
import ssl

import pytest

from conftest import HTTPSSite

INSECURE = ssl._create_unverified_context()  # the certificate is self-signed, made a moment ago
NOISY_POLLS = 320
NOISY, QUIET = "127.0.0.1", "127.0.0.2"
LIVE_REGION = re.compile(r'data-live-src="([^"]+)"[^>]*data-live-etag="([^"]+)"')


@pytest.fixture(scope="module")
def site():
    site = HTTPSSite("").start()
    yield site
    site.stop()


def get(site, path, source, headers=None):
    """(status, body) of one GET through nginx over https from `source`."""
    connection = http.client.HTTPSConnection(
        "127.0.0.1", site.port, timeout=30, context=INSECURE, source_address=(source, 0))
    try:
        connection.request("GET", path, headers={"Host": f"127.0.0.1:{site.port}", **(headers or {})})
        response = connection.getresponse()
        return response.status, response.read().decode("utf-8", "replace")
    finally:
        connection.close()


async def hold_polls(site, fragment, etag, count, held, stop):
    """`count` connections from NOISY, each sending the live poll again as soon as it is answered, with the ETag
    it was last given (as live.js does)."""

    async def poller():
        reader, writer = await asyncio.open_connection(
            "127.0.0.1", site.port, ssl=INSECURE, local_addr=(NOISY, 0))
        seen = etag
        try:
            while not stop.is_set():
                writer.write((f"GET {fragment} HTTP/1.1\r\nHost: 127.0.0.1:{site.port}\r\nIf-None-Match: {seen}\r\n"
                              "Prefer: wait=25\r\n\r\n").encode())
                await writer.drain()
                held[0] += 1
                head = await reader.readuntil(b"\r\n\r\n")
                held[0] -= 1
                length = re.search(rb"(?i)content-length: *(\d+)", head)
                tag = re.search(rb"(?i)\r\netag: *([^\r]+)", head)
                seen = tag.group(1).decode() if tag else seen
                await reader.readexactly(int(length.group(1)) if length else 0)
        except (OSError, asyncio.IncompleteReadError, asyncio.CancelledError):
            pass
        finally:
            writer.close()

    return [asyncio.create_task(poller()) for _ in range(count)]


def test_one_client_holding_hundreds_of_polls_leaves_another_clients_pages_at_200(site):
    status, page = get(site, "/", QUIET)
    assert status == 200
    fragment, etag = LIVE_REGION.search(page).groups()
    fragment = fragment.replace("&amp;", "&")

    async def scenario():
        stop, held = asyncio.Event(), [0]
        tasks = await hold_polls(site, fragment, etag, NOISY_POLLS, held, stop)
        # Every poll sent and waiting (nginx has passed each to the dashboard, which holds it).
        for _ in range(300):
            if held[0] >= NOISY_POLLS:
                break
            await asyncio.sleep(0.1)
        await asyncio.sleep(2)
        holding = held[0]
        pages = ["/", "/habits", "/people"] * 10
        statuses = [await asyncio.to_thread(get, site, path, QUIET) for path in pages]
        stop.set()
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        return holding, [status for status, _ in statuses]

    held, statuses = asyncio.run(scenario())
    print(f"{held} polls held from {NOISY}; {statuses.count(200)} of the other client's {len(statuses)} pages 200")
    assert statuses == [200] * len(statuses), statuses
    assert held >= 300
