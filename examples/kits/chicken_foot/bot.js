// Chicken Foot starter kit (JavaScript, Node's standard library only): a bot that reads its observation.
//
// It speaks the bot protocol (docs/bot-protocol.md): one JSON message a line on standard input, one answer a
// line on standard output. Play it locally against the built-in bots:
//
//     python -m games play chicken_foot --seat "cmd:node examples/kits/chicken_foot/bot.js" --seat heuristic
//
// The strategy is a start: a play is "<bone>@<the tile it goes onto>" ("8-0@8-8"), and it plays the bone with
// the most pips, since the pips left in hand count against it at the end of a round; a double first, as it
// makes the others cover it. Other decisions (drawing, passing) it takes as they come. Improve choose():
// everything the seat may know is in the observation (hand, open_ends, constraint, hand_sizes, history,
// scores, ...; see the game's reference on the site).
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

// A play's bone as [is a double, its pips], or null for an action that plays no bone.
function pips(action) {
  if (typeof action !== "string" || !action.includes("@")) { return null; }
  const halves = action.split("@")[0].split("-").map(Number);
  if (halves.length !== 2 || halves.some(Number.isNaN)) { return null; }
  return [halves[0] === halves[1] ? 1 : 0, halves[0] + halves[1]];
}

function choose(observation, legal, random) {
  const plays = legal.filter((action) => pips(action) !== null);
  if (plays.length === 0) { return legal[Math.floor(random() * legal.length)]; }
  let best = plays[0];
  for (const action of plays.slice(1)) {
    const [double, total] = pips(action);
    const [bestDouble, bestTotal] = pips(best);
    if (double > bestDouble || (double === bestDouble && total > bestTotal)) { best = action; }
  }
  return best;
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
