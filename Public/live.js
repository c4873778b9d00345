// Live regions (SPEC section 6): every element with data-live-src="<fragment URL>" long-polls its fragment.
// We send the ETag we last saw in If-None-Match with "Prefer: wait=25" (RFC 7240): the server holds the request until
// the fragment changes (200 with the new HTML) or 25 s pass (304), so a change shows at once. We then swap the
// element's content in place, in one synchronous step, so nothing flickers and the page keeps its scroll position
// and (where the same control still exists) its keyboard focus. A server that answers at once (no
// Preference-Applied: it is busy, or does not hold requests) is polled about once a second instead.
// Only a visible tab holds a request: hiding the tab aborts it (browsers allow six connections per host), showing it
// polls at once; errors back off up to 30 s.
// Loaded with <script src defer>: the Content-Security-Policy forbids inline scripts.
(function () {
  "use strict";

  var INTERVAL_MS = 1000;
  var MAX_BACKOFF_MS = 30000;
  var WAIT_S = 25;
  var TIMEOUT_MS = (WAIT_S + 10) * 1000; // a held request answers within WAIT_S; beyond this something is wrong

  function LiveRegion(element) {
    this.element = element;
    this.src = element.getAttribute("data-live-src");
    // The server renders the page with the fragment's current ETag, so the first poll is already a 304.
    this.etag = element.getAttribute("data-live-etag") || null;
    this.delay = INTERVAL_MS;
    this.timer = null;
    this.controller = null;
  }

  LiveRegion.prototype.schedule = function (delay) {
    var self = this;
    this.cancel();
    this.timer = window.setTimeout(function () {
      self.timer = null;
      self.poll();
    }, delay);
  };

  LiveRegion.prototype.cancel = function () {
    if (this.timer !== null) {
      window.clearTimeout(this.timer);
      this.timer = null;
    }
    if (this.controller !== null) {
      this.controller.abort();
      this.controller = null;
    }
  };

  LiveRegion.prototype.poll = function () {
    var self = this;
    if (document.hidden) return; // visibilitychange restarts us
    var controller = new AbortController();
    this.controller = controller;
    var timeout = window.setTimeout(function () { controller.abort(); }, TIMEOUT_MS);
    var headers = { "Accept": "text/html" };
    if (this.etag) {
      headers["If-None-Match"] = this.etag;
      headers["Prefer"] = "wait=" + WAIT_S;
    }
    fetch(this.src, { headers: headers, cache: "no-store", credentials: "same-origin", signal: controller.signal })
      .then(function (response) {
        // Held by the server: the next request can go at once. Answered at once: wait a second before asking again.
        var held = response.headers.get("Preference-Applied") !== null;
        if (response.status === 304) return { html: null, etag: null, held: held };
        if (!response.ok) throw new Error("HTTP " + response.status);
        var etag = response.headers.get("ETag");
        return response.text().then(function (html) { return { html: html, etag: etag, held: held }; });
      })
      .then(function (result) {
        window.clearTimeout(timeout);
        if (self.controller === controller) self.controller = null;
        var changed = result.html !== null;
        if (changed) {
          self.etag = result.etag;
          self.swap(result.html);
        }
        self.delay = INTERVAL_MS;
        self.element.removeAttribute("data-live-error");
        self.schedule(result.held || (changed && result.etag) ? 0 : INTERVAL_MS);
      })
      .catch(function () {
        window.clearTimeout(timeout);
        if (controller.signal.aborted && self.controller !== controller) return; // cancelled on purpose
        if (self.controller === controller) self.controller = null;
        self.element.setAttribute("data-live-error", "");
        self.delay = Math.min(self.delay * 2, MAX_BACKOFF_MS);
        self.schedule(self.delay);
      });
  };

  // Path of child indices from the region down to `node`, so focus can be restored on the equivalent new element.
  function pathTo(region, node) {
    var path = [];
    while (node && node !== region) {
      var parent = node.parentNode;
      if (!parent) return null;
      path.unshift(Array.prototype.indexOf.call(parent.children, node));
      node = parent;
    }
    return node === region ? path : null;
  }

  function follow(region, path) {
    var node = region;
    for (var i = 0; i < path.length && node; i++) node = node.children[path[i]];
    return node || null;
  }

  LiveRegion.prototype.swap = function (html) {
    var element = this.element;
    if (element.innerHTML === html) return;
    var active = document.activeElement;
    var focusPath = active && element.contains(active) ? pathTo(element, active) : null;
    var focusTag = active ? active.tagName : null;
    var scrollX = window.scrollX;
    var scrollY = window.scrollY;

    element.innerHTML = html; // same element: its place in the page, and everything outside it, stays untouched

    if (focusPath !== null) {
      var target = follow(element, focusPath);
      if (target && target.tagName === focusTag && typeof target.focus === "function") {
        target.focus({ preventScroll: true });
      }
    }
    if (window.scrollX !== scrollX || window.scrollY !== scrollY) window.scrollTo(scrollX, scrollY);
    element.dispatchEvent(new CustomEvent("live:updated", { bubbles: true }));
  };

  function start() {
    var regions = Array.prototype.map.call(document.querySelectorAll("[data-live-src]"), function (element) {
      return new LiveRegion(element);
    });
    if (regions.length === 0) return;
    document.addEventListener("visibilitychange", function () {
      regions.forEach(function (region) {
        if (document.hidden) {
          region.cancel();
        } else {
          region.cancel();
          region.delay = INTERVAL_MS;
          region.poll();
        }
      });
    });
    regions.forEach(function (region) { region.schedule(0); });
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();
