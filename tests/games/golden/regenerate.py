"""Write the golden playthroughs of some games (all by default) from their inputs in `goldens.GOLDENS`.

    .venv/bin/python -m tests.games.golden.regenerate [GAME ...]

Run it after bumping a game's version (docs/engine.md), and only then: a golden that changes while its game's
version does not is what `test_goldens.py` reports as a failure. Files of a regenerated game that no golden
names any more are removed.
"""

from __future__ import annotations

import argparse
import sys

from games import registry
from tests.games.golden.goldens import FOLDER, GOLDENS, play


def regenerate(game_ids: list[str]) -> list[str]:
    """Write the goldens of `game_ids`, remove their files no golden names;
    return what was done, a line each."""
    done = []
    for game_id in game_ids:
        folder = FOLDER / game_id
        folder.mkdir(exist_ok=True)
        wanted = {golden.path for golden in GOLDENS if golden.game == game_id}
        for golden in (golden for golden in GOLDENS if golden.game == game_id):
            data = play(golden)
            golden.path.write_bytes(data)
            done.append(f"wrote {golden.path.relative_to(FOLDER)} ({len(data):,} bytes)")
        for stale in sorted(set(folder.glob("*.json")) - wanted):
            stale.unlink()
            done.append(f"removed {stale.relative_to(FOLDER)}")
    return done


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m tests.games.golden.regenerate", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument("games", nargs="*", metavar="GAME", help="game ids (default: every game)")
    args = parser.parse_args(argv)
    known = registry.game_ids()
    unknown = [game_id for game_id in args.games if game_id not in known]
    if unknown:
        parser.error(f"unknown game {', '.join(unknown)} (known: {', '.join(known)})")
    for line in regenerate(args.games or known):
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
