"""The spec of Nacho Pile: id, player range and the ruled variants (the rules module's docstring
says what each changes).

Kept apart from the engine so that a catalogue of games (the league's) can read it without loading the rules.
Places need two numbers (the deciding count, then chips in total), so `score_order` is None.
"""

from __future__ import annotations

from games.core.spec import GameSpec, Option

SPEC = GameSpec(
    id="nacho_pile",
    version=1,
    name="Nacho Pile",
    min_players=2,
    max_players=6,
    options=(
        Option(
            "specials_all_identical",
            "bool",
            False,
            help=(
                "Any two Special chips (Steal, Score, Remove) drawn in one turn bust, not only two of the "
                "same kind."
            ),
        ),
        Option(
            "optional_specials",
            "bool",
            False,
            help=(
                "A player may decline the effect of a Special chip they drew (by default each effect that "
                "has a target must be carried out, even a Remove whose only target is the player's own pile)."
            ),
        ),
    ),
    score_order=None,
    summary="Push your luck drawing chips from the bag: stop before you draw a duplicate, keep your piles, "
    "capture matching piles from the others, and use Wild, Steal, Score and Remove chips. When one chip is "
    "left, the most chips of its number win (of any kind, if it is a Wild or a Special).",
)
