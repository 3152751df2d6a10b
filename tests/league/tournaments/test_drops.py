"""A player who leaves a fixed field (round robin, elimination) keeps their place in the schedule; their
tables close as forfeits: at once when already published and still waiting,
on publication for later rounds."""

from rest_framework.test import APIClient

from league.matches.models import Match
from league.results.models import ResultVersion
from league.tournaments import services
from league.tournaments.models import Registration, Round
from tests.factories.tournaments import table_seats


def closed(round_row):
    """(closed_as, absent names, places by name) of each table, in table order."""
    rows = []
    for table in round_row.tables.order_by("number").select_related("match"):
        seats = table.match.seats.order_by("seat").select_related("player")
        names = {seat.player_id: seat.player.name for seat in seats}
        rows.append(
            (
                table.closed_as,
                [names[pid] for pid in table.absent],
                {seat.player.name: seat.place for seat in seats},
            )
        )
    return rows


def test_a_round_robin_table_of_a_dropped_player_closes_as_a_forfeit_when_published(
    make_tournament, play_round, organizer, players_by_name
):
    tournament, _ = make_tournament(4, format="round_robin", table_size=2, rated=False)
    play_round(tournament)
    services.registration_leave(
        tournament=tournament, by=organizer, player_id=players_by_name["Dov"].pk, status="dropped"
    )
    second = services.round_generate(tournament=tournament, by=organizer)
    services.round_publish(round_row=second, by=organizer)
    dov_table = next(
        index for index, seats in enumerate(table_seats(second)) if players_by_name["Dov"].pk in seats
    )
    rows = closed(second)
    opponent = next(name for name in rows[dov_table][2] if name != "Dov")
    assert rows[dov_table] == ("forfeit", ["Dov"], {opponent: 1, "Dov": 2})
    assert [row[0] for index, row in enumerate(rows) if index != dov_table] == [""]
    version = ResultVersion.objects.get(
        match__tournament_table__round=second, match__seats__player__name="Dov"
    )
    assert (version.version, version.places, version.reason, version.entered_by) == (
        1,
        [1, 2] if table_seats(second)[dov_table][0] != players_by_name["Dov"].pk else [2, 1],
        "Dov left the tournament",
        organizer,
    )
    # only the other table waits: entering it completes the round
    other = second.tables.exclude(closed_as="forfeit").get()
    services.table_result(table=other, by=organizer, expected_version=0, places=[1, 2])
    assert services.round_complete(round_row=second, by=organizer).status == Round.Status.COMPLETE


def test_an_elimination_table_still_waiting_closes_when_its_player_drops(
    make_tournament, organizer, players_by_name
):
    tournament, _ = make_tournament(4, format="single_elimination", table_size=2, rated=False)
    first = services.round_generate(tournament=tournament, by=organizer)
    services.round_publish(round_row=first, by=organizer)  # Ada v Dov, Bea v Cal
    services.registration_leave(
        tournament=tournament, by=organizer, player_id=players_by_name["Dov"].pk, status="dropped"
    )
    assert closed(first) == [("forfeit", ["Dov"], {"Ada": 1, "Dov": 2}), ("", [], {"Bea": None, "Cal": None})]
    services.table_result(table=first.tables.get(number=2), by=organizer, expected_version=0, places=[2, 1])
    final = tournament.round_set.get(number=2)  # the bracket opens the final by itself
    assert [[players_by_name.name_of(pid) for pid in seats] for seats in table_seats(final)] == [
        ["Ada", "Cal"]
    ]


def test_a_four_seat_table_with_a_no_show_and_a_table_everyone_left(make_tournament, play_round, organizer):
    tournament, players = make_tournament(8, format="round_robin", table_size=4, rated=False)
    play_round(tournament)
    second = services.round_generate(tournament=tournament, by=organizer)
    top, bottom = (list(table.planned_seats) for table in second.tables.order_by("number"))
    services.round_discard(round_row=second, by=organizer)
    for pid in [top[3], *bottom]:
        services.registration_leave(tournament=tournament, by=organizer, player_id=pid, status="no_show")
    second = services.round_generate(tournament=tournament, by=organizer)
    services.round_publish(round_row=second, by=organizer)
    tables = list(second.tables.order_by("number").select_related("match"))
    assert (tables[0].closed_as, tables[0].absent) == ("forfeit", [top[3]])
    assert list(tables[0].match.seats.order_by("seat").values_list("place", flat=True)) == [1, 1, 1, 4]
    assert (tables[1].closed_as, tables[1].match.status) == ("forfeit", Match.Status.VOID)
    assert services.round_complete(round_row=second, by=organizer).status == Round.Status.COMPLETE


def test_dropping_through_the_api_closes_the_waiting_table(make_tournament, organizer, players_by_name):
    tournament, _ = make_tournament(4, format="double_elimination", table_size=2, rated=False)
    first = services.round_generate(tournament=tournament, by=organizer)
    services.round_publish(round_row=first, by=organizer)
    api = APIClient()
    api.force_authenticate(organizer)
    answer = api.patch(
        f"/api/tournaments/{tournament.pk}/registrations/{players_by_name['Cal'].pk}/",
        {"status": "dropped"},
        format="json",
    )
    assert answer.status_code == 200 and answer.json()["status"] == "dropped"
    rounds = api.get(f"/api/tournaments/{tournament.pk}/rounds/").json()
    assert [
        (
            table["label"],
            table["closed_as"],
            table["match_status"],
            [(s["name"], s["place"]) for s in table["seats"]],
        )
        for table in rounds[0]["tables"]
    ] == [
        ("W1-1", "", "scheduled", [("Ada", None), ("Dov", None)]),
        ("W1-2", "forfeit", "finished", [("Bea", 1), ("Cal", 2)]),
    ]
    assert Registration.objects.get(player=players_by_name["Cal"]).left_after_round == 1


def test_a_forfeit_for_a_player_who_left_is_logged(make_tournament, organizer, players_by_name):
    tournament, _ = make_tournament(4, format="single_elimination", table_size=2, rated=False)
    first = services.round_generate(tournament=tournament, by=organizer)
    services.round_publish(round_row=first, by=organizer)
    services.registration_leave(
        tournament=tournament, by=organizer, player_id=players_by_name["Dov"].pk, status="dropped"
    )
    latest = tournament.audit_entries.order_by("-id")[:2]
    assert [(row.action, row.details) for row in reversed(latest)] == [
        ("registration.dropped", {"player": "Dov", "player_id": players_by_name["Dov"].pk, "after_round": 1}),
        ("table.closed", {"round": 1, "table": 1, "label": "R1-1", "kind": "forfeit", "absent": ["Dov"]}),
    ]
