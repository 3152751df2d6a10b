"""Rating maths: plain values in, plain values out, no database.

The league rates with openskill's Bradley–Terry "full" model. Its pairwise comparisons treat tied players as
equals: with four players finishing 1, 1, 2, 3 the two winners gain the most and the third loses to both of
them. openskill's default Plackett–Luce model gets that case wrong (the third-placed player ends level with
or above the tied winners), so it is not used.

Everything here is deterministic: the same skills and places in the same order give bit-identical floats,
which is what lets a from-scratch recompute reproduce the stored numbers exactly.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from openskill import models as openskill_models

CONSERVATIVE_SIGMAS = 3


@dataclass(frozen=True)
class Skill:
    """A player's belief state: mean and standard deviation."""

    mu: float
    sigma: float

    @property
    def conservative(self) -> float:
        """mu − 3σ: the rating shown and sorted on."""
        return self.mu - CONSERVATIVE_SIGMAS * self.sigma


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
