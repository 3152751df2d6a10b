"""A bot that forfeits every rated match leaves the ladder after `withdraw_after_forfeits` in a row (an
entry-log event, so the schedule still replays) and its author is told; the first forfeit of a run is told,
the rest of the run is not, one by one."""

import pytest
from celery.canvas import Signature
from django.test import Client
from rest_framework.test import APIClient

from league.bots.matchmaking import ladder_members
from league.bots.models import LadderEvent, LeagueEntry
from league.bots.services.definitions import bot_register
from league.bots.services.ladders import ladder_enter
from league.bots.services.leagues import ladder_log, league_start
from league.bots.services.work import work_play
from league.celery import app
from league.notifications.models import Notification
from tests.league.bots.test_ladders import (
    make_ladder,
    play_rounds,
    schedule_bytes_from_the_database,
    schedule_bytes_replayed,
)


@pytest.fixture
def eager(monkeypatch):
    """Notification tasks run at once in this process; no task queued by name (play, rate, verify) is sent."""
    monkeypatch.setattr(Signature, "delay", lambda self, *args, **kwargs: None)  # tasks queued by name
    before = (app.conf.task_always_eager, app.conf.task_eager_propagates)
    app.conf.task_always_eager, app.conf.task_eager_propagates = True, True
    yield
    app.conf.task_always_eager, app.conf.task_eager_propagates = before


def test_the_crashing_bot_is_withdrawn_after_5_forfeits_in_a_row_and_its_author_told(
    staff, member, eager, django_capture_on_commit_callbacks
):
    ladder = make_ladder(staff)
    assert ladder.withdraw_after_forfeits == 5
    crasher = bot_register(name="Crasher", game_id="nacho_pile", kind="builtin", strategy="raises", by=member)
    others = [
        bot_register(name=name, game_id="nacho_pile", kind="builtin", strategy="random", by=staff)
        for name in ("Alpha", "Beta", "Gamma")
    ]
    for bot in [crasher, *others]:
        ladder_enter(ladder_id=ladder.pk, bot_id=bot.pk, by=staff)
    league_start(league_id=ladder.pk)
    with django_capture_on_commit_callbacks(execute=True):
        work_play(league_id=ladder.pk, worker="test")  # round 1, drawn by the start
        play_rounds(ladder, 3)  # 4 rounds of 2 sittings at a table of 3: it sat at 5 tables or more
    entry = LeagueEntry.objects.get(league=ladder, bot=crasher)
    assert entry.forfeit_streak == crasher.player.seats.count() >= 5
    leave = LadderEvent.objects.get(league=ladder, bot=crasher, action="leave")
    assert leave.reason == "withdrawn: forfeited 5 rated matches in a row"
    ladder.refresh_from_db()
    assert crasher.pk not in ladder_members(ladder_log(ladder), ladder.fixtures.count())
    notes = list(Notification.objects.filter(user=member).order_by("pk").values_list("kind", "text", "link"))
    first_match = notes[0][1].split("rated match ")[1].split(" ")[0]
    assert notes == [
        (
            "bot_forfeited",
            f"Crasher forfeited rated match {first_match} in Nacho ladder: its logs say why. Further "
            "forfeits in a row are not told one by one; after 5 in a row the ladder withdraws it.",
            f"/bots/bots/{crasher.pk}/logs/",
        ),
        (
            "bot_forfeited",
            "Crasher forfeited 5 rated matches in a row in Nacho ladder and was withdrawn from it: its logs "
            "say why; upload a corrected version, which takes its place.",
            f"/bots/bots/{crasher.pk}/",
        ),
    ]
    assert not Notification.objects.exclude(user=member).filter(kind="bot_forfeited").exists()
    # The ladder still replays from its seed and log, the withdrawal included.
    play_rounds(ladder, 1)
    assert schedule_bytes_from_the_database(ladder) == schedule_bytes_replayed(ladder)
    page = Client().get(f"/bots/ladders/{ladder.pk}/").content.decode()
    assert "withdrawn: forfeited 5 rated matches in a row" in page


def test_a_match_played_through_ends_the_run_and_0_never_withdraws(staff, member):
    ladder = make_ladder(staff, withdraw_after_forfeits=0)
    crasher = bot_register(name="Crasher", game_id="nacho_pile", kind="builtin", strategy="raises", by=member)
    alpha, beta = (
        bot_register(name=name, game_id="nacho_pile", kind="builtin", strategy="random", by=staff)
        for name in ("Alpha", "Beta")
    )
    for bot in (crasher, alpha, beta):
        ladder_enter(ladder_id=ladder.pk, bot_id=bot.pk, by=staff)
    LeagueEntry.objects.filter(league=ladder, bot=alpha).update(forfeit_streak=3)
    league_start(league_id=ladder.pk)
    work_play(league_id=ladder.pk, worker="test")
    play_rounds(ladder, 2)
    streaks = dict(LeagueEntry.objects.filter(league=ladder).values_list("bot_id", "forfeit_streak"))
    assert streaks == {crasher.pk: 6, alpha.pk: 0, beta.pk: 0}
    assert not LadderEvent.objects.filter(league=ladder, action="leave").exists()


def test_the_api_sets_a_ladders_withdrawal_after_forfeits_and_refuses_a_bad_count(staff):
    client = APIClient()
    client.force_authenticate(staff)
    body = {"name": "Strict ladder", "game": "nacho_pile", "table_size": 2, "withdraw_after_forfeits": 3}
    created = client.post("/api/ladders/", body, format="json")
    assert created.status_code == 201
    assert created.json()["withdraw_after_forfeits"] == 3
    refused = client.post(
        "/api/ladders/", {**body, "name": "Other", "withdraw_after_forfeits": -1}, format="json"
    )
    assert refused.status_code == 400
    assert refused.json()["errors"][0]["field"] == "withdraw_after_forfeits"
