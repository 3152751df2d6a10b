"""Match records: plain JSON, one canonical encoding, no wall-clock data.

A record is a dict:

```
{
  "format": 1,
  "game": "nacho_pile", "version": 1,
  "options": {...},                 # complete, validated variant options
  "seed": 42,
  "seats": [{"bot": "random", "params": {}}, ...],   # one per seat, seat 0 first
  "events": [["c", <chance outcome>], ["m", {"0": <action>}], ["m", {"0": <a>, "2": <b>}], ...],
  "outcome": {"places": [1, 3, 2, 3], "scores": [12, 4, 9, 4]},
  "end": {"reason": "normal" | "forfeit" | "turn_cap",
          "forfeits": [{"seat": 2, "event": 17, "reason": "illegal_action"}]}
}
```

A forfeit's `reason` is one of `FORFEIT_REASONS`, a code and never text: a record is public, and what a bot
said (an exception's message, what an external program printed) or how long it took is not part of it (the
runner hands the details to its caller, see `games.core.runner.play_match`).

`"c"` events are chance outcomes; `"m"` events are decisions, keyed by seat (several seats at a simultaneous
step). Forfeited seats are placed last (sharing last place); the other seats keep the order the game's scoring
gives them. `canonical_json` is the one encoding (sorted keys, no spaces), so the same seed and bots give the
same bytes. `compress`/`decompress` are the one stored form (the league's `Match.record` column): the
canonical JSON bytes, zlib-compressed.
"""

from __future__ import annotations

import json
import zlib
from collections.abc import Mapping
from typing import Any

from games.core.encoding import canonical_bytes, canonical_json
from games.core.state import Outcome, places_from_keys

__all__ = [
    "canonical_json",
    "compress",
    "decompress",
    "apply_forfeits",
    "FORMAT_VERSION",
    "END_REASONS",
    "FORFEIT_REASONS",
]

FORMAT_VERSION = 1
END_REASONS = ("normal", "forfeit", "turn_cap")
# Why a seat forfeited: an action not in its legal list; no answer in time (an in-process bot over its
# move-time limit, an external program that did not answer or read); the bot raised or its program exited;
# a program's answer was not the protocol's; a program went over a limit (CPU time, file size, answer size).
FORFEIT_REASONS = ("illegal_action", "timeout", "crashed", "protocol_error", "limit_exceeded")
# Level 6 writes records within 2% of level 9's size, a quarter faster; a blob of any level decompresses.
ZLIB_LEVEL = 6


def compress(record: Mapping[str, Any]) -> bytes:
    """The stored form of a record: its canonical JSON bytes (`canonical_bytes`), zlib-compressed."""
    return zlib.compress(canonical_bytes(record), ZLIB_LEVEL)


def decompress(blob: bytes | memoryview) -> dict[str, Any]:
    """The record of a stored blob, whatever zlib level wrote it."""
    record: dict[str, Any] = json.loads(zlib.decompress(blob))
    return record


def apply_forfeits(outcome: Outcome, forfeited: set[int]) -> Outcome:
    """Places with every forfeited seat last (sharing last place), the others in the game's order."""
    if not forfeited:
        return outcome
    keys = [(0, 0) if seat in forfeited else (1, -place) for seat, place in enumerate(outcome.places)]
    return Outcome(places=places_from_keys(keys, higher_is_better=True), scores=outcome.scores)
