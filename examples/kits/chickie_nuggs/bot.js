// Chickie Nuggs starter kit (JavaScript, Node's standard library only): a bot that reads its observation.
//
// It speaks the bot protocol (docs/bot-protocol.md): one JSON message a line on standard input, one answer a
// line on standard output. Play it locally against the built-in bots:
//
//     python -m games play chickie_nuggs --seat "cmd:node examples/kits/chickie_nuggs/bot.js" --seat heuristic
//
// The strategy is a start: it places its best nugget on its tray ("place:nugget4" before "place:nugget1"),
// else steals from the seat with the most cards in hand (hand_sizes), else plays at random among the legal
// actions. Improve choose(): everything the seat may know is in the observation (hand, trays, hand_sizes,
// discard, log, ...; see the game's reference on the site).
"use strict";
const readline = require("readline");

// A generator seeded from the start message's seed: the same match plays the same way.
function seeded(text) {
  let state = 2166136261;
  for (const c of String(text)) { state = Math.imul(state ^ c.charCodeAt(0), 16777619) >>> 0; }
  return function () {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function choose(observation, legal, random) {
  const texts = legal.filter((action) => typeof action === "string");
  const nuggets = texts.filter((action) => action.startsWith("place:nugget"));
  if (nuggets.length > 0) {
    return nuggets.reduce((best, action) =>
      Number(action.slice("place:nugget".length)) > Number(best.slice("place:nugget".length)) ? action : best);
  }
  const sizes = observation.hand_sizes || [];
  const steals = texts.filter((action) => /^steal:[0-9]+$/.test(action));
  if (steals.length > 0) {
    const size = (action) => sizes[Number(action.slice(6))] || 0;
    return steals.reduce((best, action) => (size(action) > size(best) ? action : best));
  }
  return legal[Math.floor(random() * legal.length)];
}

let random = seeded("0");
const lines = readline.createInterface({ input: process.stdin });
lines.on("line", (line) => {
  const message = JSON.parse(line);
  if (message.type === "start") {
    random = seeded(message.seed);
  } else if (message.type === "act") {
    const action = choose(message.observation, message.legal_actions, random);
    process.stdout.write(JSON.stringify({ action: action }) + "\n");
  } else if (message.type === "end") {
    process.stderr.write("places: " + JSON.stringify(message.outcome.places) + "\n"); // the log shows it
    lines.close();
  }
});
