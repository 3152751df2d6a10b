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
          "forfeits": [{"seat": 2, "event": 17, "reason": "illegal action 'x'"}]}
}
```

`"c"` events are chance outcomes; `"m"` events are decisions, keyed by seat (several seats at a simultaneous
step). Forfeited seats are placed last (sharing last place); the other seats keep the order the game's scoring
gives them. `canonical_json` is the one encoding (sorted keys, no spaces), so the same seed and bots give the
same bytes; `compress`/`decompress` store a record compactly.
"""

from __future__ import annotations

import json
import zlib

from games.core.encoding import canonical_json
from games.core.state import Outcome, places_from_keys

__all__ = ["canonical_json", "compress", "decompress", "apply_forfeits", "FORMAT_VERSION", "END_REASONS"]

FORMAT_VERSION = 1
END_REASONS = ("normal", "forfeit", "turn_cap")


def compress(record: dict) -> bytes:
    return zlib.compress(canonical_json(record).encode(), 9)


def decompress(blob: bytes) -> dict:
    return json.loads(zlib.decompress(blob).decode())


def apply_forfeits(outcome: Outcome, forfeited: set[int]) -> Outcome:
    """Places with every forfeited seat last (sharing last place), the others in the game's order."""
    if not forfeited:
        return outcome
    keys = [(0, 0) if seat in forfeited else (1, -place) for seat, place in enumerate(outcome.places)]
    return Outcome(places=places_from_keys(keys, higher_is_better=True), scores=outcome.scores)
