"""Bot leagues played by real Celery worker processes on PostgreSQL (never eager mode).

The same league (seed and bots) must end with bit-identical ratings whatever the number of worker processes,
and after a worker is killed with SIGKILL in the middle of a batch.
"""

from contextlib import contextmanager
from datetime import timedelta
from pathlib import Path

import pytest
from django.db.models import Count
from django.utils import timezone

from league.bots.models import BotLeague, Fixture
from league.bots.services.definitions import bot_register
from league.bots.services.leagues import league_start
from league.bots.services.leases import leases_reap
from league.programs.models import ProgramLog
from league.programs.sandbox import processes_of
from league.programs.sandboxing import sandbox
from league.ratings.models import Rating
from league.ratings.services import pool_differences
from league.results.models import ResultVersion
from tests.league.bots.conftest import make_bots, make_league
from tests.league.bots.workers import Worker, wait_until

PROGRAMS = Path(__file__).parent / "programs"
PYTHON = "/usr/bin/python3"
pytestmark = [pytest.mark.postgres, pytest.mark.worker, pytest.mark.django_db(transaction=True)]

SIX_BOTS = (
    ("Random", "random", {}),
    ("Careful", "heuristic", {"caution": 1.5}),
    ("Daring", "heuristic", {"caution": 0.5}),
    ("Dozy", "sleepy", {"seconds": 0.002}),
    ("Drowsy", "sleepy", {"seconds": 0.003}),
    ("Sleepy", "sleepy", {"seconds": 0.004}),
)


@contextmanager
def running(name: str, processes: int):
    worker = Worker(name, processes)
    try:
        yield worker
    finally:
        worker.stop()


def slot_processes() -> list:
    return [process for user in sandbox().slot_users() for process in processes_of(user.uid)]


def status(league) -> str:
    return BotLeague.objects.values_list("status", flat=True).get(pk=league.pk)


def outcome(league) -> tuple[dict, list]:
    ratings = {
        r.player.name: (r.mu, r.sigma, r.matches)
        for r in Rating.objects.filter(pool=league.rating_pool).select_related("player")
    }
    records = [f.match.record_json() for f in Fixture.objects.filter(league=league).select_related("match")]
    return ratings, records


def play_to_the_end(league, worker_name: str, processes: int) -> tuple[dict, list]:
    with running(worker_name, processes):
        league_start(league_id=league.pk)
        wait_until(lambda: status(league) == "finished", f"{league.name} finishes")
    return outcome(league)


def test_a_league_of_six_bots_ends_with_the_same_ratings_on_one_and_two_worker_processes(staff):
    bots = make_bots(staff, SIX_BOTS)
    settings = {"target_value": 4, "sittings_per_round": 3, "batch_size": 3, "commit_every": 1}
    one = make_league(staff, bots, name="One process", **settings)
    two = make_league(staff, bots, name="Two processes", **settings)

    ratings_one, records_one = play_to_the_end(one, "one", 1)
    ratings_two, records_two = play_to_the_end(two, "two", 2)

    assert len(records_one) == 24  # 4 rounds x 3 sittings x 2 tables of 3
    assert sorted(matches for _, _, matches in ratings_one.values()) == [12] * 6
    assert ratings_two == ratings_one
    assert records_two == records_one
    assert pool_differences(two.rating_pool) == []
    one.refresh_from_db()
    assert (one.current_round, one.status) == (4, "finished")


def test_a_worker_killed_mid_batch_leaves_every_match_played_once_and_the_same_ratings(staff):
    bots = make_bots(staff, SIX_BOTS)
    settings = {
        "target_value": 2,
        "sittings_per_round": 3,
        "batch_size": 6,
        "commit_every": 1,
        "lease_seconds": 2,
    }
    reference = make_league(staff, bots, name="Undisturbed", **settings)
    ratings_reference, records_reference = play_to_the_end(reference, "reference", 1)
    league = make_league(staff, bots, name="Disturbed", **settings)

    doomed = Worker("doomed", 1)
    try:
        league_start(league_id=league.pk)

        def mid_batch() -> bool:
            for token in (
                Fixture.objects.filter(league=league, done=False)
                .exclude(lease_token="")
                .values_list("lease_token", flat=True)
            ):
                if Fixture.objects.filter(league=league, played_by=token).exists():
                    return True
            return False

        wait_until(mid_batch, "the worker has stored part of a batch")
    finally:
        doomed.kill()
    stored_before = Fixture.objects.filter(league=league, done=True).count()

    with running("rescuer", 1):
        polls = iter(range(10**6))

        def reaped_and_finished() -> bool:
            if next(polls) % 10 == 0:  # the periodic reaper, once a second
                leases_reap()
            return status(league) == "finished"

        wait_until(reaped_and_finished, "the reaper hands the batch back and another worker finishes")

    ratings, records = outcome(league)
    assert 0 < stored_before < 12
    assert Fixture.objects.filter(league=league, attempts__gte=2).exists()
    per_match = (
        ResultVersion.objects.filter(match__bot_fixture__league=league)
        .values("match")
        .annotate(n=Count("id"))
    )
    assert sorted(row["n"] for row in per_match) == [1] * 12
    assert ratings == ratings_reference
    assert records == records_reference


@pytest.mark.sandbox
def test_a_worker_killed_while_its_programs_play_hands_its_batch_back_within_the_lease_and_leaves_nothing(
    staff,
):
    program = bot_register(
        name="Program",
        game_id="nacho_pile",
        kind="external",
        command=[PYTHON, str(PROGRAMS / "first_legal.py")],
        move_seconds=5,
        by=staff,
    )
    bots = [*make_bots(staff, SIX_BOTS[2:]), program]
    settings = {
        "target_value": 2,
        "sittings_per_round": 3,
        "batch_size": 5,
        "commit_every": 1,
        "lease_seconds": 3,
    }
    reference = make_league(staff, bots, name="Undisturbed", **settings)
    ratings_reference, records_reference = play_to_the_end(reference, "reference", 1)
    league = make_league(staff, bots, name="Disturbed", **settings)

    doomed = Worker("doomed", 1)
    try:
        league_start(league_id=league.pk)

        def programs_running_mid_batch() -> bool:
            stored = Fixture.objects.filter(league=league, done=True).exists()
            return (
                stored
                and bool(slot_processes())
                and Fixture.objects.filter(league=league, done=False).exclude(lease_token="").exists()
            )

        wait_until(
            programs_running_mid_batch, "the worker has stored part of a batch and a program is running"
        )
    finally:
        doomed.kill()
    killed_at = timezone.now()
    leases = list(
        Fixture.objects.filter(league=league, done=False)
        .exclude(lease_token="")
        .values_list("lease_expires_at", flat=True)
    )
    stored_before = Fixture.objects.filter(league=league, done=True).count()
    # --die-with-parent: the sandboxes die with their worker, whatever their programs were doing.
    wait_until(lambda: not slot_processes(), "the killed worker's sandboxes are gone")

    with running("rescuer", 1):
        polls = iter(range(10**6))

        def reaped_and_finished() -> bool:
            if next(polls) % 10 == 0:  # the periodic reaper, once a second
                leases_reap()
            return status(league) == "finished"

        wait_until(reaped_and_finished, "the reaper hands the batch back and another worker finishes")

    ratings, records = outcome(league)
    assert leases and max(leases) <= killed_at + timedelta(seconds=league.lease_seconds)
    assert 0 < stored_before < len(records)
    per_match = (
        ResultVersion.objects.filter(match__bot_fixture__league=league)
        .values("match")
        .annotate(n=Count("id"))
    )
    assert sorted(row["n"] for row in per_match) == [1] * len(records)
    assert ratings == ratings_reference
    assert records == records_reference


@pytest.mark.sandbox
def test_bots_that_raise_answer_illegally_or_hang_forfeit_and_the_league_goes_on(staff):
    bots = make_bots(staff, (("Faller", "raises", {}), ("Cheater", "illegal", {}), ("Plain", "random", {})))
    hanger = bot_register(
        name="Hanger",
        game_id="nacho_pile",
        kind="external",
        command=[PYTHON, str(PROGRAMS / "hangs.py")],
        move_seconds=0.2,
        time_bank_seconds=0.5,
        by=staff,
    )
    league = make_league(
        staff, [*bots, hanger], name="Faults", table_size=4, target_value=2, sittings_per_round=1
    )

    play_to_the_end(league, "faults", 1)

    fixtures = list(Fixture.objects.filter(league=league).select_related("match").order_by("position"))
    assert len(fixtures) == 2
    for fixture in fixtures:
        record = fixture.match.record_json()
        names = [seat.player.name for seat in fixture.match.seats.order_by("seat")]
        reasons = {names[f["seat"]]: f["reason"] for f in record["end"]["forfeits"]}
        assert reasons == {"Faller": "crashed", "Cheater": "illegal_action", "Hanger": "timeout"}
        assert dict(zip(names, record["outcome"]["places"], strict=True)) == {
            "Plain": 1,
            "Faller": 2,
            "Cheater": 2,
            "Hanger": 2,
        }
        details = dict(ProgramLog.objects.filter(match=fixture.match).values_list("bot__name", "detail"))
        assert details == {
            "Faller": "At decision 1, the bot raised RuntimeError: the bot fell over",
            "Cheater": "At decision 1, the bot played an illegal action 'fly away'",
            "Hanger": "At decision 1, your program gave no answer within 5.2 s and the 0.500 s left in its "
            "time bank (killed): 0.2 s a move, and 5 s more for the first answer (the program's start-up)",
        }
