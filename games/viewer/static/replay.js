// A match's replay without page loads: the stepper's links fetch the next frame (the page's own address
// with ?fragment=1) and swap it in; Play steps on every 0.6 s; the arrow keys step back and on. Without this
// script every link of the stepper is a plain link to its step. A replay file of the local runner holds
// every frame in a JSON block (#replay-frames) and steps through them offline.
(function () {
  "use strict";
  var replay = document.getElementById("replay");
  if (!replay) { return; }
  var total = Number(replay.dataset.total);
  var playing = null;
  var block = document.getElementById("replay-frames");
  var frames = block ? JSON.parse(block.textContent) : null;
  function current() { return Number(replay.querySelector("[data-step]").dataset.step); }
  function show(step) {
    step = Math.max(0, Math.min(total, step));
    if (frames) { replay.innerHTML = frames[step]; return Promise.resolve(); }
    return fetch(replay.dataset.url + "?fragment=1&step=" + step)
      .then(function (response) { return response.text(); })
      .then(function (html) { replay.innerHTML = html; history.replaceState(null, "", "?step=" + step); });
  }
  replay.addEventListener("click", function (event) {
    var target = event.target.closest("[data-go]");
    if (!target) { return; }
    event.preventDefault();
    var go = target.dataset.go;
    if (go === "play") {
      if (playing) { clearInterval(playing); playing = null; target.textContent = "▶ Play"; return; }
      target.textContent = "⏸ Pause";
      playing = setInterval(function () {
        if (current() >= total) { clearInterval(playing); playing = null; return; }
        show(current() + 1).then(function () {
          var button = replay.querySelector("[data-go=play]");
          if (button && playing) { button.textContent = "⏸ Pause"; }
        });
      }, 600);
      return;
    }
    show(Number(go));
  });
  document.addEventListener("keydown", function (event) {
    if (event.key === "ArrowRight") { show(current() + 1); }
    if (event.key === "ArrowLeft") { show(current() - 1); }
  });
})();
