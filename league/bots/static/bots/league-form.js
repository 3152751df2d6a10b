// The new league form: only the bots of the chosen game are offered. Without this script every bot is
// listed, and the server refuses a bot of another game.
(function () {
  "use strict";
  var game = document.getElementById("id_game");
  if (!game) { return; }
  function showBotsOfGame() {
    document.querySelectorAll("input[name=bots]").forEach(function (box) {
      box.closest("div, li").hidden = box.dataset.game !== game.value;
    });
  }
  game.addEventListener("change", showBotsOfGame);
  showBotsOfGame();
})();
