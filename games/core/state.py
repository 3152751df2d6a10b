"""The state protocol every game implements, and the `Game` object that makes states.

Turn structure. At any point a state is in exactly one of three conditions:

* terminal (`is_terminal()`): the game is over and `outcome()` gives places and scores;
* a chance node (`is_chance()`): the next event is a chance outcome (a shuffle, a draw from a bag, a random
  pick). The runner asks `sample_chance(rng)` for one and applies it with `apply_chance(outcome)`; replay
  applies the recorded outcome instead, so a replay never depends on a generator. `apply_chance` refuses an
  outcome that is impossible at that point (`IllegalAction`);
* a decision (`deciders()` is non-empty): every seat in `deciders()` must choose one of its
  `legal_actions(seat)`, and all of them are applied together with `apply({seat: action, ...})`. One seat is
  an ordinary turn; several seats are a simultaneous step (every player picks a card at once); a seat that is
  not the turn's owner is an interruption (a reaction to another player's card).

Actions and chance outcomes are plain JSON values (str, int, bool, None, and lists and dicts of them; never
tuples, so that a value equals itself after a JSON round trip). Observations are JSON dicts holding everything
one seat may know and nothing else.

`apply` and `apply_chance` check legality before they change anything: an illegal action raises
`IllegalAction` and leaves the state as it was. Engines implement `_apply` and `_apply_chance`, which may
assume a legal input.

Each state owns `rng`, a `random.Random` seeded from the match seed, used by the runner for chance. `clone()`
copies the game position only (the clone's `rng` is None): whoever drives a clone passes a generator of their
own to `sample_chance`. Clones must be cheap: search bots make thousands per move.
"""

from __future__ import annotations

import json
import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from games.core.encoding import canonical_json
from games.core.errors import IllegalAction
from games.core.spec import GameSpec

Action = Any  # a JSON value
Observation = dict[str, Any]


# SEAT_KEYS[seat]: the seat's key in a decision's event ("0", "1", ...).
SEAT_KEYS = tuple(str(seat) for seat in range(256))


@dataclass(frozen=True)
class Outcome:
    """Places (1 = best; tied seats share a place, the next place skips: 1, 1, 3) and a score per seat."""

    places: tuple[int, ...]
    scores: tuple[float, ...]

    def to_json(self) -> dict[str, list[Any]]:
        return {"places": list(self.places), "scores": list(self.scores)}


def places_from_keys(keys: Sequence[Any], higher_is_better: bool = True) -> tuple[int, ...]:
    """Competition places from comparable keys (tuples compare level by level): equal keys share a place."""
    ordered = sorted(keys, reverse=higher_is_better)
    return tuple([ordered.index(key) + 1 for key in keys])  # one more than the number of keys before it


def is_legal_action(action: Action, legal: list[Action]) -> bool:
    """Whether `action` is one of `legal` as a JSON value: 3.0 or True is not the action 3."""
    kind = type(action)
    if kind is str:
        return action in legal
    for candidate in legal:  # the very object of the legal list (what most bots return): legal as it stands
        if candidate is action:
            return True
    if action not in legal:
        return False
    if kind is int:
        return any(type(candidate) is int and candidate == action for candidate in legal)
    try:
        encoded = canonical_json(action)
    except (TypeError, ValueError):
        return False
    if json.loads(encoded) != action:  # a tuple or another type that JSON would turn into something else
        return False
    return any(candidate == action and canonical_json(candidate) == encoded for candidate in legal)


class State(ABC):
    """One position of one game. See the module docstring for the contract."""

    game: ClassVar[Game]
    num_players: int
    options: dict[str, Any]
    rng: random.Random | None

    @abstractmethod
    def is_terminal(self) -> bool: ...

    @abstractmethod
    def is_chance(self) -> bool: ...

    @abstractmethod
    def deciders(self) -> tuple[int, ...]:
        """Seats that must decide now, in seat order; empty at a chance node or at the end."""

    @abstractmethod
    def legal_actions(self, seat: int) -> list[Action]:
        """The legal actions of `seat`, which must be in `deciders()`; never empty."""

    @abstractmethod
    def _apply(self, actions: Mapping[int, Action]) -> None:
        """Apply one legal action per deciding seat."""

    @abstractmethod
    def sample_chance(self, rng: random.Random) -> Any:
        """Draw the next chance outcome with `rng` (does not change the state)."""

    @abstractmethod
    def chance_is_possible(self, outcome: Any) -> bool:
        """Whether `outcome` could be the next chance outcome."""

    @abstractmethod
    def _apply_chance(self, outcome: Any) -> None:
        """Apply a possible chance outcome."""

    @abstractmethod
    def outcome(self) -> Outcome:
        """Places and scores; at the end of the game, or (at a turn cap) as the game's scoring gives them
        now."""

    @abstractmethod
    def observation(self, seat: int) -> Observation:
        """Everything `seat` may know, and nothing else, as a JSON dict."""

    @abstractmethod
    def clone(self) -> State:
        """An independent copy of the position (with `rng` None)."""

    def apply(self, actions: Mapping[int, Action]) -> None:
        """Apply one action per deciding seat, after checking each; raise IllegalAction and change nothing."""
        deciders = self.deciders()
        if not deciders:
            raise IllegalAction(
                "no seat is to decide now" + (" (the game is over)" if self.is_terminal() else "")
            )
        if len(actions) != len(deciders) or any(seat not in actions for seat in deciders):
            wanted = ", ".join(str(s) for s in deciders)
            got = ", ".join(str(s) for s in sorted(actions))
            raise IllegalAction(f"seats {wanted} must decide now; got actions for {got or 'no seat'}")
        for seat in deciders:
            if not is_legal_action(actions[seat], self.legal_actions(seat)):
                raise IllegalAction(f"seat {seat}: {actions[seat]!r} is not a legal action now")
        self._apply(actions)

    def apply_chance(self, outcome: Any) -> None:
        """Apply a chance outcome after checking that it is possible; raise IllegalAction and change
        nothing."""
        if not self.is_chance():
            raise IllegalAction("no chance event is due now")
        if not self.chance_is_possible(outcome):
            raise IllegalAction(f"chance outcome {outcome!r} is impossible now")
        self._apply_chance(outcome)

    def render(self) -> str:
        """A text picture of the table for the command line (engines override it)."""
        return ""

    def describe_action(self, seat: int, action: Action) -> str:
        """Words for one action, for readable accounts of a match (engines may override it)."""
        return str(action)

    def describe_chance(self, outcome: Any) -> str:
        """Words for one chance outcome (engines may override it)."""
        text = str(outcome)
        return text if len(text) <= 60 else text[:57] + "..."

    def playout(self, rng: random.Random, max_events: int = 0) -> int:
        """Play on in place uniformly at random, and return the number of events applied: a fast path for
        rollouts (`games.core.evaluator.Evaluator.playout`, whose generic loop with no break and uniform moves
        this is).

        Each decision takes the single legal action of a seat that has one and `legal[int(rng.random() *
        len(legal))]` otherwise; each chance event applies `sample_chance(rng)`. It stops at the end or after
        `max_events` events (0: no limit). Engines may override it with a faster loop that draws the same
        numbers from `rng` and reaches the same state (tests/games/test_conformance.py compares them)."""
        steps = 0
        while not self.is_terminal() and (max_events == 0 or steps < max_events):
            if self.is_chance():
                self._apply_chance(self.sample_chance(rng))
            else:
                actions = {}
                for seat in self.deciders():
                    legal = self.legal_actions(seat)
                    actions[seat] = legal[0] if len(legal) == 1 else legal[int(rng.random() * len(legal))]
                self._apply(actions)
            steps += 1
        return steps

    def advance(
        self,
        rng: random.Random,
        append: Callable[[list[Any]], Any],
        room: int,
        actions: Mapping[int, Action] | None = None,
    ) -> tuple[int, ...]:
        """Apply `actions` (a decision the caller checked, if any), play the chance events due then as the
        runner does, and return the seats to decide next.

        While the state is at a chance node and `room` (the events the match may still hold) is left, draw
        `sample_chance(rng)`, apply it and `append(["c", outcome])` right after applying it. Then return
        `deciders()`: empty at the end, and also when `room` ran out first (the caller tells the two apart
        with `is_terminal()`). The runner calls it once per decision instead of asking `_apply`,
        `is_terminal`, `is_chance`, `sample_chance`, `_apply_chance` and `deciders` event by event (it appends
        the decision's own event before the call). An engine may override it with one loop that draws the same
        numbers, appends the same events and reaches the same state (tests/games/test_conformance.py compares
        a match's records through an override and through this). This generic version is the one the runner
        uses when it reports every event (`on_event`), without `actions`: it appends each chance event right
        after applying it."""
        if actions is not None:
            self._apply(actions)
        while room > 0 and self.is_chance():
            outcome = self.sample_chance(rng)
            self._apply_chance(outcome)
            append(["c", outcome])
            room -= 1
        if room <= 0:
            return ()
        return self.deciders()

    def run(
        self,
        rng: random.Random,
        events: list[list[Any]],
        cap: int,
        decide: Callable[[int, list[Action]], Action],
    ) -> None:
        """Play the match on as the runner does, appending its events to `events`, until the end or until
        `events` holds `cap` events.

        Chance events are drawn with `rng` as `advance` draws them. At each decision, `decide(seat,
        legal_actions(seat))` gives each deciding seat's action, in seat order and before any is applied (a
        legal one: the runner's `decide` asks the seat's bot and checks its answer); then `["m", {"<seat>":
        action, ...}]` is appended and the actions are applied. `decide` may read the state (a bot's
        observation), so the state is up to date whenever it is called. The runner calls this once per match
        (without `on_event`); this generic version loops over `advance`, and an engine may override it with
        one loop over its own steps that draws the same numbers, asks `decide` the same questions, appends the
        same events and reaches the same state (tests/games/test_conformance.py compares an override with
        this)."""
        append = events.append
        advance, legal_actions = self.advance, self.legal_actions
        actions = None
        while True:
            seats = advance(rng, append, cap - len(events), actions)
            if not seats:
                return
            actions = {}
            for seat in seats:
                actions[seat] = decide(seat, legal_actions(seat))
            if len(seats) == 1:
                append(["m", {SEAT_KEYS[seat]: actions[seat]}])
            else:
                append(["m", {SEAT_KEYS[seat]: action for seat, action in actions.items()}])


class Game(ABC):
    """A registered game: its spec, how to start a state, and the sampler.

    `max_events` is the engine's hard cap on events in one match; a match that reaches it ends with the
    places `outcome()` gives at that point, and its record says so.
    """

    spec: ClassVar[GameSpec]
    max_events: ClassVar[int] = 100_000

    @abstractmethod
    def new_state(self, num_players: int, options: Mapping[str, Any], rng: random.Random) -> State:
        """A fresh game with validated options; its first events are usually chance (the deal)."""

    @abstractmethod
    def sample_state(self, observation: Observation, rng: random.Random) -> State:
        """A complete state consistent with one seat's observation, from that observation alone.

        Whatever the seat cannot see is drawn at random (with `rng`) from what it could be, respecting every
        inference the observation allows. `sampled.observation(seat)` equals `observation`.
        """

    def start(self, num_players: int, options: Mapping[str, Any] | None = None, seed: int = 0) -> State:
        """Validate options and player count and return a new state whose `rng` is seeded with `seed`."""
        validated = self.spec.validate_options(options, num_players)
        state = self.new_state(num_players, validated, random.Random(seed))
        return state

    def __repr__(self) -> str:
        return f"<Game {self.spec.id} v{self.spec.version}>"
