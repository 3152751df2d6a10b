"""The spec of Chickie Nuggs: id, player range and the ruled variants (the rules module's docstring
says what each changes).

Kept apart from the engine so that a catalogue of games (the league's) can read it without loading the rules.
The ruled `sauce_values` variant (the rule text prints no sauce points; 1 each by default) is one whole-number
option per sauce, so that a table can value each sauce on its own. Places need three numbers (tray points,
then cards on the tray, then points in hand), so `score_order` is None.
"""

from __future__ import annotations

from games.core.spec import GameSpec, Option

# The sauces in the order the rule text lists them, with their option names and display names.
SAUCE_OPTIONS = (
    ("buffalo", "sauce_value_buffalo", "Buffalo (Gimme Nuggs)"),
    ("ranch", "sauce_value_ranch", "Ranch (Check the Freezer)"),
    ("sweet_sour", "sauce_value_sweet_sour", "Sweet & Sour (Steal)"),
    ("bbq", "sauce_value_bbq", "BBQ (Skip)"),
    ("honey_mustard", "sauce_value_honey_mustard", "Honey Mustard (Discard)"),
)

SPEC = GameSpec(
    id="chickie_nuggs",
    version=1,
    name="Chickie Nuggs",
    min_players=2,
    max_players=4,
    options=tuple(
        Option(
            option_name,
            "int",
            1,
            help=(
                f"Points of a {display} sauce placed on a tray (variant sauce_values; the rules print none)."
            ),
            min=0,
            max=10,
        )
        for _sauce, option_name, display in SAUCE_OPTIONS
    ),
    score_order=None,
    summary=(
        "Build the best tray of up to 6 nuggets and 2 dipping sauces: play up to two sauce or action cards a "
        "turn (Gimme Nuggs, Steal, Skip, Burnt Nugget, Incognuggo...), answer Gimme Nuggs with Dropped "
        "Nugget and Five-Second Rule, dodge Flying Nuggets, and hold the most tray points when the draw pile "
        "runs out."
    ),
)
