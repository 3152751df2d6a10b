// Live standings on a running tournament's page, for organizers too (a result that a player reported and the
// others confirmed shows up): every data-refresh-seconds the element's data-refresh-url (the page's live
// fragment: standings, bracket and rounds) is fetched and replaces the element's content.
(function () {
  "use strict";
  var live = document.querySelector("[data-refresh-url][data-refresh-seconds]");
  if (!live) { return; }
  window.setInterval(function () {
    fetch(live.dataset.refreshUrl)
      .then(function (response) { return response.ok ? response.text() : null; })
      .then(function (html) { if (html !== null) { live.innerHTML = html; } });
  }, Number(live.dataset.refreshSeconds) * 1000);
})();
