// A bot league's page while it runs: every 2 s the live part (standings, progress, recent matches) is fetched
// again and swapped in, until it says the league no longer runs. Without this script the page shows the
// league as it was when it was drawn.
(function () {
  "use strict";
  var live = document.getElementById("live");
  if (!live) { return; }
  function refresh() {
    if (live.dataset.status !== "running") { return; }
    fetch(live.dataset.url, {headers: {"X-Requested-With": "fetch"}})
      .then(function (response) { return response.ok ? response.text() : null; })
      .then(function (html) {
        if (html !== null) {
          live.innerHTML = html;
          var state = live.querySelector("[data-league-status]");
          if (state) { live.dataset.status = state.dataset.leagueStatus; }
        }
      })
      .finally(function () { setTimeout(refresh, 2000); });
  }
  setTimeout(refresh, 2000);
})();
