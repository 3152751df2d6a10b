"""Strict verification: a record is the match its seed and its bots would play, value for value.

`replay` (games.core.replay) checks that every event is legal, so a chance outcome changed to another possible
one, or a decision changed to another legal one, still replays. `verify(record)` goes further. After the
legality replay it plays the match again beside the record:

* every chance outcome is drawn again from the record's seed, exactly as the runner drew it (the state's own
  generator, `random.Random(seed)`, asked by `sample_chance` at each chance node), and must equal the
  recorded one;
* every decision of a seat played by a registry bot of the version the record names is made again by that
  bot, built as the runner built it (its params, its own generator seeded from `bot_seed(seed, seat)`), with
  no time limit, and must equal the recorded one. After a seat forfeits, the runner's seeded substitute plays
  it (`bot_seed(seed, seat, "forfeit")`), whoever the seat was, so those decisions are re-made too. A
  recorded forfeit of a re-made seat for an illegal action or a crash must happen again; a time-out is wall
  time and is taken as recorded (the verdict's notes say so).

Seats that cannot be re-made are listed with the reason, and their decisions are checked for legality only:
an external program (its seat entry says `"external"`), a bot that is not in the registry, a version other
than the installed one (older or newer), params the installed bot refuses, and a bot whose
`not_remakeable(params)` gives a reason (a search with a time limit: its choices depend on wall time).

The verdict (`Verdict`) is one of: `verified` (every value re-made matched; `not_remade` lists the seats
checked for legality only), `rejected` (the record is illegal, or a value differs: `event`, `seat`,
`expected` and `recorded` name the first one), `not_verifiable` (the record names no bot versions: a record
written before they were recorded; or another version of the game). A value that is not a record at all
raises `BadRecord` (the CLI's exit status 2).

Pure Python on the engines alone: the league runs it in a task once per stored match.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any, cast

from games import registry
from games.core.bot import Bot, RandomBot
from games.core.encoding import canonical_json
from games.core.errors import GameError, ReplayError
from games.core.record import FORMAT_VERSION
from games.core.replay import replay
from games.core.runner import bot_seed
from games.core.state import Game, State, is_legal_action

__all__ = ["BadRecord", "Verdict", "verify", "VERIFIED", "REJECTED", "NOT_VERIFIABLE"]

VERIFIED = "verified"
REJECTED = "rejected"
NOT_VERIFIABLE = "not_verifiable"
NO_VERSIONS = "no bot versions recorded"

# The fields a record must have, with their types, to be a record at all.
_SHAPE: tuple[tuple[str, type | tuple[type, ...]], ...] = (
    ("format", int),
    ("game", str),
    ("version", int),
    ("options", dict),
    ("seed", int),
    ("seats", list),
    ("events", list),
    ("outcome", dict),
    ("end", dict),
)


class BadRecord(GameError):
    """The value is not a match record this engine can read (not an object, a field missing, an unknown
    game or format)."""


@dataclass
class Verdict:
    """What strict verification found.

    `status` is `verified`, `rejected` or `not_verifiable`; `reason` says why in words for the last two.
    For a rejected value, `event` (0-based index in the record's events), `seat` (None for chance),
    `expected` and `recorded` name it, and `detail` is the reason without the event and seat (for a page
    that numbers them its own way). `not_remade` holds `{"seat": n, "why": "..."}` for each seat whose
    decisions were checked for legality only; `notes` what was taken as recorded (a time-out forfeit).
    """

    status: str
    reason: str = ""
    event: int | None = None
    seat: int | None = None
    expected: Any = None
    recorded: Any = None
    detail: str = ""
    not_remade: list[dict[str, Any]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return self.status == VERIFIED

    def summary(self) -> str:
        """One line: "verified", "rejected: event 12: seat 1 (heuristic): ...", or "not verifiable: why".
        Events are numbered from 0, as in the record (its forfeits' `event`)."""
        if self.status == VERIFIED:
            return "verified"
        if self.status == REJECTED:
            where = f"event {self.event}: " if self.event is not None else ""
            return f"rejected: {where}{self.reason}"
        return f"not verifiable: {self.reason}"

    def to_json(self) -> dict[str, Any]:
        return {
            "status": self.status,
            "reason": self.reason,
            "event": self.event,
            "seat": self.seat,
            "detail": self.detail,
            "not_remade": self.not_remade,
            "notes": self.notes,
        }


class _Mismatch(Exception):
    def __init__(self, event: int, seat: int | None, expected: Any, recorded: Any, what: str = ""):
        self.event, self.seat, self.expected, self.recorded, self.what = event, seat, expected, recorded, what


def _check_shape(record: Any) -> None:
    if not isinstance(record, dict):
        raise BadRecord("not a match record: a record is a JSON object")
    for name, kind in _SHAPE:
        if name not in record:
            raise BadRecord(f"not a match record: it has no {name!r}")
        value = record[name]
        if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
            raise BadRecord(f"not a match record: its {name!r} has the wrong type")
    if record["format"] != FORMAT_VERSION:
        raise BadRecord(
            f"record format {record['format']} is not supported (this engine reads {FORMAT_VERSION})"
        )
    if not all(isinstance(seat, dict) for seat in record["seats"]):
        raise BadRecord("not a match record: each seat is a JSON object")
    try:
        registry.get_game(record["game"])
    except GameError as exc:
        raise BadRecord(str(exc)) from None


def _short(value: Any) -> str:
    text = canonical_json(value)
    return text if len(text) <= 80 else text[:77] + "..."


def _seat_name(entry: dict[str, Any]) -> str:
    external = entry.get("external")
    if isinstance(external, dict) and external.get("definition"):
        version = external.get("version")
        return f"{external['definition']}" + (f" v{version}" if version is not None else "")
    return str(entry.get("bot", "?"))


def _remaker(
    game: Game, seat: int, entry: dict[str, Any], num_players: int, options: dict[str, Any], seed: int
) -> tuple[Bot | None, str]:
    """The seat's bot built as the runner built it, or None and why it cannot be re-made."""
    if "external" in entry:
        external = entry["external"]
        if isinstance(external, dict) and external.get("definition"):
            return None, f"external program {_seat_name(entry)}"
        return None, "a bot outside the registry"
    name, version = entry.get("bot"), entry.get("version")
    try:
        cls = registry.bot_class(name, game.spec.id) if isinstance(name, str) else None
    except GameError:
        cls = None
    if cls is None:
        return None, f"bot {name!r} is not installed"
    if isinstance(version, bool) or not isinstance(version, int):
        return None, f"bot {name} has no valid version"
    if version != cls.version:
        age = "older" if version < cls.version else "newer"
        return None, f"bot {name} version {version} is {age} than the installed version {cls.version}"
    try:
        params = cls.validate_params(entry.get("params") if isinstance(entry.get("params"), dict) else None)
    except GameError as exc:
        return None, f"bot {name}: {exc}"
    if params != entry.get("params"):
        return None, f"bot {name}: its params are not in the form the runner writes"
    why = cls.not_remakeable(params)
    if why:
        return None, why
    try:
        return cls(game, seat, num_players, options, params, random.Random(bot_seed(seed, seat))), ""
    except GameError as exc:
        return None, f"bot {name}: {exc}"


def verify(record: Any) -> Verdict:
    """Strictly verify `record` (a decoded match record); see the module docstring. Raises BadRecord for a
    value that is not a record."""
    _check_shape(record)
    game = registry.get_game(record["game"])
    if record["version"] != game.spec.version:
        return Verdict(
            NOT_VERIFIABLE,
            f"the record is of {game.spec.name} version {record['version']}; this engine plays version"
            f" {game.spec.version}",
        )
    try:
        replay(record)
    except ReplayError as exc:
        return Verdict(REJECTED, f"illegal: {exc}", event=exc.event, detail=f"illegal: {exc}")

    seats = record["seats"]
    num_players = len(seats)
    options = record["options"]
    seed = record["seed"]
    versioned = all("version" in entry or "external" in entry for entry in seats)
    bots: list[Bot | None] = []
    not_remade: list[dict[str, Any]] = []
    for seat, entry in enumerate(seats):
        bot, why = (
            _remaker(game, seat, entry, num_players, options, seed) if versioned else (None, NO_VERSIONS)
        )
        bots.append(bot)
        if bot is None:
            not_remade.append({"seat": seat, "why": why})
    forfeit_at = {f["seat"]: (f["event"], f["reason"]) for f in record["end"].get("forfeits", [])}
    notes: list[str] = []
    try:
        _remake(game, record, bots if versioned else [None] * num_players, forfeit_at, notes)
    except _Mismatch as bad:
        who = "chance" if bad.seat is None else f"seat {bad.seat} ({_seat_name(seats[bad.seat])})"
        what = bad.what or (f"re-made {_short(bad.expected)}, recorded {_short(bad.recorded)}")
        return Verdict(
            REJECTED,
            f"{who}: {what}",
            event=bad.event,
            seat=bad.seat,
            expected=bad.expected,
            recorded=bad.recorded,
            detail=what,
            not_remade=not_remade,
            notes=notes,
        )
    if not versioned:
        return Verdict(
            NOT_VERIFIABLE, NO_VERSIONS, not_remade=not_remade, notes=["chance outcomes re-drawn: they match"]
        )
    return Verdict(VERIFIED, not_remade=not_remade, notes=notes)


def _remake(
    game: Game,
    record: dict[str, Any],
    bots: list[Bot | None],
    forfeit_at: dict[int, tuple[int, str]],
    notes: list[str],
) -> None:
    """Play the record again beside its events (already known legal); raise _Mismatch at the first value
    that differs."""
    num_players = len(record["seats"])
    options = record["options"]
    seed = record["seed"]
    state = game.new_state(num_players, options, random.Random(seed))
    rng = cast(random.Random, state.rng)  # new_state was given one
    substitutes: dict[int, Bot] = {}
    for index, (kind, payload) in enumerate(record["events"]):
        if kind == "c":
            expected = state.sample_chance(rng)
            if canonical_json(expected) != canonical_json(payload):
                raise _Mismatch(index, None, expected, payload)
            state.apply_chance(payload)
            continue
        actions = {int(seat): action for seat, action in payload.items()}
        for seat in state.deciders():
            recorded = actions[seat]
            bot = substitutes.get(seat) or bots[seat]
            forfeit = forfeit_at.get(seat)
            if forfeit is not None and forfeit[0] == index:
                if bot is not None:  # the runner asked the bot before it forfeited: its generator moved
                    _forfeit_again(state, seat, bot, forfeit[1], index, notes)
                bot = substitutes[seat] = RandomBot(
                    game, seat, num_players, options, None, random.Random(bot_seed(seed, seat, "forfeit"))
                )
            if bot is None:
                continue
            legal = state.legal_actions(seat)
            observation = state.observation(seat) if bot.uses_observation else None
            try:
                expected = bot.act(observation, legal)
            except Exception as exc:  # a re-made bot that fails where the record has it play
                raise _Mismatch(
                    index,
                    seat,
                    None,
                    recorded,
                    f"the bot raised {type(exc).__name__} where the record has it play {_short(recorded)}",
                ) from None
            if canonical_json(expected) != canonical_json(recorded):
                raise _Mismatch(index, seat, expected, recorded)
        state.apply(actions)


def _forfeit_again(state: State, seat: int, bot: Bot, reason: str, index: int, notes: list[str]) -> None:
    if reason == "timeout":
        notes.append(f"seat {seat}'s time-out at event {index} is wall time: taken as recorded")
        return
    legal = state.legal_actions(seat)
    observation = state.observation(seat) if bot.uses_observation else None
    try:
        action = bot.act(observation, legal)
    except Exception:
        happened = "crashed"
    else:
        happened = "ok" if is_legal_action(action, legal) else "illegal_action"
    if happened != reason:
        did = {
            "ok": "plays a legal action",
            "crashed": "raises",
            "illegal_action": "answers an illegal action",
        }
        raise _Mismatch(
            index,
            seat,
            happened,
            reason,
            f"the record says the bot forfeited ({reason}); re-made, it {did[happened]}",
        )
