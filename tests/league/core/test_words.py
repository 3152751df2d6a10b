"""Plain words for internal terms (league.core.words): what a visitor reads instead of the stored term."""

import pytest

from league.core import words


@pytest.mark.parametrize(
    ("strategy", "params", "external", "said"),
    [
        (
            "search",
            {"iterations": 25, "determinizations": 0, "time_limit": 0.0},
            False,
            "Search bot, 25 iterations a move",
        ),
        (
            "search",
            {"iterations": 300, "time_limit": 1.5},
            False,
            "Search bot, 300 iterations a move, at most 1.5 s a move",
        ),
        ("heuristic", {"caution": 1.0}, False, "Rule-of-thumb bot"),
        ("random", {}, False, "Random bot: picks any legal move"),
        ("", {}, True, "External program"),
    ],
)
def test_how_a_bot_plays(strategy, params, external, said):
    assert words.bot_play_words(strategy, params, external=external) == said


def test_rating_models_end_reasons_and_exact_terms():
    assert words.rating_model_words("BradleyTerryFull") == (
        "Rated by places: each finish counts against every other player at the table"
    )
    assert words.rating_model_words("Elo") == "Rated by places (Elo)"
    assert [words.end_words(reason) for reason in ("normal", "forfeit", "turn_cap", None)] == [
        "Played to the end",
        "Ended by a forfeit",
        "Stopped at the turn limit",
        "Not finished",
    ]
    assert words.exact_terms({"iterations": 25, "rollout": "playout"}) == "iterations=25 rollout=playout"


def test_only_the_options_that_differ_from_the_standard_rules_are_said():
    standard = {"set": "double_nine", "lead_policy": "seed_highest_held", "spinner_arms": 4}
    assert words.option_words("chicken_foot", standard) == []
    changed = {**standard, "lead_policy": "skip_unheld", "spinner_arms": 6}
    assert words.option_words("chicken_foot", changed) == ["Lead policy: skip unheld", "Spinner arms: 6"]
    assert words.option_words("nacho_pile", {"optional_specials": True}) == ["Optional specials: yes"]
