"""Rating maths: plain values in, plain values out, no database.

The league rates with openskill's Bradley–Terry "full" model. Its pairwise comparisons treat tied players as
equals: with four players finishing 1, 1, 2, 3 the two winners gain the most and the third loses to both of
them. openskill's default Plackett–Luce model gets that case wrong (the third-placed player ends level with
or above the tied winners), so it is not used.

Everything here is deterministic: the same skills and places in the same order give bit-identical floats,
which is what lets a from-scratch recompute reproduce the stored numbers exactly. The replay of a pool
(`apply_matches`, `rewind`, `recompute`) is here too; `league.ratings.services` reads the matches and the
stored ratings and writes what it returns.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Any, Protocol

from openskill import models as openskill_models

CONSERVATIVE_SIGMAS = 3


def conservative(mu: float, sigma: float) -> float:
    """mu − 3σ: the rating shown and sorted on (the player is very likely at least this good)."""
    return mu - CONSERVATIVE_SIGMAS * sigma


def uncertainty(sigma: float) -> float:
    """3σ: the ± shown next to the conservative rating."""
    return CONSERVATIVE_SIGMAS * sigma


@dataclass(frozen=True)
class Skill:
    """A player's belief state: mean and standard deviation."""

    mu: float
    sigma: float

    @property
    def conservative(self) -> float:
        """The rating shown and sorted on: mu − 3σ."""
        return conservative(self.mu, self.sigma)


@dataclass(frozen=True)
class RatingModel:
    """An openskill model by name with its parameters (mu, sigma, beta, kappa, tau)."""

    name: str
    params: Mapping[str, float] = field(default_factory=dict)

    def initial(self) -> Skill:
        model = _model(self.name, tuple(sorted(self.params.items())))
        return Skill(model.mu, model.sigma)


def default_params() -> dict[str, float]:
    """openskill's defaults, written out so that they are stored with each pool."""
    mu = 25.0
    return {"mu": mu, "sigma": mu / 3, "beta": mu / 6, "kappa": 0.0001, "tau": mu / 300}


DEFAULT_MODEL = RatingModel("BradleyTerryFull", default_params())
SUPPORTED_MODELS = ("BradleyTerryFull", "BradleyTerryPart", "PlackettLuce", "ThurstoneMostellerFull")


@cache
def _model(name: str, params: tuple[tuple[str, Any], ...]) -> Any:
    if name not in SUPPORTED_MODELS:
        raise ValueError(f"unknown rating model {name!r} (supported: {', '.join(SUPPORTED_MODELS)})")
    return getattr(openskill_models, name)(**dict(params))


def rate(model: RatingModel, skills: Sequence[Skill], places: Sequence[int]) -> list[Skill]:
    """New skills of the seats of one match, given their skills before it and their places (1 = first).

    Each seat is its own team. Equal places are ties.
    """
    if len(skills) != len(places) or len(skills) < 2:
        raise ValueError("a rated match needs at least two seats, each with a place")
    engine = _model(model.name, tuple(sorted(model.params.items())))
    teams = [[engine.rating(mu=skill.mu, sigma=skill.sigma)] for skill in skills]
    rated = engine.rate(teams, ranks=[float(place) for place in places])
    return [Skill(team[0].mu, team[0].sigma) for team in rated]


@dataclass
class RatedSkill:
    """A player's skill in a pool and the number of rated matches behind it."""

    skill: Skill
    matches: int


class RatedMatch(Protocol):
    """A finished match as a replay applies it (`league.matches.selectors.PoolMatch` is one)."""

    @property
    def match_id(self) -> int: ...

    @property
    def player_ids(self) -> Sequence[int]: ...

    @property
    def places(self) -> Sequence[int]: ...


def apply_matches(
    model: RatingModel, standings: dict[int, RatedSkill], matches: Iterable[RatedMatch]
) -> Iterator[tuple[int, int, Skill, Skill]]:
    """Apply matches in order to `standings` (updated in place); yield (match, player, before, after) rows."""
    initial = model.initial()
    for match in matches:
        before = [standings[pid].skill if pid in standings else initial for pid in match.player_ids]
        after = rate(model, before, match.places)
        for player_id, old, new in zip(match.player_ids, before, after, strict=True):
            standing = standings.get(player_id)
            if standing is None:
                standings[player_id] = RatedSkill(new, 1)
            else:
                standing.skill = new
                standing.matches += 1
            yield match.match_id, player_id, old, new


def rewind(standings: dict[int, RatedSkill], undone: Mapping[int, tuple[Skill, int]]) -> None:
    """Take undone matches off `standings` (in place): `undone` gives, per player, their skill before the
    first undone match and how many were undone. A player left with no match leaves the standings."""
    for player_id, (before, removed) in undone.items():
        left = standings[player_id].matches - removed
        if left:
            standings[player_id] = RatedSkill(before, left)
        else:
            del standings[player_id]


def recompute(model: RatingModel, matches: Iterable[RatedMatch]) -> dict[int, RatedSkill]:
    """Every player's standing from applying `matches` in order to an empty pool."""
    standings: dict[int, RatedSkill] = {}
    for _ in apply_matches(model, standings, matches):
        pass
    return standings
