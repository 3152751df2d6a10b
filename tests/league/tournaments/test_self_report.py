"""Players report their table's result, the others confirm or dispute it; organizers settle disputes.

Through the services: who may report, confirm and dispute (and the attacks on it), the version stored once
everyone confirmed (attributed to reporter and confirmers), the dispute window, an organizer's entry that
settles a dispute or overtakes a report, a decider at an elimination table, two players reporting at once.
"""

import threading
from datetime import timedelta
from functools import partial

import pytest
from django.db import connection
from django.utils import timezone

from league.core.errors import UserError
from league.core.events import report_awaiting_confirmation, result_disputed, result_recorded
from league.matches.models import Match
from league.players.models import Player
from league.results.models import ResultDispute, ResultReport, ResultVersion
from league.results.services import ReportConflict
from league.tournaments import services
from league.tournaments.formats import flows
from league.tournaments.models import AuditEntry, Registration, Tournament
from tests.factories import UserFactory
from tests.factories import tournaments as helpers


def with_accounts(players):
    """Each player gets a user account (username = the player's name in lower case); the users by name."""
    users = {}
    for player in players:
        user = UserFactory(username=player.name.lower())
        Player.objects.filter(pk=player.pk).update(user=user)
        users[player.name] = user
    return users


@pytest.fixture
def table_of_four(organizer):
    """A self-report Swiss of 4 at one table of 4 (Ada, Bea, Cal, Dov, every one with an account), round 1
    published."""
    tournament, players = helpers.make_tournament(organizer, 4, table_size=4, result_reporting="self_report")
    users = with_accounts(players)
    round_row = services.round_generate(tournament=tournament, by=organizer)
    services.round_publish(round_row=round_row, by=organizer)
    table = round_row.tables.get()
    seats = list(table.match.seats.order_by("seat").values_list("player__name", flat=True))
    return tournament, table, users, seats


def refused(call, **kwargs) -> tuple[int, str]:
    with pytest.raises(UserError) as error:
        call(**kwargs)
    return error.value.status, error.value.message


@pytest.fixture
def events(django_capture_on_commit_callbacks):
    """Every domain event sent, as (name, payload), in order."""
    sent = []
    signals = {
        "awaiting": report_awaiting_confirmation,
        "recorded": result_recorded,
        "disputed": result_disputed,
    }

    def receiver_for(name):
        def receive(sender, **payload):
            sent.append((name, payload))

        return receive

    receivers = {name: receiver_for(name) for name in signals}
    for name, signal in signals.items():
        signal.connect(receivers[name])
    yield sent
    for name, signal in signals.items():
        signal.disconnect(receivers[name])


def test_a_four_seat_report_confirmed_by_the_other_three_is_stored_once_and_attributed(
    table_of_four, events, django_capture_on_commit_callbacks
):
    tournament, table, users, seats = table_of_four
    places = [seats.index(name) + 1 for name in seats]  # seat order is the finishing order
    with django_capture_on_commit_callbacks(execute=True):
        report = services.table_report(table=table, by=users["Ada"], expected_version=0, places=places)
    others = [name for name in seats if name != "Ada"]
    assert sorted(Player.objects.get(pk=pid).name for pid in report.awaiting) == sorted(others)
    assert events == [
        (
            "awaiting",
            {
                "signal": report_awaiting_confirmation,
                "tournament_id": tournament.pk,
                "table_id": table.pk,
                "report_id": report.pk,
                "user_ids": [users[name].pk for name in others],
            },
        ),
    ]
    for name in others[:2]:
        with django_capture_on_commit_callbacks(execute=True):
            services.table_confirm(table=table, by=users[name], report_id=report.pk)
        assert Match.objects.get(pk=table.match_id).result_version == 0  # not everyone yet
    with django_capture_on_commit_callbacks(execute=True):
        stored = services.table_confirm(table=table, by=users[others[2]], report_id=report.pk)
    assert stored.status == ResultReport.Status.STORED
    versions = list(
        ResultVersion.objects.filter(match=table.match_id).values_list("version", "places", "entered_by")
    )
    assert versions == [(1, places, users["Ada"].pk)]
    version = ResultVersion.objects.get(match=table.match_id)
    assert version.report_id == report.pk
    assert sorted(row.player.name for row in version.report.confirmations.all()) == sorted(others)
    assert events[-1] == (
        "recorded",
        {
            "signal": result_recorded,
            "tournament_id": tournament.pk,
            "table_id": table.pk,
            "version_id": version.pk,
        },
    )
    assert [name for name, _ in events] == ["awaiting", "recorded"]
    assert Match.objects.get(pk=table.match_id).status == Match.Status.FINISHED
    assert refused(services.table_confirm, table=table, by=users[others[0]], report_id=report.pk) == (
        409,
        "this report is confirmed and stored already",
    )
    assert ResultVersion.objects.filter(match=table.match_id).count() == 1
    actions = list(tournament.audit_entries.order_by("at", "id").values_list("action", flat=True))
    assert actions[-2:] == [AuditEntry.Action.RESULT_REPORTED, AuditEntry.Action.RESULT_CONFIRMED]


def test_at_a_four_seat_table_one_confirmation_is_not_enough(table_of_four):
    _, table, users, seats = table_of_four
    report = services.table_report(table=table, by=users["Bea"], expected_version=0, places=[1, 2, 3, 4])
    confirmer = next(name for name in seats if name != "Bea")
    left = services.table_confirm(table=table, by=users[confirmer], report_id=report.pk)
    assert left.status == ResultReport.Status.OPEN
    assert not ResultVersion.objects.filter(match=table.match_id).exists()
    assert Match.objects.get(pk=table.match_id).status == Match.Status.SCHEDULED
    assert refused(services.table_confirm, table=table, by=users[confirmer], report_id=report.pk) == (
        409,
        "you confirmed this report already",
    )


def store(table, users, seats, reporter="Ada", places=(1, 2, 3, 4)):
    report = services.table_report(table=table, by=users[reporter], expected_version=0, places=list(places))
    for name in seats:
        if name != reporter:
            services.table_confirm(table=table, by=users[name], report_id=report.pk)
    return report


def test_a_dispute_within_the_window_flags_the_table_until_an_organizer_settles_it(
    table_of_four, organizer, events, django_capture_on_commit_callbacks
):
    tournament, table, users, seats = table_of_four
    report = store(table, users, seats)
    disputer = next(name for name in seats if name != "Ada")
    with django_capture_on_commit_callbacks(execute=True):
        dispute = services.table_dispute(
            table=table, by=users[disputer], places=[4, 3, 2, 1], note="Ada counted Cal's chips as hers"
        )
    assert (dispute.report_id, dispute.places, dispute.status) == (report.pk, [4, 3, 2, 1], "open")
    assert events[-1] == (
        "disputed",
        {
            "signal": result_disputed,
            "tournament_id": tournament.pk,
            "table_id": table.pk,
            "dispute_id": dispute.pk,
        },
    )
    # the stored result still counts until an organizer decides; a second dispute waits for that too
    assert Match.objects.get(pk=table.match_id).result_version == 1
    assert refused(services.table_dispute, table=table, by=users["Ada"], note="no") == (
        409,
        "this table is disputed already: an organizer settles it",
    )
    services.table_result(
        table=table, by=organizer, expected_version=1, places=[2, 1, 3, 4], reason="dispute"
    )
    dispute.refresh_from_db()
    settling = ResultVersion.objects.get(match=table.match_id, version=2)
    assert (dispute.status, dispute.settled_by_id, settling.entered_by_id, settling.report_id) == (
        "settled",
        settling.pk,
        organizer.pk,
        None,
    )
    # the organizer's version stands: the players' report can no longer be disputed
    assert refused(services.table_dispute, table=table, by=users[disputer], note="still wrong") == (
        409,
        "an organizer entered a newer result of this table: it stands",
    )


def test_a_dispute_after_the_window_is_refused(table_of_four):
    _, table, users, seats = table_of_four
    store(table, users, seats)
    ResultVersion.objects.filter(match=table.match_id).update(
        entered_at=timezone.now() - timedelta(minutes=16)
    )
    status, message = refused(services.table_dispute, table=table, by=users["Bea"], places=[2, 1, 3, 4])
    assert status == 409
    assert message.startswith("the dispute window closed at ")
    assert message.endswith("(15 minutes after the result was stored): ask an organizer to correct it")
    assert not ResultDispute.objects.exists()


def test_a_dispute_of_an_open_report_sends_it_to_the_organizers(table_of_four, organizer):
    _, table, users, _ = table_of_four
    report = services.table_report(table=table, by=users["Ada"], expected_version=0, places=[1, 2, 3, 4])
    services.table_dispute(table=table, by=users["Cal"], report_id=report.pk, note="we did not finish")
    report.refresh_from_db()
    assert report.status == ResultReport.Status.DISPUTED
    assert refused(services.table_confirm, table=table, by=users["Bea"], report_id=report.pk) == (
        409,
        "this report is disputed: an organizer settles it by entering the result",
    )
    assert refused(
        services.table_report, table=table, by=users["Bea"], expected_version=0, places=[1, 2, 3, 4]
    ) == (409, "this table is disputed: an organizer settles it by entering the result")
    services.table_result(table=table, by=organizer, expected_version=0, places=[1, 2, 3, 4])
    assert ResultDispute.objects.get().status == ResultDispute.Status.SETTLED


def test_a_second_report_gets_409_carrying_the_open_one(table_of_four):
    _, table, users, _ = table_of_four
    first = services.table_report(table=table, by=users["Ada"], expected_version=0, places=[1, 2, 3, 4])
    with pytest.raises(ReportConflict) as conflict:
        services.table_report(table=table, by=users["Bea"], expected_version=0, places=[4, 3, 2, 1])
    body = conflict.value.as_dict()
    assert (conflict.value.status, body["code"]) == (409, "conflict")
    assert body["open_report"]["id"] == first.pk
    assert body["open_report"]["places"] == [1, 2, 3, 4]
    assert body["open_report"]["reporter"] == Player.objects.get(name="Ada").pk
    assert ResultReport.objects.count() == 1


def test_a_confirmation_after_an_organizer_entry_is_409(table_of_four, organizer):
    _, table, users, _ = table_of_four
    report = services.table_report(table=table, by=users["Ada"], expected_version=0, places=[1, 2, 3, 4])
    services.table_result(table=table, by=organizer, expected_version=0, places=[4, 3, 2, 1])
    assert refused(services.table_confirm, table=table, by=users["Bea"], report_id=report.pk) == (
        409,
        "an organizer entered this table's result meanwhile: the report no longer counts",
    )
    report.refresh_from_db()
    assert report.status == ResultReport.Status.SUPERSEDED
    assert list(ResultVersion.objects.filter(match=table.match_id).values_list("places", flat=True)) == [
        [4, 3, 2, 1]
    ]


def test_a_report_after_an_organizer_entry_is_409(table_of_four, organizer):
    _, table, users, _ = table_of_four
    services.table_result(table=table, by=organizer, expected_version=0, places=[4, 3, 2, 1])
    status, message = refused(
        services.table_report, table=table, by=users["Ada"], expected_version=0, places=[1, 2, 3, 4]
    )
    assert (status, message) == (
        409,
        "the result is at version 1, not 0: someone entered a result meanwhile; review it and submit again "
        "with expected_version 1",
    )
    assert refused(
        services.table_report, table=table, by=users["Ada"], expected_version=1, places=[1, 2, 3, 4]
    ) == (409, "the result of this table is stored already (version 1): dispute it, or ask an organizer")


def test_who_may_not_report_confirm_or_dispute(table_of_four, organizer, make_tournament):
    tournament, table, users, seats = table_of_four
    stranger = UserFactory(username="stranger")
    seated_only = (403, "only the players seated at this table report, confirm or dispute its result")
    assert refused(
        services.table_report, table=table, by=stranger, expected_version=0, places=[1, 2, 3, 4]
    ) == (seated_only)
    assert refused(services.table_report, table=table, by=None, expected_version=0, places=[1, 2, 3, 4]) == (
        403,
        "sign in to report or confirm your table's result",
    )
    # an organizer who is not seated reports nothing either (they enter results)
    assert refused(
        services.table_report, table=table, by=organizer, expected_version=0, places=[1, 2, 3, 4]
    ) == (seated_only)
    report = services.table_report(table=table, by=users["Ada"], expected_version=0, places=[1, 2, 3, 4])
    assert refused(services.table_confirm, table=table, by=users["Ada"], report_id=report.pk) == (
        403,
        "you made this report: the others at the table confirm it",
    )
    assert refused(services.table_confirm, table=table, by=stranger, report_id=report.pk) == seated_only
    # a dropped player neither confirms nor disputes
    Registration.objects.filter(tournament=tournament, player__name="Dov").update(status="dropped")
    dropped = (403, "you are no longer playing in this tournament: an organizer enters this result")
    assert refused(services.table_confirm, table=table, by=users["Dov"], report_id=report.pk) == dropped
    assert refused(services.table_dispute, table=table, by=users["Dov"], note="no") == dropped
    assert ResultReport.objects.get().confirmations.count() == 0


def test_a_report_id_of_another_tournaments_table_is_404(table_of_four, organizer):
    _, table, users, _ = table_of_four
    other, players = helpers.make_tournament(
        organizer, 4, name="Autumn Open", table_size=4, result_reporting="self_report"
    )
    round_row = services.round_generate(tournament=other, by=organizer)
    services.round_publish(round_row=round_row, by=organizer)
    other_table = round_row.tables.get()
    # Ada plays in both: her report of the other tournament's table cannot be confirmed at this one
    report = services.table_report(
        table=other_table, by=users["Ada"], expected_version=0, places=[1, 2, 3, 4]
    )
    assert refused(services.table_confirm, table=table, by=users["Bea"], report_id=report.pk) == (
        404,
        f"no report {report.pk} of this table",
    )
    assert refused(services.table_confirm, table=table, by=users["Bea"], report_id="1; DROP TABLE") == (
        404,
        "no report 1; DROP TABLE of this table",
    )
    # the other tournament's report is untouched
    assert ResultReport.objects.get(pk=report.pk).confirmations.count() == 0


def test_a_self_report_in_an_organizer_only_tournament_is_refused(organizer):
    tournament, players = helpers.make_tournament(organizer, 4, table_size=4)
    assert tournament.result_reporting == Tournament.Reporting.ORGANIZER
    users = with_accounts(players)
    round_row = services.round_generate(tournament=tournament, by=organizer)
    services.round_publish(round_row=round_row, by=organizer)
    table = round_row.tables.get()
    assert refused(
        services.table_report, table=table, by=users["Ada"], expected_version=0, places=[1, 2, 3, 4]
    ) == (403, "in this tournament the organizers enter the results: players do not report them")
    assert not ResultReport.objects.exists()


def test_bad_places_are_400_and_store_nothing(table_of_four):
    _, table, users, _ = table_of_four
    assert refused(
        services.table_report, table=table, by=users["Ada"], expected_version=0, places=[1, 2]
    ) == (400, "give one place per seat (4 seats)")
    assert refused(
        services.table_report, table=table, by=users["Ada"], expected_version="0", places=[1, 2, 3, 4]
    ) == (400, "expected_version must be a whole number, 0 for the first result")
    assert refused(services.table_dispute, table=table, by=users["Ada"], note="x") == (
        409,
        "nobody reported this table's result: there is nothing to dispute",
    )
    assert not ResultReport.objects.exists()


@pytest.fixture
def cup(organizer):
    """A self-report single elimination of 4 (tables of 2): round 1 published; the users by name."""
    tournament, players = helpers.make_tournament(
        organizer, 4, format="single_elimination", table_size=2, rated=False, result_reporting="self_report"
    )
    users = with_accounts(players)
    first = services.round_generate(tournament=tournament, by=organizer)
    services.round_publish(round_row=first, by=organizer)
    return tournament, first, users


def test_a_tie_at_an_elimination_table_asks_the_reporter_for_the_decider(cup, players_by_name):
    tournament, first, users = cup
    table = first.tables.get(number=1)  # Ada v Dov
    assert refused(
        services.table_report, table=table, by=users["Ada"], expected_version=0, places=[1, 1]
    ) == (400, "Ada and Dov share 1st place and only one of them goes through: say who")
    dov = players_by_name["Dov"].pk
    report = services.table_report(
        table=table, by=users["Ada"], expected_version=0, places=[1, 1], advancing=[dov]
    )
    assert report.advancing == [dov]
    services.table_confirm(table=table, by=users["Dov"], report_id=report.pk)
    assert list(ResultVersion.objects.filter(match=table.match_id).values_list("places", "advancing")) == [
        ([1, 1], [dov])
    ]
    # the bracket flows as after an organizer's entry: the other semi-final's confirmed result opens the final
    other = first.tables.get(number=2)  # Bea v Cal
    report = services.table_report(table=other, by=users["Cal"], expected_version=0, places=[2, 1])
    services.table_confirm(table=other, by=users["Bea"], report_id=report.pk)
    final = tournament.round_set.get(number=2)
    assert [sorted(seats) for seats in helpers.table_seats(final)] == [
        sorted([players_by_name["Cal"].pk, dov])
    ]


def test_at_two_seats_the_opponents_confirmation_stores_it_unless_organizers_enter_them(cup, organizer):
    tournament, first, users = cup
    table = first.tables.get(number=2)  # Bea v Cal
    report = services.table_report(table=table, by=users["Bea"], expected_version=0, places=[1, 2])
    assert services.table_confirm(table=table, by=users["Cal"], report_id=report.pk).status == "stored"
    Tournament.objects.filter(pk=tournament.pk).update(two_seat_confirmation="organizer")
    assert refused(
        services.table_report,
        table=first.tables.get(number=1),
        by=users["Ada"],
        expected_version=0,
        places=[1, 2],
    ) == (403, "at tables of 2 in this tournament an organizer enters the result")


def test_two_players_reporting_one_after_the_other_one_wins(table_of_four):
    _, table, users, _ = table_of_four
    services.table_report(table=table, by=users["Ada"], expected_version=0, places=[1, 2, 3, 4])
    with pytest.raises(ReportConflict):
        services.table_report(table=table, by=users["Cal"], expected_version=0, places=[4, 3, 2, 1])
    assert list(ResultReport.objects.values_list("reporter__name", "status")) == [("Ada", "open")]


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_two_players_reporting_the_same_table_at_once_one_wins_one_gets_409():
    organizer = UserFactory(username="organizer", is_staff=True)
    tournament, players = helpers.make_tournament(organizer, 4, table_size=4, result_reporting="self_report")
    users = with_accounts(players)
    round_row = services.round_generate(tournament=tournament, by=organizer)
    services.round_publish(round_row=round_row, by=organizer)
    table = round_row.tables.get()
    barrier = threading.Barrier(2)
    outcomes: list[object] = [None, None]

    def report(index: int, name: str, places: list[int]) -> None:
        try:
            barrier.wait(timeout=10)
            outcomes[index] = services.table_report(
                table=table, by=users[name], expected_version=0, places=places
            )
        except UserError as error:
            outcomes[index] = error
        finally:
            connection.close()

    threads = [
        threading.Thread(target=report, args=(0, "Ada", [1, 2, 3, 4])),
        threading.Thread(target=report, args=(1, "Bea", [4, 3, 2, 1])),
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    wins = [o for o in outcomes if isinstance(o, ResultReport)]
    conflicts = [o for o in outcomes if isinstance(o, UserError)]
    assert (len(wins), len(conflicts)) == (1, 1)
    assert conflicts[0].status == 409
    assert isinstance(conflicts[0], ReportConflict)
    assert conflicts[0].open_report["id"] == wins[0].pk
    assert list(ResultReport.objects.values_list("pk", "status")) == [(wins[0].pk, "open")]


def at_once(**calls) -> dict[str, object]:
    """Run each call in a thread of its own, all released at once; what each returned or raised, by name."""
    barrier = threading.Barrier(len(calls))
    outcomes: dict[str, object] = {}

    def run(key: str, call) -> None:
        try:
            barrier.wait(timeout=10)
            outcomes[key] = call()
        except Exception as error:  # noqa: BLE001 - a 409, or the deadlock or bug that the race test looks for
            outcomes[key] = error
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(key, call)) for key, call in calls.items()]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return outcomes


def race_the_last_confirmation(table, organizer, users, seats: int) -> None:
    """Ada reports `table` (seat order = places), everyone else but the last player confirms; then the last
    confirmation and the organizer's entry of the reverse run at once. Exactly one is stored, the other gets
    409 (never a deadlock, a 500), and the one version, the report's status and the seats agree with it."""
    reported, entered = list(range(1, seats + 1)), list(range(seats, 0, -1))
    seated = list(table.match.seats.order_by("seat").values_list("player__name", flat=True))
    reporter = seated[0]
    report = services.table_report(table=table, by=users[reporter], expected_version=0, places=reported)
    others = [name for name in seated if name != reporter]
    for name in others[:-1]:
        services.table_confirm(table=table, by=users[name], report_id=report.pk)
    outcomes = at_once(
        confirm=partial(services.table_confirm, table=table, by=users[others[-1]], report_id=report.pk),
        organizer=partial(
            services.table_result, table=table, by=organizer, expected_version=0, places=entered
        ),
    )
    statuses = {key: getattr(value, "status", None) for key, value in outcomes.items()}
    confirmed = isinstance(outcomes["confirm"], ResultReport)
    winner_first = (
        {"confirm": "stored", "organizer": 409} if confirmed else {"confirm": 409, "organizer": None}
    )
    assert statuses == winner_first, outcomes
    places = reported if confirmed else entered
    versions = list(
        ResultVersion.objects.filter(match=table.match_id).values_list("version", "places", "report")
    )
    assert versions == [(1, places, report.pk if confirmed else None)]
    report.refresh_from_db()
    assert report.status == ("stored" if confirmed else "superseded")
    match = Match.objects.get(pk=table.match_id)
    assert (match.status, match.result_version, len(seated)) == ("finished", 1, seats)
    assert list(match.seats.order_by("seat").values_list("place", flat=True)) == places


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_the_last_confirmation_racing_an_organizers_entry_stores_one_and_answers_409_to_the_other():
    """At a Swiss table of 4, eight times."""
    organizer = UserFactory(username="organizer", is_staff=True)
    users = None
    for repetition in range(8):
        tournament, players = helpers.make_tournament(
            organizer, 4, table_size=4, result_reporting="self_report", name=f"Race {repetition}"
        )
        users = users or with_accounts(players)
        round_row = services.round_generate(tournament=tournament, by=organizer)
        services.round_publish(round_row=round_row, by=organizer)
        race_the_last_confirmation(round_row.tables.get(), organizer, users, seats=4)


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_in_a_bracket_played_match_by_match_the_same_race_locks_the_tournament_first():
    """At a 2-seat table of a single elimination (whose results open the next matches under the
    tournament's lock), four times, both tables of round 1 each time."""
    organizer = UserFactory(username="organizer", is_staff=True)
    users = None
    for repetition in range(4):
        tournament, players = helpers.make_tournament(
            organizer,
            4,
            format="single_elimination",
            table_size=2,
            rated=False,
            result_reporting="self_report",
            name=f"Cup {repetition}",
        )
        users = users or with_accounts(players)
        assert flows(tournament, 1)
        first = services.round_generate(tournament=tournament, by=organizer)
        services.round_publish(round_row=first, by=organizer)
        for table in first.tables.order_by("number"):
            race_the_last_confirmation(table, organizer, users, seats=2)
