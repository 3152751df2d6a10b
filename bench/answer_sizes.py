"""The largest bot answer any game asks for: over every golden record (tests/games/golden/), the longest
legal action of any seat at any decision, as the bot protocol serialises an answer (`{"action": ...}` in the
engine's canonical encoding, docs/bot-protocol.md), against the answers' cap
(`league.programs.external.MAX_ANSWER_BYTES`).

    .venv/bin/python -m bench.answer_sizes

Replays each golden and, before each event, encodes every legal action of every seat that must decide then.
Prints one line per game (its largest answer: bytes, the line, and the golden where it is reached) and the
largest of all against the cap; exits with status 1 if an answer does not fit under the cap.
"""

from __future__ import annotations

import json
import sys

from games.core.encoding import canonical_bytes
from games.core.replay import iter_steps
from league.programs.external import MAX_ANSWER_BYTES
from tests.games.golden.goldens import GOLDENS


def largest_answer(record: dict) -> bytes:
    """The longest `{"action": ...}` line (newline excluded) any decision of `record` allows."""
    largest = b""
    for step in iter_steps(record):
        state = step.state
        if state.is_terminal() or state.is_chance():
            continue
        for seat in state.deciders():
            for action in state.legal_actions(seat):
                answer = canonical_bytes({"action": action})
                if len(answer) > len(largest):
                    largest = answer
    return largest


def main() -> int:
    by_game: dict[str, tuple[bytes, str]] = {}
    for golden in GOLDENS:
        answer = largest_answer(json.loads(golden.path.read_text()))
        if len(answer) > len(by_game.get(golden.game, (b"", ""))[0]):
            by_game[golden.game] = (answer, golden.name)
    for game, (answer, name) in sorted(by_game.items()):
        print(f"{game:24} {len(answer):6,} bytes  {answer.decode()}  ({name})")
    largest = max(len(answer) for answer, _ in by_game.values())
    print(
        f"largest answer {largest:,} bytes over {len(GOLDENS)} goldens; cap {MAX_ANSWER_BYTES:,} bytes "
        f"({MAX_ANSWER_BYTES / largest:,.0f} times as much)"
    )
    return 0 if largest <= MAX_ANSWER_BYTES else 1


if __name__ == "__main__":
    sys.exit(main())
