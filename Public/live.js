// Live regions (SPEC section 6): every element with data-live-src="<fragment URL>" long-polls its fragment.
// We send the ETag we last saw in If-None-Match with "Prefer: wait=25" (RFC 7240): the server holds the request until
// the fragment changes (200 with the new HTML) or 25 s pass (304), so a change shows at once. We then swap the
// element's content in place, in one synchronous step, so nothing flickers and the page keeps its scroll position
// and (where the same control still exists) its keyboard focus. A server that answers at once (no
// Preference-Applied: it is busy, or does not hold requests) is polled about once a second instead, or after
// the seconds its Retry-After names.
// Only a visible tab holds a request: hiding the tab aborts it (browsers allow six connections per host), showing it
// polls at once; errors back off up to 30 s.
// Items in a region carry a stable data-key (issue 10): focus returns to the same item, not the same position; items
// whose text (or data-live-value, for a value shown outside the item, such as the count heading a group) changed get a
// brief highlight and one polite announcement; items that moved slide to their new place (FLIP; not under
// prefers-reduced-motion); "Updated N s ago" says how fresh the region is. Only a change seen while the page was
// current is marked: the first answer after loading, if it is not a held one, only catches up (a page restored from the
// history or rendered a moment before), so nothing flashes or slides on first paint. While a pointer is pressed in a
// region, its swaps wait for the release, so a click on a link there is never lost to a swap.
// Favourite, Follow and Log forms post with fetch and update the page in place, keeping focus on the control; without
// JavaScript their redirect carries the item's #id instead. An error page with data-retry reloads once the page answers.
// Loaded with <script src defer>: the Content-Security-Policy forbids inline scripts.
(function () {
  "use strict";

  // Asked at each move, not once: the reader may change the setting while the page is open.
  function reduceMotion() {
    return !!(window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches);
  }

  var INTERVAL_MS = 1000;
  var QUIET_INTERVAL_MS = 4000; // within the server's 5 s "watched" window, so changes keep arriving
  var MAX_BACKOFF_MS = 30000;
  var WAIT_S = 25;
  var TIMEOUT_MS = (WAIT_S + 10) * 1000; // a held request answers within WAIT_S; beyond this something is wrong

  // Issue 23: a server that could not hold a poll (its share of held polls is taken, or it is overloaded) says in
  // Retry-After how many seconds to wait before asking again; 0 when it says nothing. At most 5 minutes.
  function retryAfter(response) {
    var seconds = parseInt(response.headers.get("Retry-After") || "", 10);
    return seconds > 0 ? Math.min(seconds, 300) * 1000 : 0;
  }

  function LiveRegion(element) {
    this.element = element;
    this.src = element.getAttribute("data-live-src");
    // The server renders the page with the fragment's current ETag, so the first poll is already a 304.
    this.etag = element.getAttribute("data-live-etag") || null;
    this.delay = INTERVAL_MS;
    this.timer = null;
    this.controller = null;
    this.changedAt = Date.now();
    this.status = null;
    // Whether an answer has shown that the page is current: until then a new fragment only catches up, unmarked.
    this.current = false;
    // The news region every page has (data-live-quiet, issue 22) asks every few seconds and is never held, so a page
    // holds at most one parked poll (the servers' fair share of held polls counts them per address).
    this.holds = !element.hasAttribute("data-live-quiet");
    this.interval = this.holds ? INTERVAL_MS : QUIET_INTERVAL_MS;
    // A press inside the region holds swaps until it is released: a swap between the press and the release replaces
    // the link under the pointer, and the click is lost. The held content is swapped in after the click.
    this.pressedAt = null;
    this.heldSwap = null;
    var self = this;
    element.addEventListener("pointerdown", function () { self.pressedAt = Date.now(); });
    function released() {
      if (self.pressedAt === null) return;
      self.pressedAt = null;
      // After this task: the click the release makes is dispatched first, on the content it was pressed on.
      window.setTimeout(function () { self.swapHeld(); }, 0);
    }
    document.addEventListener("pointerup", released, true);
    document.addEventListener("pointercancel", released, true);
  }

  // A press held longer than this no longer holds swaps (a release the page never heard of must not freeze it).
  var PRESS_HOLD_MS = 10000;

  LiveRegion.prototype.swapHeld = function () {
    var held = this.heldSwap;
    if (held === null) return;
    this.heldSwap = null;
    this.swap(held.html, held.marked);
  };

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
      if (this.holds) headers["Prefer"] = "wait=" + WAIT_S;
    }
    fetch(this.src, { headers: headers, cache: "no-store", credentials: "same-origin", signal: controller.signal })
      .then(function (response) {
        // Held by the server: the next request can go at once. Answered at once: wait a second before asking again.
        var held = response.headers.get("Preference-Applied") !== null;
        var retry = retryAfter(response);
        if (response.status === 304) return { html: null, etag: null, held: held, retry: retry };
        if (!response.ok) throw Object.assign(new Error("HTTP " + response.status), { retry: retry });
        var etag = response.headers.get("ETag");
        return response.text().then(function (html) { return { html: html, etag: etag, held: held, retry: retry }; });
      })
      .then(function (result) {
        window.clearTimeout(timeout);
        if (self.controller === controller) self.controller = null;
        var changed = result.html !== null;
        if (changed) {
          self.etag = result.etag;
          self.swap(result.html, self.current || result.held);
        }
        self.current = true;
        self.delay = INTERVAL_MS;
        self.element.removeAttribute("data-live-error");
        var again = result.held || (changed && result.etag && self.holds) ? 0 : Math.max(self.interval, result.retry);
        self.schedule(again);
      })
      .catch(function (error) {
        window.clearTimeout(timeout);
        if (controller.signal.aborted && self.controller !== controller) return; // cancelled on purpose
        if (self.controller === controller) self.controller = null;
        self.element.setAttribute("data-live-error", "");
        self.delay = Math.min(self.delay * 2, MAX_BACKOFF_MS);
        self.schedule(Math.max(self.delay, (error && error.retry) || 0));
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

  // What a keyed item shows: its text and, when part of it is shown outside the item (the count heading a group of
  // people on a habit page), its data-live-value.
  function signature(node) {
    return node.textContent + "\u0000" + (node.getAttribute("data-live-value") || "");
  }

  // The keyed items of `root` (data-key), by key.
  function keyed(root) {
    var map = {};
    Array.prototype.forEach.call(root.querySelectorAll("[data-key]"), function (node) {
      map[node.getAttribute("data-key")] = node;
    });
    return map;
  }

  // Replaces the region's content. `marked`: a change seen while the page was current, so changed items are marked and
  // announced and moved ones slide; otherwise (catching up after loading) the content just changes.
  LiveRegion.prototype.swap = function (html, marked) {
    var element = this.element;
    if (this.pressedAt !== null && Date.now() - this.pressedAt < PRESS_HOLD_MS) {
      // The latest content waits for the release; a change marked in any held version is still marked.
      this.heldSwap = { html: html, marked: marked || (this.heldSwap !== null && this.heldSwap.marked) };
      return;
    }
    this.heldSwap = null;
    if (element.innerHTML === html) return;
    var before = keyed(element);
    var texts = {};
    Object.keys(before).forEach(function (key) { texts[key] = signature(before[key]); });
    var tops = positions(before);
    // Focus: the same item by key, and inside it the same control; else the same position as before.
    var active = document.activeElement;
    var inside = active && element.contains(active);
    var item = inside && active.closest ? active.closest("[data-key]") : null;
    var focusKey = item && element.contains(item) ? item.getAttribute("data-key") : null;
    var innerPath = focusKey !== null ? pathTo(item, active) : null;
    var focusPath = inside && focusKey === null ? pathTo(element, active) : null;
    var focusTag = active ? active.tagName : null;
    var scrollX = window.scrollX;
    var scrollY = window.scrollY;
    var momentsBefore = momentIDs(element);

    element.innerHTML = html; // same element: its place in the page, and everything outside it, stays untouched
    removeDismissed(element);

    var after = keyed(element);
    var target = null;
    if (focusKey !== null && after[focusKey]) {
      target = innerPath !== null ? follow(after[focusKey], innerPath) : after[focusKey];
    } else if (focusPath !== null) {
      target = follow(element, focusPath);
    }
    if (target && target.tagName === focusTag && typeof target.focus === "function") {
      target.focus({ preventScroll: true });
    }
    if (window.scrollX !== scrollX || window.scrollY !== scrollY) window.scrollTo(scrollX, scrollY);

    var changed = [];
    if (marked) {
      Object.keys(after).forEach(function (key) {
        var node = after[key];
        if (texts[key] === undefined || texts[key] !== signature(node)) {
          changed.push(node);
          mark(node);
        }
      });
      slideMoved(after, tops);
    }
    if (changed.length > 0) announce(changed);
    localiseTimes(element);
    if (marked) announceMoments(element, momentsBefore);
    this.changedAt = Date.now();
    this.showAge();
    element.dispatchEvent(new CustomEvent("live:updated", { bubbles: true }));
  };

  // A brief fading highlight on a changed item (the fade is CSS; the class goes after it).
  function mark(node) {
    node.classList.add("live-changed");
    window.setTimeout(function () { node.classList.remove("live-changed"); }, 2500);
  }

  // Where each keyed item is now (its top), before a change moves them: what `slideMoved` slides from.
  function positions(items) {
    var tops = {};
    Object.keys(items).forEach(function (key) { tops[key] = items[key].getBoundingClientRect().top; });
    return tops;
  }

  // Slides every item of `items` that was at `tops` (by key) from there to where it is now.
  function slideMoved(items, tops) {
    Object.keys(items).forEach(function (key) {
      if (tops[key] !== undefined) slide(items[key], tops[key] - items[key].getBoundingClientRect().top);
    });
  }

  // FLIP: draw the item where it was, then let it slide to where it is. CSSOM styles are allowed by the CSP.
  function slide(node, delta) {
    if (reduceMotion() || Math.abs(delta) < 1) return;
    node.style.transform = "translateY(" + delta + "px)";
    node.getBoundingClientRect(); // commit the start position before the transition
    node.classList.add("live-moving");
    node.style.transform = "";
    window.setTimeout(function () { node.classList.remove("live-moving"); }, 400);
  }

  // One polite, visually hidden announcement of what changed; it never moves focus. The live region is in the page,
  // empty, from the start: screen readers announce changes to a region they already know, not a region that arrives
  // with its text. The text stays until the next announcement.
  var announcer = null;
  function startAnnouncer() {
    announcer = document.createElement("p");
    announcer.className = "visually-hidden";
    announcer.setAttribute("aria-live", "polite");
    announcer.setAttribute("data-live-announcer", "");
    document.body.appendChild(announcer);
  }

  function announceText(text) {
    if (announcer === null) startAnnouncer();
    announcer.textContent = text.trim();
  }

  function announce(nodes) {
    if (momentJustAnnounced()) return; // "Cy Young passed you in Yoga" says more than "Updated: Cy Young"
    var names = nodes.slice(0, 3).map(function (node) {
      var label = node.querySelector("a");
      return (label || node).textContent.trim();
    });
    announceText("Updated: " + names.join(", ") + (nodes.length > 3 ? " and " + (nodes.length - 3) + " more" : ""));
  }

  // ---------- Moments: passed, overtaken, new leaders (issue 22) ----------

  // The ids of the moment notices (data-moment) in `root`.
  function momentIDs(root) {
    var ids = {};
    Array.prototype.forEach.call(root.querySelectorAll("[data-moment]"), function (node) {
      ids[node.getAttribute("data-moment")] = true;
    });
    return ids;
  }

  // Announces, politely, the notices that arrived with this change (not those already shown).
  function announceMoments(root, before) {
    var texts = [];
    Array.prototype.forEach.call(root.querySelectorAll("[data-moment]"), function (node) {
      if (!before[node.getAttribute("data-moment")]) texts.push(noticeText(node));
    });
    if (texts.length > 0) {
      announceText(texts.join(". "));
      lastMomentAt = Date.now();
    }
  }

  // A notice's words, without its dismiss button.
  function noticeText(node) {
    return (node.querySelector(".notice-text") || node).textContent.trim();
  }

  // ---------- Dismissed notices (issue 47 point 3) ----------

  // The notices this browser dismissed stay dismissed: their ids (data-moment) are kept in localStorage with when they
  // were dismissed, for a day (a notice is shown for 15 minutes), and every answer of the news region leaves them out.
  var DISMISSED_KEY = "habits-dismissed-notices";
  var DISMISSED_FOR_MS = 24 * 3600 * 1000;

  function dismissedNotices() {
    try {
      var kept = JSON.parse(window.localStorage.getItem(DISMISSED_KEY) || "{}");
      return kept && typeof kept === "object" ? kept : {};
    } catch (error) {
      return {}; // storage refused (a private window) or unreadable: nothing is dismissed
    }
  }

  function rememberDismissed(ids) {
    var kept = dismissedNotices();
    var now = Date.now();
    Object.keys(kept).forEach(function (id) { if (!(now - kept[id] < DISMISSED_FOR_MS)) delete kept[id]; });
    ids.forEach(function (id) { kept[id] = now; });
    try {
      window.localStorage.setItem(DISMISSED_KEY, JSON.stringify(kept));
    } catch (error) {
      // Not kept across pages, but still gone from this one.
    }
  }

  // Leaves out of `root` the notices this browser dismissed; an emptied region is left truly empty (it takes no room).
  function removeDismissed(root) {
    var nodes = root.querySelectorAll("[data-moment]");
    if (nodes.length === 0) return;
    var kept = dismissedNotices();
    Array.prototype.forEach.call(nodes, function (node) {
      if (kept[node.getAttribute("data-moment")] !== undefined) node.parentNode.removeChild(node);
    });
    if (root.children.length === 0) root.textContent = "";
  }

  // Dismisses `notices`; focus that was on one goes to the next notice left, else to the page itself, never to
  // nothing.
  function dismiss(notices) {
    if (notices.length === 0) return;
    var region = notices[0].parentNode;
    var active = document.activeElement;
    var hadFocus = notices.some(function (notice) { return notice.contains(active); });
    rememberDismissed(notices.map(function (notice) { return notice.getAttribute("data-moment"); }));
    notices.forEach(function (notice) { notice.parentNode.removeChild(notice); });
    if (region.children.length === 0) region.textContent = "";
    if (!hadFocus) return;
    var next = region.querySelector("[data-dismiss]");
    if (next) {
      next.focus();
    } else {
      var main = document.getElementById("main");
      main.setAttribute("tabindex", "-1");
      main.focus({ preventScroll: true });
    }
  }

  function startDismissing() {
    document.addEventListener("click", function (event) {
      var button = event.target.closest ? event.target.closest("[data-dismiss]") : null;
      var notice = button ? button.closest("[data-moment]") : null;
      if (notice) dismiss([notice]);
    });
    // Escape dismisses the notice that has focus, or every notice when focus is elsewhere (but not in a field, where
    // Escape is the field's own).
    document.addEventListener("keydown", function (event) {
      if (event.key !== "Escape" || event.defaultPrevented) return;
      var active = document.activeElement;
      var own = active && active.closest ? active.closest("[data-moment]") : null;
      if (!own && active && /^(INPUT|TEXTAREA|SELECT)$/.test(active.tagName)) return;
      var notices = own ? [own] : Array.prototype.slice.call(document.querySelectorAll(".news-region [data-moment]"));
      dismiss(notices);
    });
  }

  var lastMomentAt = 0;
  function momentJustAnnounced() {
    return Date.now() - lastMomentAt < 3000;
  }

  // ---------- Times (issue 22) ----------

  // Every <time datetime="…Z"> the server wrote: its title is the moment in the reader's own time zone;
  // data-time="ago" keeps its wording relative to now ("4 min ago", as the server words it);
  // data-time="clock" shows the time of day in the reader's zone, and the day when it is not today.
  function localiseTimes(root) {
    var now = Date.now();
    Array.prototype.forEach.call((root || document).querySelectorAll("time[datetime]"), function (node) {
      var when = new Date(node.getAttribute("datetime"));
      if (isNaN(when.getTime())) return;
      node.title = when.toLocaleString();
      var kind = node.getAttribute("data-time");
      if (kind === "ago") node.textContent = relativeWording(when.getTime(), now);
      if (kind === "clock") node.textContent = clockWording(when, new Date(now));
    });
  }

  function relativeWording(when, now) {
    var age = Math.max(0, Math.floor((now - when) / 1000));
    if (age < 60) return "just now";
    if (age < 3600) return Math.floor(age / 60) + " min ago";
    if (age < 48 * 3600) return Math.floor(age / 3600) + " h ago";
    return Math.floor(age / 86400) + " days ago";
  }

  function clockWording(when, now) {
    var time = when.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit", second: "2-digit", hour12: false });
    if (when.toDateString() === now.toDateString()) return time;
    return when.toLocaleDateString([], { weekday: "short", day: "numeric", month: "short" }) + ", " + time;
  }

  // "Updated N s ago" above the region: when its content last changed (or the page was loaded).
  LiveRegion.prototype.showAge = function () {
    if (this.element.hasAttribute("data-live-quiet")) return; // the news region says nothing about its age
    if (this.status === null) {
      this.status = document.createElement("p");
      this.status.className = "live-status";
      this.status.setAttribute("data-live-age", "");
      this.element.parentNode.insertBefore(this.status, this.element);
    }
    var seconds = Math.max(0, Math.round((Date.now() - this.changedAt) / 1000));
    this.status.textContent = seconds < 2 ? "Updated just now" : "Updated " + seconds + " s ago";
  };

  // ---------- Forms that keep your place ----------

  function replaceChildren(target, source) {
    target.innerHTML = source.innerHTML;
  }

  // Posts `form` with fetch, then takes the new page's state: a page with live regions changes only the form (and a
  // region holding it); a list page swaps its main content, the moved item sliding to its new section.
  function submitInPlace(form, event) {
    var holder = form.closest("[id]");
    var id = holder ? holder.id : null;
    var button = form.querySelector("button");
    event.preventDefault();
    if (form.getAttribute("data-busy") !== null) return;
    form.setAttribute("data-busy", "");
    var main = document.getElementById("main");
    var tops = positions(keyed(main));
    fetch(form.action, {
      method: "POST",
      body: new URLSearchParams(new FormData(form)),
      credentials: "same-origin",
      redirect: "follow",
      headers: { "Accept": "text/html" }
    })
      .then(function (response) {
        if (!response.ok) throw new Error("HTTP " + response.status);
        return response.text().then(function (html) { return { html: html, url: response.url }; });
      })
      .then(function (result) {
        var html = result.html;
        var next = new DOMParser().parseFromString(html, "text/html");
        var nextMain = next.getElementById("main");
        if (!nextMain) throw new Error("no main");
        var region = form.closest("[data-live-src]");
        if (region) {
          var nextRegion = next.querySelector('[data-live-src="' + region.getAttribute("data-live-src") + '"]');
          if (nextRegion) {
            region.setAttribute("data-live-etag", nextRegion.getAttribute("data-live-etag") || "");
            replaceChildren(region, nextRegion);
            region.dispatchEvent(new CustomEvent("live:reset"));
          }
        } else if (main.querySelector("[data-live-src]")) {
          var nextForm = next.querySelector('form[action="' + form.getAttribute("action") + '"]');
          if (nextForm) form.parentNode.replaceChild(document.importNode(nextForm, true), form);
        } else {
          replaceChildren(main, nextMain);
          document.title = next.title;
          // The address says what the page shows now (a reload shows the same), as after the plain redirect.
          if (result.url && window.history.replaceState) window.history.replaceState(null, "", result.url);
        }
        slideMoved(keyed(main), tops);
        var place = id ? document.getElementById(id) : null;
        var control = place ? place.querySelector("form button") : null;
        if (!control && place && place.tagName === "BUTTON") control = place;
        if (control) control.focus({ preventScroll: false });
        var status = main.querySelector('[role="status"]');
        if (status && status.classList.contains("notice-success")) announceText(status.textContent);
      })
      .catch(function () {
        // Fall back to the plain form post: the server answers it with a redirect back to the item.
        form.removeAttribute("data-busy");
        form.submit();
      })
      .then(function () { form.removeAttribute("data-busy"); });
  }

  function startForms() {
    document.addEventListener("submit", function (event) {
      var form = event.target;
      if (!(form instanceof HTMLFormElement)) return;
      if (form.hasAttribute("data-toggle") || form.hasAttribute("data-log")) submitInPlace(form, event);
    });
  }

  // ---------- Error pages that try again ----------

  function startRetry() {
    var node = document.querySelector("[data-retry]");
    if (!node) return;
    var seconds = parseInt(node.getAttribute("data-retry"), 10) || 10;
    var attempts = 0;
    function attempt() {
      attempts += 1;
      node.setAttribute("data-retry-attempts", String(attempts)); // what was tried, for people and tests alike
      fetch(window.location.href, { cache: "no-store", credentials: "same-origin", headers: { "Accept": "text/html" } })
        .then(function (response) {
          if (response.ok) window.location.reload();
          else window.setTimeout(attempt, seconds * 1000);
        })
        .catch(function () { window.setTimeout(attempt, seconds * 1000); });
    }
    window.setTimeout(attempt, seconds * 1000);
  }

  function start() {
    startAnnouncer();
    localiseTimes(document);
    window.setInterval(function () { localiseTimes(document); }, 30000);
    startForms();
    startDismissing();
    startRetry();
    if (document.body.hasAttribute("data-live-paused")) return; // ?live=0: the reader paused updates
    var regions = Array.prototype.map.call(document.querySelectorAll("[data-live-src]"), function (element) {
      var region = new LiveRegion(element);
      element.addEventListener("live:reset", function () {
        region.etag = element.getAttribute("data-live-etag") || null;
        region.cancel();
        region.schedule(0);
      });
      return region;
    });
    if (regions.length === 0) return;
    regions.forEach(function (region) { region.showAge(); });
    window.setInterval(function () { regions.forEach(function (region) { region.showAge(); }); }, 1000);
    // A page shown again from the back/forward cache: what it missed is caught up unmarked, as on loading.
    window.addEventListener("pageshow", function (event) {
      if (!event.persisted) return;
      regions.forEach(function (region) {
        region.current = false;
        region.cancel();
        region.delay = INTERVAL_MS;
        region.poll();
      });
    });
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
