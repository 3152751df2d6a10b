"""The audit log: each organizer action writes one entry with its exact action code and details, inside the
change's transaction (a refused change writes none); the log page shows them newest first, with who and
when, to organizers and site staff only."""

import html
import re

import pytest

from league.core.errors import UserError
from league.tournaments import services
from league.tournaments.errors import StateConflict
from league.tournaments.models import AuditEntry, Tournament
from tests.factories import StaffFactory, UserFactory
from tests.factories.tournaments import open_signup, players_named, user_with_player


def entries(tournament, since: int = 0) -> list[tuple]:
    """(actor, action, details) of the tournament's entries in the order they were written."""
    rows = tournament.audit_entries.select_related("actor").order_by("id")[since:]
    return [(row.actor.username if row.actor else None, row.action, row.details) for row in rows]


def count(tournament) -> int:
    return tournament.audit_entries.count()


def by_seed(tournament) -> dict[int, int]:
    """Seed → player id."""
    return dict(tournament.registrations.values_list("seed", "player_id"))


def test_settings_roles_registrations_and_the_start_are_logged(organizer, db):
    UserFactory(username="helper")
    UserFactory(username="keeper")
    ada, bea, cal, dov, eli = players_named(["Ada", "Bea", "Cal", "Dov", "Eli"])
    tournament = services.tournament_create(
        created_by=organizer, name="Spring Open", game_id="nacho_pile", format="swiss", table_size=4, rounds=3
    )
    services.tournament_update(tournament=tournament, by=organizer, rounds=4, name="Spring Cup", rated=True)
    services.tournament_update(tournament=tournament, by=organizer, rounds=4)  # no change, no entry
    services.tournament_open_registration(tournament=tournament, by=organizer)
    for seed, player in enumerate([ada, bea, cal, dov], start=1):
        services.registration_add(tournament=tournament, by=organizer, player_id=player.pk, seed=seed)
    services.registration_add(tournament=tournament, by=organizer, name="Eli")
    services.registration_leave(tournament=tournament, by=organizer, player_id=dov.pk, status="withdrawn")
    services.role_add(tournament=tournament, by=organizer, username="helper", role="organizer")
    services.role_add(tournament=tournament, by=organizer, username="keeper", role="scorekeeper")
    helper = tournament.organizers.get(username="helper")
    services.role_remove(tournament=tournament, by=helper, username="keeper", role="scorekeeper")
    services.role_remove(tournament=tournament, by=helper, username="organizer", role="organizer")
    services.tournament_seed(tournament=tournament, by=organizer, method="rating")
    services.tournament_start(tournament=tournament, by=helper)
    assert entries(tournament) == [
        ("organizer", "tournament.created", {"name": "Spring Open", "game": "nacho_pile", "format": "swiss"}),
        (
            "organizer",
            "settings.changed",
            {"changes": {"name": ["Spring Open", "Spring Cup"], "rounds": [3, 4]}},
        ),
        ("organizer", "tournament.registration_opened", {}),
        (
            "organizer",
            "registration.added",
            {"player": "Ada", "player_id": ada.pk, "seed": 1, "entered_round": 1},
        ),
        (
            "organizer",
            "registration.added",
            {"player": "Bea", "player_id": bea.pk, "seed": 2, "entered_round": 1},
        ),
        (
            "organizer",
            "registration.added",
            {"player": "Cal", "player_id": cal.pk, "seed": 3, "entered_round": 1},
        ),
        (
            "organizer",
            "registration.added",
            {"player": "Dov", "player_id": dov.pk, "seed": 4, "entered_round": 1},
        ),
        (
            "organizer",
            "registration.added",
            {"player": "Eli", "player_id": eli.pk, "seed": None, "entered_round": 1},
        ),
        ("organizer", "registration.withdrawn", {"player": "Dov", "player_id": dov.pk, "after_round": None}),
        ("organizer", "organizer.added", {"user": "helper"}),
        ("organizer", "scorekeeper.added", {"user": "keeper"}),
        ("helper", "scorekeeper.removed", {"user": "keeper"}),
        ("helper", "organizer.removed", {"user": "organizer"}),
        ("organizer", "tournament.seeded", {"method": "rating", "players": 4}),
        ("helper", "tournament.started", {"players": 4, "no_shows": [], "moved_up": []}),
    ]


def test_rounds_seats_tables_drops_and_the_finish_are_logged(make_tournament, organizer):
    tournament, _ = make_tournament(10)
    since = count(tournament)
    seeds = by_seed(tournament)
    round_row = services.round_generate(tournament=tournament, by=organizer)
    # Round 1's tables: [Ada, Dov, Gus, Jon], [Bea, Eli, Hal], [Cal, Fay, Ivy]
    services.round_swap(
        round_row=round_row, by=organizer, first_table=1, first_seat=2, second_table=2, second_seat=1
    )
    services.round_move(round_row=round_row, by=organizer, player_id=seeds[10], to_table=3)
    services.round_publish(round_row=round_row, by=organizer)
    tables = {table.number: table for table in round_row.tables.all()}
    services.table_close(table=tables[2], by=organizer, absent=[seeds[5]], kind="no_show")
    services.table_result(table=tables[1], by=organizer, expected_version=0, places=[1, 2, 3])
    services.table_result(table=tables[3], by=organizer, expected_version=0, places=[1, 2, 3, 4])
    services.round_complete(round_row=round_row, by=organizer)
    services.registration_leave(tournament=tournament, by=organizer, player_id=seeds[1], status="dropped")
    services.registration_leave(tournament=tournament, by=organizer, player_id=seeds[2], status="no_show")
    second = services.round_generate(tournament=tournament, by=organizer)
    services.round_discard(round_row=second, by=organizer)
    services.tournament_finish(tournament=tournament, by=organizer)
    assert entries(tournament, since) == [
        ("organizer", "round.generated", {"round": 1, "tables": 3}),
        (
            "organizer",
            "seats.swapped",
            {
                "round": 1,
                "first": {"table": 1, "seat": 2, "player": "Dov"},
                "second": {"table": 2, "seat": 1, "player": "Bea"},
            },
        ),
        (
            "organizer",
            "seats.moved",
            {"round": 1, "player": "Jon", "player_id": seeds[10], "from_table": 1, "to_table": 3},
        ),
        ("organizer", "round.published", {"round": 1, "tables": 3}),
        (
            "organizer",
            "table.closed",
            {
                "round": 1,
                "table": 2,
                "label": "",
                "kind": "no_show",
                "absent": ["Eli"],
                "table_id": tables[2].pk,
                "version": 1,
                "no_shows": [seeds[5]],
            },
        ),
        ("organizer", "round.completed", {"round": 1}),
        ("organizer", "registration.dropped", {"player": "Ada", "player_id": seeds[1], "after_round": 1}),
        ("organizer", "registration.no_show", {"player": "Bea", "player_id": seeds[2], "after_round": 1}),
        ("organizer", "round.generated", {"round": 2, "tables": 2}),
        ("organizer", "round.discarded", {"round": 2}),
        ("organizer", "tournament.finished", {"after_round": 1, "early": True}),
    ]


def test_the_last_round_finishing_the_tournament_is_logged(make_tournament, organizer, play_round):
    tournament, _ = make_tournament(8, rounds=1)
    since = count(tournament)
    play_round(tournament)
    assert [action for _, action, _ in entries(tournament, since)] == [
        "round.generated",
        "round.published",
        "round.completed",
        "tournament.finished",
    ]
    assert entries(tournament)[-1] == ("organizer", "tournament.finished", {"after_round": 1, "early": False})


def test_sign_up_approval_check_in_and_the_clock_are_logged(organizer, db):
    ada, bea, cal = (user_with_player(name.lower(), name) for name in ("Ada", "Bea", "Cal"))
    tournament = open_signup(
        organizer,
        capacity=1,
        approval=True,
        schedule={
            "time_zone": "Europe/Berlin",
            "starts_at": "2099-12-05 10:00",
            "checkin_opens_at": "2020-01-01 09:00",
        },
    )
    since = count(tournament)
    for user in (ada, bea, cal):
        services.registration_join(tournament=tournament, by=user)
    ids = dict(tournament.registrations.values_list("player__name", "player_id"))
    services.registration_decide(tournament=tournament, by=organizer, player_id=ids["Ada"], approve=True)
    services.registration_decide(tournament=tournament, by=organizer, player_id=ids["Bea"], approve=True)
    services.registration_decide(tournament=tournament, by=organizer, player_id=ids["Cal"], approve=False)
    services.registration_check_in(tournament=tournament, by=bea)
    services.registration_check_in(tournament=tournament, by=organizer, player_id=ids["Ada"])
    services.registration_check_in(
        tournament=tournament, by=organizer, player_id=ids["Ada"], checked_in=False
    )
    services.registration_check_in(
        tournament=tournament, by=organizer, player_id=ids["Ada"], checked_in=False
    )
    services.registration_withdraw(tournament=tournament, by=ada)
    services.signup_configure(tournament=tournament, by=organizer, capacity=5, approval=False)
    services.tournament_schedule(
        tournament=tournament,
        by=organizer,
        starts_at="2099-12-05 11:00",
        round_times=["2099-12-05 11:00", "2099-12-05 12:30"],
    )
    assert entries(tournament, since) == [
        ("ada", "registration.joined", {"player": "Ada", "player_id": ids["Ada"], "status": "pending"}),
        ("bea", "registration.joined", {"player": "Bea", "player_id": ids["Bea"], "status": "pending"}),
        ("cal", "registration.joined", {"player": "Cal", "player_id": ids["Cal"], "status": "pending"}),
        (
            "organizer",
            "registration.approved",
            {"player": "Ada", "player_id": ids["Ada"], "status": "active"},
        ),
        (
            "organizer",
            "registration.approved",
            {"player": "Bea", "player_id": ids["Bea"], "status": "waitlisted"},
        ),
        (
            "organizer",
            "registration.declined",
            {"player": "Cal", "player_id": ids["Cal"], "status": "declined"},
        ),
        ("bea", "registration.checked_in", {"player": "Bea", "player_id": ids["Bea"], "desk": False}),
        ("organizer", "registration.checked_in", {"player": "Ada", "player_id": ids["Ada"], "desk": True}),
        (
            "organizer",
            "registration.check_in_undone",
            {"player": "Ada", "player_id": ids["Ada"], "desk": True},
        ),
        ("ada", "registration.left", {"player": "Ada", "player_id": ids["Ada"], "moved_up": ["Bea"]}),
        ("organizer", "settings.changed", {"changes": {"capacity": [1, 5], "approval": [True, False]}}),
        (
            "organizer",
            "settings.changed",
            {
                "changes": {
                    "starts_at": ["2099-12-05T09:00:00+00:00", "2099-12-05T10:00:00+00:00"],
                    "round_times": [[], ["2099-12-05T10:00:00+00:00", "2099-12-05T11:30:00+00:00"]],
                }
            },
        ),
    ]


def test_a_refused_change_writes_no_entry(make_tournament, organizer, stranger):
    tournament, _ = make_tournament(8)
    since = count(tournament)
    with pytest.raises(StateConflict):
        services.tournament_update(tournament=tournament, by=organizer, rounds=5)
    with pytest.raises(UserError):
        services.registration_add(tournament=tournament, by=stranger, name="Zed")
    round_row = services.round_generate(tournament=tournament, by=organizer)
    with pytest.raises(UserError):
        services.round_swap(
            round_row=round_row, by=organizer, first_table=1, first_seat=9, second_table=2, second_seat=1
        )
    assert [action for _, action, _ in entries(tournament, since)] == ["round.generated"]


def test_the_one_writer_refuses_an_unknown_action(make_tournament, organizer):
    tournament, _ = make_tournament(4, start=False)
    with pytest.raises(ValueError, match="unknown audit action 'round.exploded'"):
        services.audit(tournament, organizer, "round.exploded")
    entry = services.audit(tournament, None, AuditEntry.Action.RESULT_RESET, round=3, table=2, label="W2-1")
    assert (entry.actor, entry.details) == (None, {"round": 3, "table": 2, "label": "W2-1"})


# The log page


def log_rows(page: str) -> list[tuple[str, str, str]]:
    """(action code, who, what) of each row of the log table."""
    return [
        (action, html.unescape(re.sub(r"<[^>]+>", "", who)), html.unescape(re.sub(r"<[^>]+>", "", what)))
        for action, who, what in re.findall(
            r'<tr data-action="([^"]+)"><td class="log-when">.*?</td><td>(.*?)</td><td>(.*?)</td></tr>',
            page,
        )
    ]


def test_the_log_page_shows_who_did_what_newest_first(client, make_tournament, organizer):
    tournament, _ = make_tournament(10)
    round_row = services.round_generate(tournament=tournament, by=organizer)
    services.round_swap(
        round_row=round_row, by=organizer, first_table=1, first_seat=2, second_table=2, second_seat=1
    )
    services.round_publish(round_row=round_row, by=organizer)
    table = round_row.tables.get(number=3)
    services.table_close(table=table, by=organizer, absent=[table.planned_seats[0]], kind="forfeit")
    client.force_login(organizer)
    page = client.get(f"/tournaments/{tournament.slug}/log/").content.decode()
    rows = log_rows(page)
    assert rows[:5] == [
        ("table.closed", "organizer", "Closed round 1, table 3 as forfeit: Cal absent"),
        ("round.published", "organizer", "Published round 1 (3 tables)"),
        (
            "seats.swapped",
            "organizer",
            "Round 1 draft: swapped Dov (table 1, seat 2) and Bea (table 2, seat 1)",
        ),
        ("round.generated", "organizer", "Generated round 1 as a draft (3 tables)"),
        ("tournament.started", "organizer", "Started the tournament with 10 players"),
    ]
    assert rows[-2:] == [
        ("registration.added", "organizer", "Registered Ada (seed 1)"),
        ("tournament.created", "organizer", "Created Spring Open: Nacho Pile, Swiss"),
    ]
    assert len(rows) == 16
    entry = tournament.audit_entries.order_by("-at", "-id").first()
    assert (
        '<td class="log-when"><time '
        f'datetime="{entry.at.isoformat()}">{entry.at:%-d %b %Y}<br>{entry.at:%H:%M:%S}' in page
    )
    assert "Times in UTC." in page


def test_the_log_words_settings_in_the_events_clock(client, organizer, db):
    tournament = open_signup(organizer, capacity=2)
    services.tournament_schedule(
        tournament=tournament, by=organizer, time_zone="Europe/Berlin", starts_at="2099-12-05 10:00"
    )
    services.tournament_update(tournament=tournament, by=organizer, points={"2": [3, 0]}, third_place=True)
    client.force_login(organizer)
    rows = log_rows(client.get(f"/tournaments/{tournament.slug}/log/").content.decode())
    assert rows[:2] == [
        (
            "settings.changed",
            "organizer",
            'Changed settings: points none → {"2": [3, 0]}; third place no → yes',
        ),
        (
            "settings.changed",
            "organizer",
            "Changed settings: starts at none → Sat 5 Dec 2099, 10:00 (Europe/Berlin); time zone UTC → "
            "Europe/Berlin",
        ),
    ]


def test_the_log_is_paginated(client, make_tournament, organizer):
    tournament, _ = make_tournament(4, start=False)
    for number in range(60):
        services.audit(tournament, organizer, AuditEntry.Action.RESULT_RESET, round=number, table=1)
    client.force_login(organizer)
    first = client.get(f"/tournaments/{tournament.slug}/log/").content.decode()
    second = client.get(f"/tournaments/{tournament.slug}/log/?page=2").content.decode()
    assert len(log_rows(first)) == 50 and "Page 1 of 2" in first
    assert log_rows(first)[0] == ("result.reset", "organizer", "Reset the result of round 59, table 1")
    assert len(log_rows(second)) == count(tournament) - 50


@pytest.mark.parametrize("who", ["anonymous", "stranger", "scorekeeper", "organizer", "staff"])
def test_the_log_is_for_organizers_and_staff_only(client, make_tournament, organizer, stranger, who):
    tournament, _ = make_tournament(4)
    keeper = UserFactory(username="keeper")
    services.role_add(tournament=tournament, by=organizer, username="keeper", role="scorekeeper")
    users = {
        "stranger": stranger,
        "scorekeeper": keeper,
        "organizer": organizer,
        "staff": StaffFactory(username="site-staff"),
    }
    if who != "anonymous":
        client.force_login(users[who])
    response = client.get(f"/tournaments/{tournament.slug}/log/")
    detail = client.get(f"/tournaments/{tournament.slug}/").content.decode()
    if who == "anonymous":
        assert response.status_code == 302
        assert response["Location"] == f"/accounts/login/?next=/tournaments/{tournament.slug}/log/"
    elif who in ("stranger", "scorekeeper"):
        assert response.status_code == 403
        assert "Log of organizer actions" not in detail
    else:
        assert response.status_code == 200
        assert f'<a href="/tournaments/{tournament.slug}/log/">Log of organizer actions</a>' in detail


def test_the_log_page_query_count_does_not_grow_with_entries(
    client, make_tournament, organizer, django_assert_max_num_queries
):
    tournament, _ = make_tournament(12)
    client.force_login(organizer)
    with django_assert_max_num_queries(12):
        client.get(f"/tournaments/{tournament.slug}/log/")
    for number in range(40):
        services.audit(tournament, organizer, AuditEntry.Action.RESULT_RESET, round=number, table=1)
    with django_assert_max_num_queries(12):
        assert client.get(f"/tournaments/{tournament.slug}/log/").status_code == 200
    assert Tournament.objects.filter(pk=tournament.pk).exists()
