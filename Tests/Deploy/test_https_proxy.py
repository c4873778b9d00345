"""Issue 48 points 1, 3 and 5 through deploy/nginx-https.conf.template: nginx sets every forwarded field itself (a
client's own `Forwarded` or `X-Forwarded-*` never reaches the dashboard, which believes them from 127.0.0.1), the
counters are not served to the world, plain http is one redirect to https, nginx names no version, and every answer
over https carries HSTS, errors included.
"""

import http.client
import json
import ssl
import urllib.parse
import urllib.request

INSECURE = ssl._create_unverified_context()  # the certificate is self-signed, made a moment ago
HSTS = "max-age=31536000"


def send(site, method, path, headers, body=None, tls=True):
    """(status, headers) of one request to nginx, over https or to its plain-http port, with exactly `headers`
    (Host included)."""
    if tls:
        connection = http.client.HTTPSConnection("127.0.0.1", site.port, timeout=30, context=INSECURE)
    else:
        connection = http.client.HTTPConnection("127.0.0.1", site.http_port, timeout=30)
    try:
        connection.request(method, path, body=body, headers=headers)
        response = connection.getresponse()
        response.read()
        return response.status, response.headers
    finally:
        connection.close()


def public_host(site):
    """The public URL's host and port, as a browser's Host names them."""
    return f"127.0.0.1:{site.port}"


def favourite(site, headers):
    """A favourite POST for the first habit, with exactly `headers` besides the form's type."""
    with urllib.request.urlopen(site.api_url + "/habits", timeout=10) as response:
        habit = urllib.parse.quote(sorted(json.load(response))[0], safe="")
    form = {"Content-Type": "application/x-www-form-urlencoded"}
    return send(site, "POST", f"{site.prefix}/habits/{habit}/favorite", {**form, **headers}, b"favorite=true")


def test_a_spoofed_forwarded_host_is_421_with_hsts(https_site):
    site = https_site
    spoofs = [
        {"Host": "evil.example", "Forwarded": f"host={public_host(site)};proto=https"},
        {"Host": "evil.example", "Forwarded": f'for=1.2.3.4;host="{public_host(site)}"'},
        {"Host": "evil.example", "X-Forwarded-Host": public_host(site)},
    ]
    for headers in spoofs:
        status, answer = send(site, "GET", site.prefix + "/", headers)
        assert status == 421, headers
        assert answer["Strict-Transport-Security"] == HSTS, headers
    # The browser's own Host with a foreign forwarded host is still this site: nginx's value is the one passed on.
    status, _ = send(site, "GET", site.prefix + "/", {"Host": public_host(site), "Forwarded": "host=evil.example"})
    assert status == 200


def test_a_cross_site_post_with_a_spoofed_host_is_refused(https_site):
    site = https_site
    evil = {"Origin": "https://evil.example"}
    status, _ = favourite(site, {"Host": public_host(site), **evil, "Forwarded": "host=evil.example"})
    assert status == 403
    status, _ = favourite(site, {"Host": "evil.example", **evil, "Forwarded": f"host={public_host(site)}"})
    assert status == 421


def test_metrics_are_not_served_through_the_proxy(https_site):
    site = https_site
    status, answer = send(site, "GET", site.prefix + "/metrics", {"Host": public_host(site)})
    assert status == 404
    assert answer["Strict-Transport-Security"] == HSTS


def test_plain_http_is_one_redirect_to_https_and_nginx_names_no_version(https_site):
    site = https_site
    status, answer = send(site, "GET", site.prefix + "/people?q=a", {"Host": "127.0.0.1"}, tls=False)
    assert status == 301
    assert answer["Location"] == f"https://{public_host(site)}{site.prefix}/people?q=a"
    assert answer["Set-Cookie"] is None
    assert answer["Server"] == "nginx"
    status, answer = send(site, "GET", site.prefix + "/", {"Host": public_host(site)})
    assert status == 200 and answer["Server"] == "nginx"


def test_errors_over_https_carry_hsts(https_site):
    site = https_site
    # The dashboard's own 404 page, and (under a prefix) nginx's own 404 outside it.
    status, answer = send(site, "GET", site.prefix + "/no-such-page", {"Host": public_host(site)})
    assert status == 404 and answer["Strict-Transport-Security"] == HSTS
    if site.prefix:
        status, answer = send(site, "GET", "/elsewhere", {"Host": public_host(site)})
        assert status == 404 and answer["Strict-Transport-Security"] == HSTS
