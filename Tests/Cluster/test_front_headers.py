"""Issue 48 point 1: the cluster front (deploy/nginx-cluster.conf.template) sets every forwarded field itself.

The dashboards believe `Forwarded` and `X-Forwarded-*` from 127.0.0.1 (--trusted-proxy), so whatever a client sends
in them must never reach a dashboard: a spoofed host must not make a cross-site POST look same-site, a spoofed
`proto=https` must not earn a `Secure` cookie or HSTS over plain http. Plus the Host rule without --public-url (only
the loopback names) and the counters kept off the public port.
"""

import urllib.parse

import pytest

from conftest import api_json, get, quote, request, start_cluster, stopped_at_exit

FORM = {"Content-Type": "application/x-www-form-urlencoded"}


@pytest.fixture(scope="module")
def front(api, tmp_path_factory):
    """One dashboard behind the front (the headers are the front's, however many dashboards are behind it)."""
    with stopped_at_exit(start_cluster(1, tmp_path_factory.mktemp("front-settings"), upstream=api)) as running:
        yield running


def favourite(front, headers):
    """A favourite POST for the first habit through the front with `headers` added to a browser's own."""
    habit = quote(sorted(api_json(front.api, "/habits"))[0])
    host = urllib.parse.urlsplit(front.front).netloc
    return request(front.front, "POST", f"/habits/{habit}/favorite", {"Host": host, **FORM, **headers}, "favorite=true")


def test_a_spoofed_forwarded_host_does_not_make_a_cross_site_post_same_site(front):
    evil = {"Origin": "http://evil.example"}
    assert favourite(front, {**evil, "X-Forwarded-Host": "evil.example"}).status == 403
    assert favourite(front, {**evil, "Forwarded": "host=evil.example"}).status == 403
    assert favourite(front, {**evil, "Forwarded": "for=1.2.3.4;host=evil.example;proto=http"}).status == 403


def test_a_spoofed_https_earns_no_secure_cookie_and_no_hsts(front):
    origin = {"Origin": front.front}
    for spoof in ({"Forwarded": "proto=https"}, {"X-Forwarded-Proto": "https"}):
        answer = favourite(front, {**origin, **spoof})
        assert answer.status == 303, spoof
        cookies = answer.headers.get_all("Set-Cookie") or []
        assert cookies and not any("Secure" in cookie for cookie in cookies), (spoof, cookies)
        assert answer.headers["Strict-Transport-Security"] is None, spoof
        # The https origin a spoofed scheme would have matched is another site.
        https = front.front.replace("http://", "https://")
        assert favourite(front, {"Origin": https, **spoof}).status == 403, spoof


def test_other_host_names_are_misdirected_and_metrics_are_not_public(front):
    assert get(front.front, "/habits").status == 200
    for headers in ({"Host": "evil.example"}, {"Host": "evil.example", "Forwarded": "host=127.0.0.1"}):
        assert get(front.front, "/habits", headers=headers).status == 421, headers
    assert get(front.front, "/metrics").status == 404
    url, _ = front.dashboards[0]
    assert get(url, "/metrics").status == 404
