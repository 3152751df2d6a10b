// The check-in desk without page loads: the search box asks the server for the matching rows as you type;
// each button posts one check-in and updates its row and the counts. Without JavaScript the search and the buttons are plain forms.
(function () {
  "use strict";
  var search = document.getElementById("search");
  var desk = document.getElementById("desk");
  if (!search || !desk) { return; }
  var asked = 0, timer = null;
  document.getElementById("search-form").addEventListener("submit", function (event) {
    event.preventDefault();
    clearTimeout(timer);
    ask();
  });
  // The server searches (names and user names, accents, capitals and punctuation ignored) and answers
  // the page with the matching rows only; its rows replace these.
  function ask() {
    var query = search.value.trim(), mine = ++asked;
    var url = window.location.pathname + (query ? "?q=" + encodeURIComponent(query) : "");
    fetch(url, {credentials: "same-origin"})
      .then(function (response) { return response.text(); })
      .then(function (html) {
        if (mine !== asked) { return; }
        var page = new DOMParser().parseFromString(html, "text/html");
        var rows = page.querySelector("#desk tbody");
        if (rows) { desk.querySelector("tbody").innerHTML = rows.innerHTML; }
        window.history.replaceState(null, "", url);
      })
      .catch(function () {});
  }
  search.addEventListener("input", function () {
    clearTimeout(timer);
    timer = setTimeout(ask, 200);
  });
  desk.addEventListener("submit", function (event) {
    var form = event.target, button = form.querySelector("button");
    event.preventDefault();
    button.disabled = true;
    fetch(window.location.pathname, {
      method: "POST",
      body: new FormData(form),
      headers: {"Accept": "application/json"},
      credentials: "same-origin",
    })
      .then(function (response) {
        return response.json().then(function (body) { return {ok: response.ok, body: body}; });
      })
      .then(function (answer) {
        button.disabled = false;
        if (!answer.ok) { window.alert(answer.body.detail); return; }
        var row = form.closest("tr"), done = answer.body.checked_in, status = row.children[1];
        row.classList.toggle("done", done);
        form.querySelector("input[name=checked_in]").value = done ? "0" : "1";
        button.textContent = done ? "Undo" : "Check in";
        button.classList.toggle("secondary", done);
        var badge = status.querySelector(".badge");
        if (done && !badge) {
          status.insertAdjacentHTML("beforeend", ' <span class="badge checked">checked in</span>');
        }
        if (!done && badge) { badge.remove(); }
        Object.keys(answer.body.counts).forEach(function (key) {
          var cell = document.querySelector('[data-count="' + key + '"]');
          if (cell) { cell.textContent = answer.body.counts[key]; }
        });
        search.select();
      })
      .catch(function () { button.disabled = false; form.submit(); });
  });
})();
