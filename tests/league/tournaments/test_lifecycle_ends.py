"""The ends of an event other than a finish: a draft deleted (with its walk-ins), an event cancelled with a
reason (results and ratings stay, unplayed tables voided, players told, webhooks stop), any event cloned
with its settings, clock and sign-up settings; the cancel and a table's closing undone within 10 minutes;
the log showing these, result corrections and settled disputes."""

from datetime import timedelta

import pytest
from django.utils import timezone

from league.core.errors import UserError
from league.matches.models import Match
from league.notifications import webhooks
from league.notifications.models import Notification, Webhook
from league.notifications.services import notify_cancelled
from league.players.models import Player
from league.ratings.models import Rating
from league.tournaments import services
from league.tournaments.log import describe
from league.tournaments.models import AuditEntry, Registration, Tournament
from league.tournaments.services import BatchEntry
from tests.factories import StaffFactory, UserFactory
from tests.factories import tournaments as helpers


def raises(call, status, message):
    with pytest.raises(UserError) as caught:
        call()
    assert (caught.value.status, caught.value.message) == (status, message)


def log(tournament, count):
    rows = tournament.audit_entries.order_by("-at", "-id")[:count]
    return [describe(row, tournament.time_zone) for row in reversed(rows)]


def make_older(tournament, action, minutes):
    entry = tournament.audit_entries.filter(action=action).order_by("-id").first()
    AuditEntry.objects.filter(pk=entry.pk).update(at=timezone.now() - timedelta(minutes=minutes))


# Delete


def test_a_draft_is_deleted_with_its_walk_ins_only(organizer, stranger):
    elsewhere, _ = helpers.make_tournament(organizer, 2, table_size=2, rounds=1, start=False)  # Ada, Bea
    tournament, _ = helpers.make_tournament(organizer, 1, table_size=2, rounds=1, start=False, name="Test")
    services.registrations_add_batch(
        tournament=tournament,
        by=organizer,
        entries=[BatchEntry("Zed", None, 2), BatchEntry("Yan", None, 3), BatchEntry("Bea", None, 4)],
        confirm_new=True,
    )
    kept = UserFactory(username="xia")
    xia = Player.objects.create(name="Xia", name_key="xia", slug="xia", user=kept)
    services.registration_add(tournament=tournament, by=organizer, player_id=xia.pk)
    raises(
        lambda: services.tournament_delete(tournament=tournament, by=stranger),
        403,
        "only the tournament's organizers (and site staff) can do this",
    )
    assert services.tournament_delete(tournament=tournament, by=organizer) == ["Yan", "Zed"]
    assert not Tournament.objects.filter(pk=tournament.pk).exists()
    # Ada and Bea play elsewhere, Xia has an account: they stay
    assert sorted(Player.objects.values_list("name", flat=True)) == ["Ada", "Bea", "Xia"]
    assert elsewhere.registrations.count() == 2


def test_a_tournament_that_published_a_round_is_not_deleted(organizer):
    tournament, _ = helpers.make_tournament(organizer, 4, table_size=2, rounds=1, rated=False)
    round_row = services.round_generate(tournament=tournament, by=organizer)
    # a draft round only: deleted, with its four players made for it
    assert services.tournament_delete(tournament=tournament, by=organizer) == ["Ada", "Bea", "Cal", "Dov"]
    tournament, _ = helpers.make_tournament(organizer, 4, table_size=2, rounds=1, rated=False)
    round_row = services.round_generate(tournament=tournament, by=organizer)
    services.round_publish(round_row=round_row, by=organizer)
    raises(
        lambda: services.tournament_delete(tournament=tournament, by=organizer),
        409,
        "round 1 was published: a tournament that played cannot be deleted; cancel it instead (its results "
        "and ratings stay)",
    )


# Cancel and its undo


@pytest.fixture
def playing(organizer):
    """A rated 2-seat Swiss of Ada, Bea, Cal, Dov (Ada and Cal with accounts), round 1 published, the first
    table's result entered and rated, the second waiting."""
    tournament, players = helpers.make_tournament(organizer, 4, table_size=2, rounds=3)
    for player in players[::2]:
        Player.objects.filter(pk=player.pk).update(user=UserFactory(username=player.name.lower()))
    round_row = services.round_generate(tournament=tournament, by=organizer)
    services.round_publish(round_row=round_row, by=organizer)
    first, second = round_row.tables.order_by("number")
    services.table_result(table=first, by=organizer, expected_version=0, places=[1, 2])
    return tournament, first, second


def ratings():
    return {row.player.name: (row.mu, row.matches) for row in Rating.objects.select_related("player")}


def test_a_cancel_keeps_results_and_ratings_voids_the_rest_and_tells_the_players(organizer, playing, rate):
    tournament, first, second = playing
    rate()
    before = ratings()
    webhook = Webhook.objects.create(
        owner=organizer,
        tournament=tournament,
        url="https://example.com/hook",
        secret="s",
        events=["result.recorded"],
    )
    assert webhook.pk
    services.tournament_cancel(tournament=tournament, by=organizer, reason="  The hall flooded. ")
    tournament.refresh_from_db()
    assert (tournament.status, tournament.cancel_reason) == ("cancelled", "The hall flooded.")
    first.match.refresh_from_db()
    second.match.refresh_from_db()
    assert (first.match.status, first.match.result_version) == ("finished", 1)
    assert (second.match.status, second.match.result_version) == ("void", 1)
    rate()
    assert ratings() == before
    assert log(tournament, 1) == ["Cancelled the tournament: The hall flooded. (1 unplayed table voided)"]
    notify_cancelled(tournament_id=tournament.pk)
    assert sorted(Notification.objects.values_list("user__username", "kind", "text", "link")) == [
        (
            name,
            "tournament_cancelled",
            "Spring Open is cancelled: The hall flooded.",
            "/tournaments/spring-open/",
        )
        for name in ("ada", "cal")
    ]
    data = {"tournament": tournament.pk}
    assert (
        webhooks.deliveries_create(event="result.recorded", key="k", data=data, tournament_id=tournament.pk)
        == []
    )
    # nothing changes in a cancelled event
    raises(
        lambda: services.round_complete(round_row=first.round, by=organizer),
        409,
        "the tournament is cancelled: undo the cancel (for 10 minutes after it) or clone the event",
    )


def test_a_cancel_needs_a_reason_an_organizer_and_an_unfinished_event(organizer, stranger, playing):
    tournament, _, _ = playing
    raises(
        lambda: services.tournament_cancel(tournament=tournament, by=organizer, reason=" "),
        400,
        "say why the event is cancelled: the players read it",
    )
    raises(
        lambda: services.tournament_cancel(tournament=tournament, by=organizer, reason=7),
        400,
        "the reason must be text",
    )
    raises(
        lambda: services.tournament_cancel(tournament=tournament, by=stranger, reason="x"),
        403,
        "only the tournament's organizers (and site staff) can do this",
    )
    finished, _ = helpers.make_tournament(organizer, 2, table_size=2, rounds=1, rated=False, name="Done")
    helpers.play_round(finished, organizer)
    raises(
        lambda: services.tournament_cancel(tournament=finished, by=organizer, reason="x"),
        409,
        "the tournament is finished: it cannot be cancelled",
    )
    assert Tournament.objects.get(pk=tournament.pk).status == "running"


def test_a_cancel_is_undone_within_ten_minutes(organizer, stranger, playing):
    tournament, first, second = playing
    services.tournament_cancel(tournament=tournament, by=organizer, reason="Wrong event")
    raises(
        lambda: services.tournament_cancel_undo(tournament=tournament, by=stranger),
        403,
        "only the tournament's organizers (and site staff) can do this",
    )
    services.tournament_cancel_undo(tournament=tournament, by=organizer)
    tournament.refresh_from_db()
    assert (tournament.status, tournament.cancel_reason) == ("running", "")
    second.match.refresh_from_db()
    assert (second.match.status, second.match.result_version) == ("scheduled", 2)
    assert list(second.match.seats.values_list("place", flat=True)) == [None, None]
    # the table takes its result as a first one
    services.table_result(table=second, by=organizer, expected_version=2, places=[2, 1])
    assert services.round_complete(round_row=second.round, by=organizer).status == "complete"
    ends = tournament.audit_entries.filter(action__startswith="tournament.cancel").order_by("id")
    assert [describe(row, tournament.time_zone) for row in ends] == [
        "Cancelled the tournament: Wrong event (1 unplayed table voided)",
        "Undid the cancel (1 table waiting again)",
    ]
    raises(
        lambda: services.tournament_cancel_undo(tournament=tournament, by=organizer),
        409,
        "the tournament is not cancelled",
    )


def test_a_cancel_older_than_ten_minutes_stays(organizer, playing):
    tournament, _, _ = playing
    services.tournament_cancel(tournament=tournament, by=organizer, reason="Wrong event")
    make_older(tournament, "tournament.cancelled", 11)
    raises(
        lambda: services.tournament_cancel_undo(tournament=tournament, by=organizer),
        409,
        "the cancel was more than 10 minutes ago: it can no longer be undone",
    )


# Clone


def test_any_event_is_cloned_with_its_settings_clock_and_sign_up(organizer):
    source = helpers.open_signup(
        organizer,
        schedule={
            "time_zone": "Europe/Berlin",
            "starts_at": "2099-03-01 10:00",
            "checkin_opens_at": "2099-03-01 09:00",
            "round_times": ["2099-03-01 10:30", "", "2099-03-01 13:00"],
        },
        capacity=16,
        approval=True,
    )
    services.tournament_update(tournament=source, by=organizer, venue="Hall 2", description="Bring dice.")
    services.tournament_cancel(tournament=source, by=organizer, reason="moved")
    clone = services.tournament_clone(tournament=source, by=organizer, shift_days=7, shift_hours=1)
    settings = [
        "game_id",
        "format",
        "table_size",
        "rounds",
        "points",
        "tiebreaks",
        "rated",
        "venue",
        "description",
        "result_reporting",
        "time_zone",
        "self_signup",
        "capacity",
        "waitlist",
        "approval",
    ]
    assert [getattr(clone, name) for name in settings] == [getattr(source, name) for name in settings]
    assert (clone.name, clone.status, clone.cancel_reason) == ("Open Day (copy)", "draft", "")
    week = timedelta(days=7, hours=1)
    assert (clone.starts_at, clone.checkin_opens_at) == (
        source.starts_at + week,
        source.checkin_opens_at + week,
    )
    assert list(clone.round_times.values_list("number", "starts_at")) == [
        (row.number, row.starts_at + week) for row in source.round_times.order_by("number")
    ]
    assert clone.registrations.count() == 0 and list(clone.organizers.all()) == [organizer]
    assert log(clone, 1) == ["Cloned from Open Day, times moved by 7 days and 1 hour"]


def test_cloning_is_for_organizers_who_may_create_events(organizer, stranger):
    source = helpers.open_signup(organizer)
    raises(
        lambda: services.tournament_clone(tournament=source, by=stranger),
        403,
        "only the tournament's organizers (and site staff) can do this",
    )
    helper = UserFactory(username="helper")
    services.organizer_add(tournament=source, by=organizer, username="helper")
    raises(
        lambda: services.tournament_clone(tournament=source, by=helper),
        403,
        "only site staff create tournaments",
    )
    raises(
        lambda: services.tournament_clone(tournament=source, by=organizer, shift_days=10_000),
        400,
        "shift days must be a whole number from -3660 to 3660",
    )
    raises(
        lambda: services.tournament_clone(tournament=source, by=organizer, shift_hours="2"),
        400,
        "shift hours must be a whole number from -23 to 23",
    )
    clone = services.tournament_clone(
        tournament=source, by=StaffFactory(username="staff"), name="Open Day II"
    )
    assert clone.name == "Open Day II"


# A table's closing undone


def test_closing_a_table_is_undone_within_ten_minutes(organizer, stranger, players_by_name):
    tournament, _ = helpers.make_tournament(organizer, 4, table_size=2, rounds=2, rated=False)
    round_row = services.round_generate(tournament=tournament, by=organizer)
    services.round_publish(round_row=round_row, by=organizer)
    table = round_row.tables.order_by("number").first()
    seats = list(table.match.seats.order_by("seat").values_list("player_id", flat=True))
    services.table_close(table=table, by=organizer, absent=seats[1:], kind="no_show")
    assert Registration.objects.get(player_id=seats[1]).status == "no_show"
    raises(
        lambda: services.table_close_undo(table=table, by=stranger),
        403,
        "only the tournament's organizers (and site staff) can do this",
    )
    services.table_close_undo(table=table, by=organizer)
    table.refresh_from_db()
    table.match.refresh_from_db()
    assert (table.closed_as, table.absent, table.match.status) == ("", [], "scheduled")
    assert (
        Registration.objects.get(player_id=seats[1]).status,
        Registration.objects.get(player_id=seats[1]).left_after_round,
    ) == ("active", None)
    absent = players_by_name.name_of(seats[1])
    assert log(tournament, 2) == [
        f"Closed round 1, table 1 as no-show: {absent} absent",
        "Undid the closing of round 1, table 1 as no-show",
    ]
    raises(
        lambda: services.table_close_undo(table=table, by=organizer), 409, "table 1 of round 1 is not closed"
    )
    services.table_result(
        table=table, by=organizer, expected_version=table.match.result_version, places=[1, 2]
    )
    assert Match.objects.get(pk=table.match_id).status == "finished"


def test_a_closing_is_not_undone_late_or_after_a_new_result(organizer):
    tournament, _ = helpers.make_tournament(organizer, 4, table_size=2, rounds=2, rated=False)
    round_row = services.round_generate(tournament=tournament, by=organizer)
    services.round_publish(round_row=round_row, by=organizer)
    first, second = round_row.tables.order_by("number")
    for table in (first, second):
        seats = list(table.match.seats.order_by("seat").values_list("player_id", flat=True))
        services.table_close(table=table, by=organizer, absent=seats[:1], kind="forfeit")
    make_older(tournament, "table.closed", 11)  # the second's
    raises(
        lambda: services.table_close_undo(table=second, by=organizer),
        409,
        "the closing of this table was more than 10 minutes ago: it can no longer be undone",
    )
    services.table_result(
        table=first, by=organizer, expected_version=1, places=[1, 2], reason="they played after all"
    )
    raises(
        lambda: services.table_close_undo(table=first, by=organizer), 409, "table 1 of round 1 is not closed"
    )


# The log


def test_the_log_shows_corrections_and_settled_disputes(organizer):
    tournament, _ = helpers.make_tournament(
        organizer, 2, table_size=2, rounds=1, rated=False, result_reporting="self_report"
    )
    users = {}
    for registration in tournament.registrations.select_related("player"):
        users[registration.player.name] = UserFactory(username=registration.player.name.lower())
        Player.objects.filter(pk=registration.player_id).update(user=users[registration.player.name])
    round_row = services.round_generate(tournament=tournament, by=organizer)
    services.round_publish(round_row=round_row, by=organizer)
    table = round_row.tables.get()
    report = services.table_report(table=table, by=users["Bea"], expected_version=0, places=[2, 1])
    services.table_dispute(table=table, by=users["Ada"], report_id=report.pk, note="I won")
    services.table_result(table=table, by=organizer, expected_version=0, places=[1, 2])
    assert log(tournament, 1) == ["Settled the dispute of round 1, table 1 with result version 1"]
    services.table_result(
        table=table, by=organizer, expected_version=1, places=[2, 1], reason="seats swapped on the slip"
    )
    assert log(tournament, 1) == [
        "Corrected the result of round 1, table 1 (version 2): seats swapped on the slip"
    ]
