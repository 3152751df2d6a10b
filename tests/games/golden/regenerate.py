"""Write the goldens of some games (all by default) from their inputs in `goldens.PLAYTHROUGHS` and `GOLDENS`.

    .venv/bin/python -m tests.games.golden.regenerate [--only playthroughs|records] [GAME ...]

Run it after bumping a game's version (both sets of that game) or a bot's version (`--only records`), and only
then: a golden that changes while no version does is what `test_goldens.py` reports as a failure. Files of a
regenerated game and set that no golden names any more are removed.
"""

from __future__ import annotations

import argparse
import sys

from games import registry
from tests.games.golden.goldens import FOLDER, GOLDENS, PLAYTHROUGHS, Golden, play

SETS: dict[str, tuple[Golden, ...]] = {"playthroughs": PLAYTHROUGHS, "records": GOLDENS}


def regenerate(game_ids: list[str], sets: list[str] | None = None) -> list[str]:
    """Write the goldens of `game_ids` in `sets` (both by default), remove their files no golden names;
    return what was done, a line each."""
    done = []
    for set_name in sets or list(SETS):
        goldens = SETS[set_name]
        for game_id in game_ids:
            mine = [golden for golden in goldens if golden.game == game_id]
            folder = FOLDER / set_name / game_id
            folder.mkdir(parents=True, exist_ok=True)
            for golden in mine:
                data = play(golden)
                golden.path.write_bytes(data)
                done.append(f"wrote {golden.path.relative_to(FOLDER)} ({len(data):,} bytes)")
            suffix = mine[0].suffix if mine else "*"
            for stale in sorted(set(folder.glob(f"*{suffix}")) - {golden.path for golden in mine}):
                stale.unlink()
                done.append(f"removed {stale.relative_to(FOLDER)}")
    return done


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m tests.games.golden.regenerate", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument("games", nargs="*", metavar="GAME", help="game ids (default: every game)")
    parser.add_argument("--only", choices=sorted(SETS), help="one set of goldens (default: both)")
    args = parser.parse_args(argv)
    known = registry.game_ids()
    unknown = [game_id for game_id in args.games if game_id not in known]
    if unknown:
        parser.error(f"unknown game {', '.join(unknown)} (known: {', '.join(known)})")
    for line in regenerate(args.games or known, [args.only] if args.only else None):
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
