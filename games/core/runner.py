"""The runner: plays bots against each other and writes the match record.

Forfeits (docs/engine.md): a bot that raises, returns an illegal action or overruns `move_time_limit`
(measured when it returns; an in-process bot cannot be pre-empted) forfeits its seat. A seeded `random` bot
plays on for that seat so the match finishes, and the record names the seat, the event and the reason. A
match that reaches the game's `max_events` ends there with the places the game's scoring gives at that point.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from games import registry
from games.core.bot import Bot, RandomBot
from games.core.errors import OptionError
from games.core.record import FORMAT_VERSION, apply_forfeits
from games.core.state import Game, State, is_legal_action

BotChoice = str | tuple[str, Mapping[str, Any]]


@dataclass
class SeatPlayer:
    """What plays one seat: a built-in bot (by name and params), or any `Bot` instance made by a factory."""

    name: str
    params: dict[str, Any] = field(default_factory=dict)


@dataclass
class MoveTiming:
    """Decisions taken and seconds spent per seat (wall clock; never written into a record)."""

    decisions: dict[int, int] = field(default_factory=dict)
    seconds: dict[int, float] = field(default_factory=dict)

    def add(self, seat: int, elapsed: float) -> None:
        self.decisions[seat] = self.decisions.get(seat, 0) + 1
        self.seconds[seat] = self.seconds.get(seat, 0.0) + elapsed


def bot_seed(seed: int, seat: int, purpose: str = "bot") -> str:
    """The seed of a seat's own generator: derived from the match seed, the same on every machine."""
    return f"{purpose}:{seed}:{seat}"


def make_bots(
    game: Game, num_players: int, options: Mapping[str, Any], seats: Sequence[SeatPlayer], seed: int
) -> list[Bot]:
    bots = []
    for seat, player in enumerate(seats):
        cls = registry.bot_class(player.name, game.spec.id)
        bots.append(cls(game, seat, num_players, options, player.params, random.Random(bot_seed(seed, seat))))
    return bots


def normalize_seats(bots: Sequence[BotChoice | SeatPlayer], game_id: str) -> list[SeatPlayer]:
    """Turn names or (name, params) pairs into validated SeatPlayers."""
    seats = []
    for choice in bots:
        if isinstance(choice, SeatPlayer):
            player = choice
        elif isinstance(choice, str):
            player = SeatPlayer(choice)
        else:
            name, params = choice
            player = SeatPlayer(name, dict(params or {}))
        cls = registry.bot_class(player.name, game_id)
        seats.append(SeatPlayer(player.name, cls.validate_params(player.params)))
    return seats


def play_match(
    game_id: str,
    num_players: int,
    bots: Sequence[BotChoice | SeatPlayer],
    seed: int,
    options: Mapping[str, Any] | None = None,
    move_time_limit: float | None = None,
    bot_factory: Callable[[int, SeatPlayer], Bot] | None = None,
    on_event: Callable[[State, list], None] | None = None,
    timing: MoveTiming | None = None,
) -> dict:
    """Play one match and return its record (see games.core.record).

    `bot_factory(seat, seat_player)` may supply the bot of a seat (external programs, the league's bots);
    by default bots come from the registry. `on_event(state, event)` is called after each event (the CLI's
    readable account uses it). `timing`, if given, accumulates each seat's decisions and thinking time.
    """
    game = registry.get_game(game_id)
    if len(bots) != num_players:
        raise OptionError(f"{num_players} players need {num_players} bots, got {len(bots)}")
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise OptionError(f"the seed must be a whole number, got {seed!r}")
    seats = normalize_seats(bots, game_id)
    options = game.spec.validate_options(options, num_players)
    state = game.new_state(num_players, options, random.Random(seed))
    if bot_factory is None:
        players = make_bots(game, num_players, options, seats, seed)
    else:
        players = [bot_factory(seat, player) for seat, player in enumerate(seats)]

    events: list[list] = []
    forfeits: list[dict[str, Any]] = []
    substitutes: dict[int, Bot] = {}
    rng = state.rng
    cap = game.max_events
    capped = False
    while not state.is_terminal():
        if len(events) >= cap:
            capped = True
            break
        if state.is_chance():
            chance = state.sample_chance(rng)
            state.apply_chance(chance)
            event = ["c", chance]
        else:
            actions = {}
            for seat in state.deciders():
                legal = state.legal_actions(seat)
                bot = substitutes.get(seat) or players[seat]
                observation = state.observation(seat) if bot.uses_observation else None
                reason = None
                started = time.perf_counter()
                try:
                    action = bot.act(observation, legal)
                except Exception as exc:  # any failure of a bot forfeits its seat, by design
                    reason = f"raised {type(exc).__name__}: {exc}"[:300]
                else:
                    elapsed = time.perf_counter() - started
                    if timing is not None:
                        timing.add(seat, elapsed)
                    if move_time_limit is not None and elapsed > move_time_limit:
                        reason = f"took {elapsed:.3f}s, over the {move_time_limit:g}s limit"
                    elif not is_legal_action(action, legal):
                        reason = f"illegal action {action!r}"[:300]
                if reason is not None:
                    forfeits.append({"seat": seat, "event": len(events), "reason": reason})
                    substitute = RandomBot(
                        game, seat, num_players, options, None, random.Random(bot_seed(seed, seat, "forfeit"))
                    )
                    substitutes[seat] = substitute
                    action = substitute.act(observation, legal)
                actions[seat] = action
            state._apply(actions)  # every action was checked against its legal list above
            event = ["m", {str(seat): action for seat, action in actions.items()}]
        events.append(event)
        if on_event is not None:
            on_event(state, event)

    forfeited = {f["seat"] for f in forfeits}
    outcome = apply_forfeits(state.outcome(), forfeited)
    reason = "turn_cap" if capped else ("forfeit" if forfeits else "normal")
    return {
        "format": FORMAT_VERSION,
        "game": game.spec.id,
        "version": game.spec.version,
        "options": options,
        "seed": seed,
        "seats": [{"bot": player.name, "params": player.params} for player in seats],
        "events": events,
        "outcome": outcome.to_json(),
        "end": {"reason": reason, "forfeits": forfeits},
    }
