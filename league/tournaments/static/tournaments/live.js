/* The room's live pages (round pages, the projector, the embed, a table's page), no external assets.
 *
 * Round timers: an element with data-state="running" and data-ends-at="MS" (the instant it ends, in
 * milliseconds since 1970) counts down to that instant on the server's clock: the page's copy may be a shared
 * one drawn earlier, so it carries instants only, and the browser's own clock is corrected by its offset from
 * the server's, read from the Date header of an answer. A paused timer shows its data-seconds-left. At zero
 * it turns to "Time is up". Without JavaScript the element shows the time the timer ends.
 *
 * Live parts: when the page holds an element with data-live-seconds="S", after S seconds (while the page is
 * visible) it fetches its own address again, with the ETag of the last answer (If-None-Match), and replaces
 * each element marked data-live by the element of the same id in the fresh page (not one holding the field
 * being typed into: it waits for the next refresh). While nothing changes (a 304, or the same page) the wait
 * doubles, up to data-live-max-seconds (60); a change brings it back to S.
 * It stops once the fresh page holds no data-live-seconds (a round complete, a tournament finished).
 */
(function () {
  "use strict";

  var offset = 0; // the server's clock minus the browser's, in milliseconds

  function learnOffset(response) {
    var date = Date.parse(response.headers.get("Date") || "");
    if (!isNaN(date)) { offset = date + 500 - Date.now(); } // Date is whole seconds: half a second on average
  }

  function clock(seconds) {
    var hours = Math.floor(seconds / 3600), minutes = Math.floor((seconds % 3600) / 60), secs = seconds % 60;
    var mm = hours ? String(minutes).padStart(2, "0") : String(minutes);
    return (hours ? hours + ":" : "") + mm + ":" + String(secs).padStart(2, "0");
  }

  function tick() {
    document.querySelectorAll('[data-state="running"][data-ends-at]').forEach(function (timer) {
      var left = Math.max(0, Math.ceil((Number(timer.dataset.endsAt) - (Date.now() + offset)) / 1000));
      var face = timer.querySelector(".timer-clock");
      if (face) { face.textContent = clock(left); }
      if (left === 0) {
        timer.dataset.state = "over";
        timer.classList.remove("running");
        timer.classList.add("over");
        var label = timer.querySelector(".timer-label"), verb = timer.querySelector(".timer-verb");
        if (label) { label.textContent = "Time is up"; }
        if (verb) { verb.textContent = "ended"; }
      }
    });
  }

  var holder = document.querySelector("[data-live-seconds]");
  var base = holder ? Number(holder.dataset.liveSeconds) * 1000 : 0;
  var most = holder ? Number(holder.dataset.liveMaxSeconds || 60) * 1000 : 0;
  var wait = base, etag = null, last = null;

  function later() { window.setTimeout(refresh, wait); }

  function refresh() {
    if (document.hidden) { later(); return; }
    var headers = etag ? { "If-None-Match": etag } : {};
    fetch(window.location.href, { cache: "no-store", credentials: "same-origin", headers: headers })
      .then(function (response) {
        learnOffset(response);
        if (response.status === 304) { return null; }
        if (!response.ok) { return undefined; }
        etag = response.headers.get("ETag");
        return response.text();
      })
      .then(function (html) {
        if (html === undefined) { later(); return; } // an error: try again as late as planned
        if (html === null || html === last) { wait = Math.min(wait * 2, most); later(); return; }
        last = html;
        wait = base;
        var fresh = new DOMParser().parseFromString(html, "text/html");
        document.querySelectorAll("[data-live][id]").forEach(function (part) {
          // A part someone is typing into waits for the next refresh (a judge's note on a call, say).
          var typing = document.activeElement;
          if (typing && typing !== document.body && part.contains(typing) && typing.matches("input, textarea, select")) { return; }
          var next = fresh.getElementById(part.id);
          if (next) { part.replaceWith(document.importNode(next, true)); }
        });
        tick();
        if (document.querySelector("[data-live-seconds]")) { later(); }
      })
      .catch(function () { later(); }); // offline for a moment: the next refresh tries again
  }

  // A running timer needs the server's clock now: one look at the headers (a shared page answers at once).
  if (document.querySelector('[data-state="running"][data-ends-at]')) {
    fetch(window.location.href, { method: "HEAD", cache: "no-store", credentials: "same-origin" })
      .then(function (response) { learnOffset(response); tick(); })
      .catch(function () { /* the browser's clock, then */ });
  }
  tick();
  window.setInterval(tick, 250);
  if (holder) { later(); }
})();
