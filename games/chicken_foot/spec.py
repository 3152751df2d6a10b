"""The Chicken Foot game spec: id, player range by domino set, and every ruled variant (the rules module's
docstring says what each changes).

Read by the league's catalogue without loading the engine, so this module imports only the core spec types.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.core.spec import GameSpec, Option

# Highest pip number of each set; a double-N set has (N + 1) * (N + 2) / 2 bones.
SET_TOP = {"double_six": 6, "double_nine": 9, "double_twelve": 12}

# Bones dealt to each player, by set and player count (the rule text's table).
HAND_SIZES = {
    "double_six": {2: 8, 3: 7, 4: 5},
    "double_nine": {2: 9, 3: 9, 4: 9, 5: 7, 6: 7, 7: 7},
    "double_twelve": {2: 15, 3: 12, 4: 12, 5: 9, 6: 9, 7: 9},
}

LEAD_POLICIES = ("seed_highest_held", "draw_until_required", "skip_unheld")
ROUND_END_RULES = ("all_passed", "all_passed_yard_empty", "yard_empty")


def players_for_set(options: Mapping[str, Any]) -> tuple[int, int]:
    """(min, max) players for a validated option dict: a double-six set seats 2 to 4, the others 2 to 7."""
    counts = HAND_SIZES[options["set"]]
    return min(counts), max(counts)


SPEC = GameSpec(
    id="chicken_foot",
    version=1,
    name="Chicken Foot",
    min_players=2,
    max_players=7,
    options=(
        Option(
            "set",
            "choice",
            "double_nine",
            help="domino set: double six (2-4 players, 7 rounds), double nine (2-7, 10 rounds) "
            "or double twelve (2-7, 13 rounds)",
            choices=tuple(SET_TOP),
        ),
        Option(
            "lead_policy",
            "choice",
            "seed_highest_held",
            help="who leads a round: seed_highest_held (the highest double not yet led that anyone holds; "
            "draw in turn if none), draw_until_required (the round's double is fixed, highest first; draw "
            "until it appears), skip_unheld (fixed double; skip its round if nobody holds it, except the "
            "double blank's)",
            choices=LEAD_POLICIES,
        ),
        Option(
            "spinner_arms",
            "choice",
            4,
            help="bones the lead double (spinner) takes before play goes anywhere else: 4, or 6 on a hub",
            choices=(4, 6),
        ),
        Option(
            "round_end",
            "choice",
            "all_passed",
            help="when a blocked round ends: all_passed (a full cycle of passes, each having drawn while the "
            "yard had bones), all_passed_yard_empty (a full cycle of passes with the yard empty), yard_empty "
            "(as soon as the last bone is drawn and played or passed on)",
            choices=ROUND_END_RULES,
        ),
        Option(
            "double_blank_value",
            "choice",
            50,
            help="points the double blank counts in a hand at the end of a round",
            choices=(0, 25, 50),
        ),
    ),
    score_order="low",
    summary="Dominoes in the Train family: build chicken feet off the spinner and every double; "
    "one round per double, lowest total pips left in hand wins.",
    player_range=players_for_set,
)
