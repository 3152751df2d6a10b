"""The bot interface: a named strategy with typed parameters and its own seeded generator.

A bot sees only what the runner hands it: its seat's observation and its legal actions. It never receives a
state. Search bots make states from the observation through `game.sample_state(observation, rng)`; when
such a search plays a bot inside its own states (heuristic rollouts), it calls `act_in_state`, which a bot may
override to read the state directly instead of an observation built for it.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Mapping
from typing import Any, ClassVar

from games.core.spec import Option, validate_options
from games.core.state import Action, Game, Observation, State


class Bot(ABC):
    """Base class of every bot.

    Subclasses set `name`, `summary`, `params` (typed options) and `games` (the game ids the bot plays; None
    for every game), and implement `act`. `uses_observation = False` lets the runner skip building an
    observation the bot would ignore (the random bot).

    `version` is the version of the bot's behaviour, written into every record it plays in: bump it whenever
    the bot would choose differently from the same observation, legal actions and generator (a new rule, a
    retuned constant, another way of drawing from its generator). Strict verification
    (`games.core.verify`) re-makes a seat's decisions only with the version the record names, so a bot whose
    behaviour changed without a bump would make its old records look tampered with. Every bot of the
    registry sets it in its own class body (tests/games/test_verify.py checks).
    """

    name: ClassVar[str]
    version: ClassVar[int] = 1
    summary: ClassVar[str] = ""
    params: ClassVar[tuple[Option, ...]] = ()
    games: ClassVar[tuple[str, ...] | None] = None
    uses_observation: ClassVar[bool] = True

    def __init__(
        self,
        game: Game,
        seat: int,
        num_players: int,
        options: Mapping[str, Any],
        params: Mapping[str, Any] | None,
        rng: random.Random,
    ):
        self.game = game
        self.seat = seat
        self.num_players = num_players
        self.options = options
        self.config = self.validate_params(params)
        self.rng = rng

    @classmethod
    def validate_params(cls, params: Mapping[str, Any] | None) -> dict[str, Any]:
        if not params:  # every default, as `validate_options` gives them (without building its message first)
            return {opt.name: opt.default for opt in cls.params}
        return validate_options(cls.params, params, f"parameter of bot {cls.name}:")

    @classmethod
    def describe(cls) -> dict[str, Any]:
        return {
            "name": cls.name,
            "version": cls.version,
            "summary": cls.summary,
            "games": list(cls.games) if cls.games is not None else None,
            "params": [p.describe() for p in cls.params],
        }

    @classmethod
    def not_remakeable(cls, params: Mapping[str, Any]) -> str | None:
        """Why this bot's decisions with these (validated) params cannot be re-made from its seed, or None.

        A bot whose choices depend on anything but its observation, legal actions and generator (the wall
        clock, say) returns the reason in words; strict verification then checks its decisions for legality
        only."""
        return None

    @abstractmethod
    def act(self, observation: Observation | None, legal_actions: list[Action]) -> Action:
        """One of `legal_actions`, chosen from the observation (None when `uses_observation` is False)."""

    def act_in_state(self, state: State, seat: int, legal_actions: list[Action]) -> Action:
        """`act` for `seat` in a state a search made itself (a sample from its own observation, or a copy).

        An override must return exactly what `act(state.observation(seat), legal_actions)` returns, drawing
        the same numbers from the generator, and read nothing that observation hides (tests check both).
        """
        return self.act(state.observation(seat) if self.uses_observation else None, legal_actions)


class RandomBot(Bot):
    """Uniform over the legal actions, from its own seeded generator."""

    name = "random"
    version = 1
    summary = "picks uniformly at random among the legal actions"
    uses_observation = False

    def act(self, observation: Observation | None, legal_actions: list[Action]) -> Action:
        return legal_actions[self.rng.randrange(len(legal_actions))]
