"""A player who drops during a round at a table of 3 or more: the others play on, the leaver is placed last
(several leavers share last), the others' places are entered as usual and the table is rated as played."""

from league.core.errors import UserError
from league.players.models import Player
from league.ratings.models import Rating
from league.results.services import match_create, result_submit
from league.tournaments import services
from league.tournaments.models import Table
from tests.factories import UserFactory
from tests.factories.tournaments import players_named, table_seats


def _pod(make_tournament, organizer):
    tournament, _ = make_tournament(4, format="swiss", table_size=4, rounds=2)
    first = services.round_generate(tournament=tournament, by=organizer)
    services.round_publish(round_row=first, by=organizer)
    return tournament, first


def _places(table):
    return {
        seat.player.name: seat.place for seat in table.match.seats.order_by("seat").select_related("player")
    }


def test_a_dropped_player_is_placed_last_and_the_others_enter_their_places(
    make_tournament, organizer, players_by_name, rate
):
    tournament, first = _pod(make_tournament, organizer)
    seats = table_seats(first)[0]
    dov = players_by_name["Dov"].pk
    services.registration_leave(tournament=tournament, by=organizer, player_id=dov, status="dropped")
    table = Table.objects.get(round=first)
    assert (table.closed_as, table.absent, table.match.status) == ("", [dov], "scheduled")
    # the organizer enters the three still playing; Dov's entry is left at last place
    wanted = {"Cal": 1, "Ada": 2, "Bea": 3, "Dov": 4}
    services.table_result(
        table=table,
        by=organizer,
        expected_version=0,
        places=[wanted[players_by_name.name_of(pid)] for pid in seats],
    )
    table.refresh_from_db()
    assert (table.closed_as, table.absent, _places(table)) == (
        "",
        [dov],
        {"Ada": 2, "Bea": 3, "Cal": 1, "Dov": 4},
    )
    # rated as a played table: the same moves as four newcomers playing to the same places
    twins = players_named(["Twin Ada", "Twin Bea", "Twin Cal", "Twin Dov"])
    twin_of = {f"Twin {name}": name for name in wanted}
    casual = match_create(game_id="nacho_pile", player_ids=[p.pk for p in twins], created_by=organizer)
    result_submit(
        match_id=casual.pk,
        expected_version=0,
        places=[wanted[twin_of[p.name]] for p in twins],
        entered_by=organizer,
    )
    rate()
    ratings = {r.player.name: round(r.mu, 6) for r in Rating.objects.select_related("player")}
    assert {name: ratings[name] for name in wanted} == {name: ratings[f"Twin {name}"] for name in wanted}
    assert ratings["Cal"] > ratings["Ada"] > ratings["Bea"] > ratings["Dov"]


def test_two_leavers_share_last_place(make_tournament, organizer, players_by_name):
    tournament, first = _pod(make_tournament, organizer)
    for name in ("Bea", "Dov"):
        services.registration_leave(
            tournament=tournament, by=organizer, player_id=players_by_name[name].pk, status="dropped"
        )
    table = Table.objects.get(round=first)
    seats = table_seats(first)[0]
    given = {"Ada": 2, "Cal": 1, "Bea": 3, "Dov": 4}
    services.table_result(
        table=table,
        by=organizer,
        expected_version=0,
        places=[given[players_by_name.name_of(pid)] for pid in seats],
    )
    assert _places(Table.objects.get(pk=table.pk)) == {"Ada": 2, "Bea": 3, "Cal": 1, "Dov": 3}


def test_a_leaver_entered_ahead_of_a_player_still_there_is_refused(
    make_tournament, organizer, players_by_name
):
    tournament, first = _pod(make_tournament, organizer)
    services.registration_leave(
        tournament=tournament, by=organizer, player_id=players_by_name["Dov"].pk, status="dropped"
    )
    table = Table.objects.get(round=first)
    seats = table_seats(first)[0]
    given = {"Ada": 2, "Bea": 4, "Cal": 3, "Dov": 1}
    try:
        services.table_result(
            table=table,
            by=organizer,
            expected_version=0,
            places=[given[players_by_name.name_of(pid)] for pid in seats],
        )
    except UserError as exc:
        assert (exc.status, exc.field, exc.message) == (
            400,
            "places",
            "Dov left the tournament during this round and is placed last: enter the places of the "
            "players still at the table ahead of them",
        )
    else:
        raise AssertionError("the result was stored")
    assert Table.objects.get(pk=table.pk).match.result_version == 0


def test_with_one_player_left_at_the_table_it_closes_as_a_forfeit(
    make_tournament, organizer, players_by_name
):
    tournament, first = _pod(make_tournament, organizer)
    for name in ("Bea", "Cal", "Dov"):
        services.registration_leave(
            tournament=tournament, by=organizer, player_id=players_by_name[name].pk, status="dropped"
        )
    table = Table.objects.get(round=first)
    assert table.closed_as == "forfeit"
    assert _places(table) == {"Ada": 1, "Bea": 2, "Cal": 2, "Dov": 2}


def test_the_result_page_shows_the_leaver_placed_last(make_tournament, organizer, players_by_name, client):
    tournament, first = _pod(make_tournament, organizer)
    services.registration_leave(
        tournament=tournament, by=organizer, player_id=players_by_name["Dov"].pk, status="dropped"
    )
    client.force_login(organizer)
    page = client.get(f"/tournaments/{tournament.slug}/rounds/1/tables/1/result/")
    assert page.status_code == 200
    text = page.content.decode()
    assert "<bdi>Dov</bdi> left the tournament during this round: placed last." in text
    dov_seat = table_seats(first)[0].index(players_by_name["Dov"].pk)
    assert page.context["form"][f"place_{dov_seat}"].value() == 4


def test_a_players_report_places_the_leaver_last(make_tournament, organizer, players_by_name):
    tournament, first = _pod(make_tournament, organizer)
    tournament.result_reporting = "self_report"
    tournament.save(update_fields=["result_reporting"])
    for name in ("Ada", "Bea", "Cal"):
        Player.objects.filter(name=name).update(user=UserFactory(username=name.lower()))
    services.registration_leave(
        tournament=tournament, by=organizer, player_id=players_by_name["Dov"].pk, status="dropped"
    )
    table = Table.objects.get(round=first)
    seats = table_seats(first)[0]
    wrong = {"Ada": 2, "Bea": 3, "Cal": 4, "Dov": 1}
    try:
        services.table_report(
            table=table,
            by=players_by_name["Ada"].user,
            expected_version=0,
            places=[wrong[players_by_name.name_of(pid)] for pid in seats],
        )
    except UserError as exc:
        assert (exc.status, exc.message) == (
            400,
            "Dov left the tournament during this round and is placed last: enter the places of the "
            "players still at the table ahead of them",
        )
    else:
        raise AssertionError("the report was taken")
    given = {"Ada": 1, "Bea": 3, "Cal": 2, "Dov": 4}
    report = services.table_report(
        table=table,
        by=players_by_name["Ada"].user,
        expected_version=0,
        places=[given[players_by_name.name_of(pid)] for pid in seats],
    )
    # Dov left: only Bea and Cal confirm
    assert sorted(players_by_name.name_of(pid) for pid in report.awaiting) == ["Bea", "Cal"]
    for name in ("Bea", "Cal"):
        services.table_confirm(table=table, by=players_by_name[name].user, report_id=report.pk)
    assert _places(Table.objects.get(pk=table.pk)) == given
