"""Goldens: checked-in outputs of `python -m games play` that every engine and bot change is compared against.

Two sets (docs/engine.md, "Golden playthroughs and records"):

- `PLAYTHROUGHS`, `tests/games/golden/playthroughs/<game>/<name>.txt`: random players only, every step with
  every seat's observation (`play ... --playthrough`). They move with the game's version alone, and an
  observation that shows a seat something it should not see changes them.
- `GOLDENS`, `tests/games/golden/records/<game>/<name>.json`: match records of heuristic and search bots
  (`play ... --json`). They move with a game's version or a bot's version. Search bots play on an iteration
  budget only (no time limit), so their choices depend on the seed alone.

Each `Golden` names the inputs of one command (game, players, bots one per seat, seed, variant options); its
file holds exactly what that command prints. `play(golden)` runs the CLI's own code path in this process and
returns those bytes, so a golden is what a user of the command line gets. After a version bump the goldens are
regenerated with `python -m tests.games.golden.regenerate GAME`. A file that changes while no version does is
the bug these files exist to catch: `difference` names the first event (or line) where the two plays part.
"""

from __future__ import annotations

import contextlib
import io
import json
import shlex
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from games.cli import main as games_cli

FOLDER = Path(__file__).resolve().parent
REGENERATE = "python -m tests.games.golden.regenerate"


@dataclass(frozen=True)
class Golden:
    """The inputs of one golden record, as the command line spells them."""

    game: str
    name: str
    bots: tuple[str, ...]  # one per seat, e.g. "search:iterations=20" or "heuristic:caution=0.5"
    seed: int
    options: tuple[tuple[str, str], ...] = ()

    @property
    def players(self) -> int:
        return len(self.bots)

    folder = "records"
    suffix = ".json"
    flag = "--json"

    @property
    def path(self) -> Path:
        return FOLDER / self.folder / self.game / f"{self.name}{self.suffix}"

    @property
    def argv(self) -> list[str]:
        """The arguments of `python -m games` that print this golden."""
        options = [part for key, value in self.options for part in ("--option", f"{key}={value}")]
        return [
            "play",
            self.game,
            "--players",
            str(self.players),
            "--bots",
            ",".join(self.bots),
            "--seed",
            str(self.seed),
            *options,
            self.flag,
        ]

    @property
    def command(self) -> str:
        return f"python -m games {shlex.join(self.argv)}"

    def __str__(self) -> str:
        return f"{self.folder}/{self.game}/{self.name}"


@dataclass(frozen=True)
class Playthrough(Golden):
    """The inputs of one golden playthrough: random players only."""

    folder = "playthroughs"
    suffix = ".txt"
    flag = "--playthrough"


SEARCH = "search:iterations=20"

GOLDENS = (
    Golden("nacho_pile", "2p-random-heuristic", ("random", "heuristic"), seed=1),
    Golden(
        "nacho_pile",
        "6p-mixed-specials-all-identical",
        ("random", "heuristic", SEARCH, "heuristic:caution=2.5", "random", SEARCH),
        seed=2,
        options=(("specials_all_identical", "true"),),
    ),
    Golden(
        "nacho_pile",
        "4p-search-optional-specials",
        (SEARCH, "heuristic:caution=0.5", "random", SEARCH),
        seed=3,
        options=(("optional_specials", "true"),),
    ),
    Golden("nobody_but_us_chickens", "3p-random-heuristic-search", ("random", "heuristic", SEARCH), seed=4),
    Golden(
        "nobody_but_us_chickens",
        "6p-short-nights-healthy-coop",
        ("heuristic:playouts=4", "random", SEARCH, "heuristic:playouts=4", "random", "heuristic:playouts=4"),
        seed=5,
        options=(("short_summer_nights", "true"), ("healthy_coop", "true")),
    ),
    Golden(
        "nobody_but_us_chickens",
        "2p-lone-dog-powerless",
        (SEARCH, "heuristic"),
        seed=6,
        options=(("allow_two_players", "true"), ("lone_dog_powerless", "true")),
    ),
    Golden(
        "chicken_foot",
        "2p-double-six-greedy-search",
        ("greedy", SEARCH),
        seed=7,
        options=(("set", "double_six"),),
    ),
    Golden(
        "chicken_foot",
        "7p-double-nine-mixed",
        ("random", "greedy", "heuristic", "random", "greedy", "heuristic", "random"),
        seed=8,
    ),
    Golden(
        "chicken_foot",
        "4p-double-six-house-rules",
        ("heuristic", SEARCH, "greedy", "random"),
        seed=9,
        options=(
            ("set", "double_six"),
            ("lead_policy", "draw_until_required"),
            ("spinner_arms", "6"),
            ("round_end", "yard_empty"),
            ("double_blank_value", "0"),
        ),
    ),
    Golden(
        "chicken_foot",
        "3p-double-twelve-skip-unheld",
        ("heuristic", "random", "greedy"),
        seed=10,
        options=(
            ("set", "double_twelve"),
            ("lead_policy", "skip_unheld"),
            ("round_end", "all_passed_yard_empty"),
            ("double_blank_value", "25"),
        ),
    ),
    Golden("chickie_nuggs", "2p-random-heuristic", ("random", "heuristic"), seed=11),
    Golden("chickie_nuggs", "3p-search-random-heuristic", (SEARCH, "random", "heuristic"), seed=12),
    Golden(
        "chickie_nuggs",
        "4p-sauce-values",
        ("heuristic", SEARCH, "random", "heuristic"),
        seed=13,
        options=(("sauce_value_bbq", "3"), ("sauce_value_ranch", "0"), ("sauce_value_honey_mustard", "2")),
    ),
)


def random_seats(players: int) -> tuple[str, ...]:
    return ("random",) * players


# The smallest player count of each game and a larger one, with variants; each file at most PLAYTHROUGH_BYTES.
PLAYTHROUGHS = (
    Playthrough("nacho_pile", "2p", random_seats(2), seed=1),
    Playthrough(
        "nacho_pile",
        "6p-specials-all-identical",
        random_seats(6),
        seed=1,
        options=(("specials_all_identical", "true"),),
    ),
    Playthrough(
        "nobody_but_us_chickens",
        "2p-lone-dog-powerless",
        random_seats(2),
        seed=1,
        options=(("allow_two_players", "true"), ("lone_dog_powerless", "true")),
    ),
    Playthrough("nobody_but_us_chickens", "3p", random_seats(3), seed=1),
    Playthrough("chicken_foot", "2p-double-six", random_seats(2), seed=2, options=(("set", "double_six"),)),
    Playthrough(
        "chicken_foot",
        "3p-double-six-skip-unheld",
        random_seats(3),
        seed=3,
        options=(
            ("set", "double_six"),
            ("lead_policy", "skip_unheld"),
            ("round_end", "all_passed_yard_empty"),
            ("double_blank_value", "25"),
        ),
    ),
    Playthrough("chickie_nuggs", "2p", random_seats(2), seed=1),
    Playthrough(
        "chickie_nuggs",
        "4p-sauce-values",
        random_seats(4),
        seed=1,
        options=(("sauce_value_bbq", "3"), ("sauce_value_ranch", "0"), ("sauce_value_honey_mustard", "2")),
    ),
)
PLAYTHROUGH_BYTES = 200_000
ALL_PLAYTHROUGH_BYTES = 2_000_000


def play(golden: Golden) -> bytes:
    """What `python -m games <golden.argv>` prints, played in this process through the CLI's own code."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = games_cli(golden.argv)
    if status != 0:
        raise RuntimeError(f"{golden.command} exited with status {status}: {err.getvalue().strip()}")
    return out.getvalue().encode()


def playthrough_version(stored: bytes) -> int | None:
    """The game version a playthrough's first line names (None if it names none)."""
    words = stored.split(b"\n", 1)[0].split()
    if len(words) > 2 and words[2].startswith(b"v") and words[2][1:].rstrip(b",").isdigit():
        return int(words[2][1:].rstrip(b","))
    return None


def version_mismatch(golden: Golden, stored: dict[str, Any], version: int) -> str | None:
    """Why `stored` cannot be compared with the game at `version` (None when the versions agree)."""
    if stored.get("version") == version:
        return None
    return (
        f"{golden.path.relative_to(FOLDER.parents[2])} is a golden of "
        f"{golden.game} version {stored.get('version')}; "
        f"the game is at version {version}: regenerate it with `{REGENERATE} {golden.game}`"
    )


def _show(value: Any) -> str:
    text = json.dumps(value, sort_keys=True, separators=(",", ":"))
    return text if len(text) <= 300 else f"{text[:300]}..."


def _first_difference(old: Sequence, new: Sequence) -> int:
    """The first index where `old` and `new` differ (the shorter one's length if one starts the other)."""
    return next(
        (i for i, (a, b) in enumerate(zip(old, new, strict=False)) if a != b), min(len(old), len(new))
    )


def text_difference(stored: bytes, fresh: bytes) -> str | None:
    """None when the bytes are equal; else the first differing line of two playthroughs, numbered from 1, with
    the step it belongs to."""
    if stored == fresh:
        return None
    old, new = stored.decode().splitlines(), fresh.decode().splitlines()
    index = _first_difference(old, new)
    step = next((line for line in reversed(old[:index]) if line.startswith("step ")), None)
    lines = [f"first differing line: {index + 1} (golden has {len(old)} lines, now {len(new)})"]
    if step is not None:
        lines.append(f"  in: {step}")
    lines.append(f"  golden: {_cut(old[index]) if index < len(old) else '(no more lines)'}")
    lines.append(f"  now:    {_cut(new[index]) if index < len(new) else '(no more lines)'}")
    return "\n".join(lines)


def _cut(line: str) -> str:
    return line if len(line) <= 300 else f"{line[:300]}..."


def difference(stored: bytes, fresh: bytes) -> str | None:
    """None when the bytes are equal; else where the fresh record parts from the stored one.

    Records that differ as JSON are described by their first differing event (with the event before it, so the
    position is recognisable) and then by any other differing field; records equal as JSON but not as bytes
    (an encoding change) by the first differing byte.
    """
    if stored == fresh:
        return None
    old, new = json.loads(stored), json.loads(fresh)
    if old == new:
        at = _first_difference(stored, fresh)
        return (
            f"the same record encoded differently: first differing byte at {at}: "
            f"golden {stored[at : at + 40]!r}, now {fresh[at : at + 40]!r}"
        )
    lines = []
    old_events, new_events = old.get("events", []), new.get("events", [])
    if old_events != new_events:
        index = _first_difference(old_events, new_events)
        lines.append(
            f"first differing event: #{index} (golden has {len(old_events)} events, now {len(new_events)})"
        )
        if index > 0:
            lines.append(f"  before it, both: {_show(old_events[index - 1])}")
        lines.append(
            f"  golden: {_show(old_events[index]) if index < len(old_events) else '(no more events)'}"
        )
        lines.append(
            f"  now:    {_show(new_events[index]) if index < len(new_events) else '(no more events)'}"
        )
    for key in sorted(set(old) | set(new)):
        if key != "events" and old.get(key) != new.get(key):
            lines.append(f"{key}: golden {_show(old.get(key))}, now {_show(new.get(key))}")
    return "\n".join(lines)
