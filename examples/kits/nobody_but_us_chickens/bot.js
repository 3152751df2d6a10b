// Nobody but Us Chickens starter kit (JavaScript, Node's standard library only): a bot that reads its
// observation.
//
// It speaks the bot protocol (docs/bot-protocol.md): one JSON message a line on standard input, one answer a
// line on standard output. Play it locally against the built-in bots:
//
//     python -m games play nobody_but_us_chickens --seat "cmd:node examples/kits/nobody_but_us_chickens/bot.js" \
//         --seat heuristic --seat random
//
// The strategy is a start: it plays the card it holds most copies of (hand in the observation), keeping its
// rarer cards for later, with ties broken by PREFERENCE. Improve choose(): everything the seat may know is in
// the observation (coop, claimed, every seat's hands, the night's log, totals, ...; see the game's reference
// on the site).
"use strict";
const readline = require("readline");

const PREFERENCE = ["healthy", "sickly", "plump", "rat", "dog", "fox", "prize"]; // first: played first on a tie

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
  const hand = observation.hand || [];
  let best = null;
  let bestScore = null;
  for (const action of legal) {
    const copies = typeof action === "string" ? hand.filter((card) => card === action).length : 0;
    const rank = PREFERENCE.includes(action) ? PREFERENCE.indexOf(action) : PREFERENCE.length;
    const score = [copies, -rank, random()];
    if (bestScore === null || compare(score, bestScore) > 0) { best = action; bestScore = score; }
  }
  return best;
}

function compare(a, b) {
  for (let i = 0; i < a.length; i++) { if (a[i] !== b[i]) { return a[i] < b[i] ? -1 : 1; } }
  return 0;
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
