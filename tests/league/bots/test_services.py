"""Bot and league services, run in-process (the task bodies called directly; the worker tests run Celery)."""

import sys
from datetime import timedelta
from pathlib import Path
from unittest import mock

import pytest
from django.utils import timezone

from games.core.replay import replay
from league.bots.models import BotDefinition, BotLeague, Fixture
from league.bots.services.definitions import bot_register, bot_revise
from league.bots.services.leagues import PLAY_TASK, TICK_TASK, league_pause, league_start
from league.bots.services.leases import Kind, Played, league_kind, leases_claim, leases_reap, leases_store
from league.bots.services.work import work_play
from league.bots.tasks import league_play_task, league_tick_task
from league.celery import app
from league.core.errors import Forbidden, NotFound, UserError
from league.matches.models import Match
from league.programs.models import ProgramLog
from league.ratings.models import Rating
from league.ratings.services import pool_differences
from league.results.models import ResultVersion
from tests.league.bots.conftest import make_bots, make_league

PROGRAMS = Path(__file__).parent / "programs"
pytestmark = pytest.mark.django_db


def final_ratings(league):
    return {
        r.player.name: (r.mu, r.sigma, r.matches)
        for r in Rating.objects.filter(pool=league.rating_pool).select_related("player")
    }


def test_a_league_runs_to_its_target_and_every_match_replays(staff):
    league = make_league(staff, make_bots(staff))
    league_start(league_id=league.pk)

    stored = work_play(league_id=league.pk, worker="test")

    league.refresh_from_db()
    assert league.status == BotLeague.Status.FINISHED
    assert (league.current_round, stored) == (3, 12)  # 3 rounds x 2 sittings x 2 tables of 3
    assert sorted(m for _, _, m in final_ratings(league).values()) == [6] * 6
    assert pool_differences(league.rating_pool) == []
    for match in Match.objects.filter(bot_fixture__league=league):
        record = match.record_json()
        assert replay(record).is_terminal()
        assert [seat.place for seat in match.seats.order_by("seat")] == record["outcome"]["places"]
    assert (
        ResultVersion.objects.filter(match__bot_fixture__league=league, entered_by=None, version=1).count()
        == 12
    )


def test_the_same_seed_and_bots_give_the_same_league(staff):
    bots = make_bots(staff)
    first = make_league(staff, bots, name="First")
    second = make_league(staff, bots, name="Second")
    for league in (first, second):
        league_start(league_id=league.pk)
        work_play(league_id=league.pk, worker="test")

    def records(league):
        return [f.match.record_json() for f in Fixture.objects.filter(league=league).select_related("match")]

    assert records(first) == records(second)
    assert final_ratings(first) == final_ratings(second)


def test_running_the_work_again_stores_nothing_twice(staff):
    league = make_league(staff, make_bots(staff))
    league_start(league_id=league.pk)
    work_play(league_id=league.pk, worker="first")

    assert work_play(league_id=league.pk, worker="second") == 0
    assert ResultVersion.objects.filter(match__bot_fixture__league=league).count() == 12


def test_a_store_under_a_lease_that_was_handed_back_is_refused(staff):
    league = make_league(staff, make_bots(staff))
    league_start(league_id=league.pk)
    league = BotLeague.objects.get(pk=league.pk)
    claimed = leases_claim(
        league_kind(league),
        owner_id=league.pk,
        seconds=league.lease_seconds,
        token="dead-worker",
        limit=3,
        least=3,
    )

    handed_back = leases_reap(now=timezone.now() + timedelta(seconds=league.lease_seconds + 1))
    fixture = Fixture.objects.select_related("match").get(pk=claimed[0].id)
    record = {"seats": [{}, {}, {}], "outcome": {"places": [1, 2, 3], "scores": [5, 3, 1]}}
    stored = leases_store(
        Kind.LEAGUE,
        pool_id=league.rating_pool_id,
        token="dead-worker",
        played=[Played(fixture.pk, fixture.match_id, record, 0.1)],
    )

    assert (handed_back, stored) == (3, 0)
    assert fixture.match.status == Match.Status.SCHEDULED
    assert Fixture.objects.filter(pk__in=[fixture.id for fixture in claimed], lease_token="").count() == 3


def test_a_paused_league_plays_nothing_until_resumed(staff):
    league = make_league(staff, make_bots(staff))
    league_start(league_id=league.pk)
    league_pause(league_id=league.pk)

    assert work_play(league_id=league.pk, worker="test") == 0
    league_start(league_id=league.pk)
    assert work_play(league_id=league.pk, worker="test") == 12


def test_bots_that_raise_or_answer_illegal_moves_forfeit(staff):
    bots = make_bots(staff, (("Faller", "raises", {}), ("Cheater", "illegal", {}), ("Plain", "random", {})))
    league = make_league(staff, bots, target_value=1, sittings_per_round=1)
    league_start(league_id=league.pk)
    work_play(league_id=league.pk, worker="test")

    (fixture,) = Fixture.objects.filter(league=league).select_related("match")
    record = fixture.match.record_json()
    names = [seat.player.name for seat in fixture.match.seats.order_by("seat")]
    reasons = {names[f["seat"]]: f["reason"] for f in record["end"]["forfeits"]}
    assert reasons == {"Faller": "crashed", "Cheater": "illegal_action"}
    places = dict(zip(names, record["outcome"]["places"], strict=True))
    assert places == {"Plain": 1, "Faller": 2, "Cheater": 2}
    logs = {
        log.bot.name: (log.seat, log.forfeit, log.detail, log.output)
        for log in ProgramLog.objects.filter(match=fixture.match).select_related("bot")
    }
    assert logs == {
        "Faller": (
            names.index("Faller"),
            "crashed",
            "At decision 1, the bot raised RuntimeError: the bot fell over",
            "",
        ),
        "Cheater": (
            names.index("Cheater"),
            "illegal_action",
            "At decision 1, the bot played an illegal action 'fly away'",
            "",
        ),
    }


def test_only_staff_register_external_programs(staff, member):
    command = [sys.executable, str(PROGRAMS / "first_legal.py")]

    with pytest.raises(Forbidden, match="only staff can register external programs"):
        bot_register(name="Mine", game_id="nacho_pile", kind="external", command=command, by=member)
    bot = bot_register(name="Mine", game_id="nacho_pile", kind="external", command=command, by=staff)

    assert (bot.kind, bot.command, bot.player.kind) == ("external", command, "bot")
    assert BotDefinition.objects.count() == 1


def test_a_bot_that_has_played_changes_only_as_a_new_version(staff):
    bots = make_bots(staff)
    careful = bots[1]
    edited = bot_revise(bot=careful, by=staff, params={"caution": 2.0})
    assert (edited.pk, edited.version, edited.params) == (careful.pk, 1, {"caution": 2.0})

    league = make_league(staff, bots)
    league_start(league_id=league.pk)
    revised = bot_revise(bot=careful, by=staff, params={"caution": 2.5})

    careful.refresh_from_db()
    assert careful.params == {"caution": 2.0}
    assert (revised.version, revised.previous_id, revised.params, revised.player.name) == (
        2,
        careful.pk,
        {"caution": 2.5},
        "Careful v2",
    )


def test_bad_definitions_are_refused_with_a_clear_message(staff):
    with pytest.raises(UserError, match="unknown bot 'genius' for nacho_pile"):
        bot_register(name="X", game_id="nacho_pile", kind="builtin", strategy="genius", by=staff)
    with pytest.raises(UserError, match="option caution: 11.0 is above the maximum 10"):
        bot_register(
            name="X",
            game_id="nacho_pile",
            kind="builtin",
            strategy="heuristic",
            params={"caution": 11},
            by=staff,
        )
    with pytest.raises(UserError, match="no executable program 'not-a-bot' on this machine"):
        bot_register(name="X", game_id="nacho_pile", kind="external", command="not-a-bot --x", by=staff)
    bots = make_bots(staff)
    with pytest.raises(UserError, match="Nacho Pile takes 2 to 6 players with these options, not 7"):
        make_league(staff, bots, table_size=7)


def test_claims_leave_half_of_what_is_left_to_the_other_workers(staff):
    league = make_league(staff, make_bots(staff), sittings_per_round=4)  # 8 matches a round
    league_start(league_id=league.pk)
    league = BotLeague.objects.get(pk=league.pk)

    sizes = [
        len(
            leases_claim(
                league_kind(league),
                owner_id=league.pk,
                seconds=league.lease_seconds,
                token=f"worker-{n}",
                limit=5,
                least=1,
            )
        )
        for n in range(5)
    ]

    assert sizes == [4, 2, 1, 1, 0]


def test_work_past_its_time_hands_on_to_a_new_task(staff):
    league = make_league(staff, make_bots(staff))
    league_start(league_id=league.pk)

    with mock.patch("league.bots.services.work.queue_work") as queue:
        stored = work_play(league_id=league.pk, worker="test", max_seconds=-1)

    assert stored == 0
    queue.assert_called_once_with(league.pk, 1)
    assert BotLeague.objects.get(pk=league.pk).status == "running"


def test_work_is_queued_by_the_tasks_registered_names(staff, django_capture_on_commit_callbacks):
    league = make_league(staff, make_bots(staff), batch_size=1)

    with (
        mock.patch.object(league_play_task, "apply_async") as send,
        django_capture_on_commit_callbacks(execute=True),
    ):
        league_start(league_id=league.pk)
        assert send.call_count == 0  # not before the commit

    assert [call.args[0] for call in send.call_args_list] == [
        (league.pk,)
    ] * 4  # a task per fixture of round 1
    assert (app.tasks[PLAY_TASK].name, app.tasks[TICK_TASK].name) == (
        league_play_task.name,
        league_tick_task.name,
    )


def test_the_pool_applies_the_league_in_schedule_order(staff):
    league = make_league(staff, make_bots(staff))
    league_start(league_id=league.pk)
    work_play(league_id=league.pk, worker="test")

    by_schedule = list(
        Fixture.objects.filter(league=league).order_by("position").values_list("match_id", flat=True)
    )
    by_pool = list(
        Match.objects.filter(rating_pool=league.rating_pool)
        .order_by(*league.rating_pool.match_order())
        .values_list("id", flat=True)
    )
    assert by_pool == by_schedule
    assert (
        len(set(Match.objects.filter(rating_pool=league.rating_pool).values_list("played_at", flat=True)))
        == 12
    )


@pytest.mark.postgres
def test_a_worker_session_commits_without_waiting_for_the_disk(db):
    from django.db import connection, connections
    from django.test.utils import CaptureQueriesContext

    from league.bots.services.leases import _relax_commit, relax_session_commits

    def setting():
        with connection.cursor() as cursor:
            cursor.execute("SHOW synchronous_commit")
            return cursor.fetchone()[0]

    assert setting() == "on"
    relax_session_commits(connection=connections["default"])
    try:
        with CaptureQueriesContext(connection) as queries:
            _relax_commit()
        assert setting() == "off"
        assert len(queries) == 0  # the session already relaxes every commit: nothing to set per transaction
    finally:
        with connection.cursor() as cursor:
            cursor.execute("SET synchronous_commit TO ON")
        del connections["default"].relaxed_commits


def test_starting_or_pausing_a_missing_league_is_not_found(db):
    for control in (league_start, league_pause):
        with pytest.raises(NotFound, match="no bot league with id 4040"):
            control(league_id=4040)
