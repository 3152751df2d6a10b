"""The floor (issue 48): judges per tournament and their reach, judge calls (open, claim, resolve, one open
call per table, the webhook), a table's extra time and its own end, penalties (warnings, points off the
standings with their reason, a game loss as a result correction that ratings follow)."""

from datetime import UTC, datetime, timedelta

import pytest

from league.core.errors import UserError
from league.core.events import judge_called
from league.notifications import payloads
from league.players.models import Player
from league.ratings.models import Rating
from league.results.models import ResultVersion
from league.tournaments import floor_selectors, reach, services, timers
from league.tournaments.floor_models import JudgeCall, Penalty
from league.tournaments.history import load_history
from league.tournaments.models import Tournament
from league.tournaments.selectors import roles, standing_rows_of
from league.tournaments.services import floor
from tests.factories import UserFactory
from tests.factories import tournaments as helpers

NOON = datetime(2026, 12, 5, 12, 0, tzinfo=UTC)
JUDGES_ONLY = "only the tournament's judges and organizers (and site staff) can do this"


@pytest.fixture
def clock(monkeypatch):
    class Clock:
        at = NOON

    monkeypatch.setattr(timers, "now", lambda: Clock.at)
    return Clock


def refused(service, **kwargs) -> tuple[int, str]:
    with pytest.raises(UserError) as error:
        service(**kwargs)
    return error.value.status, error.value.message


@pytest.fixture
def floor_event(organizer, clock):
    """A Swiss of 8 at tables of 4, round 1 published with a 50-minute timer started at noon; `judy` judges
    it; every player has an account (user name: the player's name in lower case)."""
    tournament, players = helpers.make_tournament(organizer, 8, name="Floor Cup")
    for player in players:
        Player.objects.filter(pk=player.pk).update(user=UserFactory(username=player.name.lower()))
    judy = UserFactory(username="judy")
    services.role_add(tournament=tournament, by=organizer, username="Judy", role="judge")
    round_row = services.round_generate(tournament=tournament, by=organizer)
    services.round_publish(round_row=round_row, by=organizer)
    services.round_timer_start(round_row=round_row, by=organizer, minutes=50)
    tables = list(round_row.tables.order_by("number").select_related("match"))
    return tournament, round_row, tables, judy


def seated(table) -> list[Player]:
    return [seat.player for seat in table.match.seats.order_by("seat").select_related("player__user")]


def test_a_judge_of_one_event_has_no_power_in_another(organizer, floor_event):
    tournament, _, tables, judy = floor_event
    other, _ = helpers.make_tournament(organizer, 4, name="Other Cup", start=False)
    player = seated(tables[0])[0]
    assert reach.may_judge(judy, tournament) is True
    assert reach.may_judge(judy, other) is False
    assert reach.judge_reaches(judy, player, tournament) is True
    assert reach.judge_reaches(judy, player, other) is False
    assert reach.may_judge(organizer, other) is True  # staff
    assert refused(
        floor.penalty_give, tournament=other, by=judy, player_id=player.pk, infraction="Slow play"
    ) == (403, JUDGES_ONLY)
    assert refused(floor.penalty_types_set, tournament=other, by=judy, names=["X"])[0] == 403


def test_a_judge_enters_results_but_never_changes_settings_or_deletes(floor_event):
    tournament, _, tables, judy = floor_event
    services.table_result(table=tables[1], by=judy, expected_version=0, places=[1, 2, 3, 4])
    tables[1].match.refresh_from_db()
    assert tables[1].match.result_version == 1
    assert refused(services.tournament_update, tournament=tournament, by=judy, name="Mine now")[0] == 403
    assert refused(services.tournament_delete, tournament=tournament, by=judy)[0] == 403
    assert refused(floor.penalty_types_set, tournament=tournament, by=judy, names=["Mine"]) == (
        403,
        "only the tournament's organizers (and site staff) can do this",
    )
    assert refused(services.round_timer_pause, round_row=tables[0].round, by=judy)[0] == 403


def test_judge_roles_are_listed_and_removed(organizer, floor_event):
    tournament, *_ = floor_event
    assert [(role.username, role.role) for role in roles(tournament)] == [
        ("organizer", "organizer"),
        ("judy", "judge"),
    ]
    assert refused(services.role_add, tournament=tournament, by=organizer, username="judy", role="judge") == (
        400,
        "judy judges here already",
    )
    services.role_remove(tournament=tournament, by=organizer, username="judy", role="judge")
    assert list(tournament.judges.all()) == []


def test_a_player_calls_a_judge_who_claims_and_resolves_it(
    floor_event, clock, django_capture_on_commit_callbacks
):
    tournament, _, tables, judy = floor_event
    ada_table = next(table for table in tables if "Ada" in [p.name for p in seated(table)])
    ada = Player.objects.get(name="Ada")
    version = Tournament.objects.get(pk=tournament.pk).public_version
    sent = []

    def heard(signal, sender=None, **payload):
        sent.append(payload)

    judge_called.connect(heard)
    try:
        with django_capture_on_commit_callbacks(execute=True):
            call = floor.judge_call_open(table=ada_table, by=ada.user)
    finally:
        judge_called.disconnect(heard)
    assert sent == [{"tournament_id": tournament.pk, "table_id": ada_table.pk, "call_id": call.pk}]
    assert Tournament.objects.get(pk=tournament.pk).public_version == version + 1
    data = payloads.judge_called(tournament_id=tournament.pk, table_id=ada_table.pk, call_id=call.pk)
    assert data["call"] == {
        "id": call.pk,
        "caller": {"id": ada.pk, "name": "Ada"},
        "opened_at": NOON.isoformat(),
    }
    assert data["table"]["number"] == ada_table.number

    # One open call per table: a second tap, by anyone at the table, is refused while it is open.
    other = next(p for p in seated(ada_table) if p.name != "Ada")
    assert refused(floor.judge_call_open, table=ada_table, by=other.user) == (
        409,
        f"a judge was called to table {ada_table.number} already: a judge comes soon",
    )
    stranger = next(p for p in seated(tables[0] if ada_table != tables[0] else tables[1]))
    assert refused(floor.judge_call_open, table=ada_table, by=stranger.user) == (
        403,
        "only the players at this table call a judge from it",
    )
    assert refused(floor.judge_call_claim, call=call, by=ada.user) == (403, JUDGES_ONLY)

    clock.at = NOON + timedelta(minutes=1)
    floor.judge_call_claim(call=call, by=judy)
    assert refused(floor.judge_call_claim, call=call, by=tournament.organizers.get()) == (
        409,
        "judy has this call already",
    )
    assert refused(floor.judge_call_open, table=ada_table, by=other.user)[1].endswith("a judge is coming")
    [row] = floor_selectors.call_queue(tournament)
    assert (row.status, row.caller, row.table, row.claimed_by) == ("claimed", "Ada", ada_table.number, "judy")

    clock.at = NOON + timedelta(minutes=3)
    floor.judge_call_resolve(call=call, by=judy, note="  Ruled: the card stays.  ")
    assert floor_selectors.call_queue(tournament) == []
    [done] = floor_selectors.calls_resolved(tournament)
    assert (done.status, done.note, done.resolved_by, done.resolved_at) == (
        "resolved",
        "Ruled: the card stays.",
        "judy",
        NOON + timedelta(minutes=3),
    )
    assert refused(floor.judge_call_resolve, call=call, by=judy) == (409, "this call is resolved already")
    # Resolved: the table may call again.
    assert floor.judge_call_open(table=ada_table, by=other.user).status == "open"


def test_the_queue_is_ordered_by_the_time_of_the_call(floor_event, clock):
    tournament, _, tables, judy = floor_event
    clock.at = NOON + timedelta(minutes=5)
    second = floor.judge_call_open(table=tables[1], by=seated(tables[1])[2].user)
    clock.at = NOON + timedelta(minutes=2)
    first = floor.judge_call_open(table=tables[0], by=seated(tables[0])[0].user)
    assert [row.id for row in floor_selectors.call_queue(tournament)] == [first.pk, second.pk]


def test_a_private_link_holder_calls_a_judge(organizer, floor_event):
    tournament, _, tables, _ = floor_event
    holder = seated(tables[0])[3]
    call = floor.judge_call_open(table=tables[0], by=None, holder=holder)
    assert (call.caller_id, call.status) == (holder.pk, "open")


def test_a_judge_gives_a_table_extra_time_and_the_round_knows_who_plays_on(floor_event, clock):
    tournament, round_row, tables, judy = floor_event
    assert refused(floor.table_extend, table=tables[0], by=judy, minutes=31) == (
        400,
        "minutes must be a whole number from 1 to 30",
    )
    assert refused(floor.table_extend, table=tables[0], by=judy, minutes=0)[0] == 400
    assert refused(floor.table_extend, table=tables[0], by=seated(tables[0])[0].user, minutes=5)[0] == 403
    version = Tournament.objects.get(pk=tournament.pk).public_version
    floor.table_extend(table=tables[0], by=judy, minutes=7)
    floor.table_extend(table=tables[0], by=judy, minutes=3, note="a long ruling")
    assert Tournament.objects.get(pk=tournament.pk).public_version == version + 2
    assert floor_selectors.extensions_of([tables[0].pk, tables[1].pk]) == {tables[0].pk: 10}

    clock.at = NOON + timedelta(minutes=55)
    round_row.refresh_from_db()
    assert timers.timer_view(round_row).state == "over"
    [extended] = floor_selectors.extended_tables(round_row)
    assert (extended.number, extended.minutes, extended.still_running) == (1, 10, True)
    assert (extended.timer.ends_at, extended.timer.seconds_left, extended.timer.clock) == (
        NOON + timedelta(minutes=60),
        300,
        "5:00",
    )
    clock.at = NOON + timedelta(minutes=60)
    assert floor_selectors.extended_tables(round_row)[0].still_running is False

    # A table with its result gets no more time.
    services.table_result(table=tables[1], by=judy, expected_version=0, places=[1, 2, 3, 4])
    assert refused(floor.table_extend, table=tables[1], by=judy, minutes=5) == (
        409,
        "table 2 has its result: no extra time to give",
    )


def test_a_paused_round_moves_its_extended_tables_with_it(floor_event, clock, organizer):
    _, round_row, tables, judy = floor_event
    floor.table_extend(table=tables[1], by=judy, minutes=4)
    clock.at = NOON + timedelta(minutes=20)
    services.round_timer_pause(round_row=round_row, by=organizer)
    round_row.refresh_from_db()
    view = floor_selectors.table_timer(round_row, 4)
    assert (view.state, view.seconds_left, view.clock, view.length) == ("paused", 34 * 60, "34:00", "54:00")


def test_penalty_types_default_and_are_edited_by_organizers(organizer, floor_event):
    tournament, *_ = floor_event
    assert floor_selectors.penalty_types_of(tournament) == [
        "Slow play",
        "Procedural error",
        "Tardiness",
        "Unsporting conduct",
        "Improper communication",
    ]
    assert floor.penalty_types_set(tournament=tournament, by=organizer, names=[" Late ", "Deck error"]) == [
        "Late",
        "Deck error",
    ]
    assert floor_selectors.penalty_types_of(tournament) == ["Late", "Deck error"]
    assert refused(floor.penalty_types_set, tournament=tournament, by=organizer, names=["Late", "late"]) == (
        400,
        "'late' is listed twice",
    )
    assert refused(floor.penalty_types_set, tournament=tournament, by=organizer, names=[]) == (
        400,
        "give from 1 to 20 penalty types",
    )


def test_a_warning_is_written_down_and_seen_by_its_player(floor_event):
    tournament, _, tables, judy = floor_event
    ada = Player.objects.get(name="Ada")
    floor.penalty_give(
        tournament=tournament, by=judy, player_id=ada.pk, infraction="slow play", note="third reminder"
    )
    [row] = floor_selectors.penalties_of(tournament, ada.pk)
    assert (row.player, row.kind_label, row.infraction, row.note, row.given_by, row.round, row.points) == (
        "Ada",
        "Warning",
        "Slow play",
        "third reminder",
        "judy",
        1,
        0.0,
    )
    assert refused(
        floor.penalty_give, tournament=tournament, by=judy, player_id=ada.pk, infraction="Cheating"
    ) == (
        400,
        "the type is one of: Slow play, Procedural error, Tardiness, Unsporting conduct, "
        "Improper communication",
    )
    assert refused(
        floor.penalty_give, tournament=tournament, by=judy, player_id=ada.pk, infraction="Slow play", points=2
    ) == (400, "only a points penalty takes points")
    assert refused(
        floor.penalty_give, tournament=tournament, by=judy, player_id=10**12, infraction="Slow play"
    ) == (404, "no such player in this tournament")


def test_a_points_penalty_changes_the_standings_only(organizer, floor_event, rate):
    tournament, round_row, tables, judy = floor_event
    for table in tables:
        services.table_result(
            table=table, by=organizer, expected_version=table.match.result_version, places=[1, 2, 3, 4]
        )
    rate()
    before = [(row.name, row.points) for row in standing_rows_of(load_history(tournament))]
    winners = [seated(table)[0].name for table in tables]
    ratings = list(Rating.objects.order_by("player_id").values_list("player_id", "mu", "sigma"))
    leader = Player.objects.get(name=before[0][0])
    assert before[0][1] == before[1][1]  # the two winners share the top points
    floor.penalty_give(
        tournament=tournament,
        by=judy,
        player_id=leader.pk,
        infraction="Slow play",
        kind="points",
        points="1.5",
        note="second time over the limit",
    )
    after = standing_rows_of(load_history(tournament))
    row = next(row for row in after if row.name == leader.name)
    assert (row.points, row.penalty) == (before[0][1] - 1.5, 1.5)
    assert after[0].name == next(name for name in winners if name != leader.name)
    assert floor_selectors.penalty_reasons(tournament.pk) == {leader.pk: ["−1.5 pt: Slow play (round 1)"]}
    rate()
    assert list(Rating.objects.order_by("player_id").values_list("player_id", "mu", "sigma")) == ratings
    assert ResultVersion.objects.filter(reason__startswith="penalty").count() == 0
    assert refused(
        floor.penalty_give,
        tournament=tournament,
        by=judy,
        player_id=leader.pk,
        infraction="Slow play",
        kind="points",
        points=101,
    ) == (400, "points must be a number from 0.01 to 100")


def test_a_game_loss_corrects_the_result_and_ratings_follow(organizer, floor_event, rate):
    tournament, _, tables, judy = floor_event
    table = tables[0]
    services.table_result(table=table, by=organizer, expected_version=0, places=[1, 2, 3, 4])
    rate()
    first = seated(table)[0]
    mu_before = Rating.objects.get(player=first).mu
    penalty = floor.penalty_give(
        tournament=tournament, by=judy, player_id=first.pk, infraction="Unsporting conduct", kind="game_loss"
    )
    table.match.refresh_from_db()
    assert list(table.match.seats.order_by("seat").values_list("place", flat=True)) == [4, 1, 2, 3]
    latest = ResultVersion.objects.filter(match=table.match).order_by("-version").first()
    assert (latest.version, latest.reason, latest.entered_by) == (
        2,
        f"penalty: game loss to {first.name} (Unsporting conduct)",
        judy,
    )
    assert (penalty.result_version, penalty.table_id, penalty.kind) == (2, table.pk, Penalty.Kind.GAME_LOSS)
    rate()
    assert Rating.objects.get(player=first).mu < mu_before


def test_a_game_loss_at_a_larger_table_without_a_result_waits_for_it(floor_event):
    tournament, _, tables, judy = floor_event
    first = seated(tables[0])[0]
    assert refused(
        floor.penalty_give,
        tournament=tournament,
        by=judy,
        player_id=first.pk,
        infraction="Tardiness",
        kind="game_loss",
    ) == (409, "table 1 has no result yet: enter it first, then give the game loss")
    assert Penalty.objects.count() == 0
    assert JudgeCall.objects.count() == 0


def test_hostile_input_is_refused_with_a_message(floor_event):
    tournament, _, tables, judy = floor_event
    ada = seated(tables[0])[0]
    assert refused(
        floor.penalty_give,
        tournament=tournament,
        by=judy,
        player_id=ada.pk,
        infraction="Slow play",
        note="late\x00",
    ) == (400, "a note cannot hold a control character, such as U+0000")
    assert refused(
        floor.penalty_give, tournament=tournament, by=judy, player_id=True, infraction="Slow play"
    ) == (404, "no such player in this tournament")
    assert refused(
        floor.penalty_give,
        tournament=tournament,
        by=judy,
        player_id=ada.pk,
        infraction="Slow play",
        kind="points",
        points="nan",
    ) == (400, "points must be a number from 0.01 to 100")
    assert (
        refused(
            floor.penalty_give, tournament=tournament, by=judy, player_id=ada.pk, infraction=["Slow play"]
        )[0]
        == 400
    )
    assert refused(
        floor.penalty_give,
        tournament=tournament,
        by=judy,
        player_id=ada.pk,
        infraction="Slow play",
        round_number=9,
    ) == (400, "round names a published round of this tournament")
    assert refused(floor.table_extend, table=tables[0], by=judy, minutes="5") == (
        400,
        "minutes must be a whole number from 1 to 30",
    )
    assert refused(
        floor.judge_call_resolve,
        call=floor.judge_call_open(table=tables[0], by=ada.user),
        by=judy,
        note="x" * 1001,
    ) == (
        400,
        "a note has at most 1000 characters",
    )
    assert Penalty.objects.count() == 0
