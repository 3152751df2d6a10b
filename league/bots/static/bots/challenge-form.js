// The new challenge form: only the opponents that play the chosen bot's game are offered, never the bot
// itself. Without this script every bot is listed, and the server refuses the ones that do not fit.
(function () {
  "use strict";
  var bot = document.getElementById("id_bot");
  if (!bot) { return; }
  function showOpponentsOfGame() {
    var chosen = bot.options[bot.selectedIndex];
    var game = chosen ? chosen.dataset.game : null;
    document.querySelectorAll("input[name=opponents]").forEach(function (box) {
      box.closest("div, li").hidden = Boolean(game) && (box.dataset.game !== game || box.value === bot.value);
    });
  }
  bot.addEventListener("change", showOpponentsOfGame);
  showOpponentsOfGame();
})();
