"""What a sampler works out once per observation, kept for the observations sampled last.

A search bot samples one observation hundreds of times (`Game.sample_state`), so a sampler may work out what
follows from the observation alone once (a plan: a template state, the cards to deal) and only draw per
sample. `RecentPlans` keeps the plans of the last few observations, recognized by identity: a caller does not
change an observation after sampling from it (docs/engine.md), and the plan holds the observation, so that its
identity is never another's.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Generic, TypeVar

Plan = TypeVar("Plan")


class RecentPlans(Generic[Plan]):
    """`plan_for(observation)`: `make(observation)`, remembered for the last `size` observations."""

    def __init__(self, make: Callable[[Any], Plan], size: int = 4):
        self.make = make
        self.size = size
        self.recent: list[tuple[Any, Plan]] = []

    def plan_for(self, observation: Any) -> Plan:
        for seen, plan in self.recent:
            if seen is observation:
                return plan
        plan = self.make(observation)
        self.recent = [(observation, plan), *self.recent[: self.size - 1]]
        return plan
