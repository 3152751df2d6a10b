"""Every write that changes what a tournament's public pages show bumps its public-state version
(`Tournament.public_version`) in the same transaction (some, made of audited steps, count more than one);
a refused write leaves it as it was.

The lists are kept beside the bump (`league.tournaments.services.common`): `PUBLIC_WRITES`, each with a
scenario here in `CHANGES` that runs it; `PUBLIC_WRITE_STEPS` (a part of a listed write, which bumps);
`PRIVATE_WRITES` (no public page shows them) and `NOT_WRITES` (checks, reads and helpers). A new service in
none of them, or a public write without a scenario, fails `test_every_service_is_listed`."""

import importlib
import inspect
import pkgutil

import pytest

from league.core.errors import UserError
from league.players.services import player_update
from league.tournaments import services
from league.tournaments.models import Registration, Tournament
from league.tournaments.services import BatchEntry, floor, seating
from league.tournaments.services.common import (
    NOT_WRITES,
    PRIVATE_WRITES,
    PUBLIC_WRITE_STEPS,
    PUBLIC_WRITES,
)
from league.tournaments.services.tables import table_record
from tests.factories import UserFactory
from tests.factories import tournaments as helpers


def version(tournament: Tournament) -> int:
    return Tournament.objects.values_list("public_version", flat=True).get(pk=tournament.pk)


def started(organizer, count=4, **settings):
    """A started 2-seat Swiss of `count` players (Ada, Bea, ...), unrated."""
    values = {"table_size": 2, "rounds": 3, "rated": False, **settings}
    return helpers.make_tournament(organizer, count, **values)[0]


def draft(organizer, **settings):
    tournament = started(organizer, **settings)
    return tournament, services.round_generate(tournament=tournament, by=organizer)


def published(organizer, **settings):
    tournament, round_row = draft(organizer, **settings)
    services.round_publish(round_row=round_row, by=organizer)
    return tournament, round_row


def first_table(round_row):
    return round_row.tables.order_by("number").select_related("match")[0]


def seats_of(table) -> list[int]:
    return list(table.match.seats.order_by("seat").values_list("player_id", flat=True))


def timed(organizer):
    tournament, round_row = published(organizer)
    services.round_timer_start(round_row=round_row, by=organizer, minutes=50)
    return tournament, round_row


def self_reported(organizer):
    """A self-report Swiss of 2 players at one table with accounts "ada" and "bea"; round 1 published."""
    tournament, round_row = published(organizer, count=2, rounds=1, result_reporting="self_report")
    users = {}
    for registration in tournament.registrations.select_related("player"):
        user = UserFactory(username=registration.player.name.lower())
        type(registration.player).objects.filter(pk=registration.player_id).update(user=user)
        users[registration.player.name] = user
    return tournament, first_table(round_row), users


def reported(organizer):
    tournament, table, users = self_reported(organizer)
    report = services.table_report(table=table, by=users["Ada"], expected_version=0, places=[1, 2])
    return tournament, table, users, report


def signup(organizer, **settings):
    return helpers.open_signup(organizer, **settings)


def checkin_open(organizer):
    schedule = {
        "time_zone": "Europe/Berlin",
        "starts_at": "2099-12-05 10:00",
        "checkin_opens_at": "2020-01-01 09:00",
    }
    tournament = signup(organizer, schedule=schedule)
    ada = helpers.players_named(["Ada"])[0]
    services.registration_add(tournament=tournament, by=organizer, player_id=ada.pk)
    return tournament, ada


def invited(organizer):
    tournament = signup(organizer)
    bea = helpers.user_with_player("bea")
    services.registration_invite(tournament=tournament, by=organizer, username="bea")
    return tournament, bea


def joined(organizer, **settings):
    tournament = signup(organizer, **settings)
    ada = helpers.user_with_player("ada")
    services.registration_join(tournament=tournament, by=ada)
    return tournament, ada


def byes(organizer):
    ada = helpers.user_with_player("ada")
    tournament = started(organizer, count=8)
    return tournament, ada


def not_started(organizer):
    return started(organizer, start=False)


def created(organizer):
    return services.tournament_create(
        created_by=organizer, name="Open Day", game_id="nacho_pile", format="swiss", table_size=2, rounds=2
    )


def _table_result(organizer):
    tournament, round_row = published(organizer)
    table = first_table(round_row)
    return tournament, lambda: services.table_result(
        table=table, by=organizer, expected_version=0, places=[1, 2]
    )


def _table_record(organizer):
    tournament, round_row = published(organizer)
    table = first_table(round_row)
    return tournament, lambda: table_record(table=table, by=organizer, expected_version=0, places=[2, 1])


def _correction(organizer):
    tournament, round_row = published(organizer)
    table = first_table(round_row)
    services.table_result(table=table, by=organizer, expected_version=0, places=[1, 2])
    return tournament, lambda: services.table_result(
        table=table, by=organizer, expected_version=1, places=[2, 1], reason="typo"
    )


def _table_close(organizer):
    tournament, round_row = published(organizer)
    table = first_table(round_row)
    return tournament, lambda: services.table_close(
        table=table, by=organizer, absent=seats_of(table)[:1], kind="no_show"
    )


def _round_swap(organizer):
    tournament, round_row = draft(organizer)
    return tournament, lambda: services.round_swap(
        round_row=round_row, by=organizer, first_table=1, first_seat=1, second_table=2, second_seat=1
    )


def _round_move(organizer):
    tournament, round_row = draft(organizer, count=7, table_size=3, leftovers="long")
    tables = list(round_row.tables.order_by("number"))
    larger = max(tables, key=lambda table: len(table.planned_seats))
    smaller = min(tables, key=lambda table: len(table.planned_seats))
    assert (len(larger.planned_seats), len(smaller.planned_seats)) == (4, 3)
    return tournament, lambda: services.round_move(
        round_row=round_row, by=organizer, player_id=larger.planned_seats[0], to_table=smaller.number
    )


def _round_complete(organizer):
    tournament, round_row = published(organizer)
    for table in round_row.tables.all():
        services.table_result(table=table, by=organizer, expected_version=0, places=[1, 2])
    return tournament, lambda: services.round_complete(round_row=round_row, by=organizer)


def _timer(service_name, **arguments):
    def scenario(organizer):
        tournament, round_row = (
            published(organizer) if service_name == "round_timer_start" else timed(organizer)
        )
        if service_name == "round_timer_resume":
            services.round_timer_pause(round_row=round_row, by=organizer)
        service = getattr(services, service_name)
        return tournament, lambda: service(round_row=round_row, by=organizer, **arguments)

    return scenario


def _tournament(service_name, make=not_started, **arguments):
    def scenario(organizer):
        tournament = make(organizer)
        service = getattr(services, service_name)
        return tournament, lambda: service(tournament=tournament, by=organizer, **arguments)

    return scenario


def _registration_add(organizer):
    tournament = not_started(organizer)
    player = helpers.players_named(["Zed"])[0]
    return tournament, lambda: services.registration_add(
        tournament=tournament, by=organizer, player_id=player.pk
    )


def _batch(organizer):
    tournament = not_started(organizer)
    entries = [BatchEntry("Zed", None, 1), BatchEntry("Yan", None, 2)]
    return tournament, lambda: services.registrations_add_batch(
        tournament=tournament, by=organizer, entries=entries, confirm_new=True
    )


def _role_remove(organizer):
    tournament = not_started(organizer)
    UserFactory(username="helper")
    services.role_add(tournament=tournament, by=organizer, username="helper", role="scorekeeper")
    return tournament, lambda: services.role_remove(
        tournament=tournament, by=organizer, username="helper", role="scorekeeper"
    )


def _role_add(service_name, **arguments):
    def scenario(organizer):
        tournament = not_started(organizer)
        UserFactory(username="helper")
        service = getattr(services, service_name)
        return tournament, lambda: service(
            tournament=tournament, by=organizer, username="helper", **arguments
        )

    return scenario


def _registration_leave(organizer):
    tournament = started(organizer)
    ada = helpers.players_named(["Ada"])[0]
    return tournament, lambda: services.registration_leave(
        tournament=tournament, by=organizer, player_id=ada.pk, status="dropped"
    )


def _registration_join(organizer):
    tournament = signup(organizer)
    ada = helpers.user_with_player("ada")
    return tournament, lambda: services.registration_join(tournament=tournament, by=ada)


def _registration_withdraw(organizer):
    tournament, ada = joined(organizer)
    return tournament, lambda: services.registration_withdraw(tournament=tournament, by=ada)


def _registration_decide(organizer):
    tournament, ada = joined(organizer, approval=True)
    assert tournament.registrations.get().status == Registration.Status.PENDING
    return tournament, lambda: services.registration_decide(
        tournament=tournament, by=organizer, player_id=ada.player.pk, approve=True
    )


def _registration_check_in(organizer):
    tournament, ada = checkin_open(organizer)
    return tournament, lambda: services.registration_check_in(
        tournament=tournament, by=organizer, player_id=ada.pk
    )


def _registration_invite(organizer):
    tournament = signup(organizer)
    helpers.user_with_player("bea")
    return tournament, lambda: services.registration_invite(
        tournament=tournament, by=organizer, username="bea"
    )


def _invitation_withdraw(organizer):
    tournament, bea = invited(organizer)
    return tournament, lambda: services.invitation_withdraw(
        tournament=tournament, by=organizer, player_id=bea.player.pk
    )


def _invitation_answer(organizer):
    tournament, bea = invited(organizer)
    return tournament, lambda: services.invitation_answer(tournament=tournament, by=bea, accept=True)


def _bye_request(organizer):
    tournament, ada = byes(organizer)
    return tournament, lambda: services.bye_request(tournament=tournament, by=ada, round_number=1)


def _bye_cancel(organizer):
    tournament, ada = byes(organizer)
    services.bye_request(tournament=tournament, by=ada, round_number=1)
    return tournament, lambda: services.bye_cancel(tournament=tournament, by=ada, round_number=1)


def _table_report(organizer):
    tournament, table, users = self_reported(organizer)
    return tournament, lambda: services.table_report(
        table=table, by=users["Ada"], expected_version=0, places=[1, 2]
    )


def _table_report_withdraw(organizer):
    tournament, table, users, report = reported(organizer)
    return tournament, lambda: services.table_report_withdraw(
        table=table, by=users["Ada"], report_id=report.pk
    )


def _table_confirm(organizer):
    tournament, table, users, report = reported(organizer)
    return tournament, lambda: services.table_confirm(table=table, by=users["Bea"], report_id=report.pk)


def _table_dispute(organizer):
    tournament, table, users, report = reported(organizer)
    return tournament, lambda: services.table_dispute(
        table=table, by=users["Bea"], report_id=report.pk, note="we did not finish"
    )


def _round(service_name):
    def scenario(organizer):
        tournament, round_row = draft(organizer)
        service = getattr(services, service_name)
        return tournament, lambda: service(round_row=round_row, by=organizer)

    return scenario


def _round_advance(organizer):
    """Every table of round 1 in (the task is not run here): the system completes it and starts round 2."""
    tournament, round_row = published(organizer, auto_next_round=True)
    for table in round_row.tables.order_by("number"):
        services.table_result(table=table, by=organizer, expected_version=0, places=[1, 2])
    return tournament, lambda: services.round_advance(round_id=round_row.pk)


def _round_generate(organizer):
    tournament = started(organizer)
    return tournament, lambda: services.round_generate(tournament=tournament, by=organizer)


def _tournament_cancel_undo(organizer):
    tournament, _ = published(organizer)
    services.tournament_cancel(tournament=tournament, by=organizer, reason="the hall flooded")
    return tournament, lambda: services.tournament_cancel_undo(tournament=tournament, by=organizer)


def _table_close_undo(organizer):
    tournament, round_row = published(organizer)
    table = first_table(round_row)
    services.table_close(table=table, by=organizer, absent=seats_of(table)[:1], kind="forfeit")
    return tournament, lambda: services.table_close_undo(table=table, by=organizer)


def _tournament_finish(organizer):
    tournament = started(organizer)
    helpers.play_round(tournament, organizer)
    return tournament, lambda: services.tournament_finish(tournament=tournament, by=organizer)


def _called(organizer):
    """A published round whose first table called a judge (its first player, through a private link)."""
    tournament, round_row = published(organizer)
    table = first_table(round_row)
    holder = table.match.seats.order_by("seat").first().player
    return tournament, table, holder


def _judge_call_open(organizer):
    tournament, table, holder = _called(organizer)
    return tournament, lambda: floor.judge_call_open(table=table, by=None, holder=holder)


def _judge_call(service_name):
    def scenario(organizer):
        tournament, table, holder = _called(organizer)
        call = floor.judge_call_open(table=table, by=None, holder=holder)
        service = getattr(floor, service_name)
        return tournament, lambda: service(call=call, by=organizer)

    return scenario


def _table_extend(organizer):
    tournament, round_row = published(organizer)
    return tournament, lambda: floor.table_extend(table=first_table(round_row), by=organizer, minutes=5)


def _penalty_give(organizer):
    tournament, round_row = published(organizer)
    player_id = seats_of(first_table(round_row))[0]
    return tournament, lambda: floor.penalty_give(
        tournament=tournament,
        by=organizer,
        player_id=player_id,
        infraction="Slow play",
        kind="points",
        points=1,
    )


def _penalty_types_set(organizer):
    tournament = started(organizer)
    return tournament, lambda: floor.penalty_types_set(tournament=tournament, by=organizer, names=["Late"])


# Each write that changes a public page (`PUBLIC_WRITES`), with a scenario: (tournament, the call).
def _table_fix(organizer):
    tournament, round_row = draft(organizer)
    return tournament, lambda: seating.table_fix(
        table=first_table(round_row), by=organizer, physical_number=7
    )


def _registration_seating(organizer):
    tournament, _ = draft(organizer)
    registration = tournament.registrations.first()
    return tournament, lambda: seating.registration_seating(
        registration=registration, by=organizer, fixed_table=5
    )


def _private_data_delete(organizer):
    tournament = started(organizer)
    services.tournament_cancel(tournament=tournament, by=organizer, reason="the hall flooded")
    return tournament, lambda: seating.tournament_private_data_delete(tournament=tournament, by=organizer)


CHANGES = {
    # physical tables show on the round's pages, find my table and the projector
    "table_fix": _table_fix,
    "registration_seating": _registration_seating,
    "tournament_private_data_delete": _private_data_delete,  # audited: the log shows it
    "tournament_update": _tournament("tournament_update", name="Spring Cup"),
    "tournament_names_set": _tournament("tournament_names_set", short_names=True),
    "tournament_schedule": _tournament(
        "tournament_schedule", make=signup, time_zone="Europe/Berlin", starts_at="2099-12-05 10:00"
    ),
    "tournament_open_registration": _tournament("tournament_open_registration", make=created),
    "signup_configure": _tournament("signup_configure", make=created, self_signup=True),
    "tournament_start": _tournament("tournament_start"),
    "tournament_finish": _tournament_finish,
    "tournament_cancel": _tournament("tournament_cancel", make=started, reason="the hall flooded"),
    "tournament_cancel_undo": _tournament_cancel_undo,
    "tournament_seed": _tournament("tournament_seed", method="rating"),
    "organizer_add": _role_add("organizer_add"),
    "role_add": _role_add("role_add", role="scorekeeper"),
    "role_remove": _role_remove,
    "registration_add": _registration_add,
    "registrations_add_batch": _batch,
    "registration_invite": _registration_invite,
    "invitation_withdraw": _invitation_withdraw,
    "invitation_answer": _invitation_answer,
    "registration_leave": _registration_leave,
    "registration_join": _registration_join,
    "registration_withdraw": _registration_withdraw,
    "registration_decide": _registration_decide,
    "registration_check_in": _registration_check_in,
    "bye_request": _bye_request,
    "bye_cancel": _bye_cancel,
    "round_generate": _round_generate,
    "round_discard": _round("round_discard"),
    "round_swap": _round_swap,
    "round_move": _round_move,
    "round_publish": _round("round_publish"),
    "round_complete": _round_complete,
    "round_advance": _round_advance,
    "table_result": _table_result,
    "table_record": _table_record,
    "table_close": _table_close,
    "table_close_undo": _table_close_undo,
    "table_report": _table_report,
    "table_report_withdraw": _table_report_withdraw,
    "table_confirm": _table_confirm,
    "table_dispute": _table_dispute,
    "round_timer_start": _timer("round_timer_start", minutes=50),
    "round_timer_pause": _timer("round_timer_pause"),
    "round_timer_resume": _timer("round_timer_resume"),
    "round_timer_extend": _timer("round_timer_extend", minutes=5),
    "round_timer_reset": _timer("round_timer_reset"),
    # The floor: a call shows on its table's page ("a judge is coming"), extra time on the table's views,
    # a points penalty in the standings; the list of types is audited (every audited change counts).
    "judge_call_open": _judge_call_open,
    "judge_call_claim": _judge_call("judge_call_claim"),
    "judge_call_resolve": _judge_call("judge_call_resolve"),
    "table_extend": _table_extend,
    "penalty_give": _penalty_give,
    "penalty_types_set": _penalty_types_set,
}


def service_functions() -> set[str]:
    """The public functions defined in the modules of `league.tournaments.services`."""
    names = set()
    for module_info in pkgutil.iter_modules(services.__path__):
        module = importlib.import_module(f"{services.__name__}.{module_info.name}")
        names.update(
            name
            for name, value in vars(module).items()
            if inspect.isfunction(value) and value.__module__ == module.__name__ and not name.startswith("_")
        )
    return names


def test_every_service_is_listed():
    """Every public function of the services modules is in exactly one of the lists kept beside the version
    bump (`services.common`), and every write that changes a public page has a scenario here."""
    lists = [PUBLIC_WRITES, set(PUBLIC_WRITE_STEPS), set(PRIVATE_WRITES), NOT_WRITES]
    listed = set().union(*lists)
    assert service_functions() - listed == set()
    assert listed - service_functions() == set()
    assert sum(len(names) for names in lists) == len(listed)  # none in two lists
    assert set(CHANGES) == PUBLIC_WRITES


@pytest.mark.parametrize("name", sorted(CHANGES))
def test_a_write_that_changes_a_public_page_bumps_the_version(name, organizer):
    tournament, call = CHANGES[name](organizer)
    before = version(tournament)
    call()
    assert version(tournament) > before


def test_a_new_tournament_starts_at_version_one(organizer):
    assert version(created(organizer)) == 1


def test_a_refused_write_leaves_the_version(organizer):
    tournament, round_row = published(organizer)
    table = first_table(round_row)
    before = version(tournament)
    with pytest.raises(UserError):
        services.table_result(table=table, by=organizer, expected_version=0, places=[1, 1, 1])
    with pytest.raises(UserError):
        services.tournament_update(tournament=tournament, by=organizer, rounds=-1)
    assert version(tournament) == before


def test_the_api_detail_shows_the_version_and_a_result_moves_it(client, organizer):
    tournament, round_row = published(organizer)
    shown = client.get(f"/api/tournaments/{tournament.pk}/").json()["public_version"]
    assert shown == version(tournament)
    services.table_result(table=first_table(round_row), by=organizer, expected_version=0, places=[1, 2])
    assert client.get(f"/api/tournaments/{tournament.pk}/").json()["public_version"] == shown + 1


def test_a_players_rename_moves_the_version_of_the_events_they_entered_only(organizer):
    """A rename changes the names a tournament's pages show: each event the player entered counts a change;
    an event without them does not, nor does a change of the active flag alone."""
    entered = started(organizer)
    elsewhere = helpers.make_tournament(organizer, 2, table_size=2, rounds=1, rated=False)[0]
    player = entered.registrations.order_by("-seed").first().player  # Dov: only in the four-player event
    assert not elsewhere.registrations.filter(player=player).exists()
    before, other = version(entered), version(elsewhere)
    player_update(player=player, name="Adaeze")
    assert (version(entered), version(elsewhere)) == (before + 1, other)
    player_update(player=player, active=True)
    player_update(player=player, name="Adaeze")  # the same name: nothing changes
    assert version(entered) == before + 1
