"""Bot-league fixtures: users, and a league of built-in Nacho Pile bots."""

import pytest
from django.contrib.auth import get_user_model

import tests.league.bots.faulty_bots  # noqa: F401 - registers the test-only bots
from league.bots.services.definitions import bot_register
from league.bots.services.leagues import league_create

NACHO_BOTS = (
    ("Random", "random", {}),
    ("Careful", "heuristic", {"caution": 1.5}),
    ("Balanced", "heuristic", {"caution": 1.0}),
    ("Daring", "heuristic", {"caution": 0.5}),
    ("Reckless", "heuristic", {"caution": 0.2}),
    ("Timid", "heuristic", {"caution": 3.0}),
)


@pytest.fixture
def staff(db):
    return get_user_model().objects.create_user("operator", password="pw-operator-1", is_staff=True)


@pytest.fixture
def member(db):
    return get_user_model().objects.create_user("member", password="pw-member-1")


def make_bots(by, specs=NACHO_BOTS, game_id="nacho_pile"):
    return [
        bot_register(name=name, game_id=game_id, kind="builtin", strategy=strategy, params=params, by=by)
        for name, strategy, params in specs
    ]


def make_league(by, bots, **overrides):
    settings = {
        "name": "Nacho season",
        "game_id": "nacho_pile",
        "bot_ids": [bot.pk for bot in bots],
        "table_size": 3,
        "target_kind": "rounds",
        "target_value": 3,
        "sittings_per_round": 2,
        "seed": 2024,
        "batch_size": 5,
        "commit_every": 2,
    }
    settings.update(overrides)
    return league_create(by=by, **settings)


def league_page_form(bots, **changes):
    """What the new-league page posts for a two-seat league of `bots` (ids), with `changes`."""
    form = {
        "name": "Spring",
        "game": "nacho_pile",
        "bots": list(bots),
        "table_size": 2,
        "target_kind": "rounds",
        "target_value": 2,
        "sittings_per_round": 1,
        "seed": 3,
        "pace": "fast",
        "interval_seconds": 60,
    }
    form.update(changes)
    return form
