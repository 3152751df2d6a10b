// The tournament settings form: show only what the chosen format, game and table size use. Without this
// script every setting stays visible, each saying which format or game it is for; the server ignores the rest.
(function () {
  "use strict";
  var form = document.getElementById("settings-form");
  if (!form) { return; }
  form.classList.add("js");
  var ranges = {};
  JSON.parse(document.getElementById("game-ranges").textContent).forEach(function (game) { ranges[game.id] = game; });
  function value(name) { var field = form.elements[name]; return field ? field.value : ""; }

  function update() {
    var format = value("format"), game = value("game_id");
    form.querySelectorAll("[data-formats]").forEach(function (row) {
      row.hidden = row.getAttribute("data-formats").split(" ").indexOf(format) < 0;
    });
    form.querySelectorAll("[data-game]").forEach(function (set) { set.hidden = set.getAttribute("data-game") !== game; });
    var size = parseInt(value("table_size"), 10), leftovers = value("leftovers");
    var range = ranges[game] || { min: 2, max: 7 }, low = size, high = size;
    if (leftovers === "short") { low = Math.max(range.min, size - 1); }
    if (leftovers === "long") { high = Math.min(range.max, size + 1); }
    form.querySelectorAll("[data-size]").forEach(function (row) {
      var rowSize = parseInt(row.getAttribute("data-size"), 10);
      row.hidden = !isNaN(size) && (rowSize < low || rowSize > high);
    });
  }

  // On a new tournament, scaled points follow the table size (on at pod tables) until the box is touched.
  var scale = form.elements.scale_points, touched = !form.hasAttribute("data-fresh");
  if (scale) {
    scale.addEventListener("change", function () { touched = true; });
    form.elements.table_size.addEventListener("input", function () {
      var size = parseInt(value("table_size"), 10);
      if (!touched && !isNaN(size)) { scale.checked = size > 2; }
    });
  }
  form.addEventListener("change", update);
  form.addEventListener("input", update);
  update();
}());
