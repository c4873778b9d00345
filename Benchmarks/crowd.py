"""Makes a crowd of browsers for Benchmarks/crowd.sh (issue 46 point 1) and the files both servers are measured with.

`crowd.py browsers API DASHBOARD N SEED OUT`: N browsers, each with its own settings made through the dashboard's own
forms (1-4 favourites, 0-5 follows, chosen with SEED), so every cookie is one the dashboard minted. For each browser
and each of the five pages (Home, a habit of its own, a person, Habits, People) it fetches the page with that browser's
cookies (the settings cookie and the last-visit cookie Home hands out, as a browser sends them back) and writes the
very bytes to OUT/html/b<i>/<page>.html, with a gzip copy beside it for nginx's gzip_static. Then one wrk Lua table per
page and server: OUT/<page>-ours.lua cycles through the browsers' requests to the dashboard, OUT/<page>-nginx.lua
through the same browsers' files, with the same Cookie header, so consecutive requests differ as in a crowd.
Prints the median page size of each page.
"""

import gzip
import http.client
import json
import os
import random
import statistics
import sys
import threading
import urllib.parse
import urllib.request
from concurrent.futures import ThreadPoolExecutor

PAGES = ["home", "habit", "person", "habits", "people"]


def quote(value):
    return urllib.parse.quote(value, safe="")


class Client:
    """One keep-alive connection to the dashboard, per worker thread."""

    def __init__(self, base):
        self.base = base
        self.host = urllib.parse.urlsplit(base).netloc
        self.connection = None

    def request(self, method, path, headers, body=None):
        for attempt in range(3):
            try:
                if self.connection is None:
                    self.connection = http.client.HTTPConnection(self.host, timeout=120)
                self.connection.request(method, path, body=body, headers=headers)
                response = self.connection.getresponse()
                return response, response.read()
            except (http.client.HTTPException, OSError):
                self.connection = None
                if attempt == 2:
                    raise


def make_browser(client, index, habits, users, seed):
    """The browser's cookie and its pages' paths: its settings made through the forms."""
    rng = random.Random(seed * 1_000_003 + index)
    favorites = rng.sample(habits, rng.randint(1, 4))
    follows = rng.sample(users, rng.randint(0, 5))
    cookie = None
    for path, form in [(f"/habits/{quote(h)}/favorite", "favorite=true") for h in favorites] + [
        (f"/people/{quote(u)}/follow", "follow=true") for u in follows
    ]:
        headers = {"Origin": client.base, "Content-Type": "application/x-www-form-urlencoded"}
        if cookie:
            headers["Cookie"] = cookie
        response, _ = client.request("POST", path, headers, form)
        if response.status != 303:
            raise SystemExit(f"crowd.py: POST {path} answered {response.status}")
        minted = response.getheader("Set-Cookie")
        if minted and minted.startswith("habits_browser"):
            cookie = minted.split(";")[0]
    # Home hands out the last-visit cookie; a browser sends it back, so later pages come without a Set-Cookie.
    response, _ = client.request("GET", "/", {"Cookie": cookie})
    visit = next(
        (v.split(";")[0] for k, v in response.getheaders() if k.lower() == "set-cookie" and "visit" in v.split("=")[0]),
        None,
    )
    cookie = cookie + ("; " + visit if visit else "")
    person = follows[0] if follows else rng.choice(users)
    paths = ["/", f"/habits/{quote(favorites[0])}", f"/people/{quote(person)}", "/habits", "/people"]
    return cookie, paths


def fetch_pages(client, index, cookie, paths, out):
    """Writes the browser's five pages, as the dashboard serves them now, and their gzip copies; their sizes."""
    folder = os.path.join(out, "html", f"b{index}")
    os.makedirs(folder, exist_ok=True)
    sizes = []
    for name, path in zip(PAGES, paths):
        response, body = client.request("GET", path, {"Cookie": cookie})
        if response.status != 200:
            raise SystemExit(f"crowd.py: GET {path} for browser {index} answered {response.status}")
        target = os.path.join(folder, name + ".html")
        with open(target, "wb") as file:
            file.write(body)
        with open(target + ".gz", "wb") as file:
            file.write(gzip.compress(body, compresslevel=6, mtime=0))
        sizes.append(len(body))
    return sizes


def lua_table(requests):
    """A wrk script cycling through `requests` (path, Cookie), each thread from its own starting point."""
    # wrk.format adds no Host at load time: crowd.sh writes the server's host:port in place of __HOST__.
    lines = ['local host = "__HOST__"', "local requests = {"]
    for path, cookie in requests:
        headers = f"{{['Host'] = host, ['Cookie'] = {json.dumps(cookie)}}}"
        lines.append(f"  wrk.format('GET', {json.dumps(path)}, {headers}),")
    lines.append("}")
    lines.append(
        """local counter = 0
local threads = 0
function setup(thread) thread:set("offset", threads * 7919); threads = threads + 1 end
function init(args) counter = offset or 0 end
function request()
  counter = counter + 1
  return requests[counter % #requests + 1]
end"""
    )
    return "\n".join(lines) + "\n"


def main():
    _, api, dash, count, seed, out = sys.argv[1:7]
    count, seed = int(count), int(seed)
    habits = sorted(json.load(urllib.request.urlopen(api + "/habits")))
    users = sorted(u for u in json.load(urllib.request.urlopen(api + "/users")) if u != "activeUser")
    workers = 8
    local = threading.local()  # one keep-alive connection per worker thread

    def client():
        if not hasattr(local, "client"):
            local.client = Client(dash)
        return local.client

    with ThreadPoolExecutor(workers) as pool:
        browsers = list(pool.map(lambda i: make_browser(client(), i, habits, users, seed), range(count)))
    with ThreadPoolExecutor(workers) as pool:
        sizes = list(pool.map(lambda i: fetch_pages(client(), i, browsers[i][0], browsers[i][1], out), range(count)))
    for page_index, name in enumerate(PAGES):
        ours = [(paths[page_index], cookie) for cookie, paths in browsers]
        theirs = [(f"/b{i}/{name}.html", cookie) for i, (cookie, _) in enumerate(browsers)]
        with open(os.path.join(out, f"{name}-ours.lua"), "w") as file:
            file.write(lua_table(ours))
        with open(os.path.join(out, f"{name}-nginx.lua"), "w") as file:
            file.write(lua_table(theirs))
        print(name, int(statistics.median(s[page_index] for s in sizes)))


if __name__ == "__main__":
    main()
