"""The runner: plays bots against each other and writes the match record.

Each seat is a `SeatPlayer`: a bot of the registry by name and parameters, or any `Bot` its `make` builds (the
league's external programs), with the label the record gives the seat and its own move-time limit.

Forfeits (docs/engine.md): a bot that raises, returns an illegal action or overruns its move-time limit
(measured when it returns; an in-process bot cannot be pre-empted) forfeits its seat. A seeded `random` bot
plays on for that seat so the match finishes, and the record names the seat, the event and the reason's code
(`games.core.record.FORFEIT_REASONS`); what happened in words (the exception, the time taken) goes to the
caller's `forfeit_details`, never into the record. An exception with a `forfeit_reason` attribute (one of the
codes) forfeits with that code, any other with `crashed`. A
match that reaches the game's `max_events` ends there with the places the game's scoring gives at that point.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, cast

from games import registry
from games.core.bot import Bot, RandomBot
from games.core.draws import BIT_LENGTH
from games.core.errors import OptionError
from games.core.record import FORFEIT_REASONS, FORMAT_VERSION, apply_forfeits
from games.core.state import SEAT_KEYS, Action, Game, State, is_legal_action

BotChoice = str | tuple[str, Mapping[str, Any]]
# make(game, seat, num_players, options, rng): the bot of one seat (the arguments of a `Bot` but its params)
BotMaker = Callable[[Game, int, int, Mapping[str, Any], random.Random], Bot]


@dataclass
class SeatPlayer:
    """What plays one seat, and what the record calls it.

    `name` and `params` are the seat's entry in the record. By default the registry's bot of that name plays
    the seat, with `params` validated against it. `make`, if given, builds the seat's `Bot` instead (an
    external program, say): `name` and `params` are then only the seat's label, never looked up. The bot is
    given the seat's own generator, seeded from `bot_seed(seed, seat)`. `move_time_limit` (seconds, measured
    when the bot returns) replaces the match's `move_time_limit` for this seat.

    The record's seat entry also says which version of the bot played: a registry bot's entry carries its
    class's `version`; a seat built by `make` carries `"external": external` (what its owner says the bot is,
    e.g. the league's `{"definition": "alpha", "version": 3}`; `{}` when nothing is given), which tells strict
    verification that the seat's decisions cannot be re-made here.
    """

    name: str
    params: dict[str, Any] = field(default_factory=dict)
    make: BotMaker | None = None
    move_time_limit: float | None = None
    external: Mapping[str, Any] | None = None

    def entry(self, game_id: str, cls: type[Bot] | None = None) -> dict[str, Any]:
        """The seat's entry in the record: name, params, and its bot's version (or what it is, if external).

        `cls` is the registry's class of the seat's bot when the caller has already looked it up."""
        if self.make is not None:
            return {"bot": self.name, "params": self.params, "external": dict(self.external or {})}
        return {
            "bot": self.name,
            "params": self.params,
            "version": (cls or registry.bot_class(self.name, game_id)).version,
        }


@dataclass
class MoveTiming:
    """Decisions taken and seconds spent per seat (wall clock; never written into a record)."""

    decisions: dict[int, int] = field(default_factory=dict)
    seconds: dict[int, float] = field(default_factory=dict)

    def add(self, seat: int, elapsed: float) -> None:
        self.decisions[seat] = self.decisions.get(seat, 0) + 1
        self.seconds[seat] = self.seconds.get(seat, 0.0) + elapsed


def crash(exc: Exception) -> tuple[str, str]:
    """The forfeit reason of a bot that raised `exc` (its `forfeit_reason` if it is a known code, else
    `crashed`), and what happened in words."""
    reason = getattr(exc, "forfeit_reason", None)
    if reason in FORFEIT_REASONS:  # its message says what the bot did, in words (`protocol.ExternalBotError`)
        return reason, str(exc)
    return "crashed", f"raised {type(exc).__name__}: {exc}"


def bot_seed(seed: int, seat: int, purpose: str = "bot") -> str:
    """The seed of a seat's own generator: derived from the match seed, the same on every machine."""
    return f"{purpose}:{seed}:{seat}"


def make_bots(
    game: Game,
    num_players: int,
    options: Mapping[str, Any],
    seats: Sequence[SeatPlayer],
    seed: int,
    classes: Sequence[type[Bot] | None] | None = None,
) -> list[Bot]:
    """Each seat's bot, from its `make` or the registry, with the seat's own generator.

    `classes`, if given, holds each registry seat's bot class, already looked up (None for a `make` seat)."""
    bots = []
    for seat, player in enumerate(seats):
        rng = random.Random(bot_seed(seed, seat))
        if player.make is not None:
            bots.append(player.make(game, seat, num_players, options, rng))
        else:  # `classes` holds None only for a `make` seat
            cls = (
                cast("type[Bot]", classes[seat])
                if classes is not None
                else registry.bot_class(player.name, game.spec.id)
            )
            bots.append(cls(game, seat, num_players, options, player.params, rng))
    return bots


def normalize_seats(bots: Sequence[BotChoice | SeatPlayer], game_id: str) -> list[SeatPlayer]:
    """Turn names or (name, params) pairs into SeatPlayers, the params of registry bots validated."""
    seats = []
    table = registry.bots_for(game_id)
    for choice in bots:
        if isinstance(choice, SeatPlayer):
            player = replace(choice, params=dict(choice.params))
        elif isinstance(choice, str):
            player = SeatPlayer(choice)
        else:
            name, params = choice
            player = SeatPlayer(name, dict(params or {}))
        if player.make is None:
            cls = table.get(player.name) or registry.bot_class(player.name, game_id)  # the latter raises
            player.params = cls.validate_params(player.params)
        seats.append(player)
    return seats


def play_match(
    game_id: str,
    num_players: int,
    bots: Sequence[BotChoice | SeatPlayer],
    seed: int,
    options: Mapping[str, Any] | None = None,
    move_time_limit: float | None = None,
    on_event: Callable[[State, list[Any]], None] | None = None,
    timing: MoveTiming | None = None,
    forfeit_details: dict[int, str] | None = None,
) -> dict[str, Any]:
    """Play one match and return its record (see games.core.record).

    `bots` gives each seat, seat 0 first: a registry bot's name, a (name, params) pair, or a `SeatPlayer`
    (a bot of its own, a label, a move-time limit). `move_time_limit` applies to every seat whose
    `SeatPlayer` sets none. `on_event(state, event)` is called after each event (the CLI's readable account
    uses it). `timing`, if given, accumulates each seat's decisions and thinking time. `forfeit_details`, if
    given, receives what made each forfeited seat forfeit, in words, by seat (e.g. `"raised RuntimeError:
    ..."`, `"took 1.234s, over the 1s limit"`): text for people, kept out of the record.
    """
    game = registry.get_game(game_id)
    if len(bots) != num_players:
        raise OptionError(f"{num_players} players need {num_players} bots, got {len(bots)}")
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise OptionError(f"the seed must be a whole number, got {seed!r}")
    seats = normalize_seats(bots, game_id)
    options = game.spec.validate_options(options, num_players)
    state = game.new_state(num_players, options, random.Random(seed))
    table = registry.bots_for(game_id)
    classes = [None if seat.make is not None else table[seat.name] for seat in seats]
    players = make_bots(game, num_players, options, seats, seed, classes)
    # Per seat: its move-time limit; whether its clock is read (only for a seat with a limit, or when the
    # caller asked for timings); the bot playing it now (a forfeited seat's substitute replaces its bot) and
    # whether it is given observations; and for a seat the random bot plays untimed, its generator's
    # `getrandbits`: its pick is drawn here, `RandomBot.act`'s `rng.randrange(len(legal))` inlined as
    # `games.core.draws.randbelow` does it (the same numbers).
    limits, timed, acts, observes, random_bits = [], [], [], [], []
    for seat_player, bot in zip(seats, players, strict=True):
        limit = move_time_limit if seat_player.move_time_limit is None else seat_player.move_time_limit
        limits.append(limit)
        timed.append(timing is not None or limit is not None)
        acts.append(bot.act)
        observes.append(bot.uses_observation)
        random_bits.append(
            bot.rng.getrandbits
            if type(bot) is RandomBot and type(bot.rng) is random.Random and not timed[-1]
            else None
        )

    events: list[list[Any]] = []
    forfeits: list[dict[str, Any]] = []
    rng = cast(random.Random, state.rng)  # new_state was given one
    cap = game.max_events
    clock = time.perf_counter
    append = events.append
    bit_length = BIT_LENGTH
    bit_lengths = len(BIT_LENGTH)
    is_terminal, legal_actions, apply = state.is_terminal, state.legal_actions, state._apply

    def forfeit(seat: int, reason: str, detail: str, observation: Any, legal: list[Any]) -> Any:
        """Record the seat's forfeit, hand the seat to its seeded random substitute, and return its action."""
        forfeits.append({"seat": seat, "event": len(events), "reason": reason})
        if forfeit_details is not None:
            forfeit_details[seat] = detail[:300]
        substitute = RandomBot(
            game, seat, num_players, options, None, random.Random(bot_seed(seed, seat, "forfeit"))
        )
        acts[seat] = substitute.act
        observes[seat] = substitute.uses_observation
        random_bits[seat] = None
        # The substitute plays untimed: a seat forfeits once, and a preemption of the substitute on a busy
        # machine must not write a second forfeit into the record.
        limits[seat] = None
        timed[seat] = timing is not None
        return substitute.act(observation, legal)

    def decide(seat: int, legal: list[Any]) -> Any:
        """The seat's action from its legal ones: its bot's, checked, or its forfeit's substitute's."""
        bits = random_bits[seat]
        if bits is not None and legal:  # (an empty list makes the bot raise and forfeit, in `ask`)
            count = len(legal)
            size = bit_length[count] if count < bit_lengths else count.bit_length()
            pick = bits(size)
            while pick >= count:
                pick = bits(size)
            return legal[pick]
        return ask(seat, legal)

    def ask(seat: int, legal: list[Any]) -> Any:
        """`decide` for a seat whose bot is asked (kept apart so that the random seat's pick, a call of its
        own, copies only the few variables it reads)."""
        observation = state.observation(seat) if observes[seat] else None
        if timed[seat]:
            started = clock()
        try:
            action = acts[seat](observation, legal)
        except Exception as exc:  # any failure of a bot forfeits its seat, by design
            return forfeit(seat, *crash(exc), observation, legal)
        if timed[seat]:
            elapsed = clock() - started
            if timing is not None:
                timing.add(seat, elapsed)
            limit = limits[seat]
            if limit is not None and elapsed > limit:
                detail = f"took {elapsed:.3f}s, over the {limit:g}s limit"
                return forfeit(seat, "timeout", detail, observation, legal)
        if not ((type(action) is str and action in legal) or is_legal_action(action, legal)):
            return forfeit(seat, "illegal_action", f"played an illegal action {action!r}", observation, legal)
        return action

    if on_event is None:
        state.run(rng, events, cap, decide)  # the engine's own loop, or the generic one over `advance`
    else:
        # One event at a time through the generic `State.advance`, which appends each chance event right after
        # applying it, so that `on_event` sees each event with the state just after it.
        def push(event: list[Any]) -> None:
            append(event)
            on_event(state, event)

        while True:
            deciding = State.advance(state, rng, push, cap - len(events))
            if not deciding:
                break
            actions: dict[int, Action] = {}
            for seat in deciding:
                actions[seat] = decide(seat, legal_actions(seat))
            apply(actions)  # every action was checked against its legal list by `decide`
            push(["m", {SEAT_KEYS[seat]: action for seat, action in actions.items()}])
    capped = not is_terminal()

    forfeited = {f["seat"] for f in forfeits}
    outcome = apply_forfeits(state.outcome(), forfeited)
    reason = "turn_cap" if capped else ("forfeit" if forfeits else "normal")
    return {
        "format": FORMAT_VERSION,
        "game": game.spec.id,
        "version": game.spec.version,
        "options": options,
        "seed": seed,
        "seats": [player.entry(game.spec.id, cls) for player, cls in zip(seats, classes, strict=True)],
        "events": events,
        "outcome": outcome.to_json(),
        "end": {"reason": reason, "forfeits": forfeits},
    }
