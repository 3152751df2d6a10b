/* The room's live pages (round pages, the projector, the embed), no external assets.
 *
 * Round timers: an element with data-state="running" and data-seconds-left="N" counts down from N seconds
 * (the server's count when it drew the page, so the visitor's own clock never matters); at zero it turns to
 * "Time is up". Without JavaScript the element shows the time the timer ends.
 *
 * Live parts: when the page holds an element with data-live-seconds="S", every S seconds (while the page is
 * visible) it fetches its own address again and replaces each element marked data-live by the element of
 * the same id in the fresh page (not one holding the field being typed into: it waits for the next
 * refresh). It stops once the fresh page holds no data-live-seconds (a round complete,
 * a tournament finished).
 */
(function () {
  "use strict";

  function clock(seconds) {
    var hours = Math.floor(seconds / 3600), minutes = Math.floor((seconds % 3600) / 60), secs = seconds % 60;
    var mm = hours ? String(minutes).padStart(2, "0") : String(minutes);
    return (hours ? hours + ":" : "") + mm + ":" + String(secs).padStart(2, "0");
  }

  function tick() {
    document.querySelectorAll('[data-state="running"][data-seconds-left]').forEach(function (timer) {
      if (timer.deadline === undefined) {
        timer.deadline = performance.now() + Number(timer.dataset.secondsLeft) * 1000;
      }
      var left = Math.max(0, Math.ceil((timer.deadline - performance.now()) / 1000));
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

  function refresh() {
    if (document.hidden) { return; }
    fetch(window.location.href, { cache: "no-store", credentials: "same-origin" })
      .then(function (response) { return response.ok ? response.text() : null; })
      .then(function (html) {
        if (html === null) { return; }
        var fresh = new DOMParser().parseFromString(html, "text/html");
        document.querySelectorAll("[data-live][id]").forEach(function (part) {
          // A part someone is typing into waits for the next refresh (a judge's note on a call, say).
          var typing = document.activeElement;
          if (typing && typing !== document.body && part.contains(typing) && typing.matches("input, textarea, select")) { return; }
          var next = fresh.getElementById(part.id);
          if (next) { part.replaceWith(document.importNode(next, true)); }
        });
        if (!document.querySelector("[data-live-seconds]")) { window.clearInterval(polling); }
        tick();
      })
      .catch(function () { /* offline for a moment: the next refresh tries again */ });
  }

  tick();
  window.setInterval(tick, 250);
  var holder = document.querySelector("[data-live-seconds]");
  var polling = holder ? window.setInterval(refresh, Number(holder.dataset.liveSeconds) * 1000) : null;
})();
