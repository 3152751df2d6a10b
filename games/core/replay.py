"""Replay: re-apply a match record with full legality checks.

`iter_steps(record)` is the one replay loop: it rebuilds the match event by event and yields a `Step` before
the first event and after each one. `replay(record)` runs it to the end and returns the final state; the
league's replay page runs it to the step it shows. Both raise `ReplayError` naming the first bad event
(`.event`) when the record does not replay: an unknown game or another version of it, bad options, an illegal
decision, a chance outcome impossible at that point, a decision where chance was due (or the reverse), events
after the end, a record that stops before the end, or an outcome that is not the one the events produce.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any, NamedTuple

from games import registry
from games.core.errors import GameError, IllegalAction, ReplayError
from games.core.record import END_REASONS, FORFEIT_REASONS, FORMAT_VERSION, apply_forfeits
from games.core.state import Observation, State


class Step(NamedTuple):
    """One point of a replayed match.

    `index` events have been applied (0: before the first); `event` is the last of them (None at index 0), as
    in the record; `state` is the position after it. The state is the replay's own and the next step advances
    it: clone it to keep it.
    """

    index: int  # type: ignore[assignment]  # the field shadows tuple.index, which no caller uses
    event: list[Any] | None
    state: State

    def observations(self) -> list[Observation]:
        """Every seat's observation here, seat 0 first (a spectator's view of a finished match)."""
        return [self.state.observation(seat) for seat in range(self.state.num_players)]


def _field(record: dict[str, Any], name: str, kind: type | tuple[type, ...]) -> Any:
    if name not in record:
        raise ReplayError(f"the record has no {name!r}")
    value = record[name]
    if not isinstance(value, kind) or isinstance(value, bool) and kind is int:
        raise ReplayError(f"the record's {name!r} has the wrong type")
    return value


def replay(record: Any) -> State:
    """Re-apply every event of `record` with legality checks; return the final state, or raise ReplayError."""
    for step in iter_steps(record):
        state = step.state
    return state


def iter_steps(record: Any) -> Iterator[Step]:
    """Yield the match of `record` step by step, checking everything `replay` checks.

    The record's header (game, version, options, seats, end) is checked before the first step; each event
    when it is reached; the end (a record that stops early, the outcome) after the last step. A caller that
    stops early has seen every error up to the step it stopped at.
    """
    if not isinstance(record, dict):
        raise ReplayError("a match record is a JSON object")
    if _field(record, "format", int) != FORMAT_VERSION:
        raise ReplayError(
            f"record format {record['format']} is not supported (this engine reads {FORMAT_VERSION})"
        )
    game_id = _field(record, "game", str)
    try:
        game = registry.get_game(game_id)
    except GameError as exc:
        raise ReplayError(str(exc)) from None
    version = _field(record, "version", int)
    if version != game.spec.version:
        raise ReplayError(
            f"the record is of {game.spec.name} version {version}; this engine plays version "
            f"{game.spec.version}"
            " and will not misread it"
        )
    seats = _field(record, "seats", list)
    seed = _field(record, "seed", int)
    events = _field(record, "events", list)
    claimed = _field(record, "outcome", dict)
    end = _field(record, "end", dict)
    try:
        options = game.spec.validate_options(_field(record, "options", dict), len(seats))
    except GameError as exc:
        raise ReplayError(str(exc)) from None
    if options != record["options"]:
        raise ReplayError("the record's options are incomplete or not in canonical form")
    reason = end.get("reason")
    if reason not in END_REASONS:
        raise ReplayError(f"unknown end reason {reason!r}")
    forfeits = end.get("forfeits", [])
    forfeited = _check_forfeits(forfeits, len(seats), len(events))

    state = game.new_state(len(seats), options, random.Random(seed))
    yield Step(0, None, state)
    for index, event in enumerate(events):
        if state.is_terminal():
            raise ReplayError("the game is already over; this event is one too many", index)
        if not (isinstance(event, list) and len(event) == 2 and event[0] in ("c", "m")):
            raise ReplayError(f"malformed event {event!r}", index)
        kind, payload = event
        try:
            if kind == "c":
                state.apply_chance(payload)
            else:
                if state.is_chance():
                    raise IllegalAction("a chance event is due here, not a decision")
                if not isinstance(payload, dict) or not all(
                    isinstance(k, str) and k.isdigit() for k in payload
                ):
                    raise IllegalAction(f"malformed decision {payload!r}")
                state.apply({int(seat): action for seat, action in payload.items()})
        except IllegalAction as exc:
            raise ReplayError(str(exc), index) from None
        yield Step(index + 1, event, state)

    if reason == "turn_cap":
        if len(events) != game.max_events:
            raise ReplayError(f"a turn-capped record must hold exactly {game.max_events} events")
    elif not state.is_terminal():
        raise ReplayError(f"the record ends after {len(events)} events, before the game is over")
    if reason == "forfeit" and not forfeited or reason == "normal" and forfeited:
        raise ReplayError(f"end reason {reason!r} does not match the forfeits listed")
    outcome = apply_forfeits(state.outcome(), forfeited).to_json()
    if claimed != outcome:
        raise ReplayError(f"the recorded outcome {claimed} is not the outcome the events produce, {outcome}")


def _check_forfeits(forfeits: Any, num_seats: int, num_events: int) -> set[int]:
    if not isinstance(forfeits, list):
        raise ReplayError("the record's forfeits must be a list")
    seen: set[int] = set()
    for entry in forfeits:
        if not isinstance(entry, dict):
            raise ReplayError(f"malformed forfeit {entry!r}")
        seat, event = entry.get("seat"), entry.get("event")
        if not isinstance(seat, int) or not 0 <= seat < num_seats or seat in seen:
            raise ReplayError(f"forfeit names a bad or repeated seat {seat!r}")
        if not isinstance(event, int) or not 0 <= event < max(num_events, 1):
            raise ReplayError(f"forfeit names a bad event {event!r}")
        if entry.get("reason") not in FORFEIT_REASONS:
            raise ReplayError(
                f"forfeit reason {entry.get('reason')!r} is not one of {', '.join(FORFEIT_REASONS)}"
            )
        seen.add(seat)
    return seen
