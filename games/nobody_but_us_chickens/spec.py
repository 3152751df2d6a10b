"""The spec of Nobody but Us Chickens: id, player range and the ruled variants (the rules module's docstring
says what each changes).

Kept apart from the engine so that a catalogue of games (the league's) can read it without loading the rules.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.core.spec import GameSpec, Option


def player_range(options: Mapping[str, Any]) -> tuple[int, int]:
    """3 to 6 players; 2 to 6 with `allow_two_players`."""
    return (2 if options["allow_two_players"] else 3), 6


SPEC = GameSpec(
    id="nobody_but_us_chickens",
    version=1,
    name="Nobody but Us Chickens",
    min_players=3,
    max_players=6,
    options=(
        Option(
            "allow_two_players",
            "bool",
            False,
            help="Allow a two-player game (the rules are written for 3 to 6).",
        ),
        Option(
            "short_summer_nights",
            "bool",
            False,
            help="Every hand loses its Rat and one Healthy Chicken: 7 cards, 7 hours a night.",
        ),
        Option(
            "healthy_coop",
            "bool",
            False,
            help=(
                "+1 point for each night in which a player claimed at least one Chicken and no Sickly "
                "Chicken."
            ),
        ),
        Option(
            "lone_dog_powerless",
            "bool",
            False,
            help="Read 'more than one Guard Dog' literally: a single Dog in the coop does nothing and the "
            "predators act as if it were absent (by default a lone Dog routs them).",
        ),
    ),
    score_order="high",
    summary=(
        "Each hour every player sends one card into the coop at once: Chickens wait there, Foxes and Rats "
        "snatch them, Guard Dogs rescue them from the predators. One night per player; the highest total "
        "wins."
    ),
    player_range=player_range,
)
