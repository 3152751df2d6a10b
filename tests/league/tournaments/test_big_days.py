"""Big days: the next round starts by itself as soon as every table is in (published when its draft is clean,
else waiting as a draft with the organizers told), and a Day 2 for the players at or above a points
threshold after Day 1 (issue 48)."""

import pytest

from league.celery import app
from league.core.errors import UserError
from league.notifications.models import Notification
from league.players.models import Player
from league.tournaments import days, services
from league.tournaments import tasks as tournament_tasks
from league.tournaments.draft_warnings import draft_warnings
from league.tournaments.errors import StateConflict
from league.tournaments.models import AuditEntry
from tests.factories import UserFactory
from tests.factories.tournaments import better_seed_wins, make_tournament, play_round

pytestmark = pytest.mark.django_db


@pytest.fixture
def eager():
    """Tasks run at once in this process, errors raised (the worker's task bodies, without a worker); the
    tournaments' tasks registered (a worker imports them), so their names resolve."""
    assert tournament_tasks.round_advance_task.name == "league.tournaments.tasks.round_advance_task"
    before = (app.conf.task_always_eager, app.conf.task_eager_propagates)
    app.conf.task_always_eager, app.conf.task_eager_propagates = True, True
    yield
    app.conf.task_always_eager, app.conf.task_eager_propagates = before


def enter_all(round_row, organizer, capture):
    """Enter every table's result (seat order is the finishing order), the callbacks after each commit run."""
    for table in round_row.tables.order_by("number"):
        with capture(execute=True):
            services.table_result(
                table=table,
                by=organizer,
                expected_version=0,
                places=list(range(1, len(table.planned_seats) + 1)),
            )


def statuses(tournament):
    return list(tournament.round_set.order_by("number").values_list("number", "status"))


def test_a_clean_next_round_is_published_by_itself(organizer, eager, django_capture_on_commit_callbacks):
    tournament, _ = make_tournament(organizer, 4, table_size=2, rounds=3, auto_next_round=True)
    first = services.round_generate(tournament=tournament, by=organizer)
    services.round_publish(round_row=first, by=organizer)
    tables = list(first.tables.order_by("number"))
    with django_capture_on_commit_callbacks(execute=True):
        services.table_result(table=tables[0], by=organizer, expected_version=0, places=[1, 2])
    assert statuses(tournament) == [(1, "published")]  # a table still waits
    with django_capture_on_commit_callbacks(execute=True):
        services.table_result(table=tables[1], by=organizer, expected_version=0, places=[1, 2])
    assert statuses(tournament) == [(1, "complete"), (2, "published")]
    published = AuditEntry.objects.get(tournament=tournament, action="round.published", details__round=2)
    assert published.actor is None  # the system
    assert not Notification.objects.filter(kind="round_waiting").exists()


def test_a_draft_with_warnings_waits_and_the_organizers_are_told(
    organizer, eager, django_capture_on_commit_callbacks
):
    # four players at tables of 2 meet everyone in three rounds: the fourth repeats every pairing
    tournament, _ = make_tournament(organizer, 4, table_size=2, rounds=4)
    play_round(tournament, organizer)
    play_round(tournament, organizer)
    third = services.round_generate(tournament=tournament, by=organizer)
    services.round_publish(round_row=third, by=organizer)
    services.tournament_update(tournament=tournament, by=organizer, auto_next_round=True)
    enter_all(third, organizer, django_capture_on_commit_callbacks)
    assert statuses(tournament) == [(1, "complete"), (2, "complete"), (3, "complete"), (4, "draft")]
    fourth = tournament.round_set.get(number=4)
    warnings = draft_warnings(fourth)
    assert [w.kind for w in warnings].count("repeat_opponents") == 2
    note = Notification.objects.get(kind="round_waiting")
    assert (note.user, note.link) == (organizer, "/tournaments/spring-open/rounds/4/")
    assert note.text == (
        f"Round 4 of \u2068Spring Open\u2069 waits as a draft ({len(warnings)} warnings): check it, then "
        "publish it."
    )
    entry = AuditEntry.objects.get(tournament=tournament, action="round.waiting")
    assert entry.details == {"round": 4, "warnings": len(warnings), "disputes": 0, "problem": ""}


def test_an_open_dispute_keeps_a_clean_draft_waiting(organizer, eager, django_capture_on_commit_callbacks):
    tournament, players = make_tournament(
        organizer, 4, table_size=2, rounds=3, result_reporting="self_report", auto_next_round=True
    )
    users = {}
    for player in players:
        users[player.name] = UserFactory(username=player.name.lower())
        Player.objects.filter(pk=player.pk).update(user=users[player.name])
    first = services.round_generate(tournament=tournament, by=organizer)
    services.round_publish(round_row=first, by=organizer)
    top, bottom = first.tables.order_by("number")
    names = dict(Player.objects.values_list("pk", "name"))
    starter, other = (names[pid] for pid in top.planned_seats)
    with django_capture_on_commit_callbacks(execute=True):
        report = services.table_report(table=top, by=users[starter], expected_version=0, places=[1, 2])
        services.table_confirm(table=top, by=users[other], report_id=report.pk)
        services.table_dispute(table=top, by=users[other], report_id=report.pk, note="I won")
    with django_capture_on_commit_callbacks(execute=True):
        services.table_result(table=bottom, by=organizer, expected_version=0, places=[1, 2])
    assert statuses(tournament) == [(1, "complete"), (2, "draft")]
    assert draft_warnings(tournament.round_set.get(number=2)) == []
    note = Notification.objects.get(kind="round_waiting")
    assert note.text == (
        "Round 2 of \u2068Spring Open\u2069 waits as a draft (1 open dispute): check it, then publish it."
    )


def test_the_task_run_twice_starts_one_round(organizer, eager, django_capture_on_commit_callbacks):
    tournament, _ = make_tournament(organizer, 4, table_size=2, rounds=3, auto_next_round=True)
    first = services.round_generate(tournament=tournament, by=organizer)
    services.round_publish(round_row=first, by=organizer)
    enter_all(first, organizer, django_capture_on_commit_callbacks)
    assert services.round_advance(round_id=first.pk) == "nothing"
    assert statuses(tournament) == [(1, "complete"), (2, "published")]


def test_the_last_round_finishes_the_tournament_and_starts_nothing(
    organizer, eager, django_capture_on_commit_callbacks
):
    tournament, _ = make_tournament(organizer, 4, table_size=2, rounds=1, auto_next_round=True)
    first = services.round_generate(tournament=tournament, by=organizer)
    services.round_publish(round_row=first, by=organizer)
    enter_all(first, organizer, django_capture_on_commit_callbacks)
    tournament.refresh_from_db()
    assert (statuses(tournament), tournament.status) == ([(1, "complete")], "finished")


def test_without_the_setting_the_round_waits_for_the_organizer(
    organizer, eager, django_capture_on_commit_callbacks
):
    tournament, _ = make_tournament(organizer, 4, table_size=2, rounds=3)
    first = services.round_generate(tournament=tournament, by=organizer)
    services.round_publish(round_row=first, by=organizer)
    enter_all(first, organizer, django_capture_on_commit_callbacks)
    assert statuses(tournament) == [(1, "published")]


def test_the_setting_changes_while_the_event_runs_and_others_stay_fixed(organizer):
    tournament, _ = make_tournament(organizer, 4, table_size=2, rounds=3)
    services.tournament_update(tournament=tournament, by=organizer, auto_next_round=True)
    tournament.refresh_from_db()
    assert tournament.auto_next_round is True
    with pytest.raises(StateConflict) as caught:
        services.tournament_update(tournament=tournament, by=organizer, table_size=4)
    assert caught.value.message == "settings are fixed once the tournament has started"


# Day 2


def day_two_field(organizer):
    """Eight players at tables of 2, Swiss over 4 rounds, Day 2 after round 2 for 2 points or more.

    Hand-derived: round 1 seats Ada-Eli, Bea-Fay, Cal-Gus, Dov-Hal (the Dutch fold of seeds 1-8); the better
    seed wins, so Ada, Bea, Cal and Dov have 1 point. Round 2 pairs the winners among themselves (Ada-Cal,
    Bea-Dov) and the losers (Eli-Gus, Fay-Hal); the better seed wins again. After Day 1: Ada 2, Bea 2, Cal 1,
    Dov 1, Eli 1, Fay 1, Gus 0, Hal 0. At 2 points Ada and Bea qualify; at 1 point six players do."""
    tournament, _ = make_tournament(organizer, 8, table_size=2, rounds=4, day2_after_round=2, day2_points=2)
    play_round(tournament, organizer, better_seed_wins(tournament))
    play_round(tournament, organizer, better_seed_wins(tournament))
    return tournament


def names_of(round_row):
    names = dict(Player.objects.values_list("pk", "name"))
    return sorted(names[pid] for table in round_row.tables.all() for pid in table.planned_seats)


def test_day_two_is_for_the_players_at_or_above_the_threshold(organizer):
    tournament = day_two_field(organizer)
    third = services.round_generate(tournament=tournament, by=organizer)
    assert names_of(third) == ["Ada", "Bea"]
    assert [(d.number, d.first_round, d.last_round, d.field) for d in days.tournament_days(tournament)] == [
        (1, 1, 2, "everyone"),
        (2, 3, 4, "the players with at least 2 points after round 2"),
    ]
    qualified = days.tournament_days(tournament)[1].qualified
    assert [(q.name, q.points) for q in qualified] == [("Ada", 2.0), ("Bea", 2.0)]


def test_a_lower_threshold_takes_everyone_on_it_not_a_number_of_places(organizer):
    tournament = day_two_field(organizer)
    services.tournament_update(tournament=tournament, by=organizer, day2_points=1)
    tournament.refresh_from_db()
    third = services.round_generate(tournament=tournament, by=organizer)
    assert names_of(third) == ["Ada", "Bea", "Cal", "Dov", "Eli", "Fay"]
    assert [q.name for q in days.tournament_days(tournament)[1].qualified] == [
        "Ada",
        "Bea",
        "Cal",
        "Dov",
        "Eli",
        "Fay",
    ]


def test_day_two_settings_are_checked(organizer):
    tournament, _ = make_tournament(organizer, 4, table_size=2, rounds=3, start=False)
    cases = [
        (
            {"day2_after_round": 3, "day2_points": 1},
            "Day 1 ends before the last of the 3 rounds: at round 2 at the latest",
        ),
        (
            {"day2_after_round": 1},
            "a Day 2 needs both the last round of Day 1 and the points that qualify for it",
        ),
        ({"day2_after_round": 1, "day2_points": -1}, "day2_points is from 0 to 10000"),
        ({"day2_after_round": 1, "day2_points": "lots"}, "day2_points is a number of points, e.g. 9 or 7.5"),
        (
            {"format": "round_robin", "day2_after_round": 1, "day2_points": 1},
            "a Day 2 follows a Swiss Day 1: it is for the Swiss format",
        ),
    ]
    for changes, message in cases:
        with pytest.raises(UserError) as caught:
            services.tournament_update(tournament=tournament, by=organizer, **changes)
        assert (caught.value.status, caught.value.message) == (400, message)


def test_day_two_settings_close_once_day_two_is_drawn(organizer):
    tournament = day_two_field(organizer)
    services.round_generate(tournament=tournament, by=organizer)
    with pytest.raises(UserError) as caught:
        services.tournament_update(tournament=tournament, by=organizer, day2_points=1)
    assert (caught.value.status, caught.value.message) == (
        409,
        "settings are fixed once the tournament has started",
    )


def test_a_day_two_set_while_running_starts_after_the_rounds_drawn(organizer):
    tournament, _ = make_tournament(organizer, 4, table_size=2, rounds=4)
    play_round(tournament, organizer)
    play_round(tournament, organizer)
    with pytest.raises(StateConflict) as caught:
        services.tournament_update(tournament=tournament, by=organizer, day2_after_round=1, day2_points=1)
    assert caught.value.message == "round 2 is drawn already: Day 2 starts after the last round drawn"
    services.tournament_update(tournament=tournament, by=organizer, day2_after_round=2, day2_points=1)
    tournament.refresh_from_db()
    assert (tournament.day2_after_round, tournament.day2_points) == (2, 1.0)
