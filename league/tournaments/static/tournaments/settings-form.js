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
    cutPlan(size, low);
  }

  // What the top cut becomes, as the server words it (services.top_cut_plan); the server checks it on save.
  function cutPlan(size, minimum) {
    var output = document.getElementById("cut-plan");
    if (!output) { return; }
    var cut = parseInt(value("cut_size"), 10), advance = parseInt(value("advance"), 10) || 1;
    if (isNaN(cut) || isNaN(size)) { output.textContent = "give the cut's size"; return; }
    if (size === 2) {
      var rounds = Math.max(1, Math.ceil(Math.log2(cut))), byes = Math.pow(2, rounds) - cut;
      output.textContent = "Top " + cut + ": a bracket of " + rounds + " round" + (rounds > 1 ? "s" : "") +
        (byes ? ", " + byes + " top seed" + (byes > 1 ? "s" : "") + " with a bye" : "") + ".";
      return;
    }
    if (advance >= size) { output.textContent = "fewer than " + size + " must go through from each table"; return; }
    var steps = [], remaining = cut;
    while (remaining > size) {
      if (remaining % size) { output.textContent = remaining + " players do not fill whole tables of " + size; return; }
      steps.push(remaining / size + " table" + (remaining / size > 1 ? "s" : "") + " of " + size);
      remaining = remaining / size * advance;
    }
    if (remaining < minimum) { output.textContent = remaining + " would reach the final table, fewer than its minimum of " + minimum; return; }
    steps.push("a final table of " + remaining);
    output.textContent = "Top " + cut + " at tables of " + size + ", " + advance + " through from each: " + steps.join(", then ") + ".";
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
  // On a new tournament, open sign-up follows the cap (on once places are set) until the box is touched.
  var signup = form.elements.self_signup, signupTouched = !form.hasAttribute("data-fresh");
  if (signup && form.elements.capacity) {
    signup.addEventListener("change", function () { signupTouched = true; });
    form.elements.capacity.addEventListener("input", function () {
      if (!signupTouched) { signup.checked = value("capacity").trim() !== ""; }
    });
  }
  form.addEventListener("change", update);
  form.addEventListener("input", update);
  update();
}());
