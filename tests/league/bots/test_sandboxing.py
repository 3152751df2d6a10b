"""The worker's side of the sandbox, without running a program: a worker that did not prove its sandbox
leaves external programs' fixtures to one that did (never a silent fallback), a sandbox that cannot be had
hands the batch back at once (no seat forfeits for it), and a lease is renewed while a slow batch plays."""

from pathlib import Path
from unittest import mock

import pytest
from django.utils import timezone

from league.bots.models import BotLeague, Fixture
from league.bots.sandbox_selectors import sandbox_status
from league.bots.services.definitions import bot_register
from league.bots.services.leagues import league_start
from league.bots.services.leases import leases_reap
from league.bots.services.work import work_play
from league.matches.models import Match
from league.programs.models import WorkerProbe
from league.programs.probe import PROTECTIONS, ProbeResult
from league.programs.sandbox import Sandbox, SandboxConfig
from league.results.models import ResultVersion
from tests.league.bots.conftest import make_bots, make_league

PROGRAMS = Path(__file__).parent / "programs"


@pytest.fixture
def no_broker():
    with mock.patch("league.bots.services.leagues.queue_work"):
        yield


def verdict(*failed: str) -> ProbeResult:
    return ProbeResult(
        proven={name: name not in failed for name in PROTECTIONS},
        detail={name: "it got through" if name in failed else "held" for name in PROTECTIONS},
    )


def league_with_a_program(staff, **settings):
    program = bot_register(
        name="Program",
        game_id="nacho_pile",
        kind="external",
        command=["/usr/bin/python3", str(PROGRAMS / "first_legal.py")],
        by=staff,
    )
    bots = [
        *make_bots(staff, (("Dice", "random", {}), ("Plain", "random", {}), ("Odd", "random", {}))),
        program,
    ]
    league = make_league(staff, bots, table_size=2, target_value=1, sittings_per_round=2, **settings)
    league_start(league_id=league.pk)
    return league


def external_fixtures(league) -> list[Fixture]:
    return [
        fixture
        for fixture in Fixture.objects.filter(league=league).prefetch_related(
            "match__seats__player__bot_definition"
        )
        if any(seat.player.bot_definition.is_external for seat in fixture.match.seats.all())
    ]


@pytest.mark.django_db
def test_a_worker_that_did_not_prove_its_sandbox_leaves_the_programs_fixtures_waiting(staff, no_broker):
    league = league_with_a_program(staff)
    waiting = external_fixtures(league)

    with mock.patch("league.programs.sandboxing.verdict", return_value=verdict("no_host_sockets")):
        stored = work_play(league_id=league.pk, worker="host:1", node="celery@leaky")

    assert (stored, len(waiting)) == (
        2,
        2,
    )  # two tables of two per sitting, two sittings: half have the program
    assert [fixture.done for fixture in external_fixtures(league)] == [False, False]
    assert Fixture.objects.filter(league=league, done=True).count() == 2
    probe = WorkerProbe.objects.get()
    assert (probe.worker, probe.isolated, probe.proven["no_host_sockets"]) == ("celery@leaky", False, False)
    status = sandbox_status(league)
    assert (status.waiting, status.isolated, status.ok) == (2, [], False)
    assert status.message.startswith("2 matches with an external program wait for a worker that has proved")
    assert BotLeague.objects.get(pk=league.pk).status == "running"


@pytest.mark.django_db
def test_a_sandbox_that_cannot_be_had_hands_the_batch_back_and_no_seat_forfeits(staff, no_broker):
    league = league_with_a_program(staff)
    no_slots = Sandbox(SandboxConfig(users=()))

    with (
        mock.patch("league.programs.sandboxing.verdict", return_value=verdict()),
        mock.patch("league.programs.sandboxing.sandbox", return_value=no_slots),
        mock.patch("league.bots.services.work.logger") as logger,
    ):
        work_play(league_id=league.pk, worker="host:1")

    waiting = external_fixtures(league)
    assert [(f.done, f.lease_token, f.lease_expires_at) for f in waiting] == [(False, "", None)] * 2
    assert {f.match.status for f in waiting} == {Match.Status.SCHEDULED}
    assert not ResultVersion.objects.filter(match__in=[f.match for f in waiting]).exists()
    logger.error.assert_called_once()
    assert (
        "no sandbox to be had: no slot user exists"
        in logger.error.call_args[0][0] % logger.error.call_args[0][1:]
    )


@pytest.mark.django_db(transaction=True)
def test_a_lease_is_renewed_while_a_slow_batch_plays_so_the_reaper_leaves_it(staff, no_broker):
    bots = make_bots(staff, (("Dozy", "sleepy", {"seconds": 0.03}), ("Drowsy", "sleepy", {"seconds": 0.03})))
    league = make_league(
        staff,
        bots,
        table_size=2,
        target_value=1,
        sittings_per_round=3,
        batch_size=3,
        commit_every=1,
        lease_seconds=2,
    )
    league_start(league_id=league.pk)
    handed_back = []

    def reap(stored: int) -> None:
        handed_back.append(leases_reap(now=timezone.now()))

    started = timezone.now()
    assert work_play(league_id=league.pk, worker="slow", on_stored=reap) == 3
    took = (timezone.now() - started).total_seconds()

    assert handed_back == [0, 0, 0]
    assert took > league.lease_seconds  # the batch outlived its lease: only its renewal kept it
    assert Fixture.objects.filter(league=league, attempts=1, done=True).count() == 3
