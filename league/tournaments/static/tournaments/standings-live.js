// Live standings on a running tournament's page, for organizers too (a result that a player reported and the
// others confirmed shows up): after data-refresh-seconds the element's data-refresh-url (the page's live
// fragment: standings, bracket and rounds) is fetched, with the ETag of the last answer (If-None-Match), and
// replaces the element's content. While nothing changes (a 304, or the same fragment) the wait doubles up to
// data-refresh-max-seconds (60); a change brings it back.
(function () {
  "use strict";
  var live = document.querySelector("[data-refresh-url][data-refresh-seconds]");
  if (!live) { return; }
  var base = Number(live.dataset.refreshSeconds) * 1000;
  var most = Number(live.dataset.refreshMaxSeconds || 60) * 1000;
  var wait = base, etag = null, last = null;

  function later() { window.setTimeout(refresh, wait); }

  function refresh() {
    if (document.hidden) { later(); return; }
    fetch(live.dataset.refreshUrl, { cache: "no-store", headers: etag ? { "If-None-Match": etag } : {} })
      .then(function (response) {
        if (response.status === 304) { return null; }
        if (!response.ok) { return undefined; }
        etag = response.headers.get("ETag");
        return response.text();
      })
      .then(function (html) {
        if (html === undefined) { later(); return; }
        if (html === null || html === last) { wait = Math.min(wait * 2, most); later(); return; }
        last = html;
        wait = base;
        live.innerHTML = html;
        later();
      })
      .catch(function () { later(); });
  }
  later();
})();
