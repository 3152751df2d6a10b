// Nacho Pile starter kit (JavaScript, Node's standard library only): a bot that reads its observation.
//
// It speaks the bot protocol (docs/bot-protocol.md): one JSON message a line on standard input, one answer a
// line on standard output. Play it locally against the built-in bots:
//
//     python -m games play nacho_pile --seat "cmd:node examples/kits/nacho_pile/bot.js" --seat heuristic
//
// The strategy is a start: on its turn it draws until it holds STOP_AFTER chips drawn this turn, then stops;
// any other decision (where a special goes, which value a Wild takes) it makes at random among the legal
// actions. Improve choose(): everything the seat may know is in the observation (phase, drawn, bag, every
// seat's fronts and plates, ...; see the game's reference on the site).
"use strict";
const readline = require("readline");

const STOP_AFTER = 3; // chips drawn this turn before it stops

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
  if (legal.includes("draw") && legal.includes("stop")) {
    return (observation.drawn || []).length >= STOP_AFTER ? "stop" : "draw";
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
