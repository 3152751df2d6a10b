"""The demo bot leagues: one per registered game, started on the scheduled pace, created once."""

from unittest import mock

import pytest
from django_celery_beat.models import PeriodicTask

from games import registry
from league.bots.demo import load_bot_demo
from league.bots.models import BotLeague

pytestmark = pytest.mark.django_db


def test_every_registered_game_gets_a_running_demo_league_once():
    with mock.patch("league.bots.services.leagues.queue_work"):
        first = load_bot_demo()
        second = load_bot_demo()

    games = registry.game_ids()
    assert sorted(league.game_id for league in first if not league.is_ladder) == sorted(games)
    assert [(league.name, league.status, league.pace) for league in first if league.is_ladder] == [
        ("Demo ladder: Nacho Pile", "running", "scheduled")
    ]
    assert second == []
    leagues = BotLeague.objects.all()
    assert {league.status for league in leagues} == {"running"}
    assert {league.current_round for league in leagues} == {1}
    tasks = PeriodicTask.objects.filter(task="league.bots.tasks.league_tick_task", enabled=True)
    assert sorted(task.args for task in tasks) == sorted(f"[{league.pk}]" for league in leagues)
