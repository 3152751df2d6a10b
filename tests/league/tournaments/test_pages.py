"""Tournament pages: who sees what (anonymous, non-organizer, organizer, staff), what each control does,
the errors they show, CSV exports, find-my-table, each player's path, and query counts that do not grow
with rows."""

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from league.tournaments import services
from league.tournaments.models import Round, Tournament
from tests.factories import StaffFactory, UserFactory
from tests.factories.tournaments import table_seats


@pytest.fixture
def added_organizer(db):
    return UserFactory(username="helper")


@pytest.fixture
def running(make_tournament, play_round, organizer, added_organizer):
    """A 4-seat Swiss of 8: round 1 complete, round 2 a draft."""
    tournament, players = make_tournament(8)
    tournament.organizers.add(added_organizer)
    play_round(tournament)
    services.round_generate(tournament=tournament, by=organizer)
    return tournament


def pages(tournament):
    slug = tournament.slug
    return {
        "detail": f"/tournaments/{slug}/",
        "round": f"/tournaments/{slug}/rounds/1/",
        "find": f"/tournaments/{slug}/rounds/1/find/",
        "path": f"/tournaments/{slug}/players/ada/",
        "standings.csv": f"/tournaments/{slug}/standings.csv",
        "results.csv": f"/tournaments/{slug}/results.csv",
    }


@pytest.mark.parametrize("who", ["anonymous", "stranger", "helper", "organizer", "other staff"])
def test_public_pages_are_open_to_everyone_and_controls_only_to_organizers(client, running, who, request):
    if who == "other staff":
        client.force_login(StaffFactory(username="site-staff"))
    elif who != "anonymous":
        client.force_login(request.getfixturevalue({"helper": "added_organizer"}.get(who, who)))
    for name, url in pages(running).items():
        assert client.get(url).status_code == 200, name
    detail = client.get(f"/tournaments/{running.slug}/").content.decode()
    draft = client.get(f"/tournaments/{running.slug}/rounds/2/")
    organizer = who in ("helper", "organizer", "other staff")
    assert ('id="controls"' in detail) is organizer
    assert ("Add organizer" in detail) is organizer
    assert draft.status_code == (200 if organizer else 404), "drafts are for organizers"


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("get", "rounds/1/tables/1/result/"),
        ("post", "rounds/1/tables/1/result/"),
        ("post", "rounds/1/tables/1/close/"),
        ("post", "rounds/2/publish/"),
        ("post", "rounds/2/discard/"),
        ("post", "rounds/2/swap/"),
        ("post", "rounds/2/move/"),
        ("post", "generate/"),
        ("post", "register/"),
        ("post", "leave/"),
        ("post", "finish/"),
        ("post", "organizers/"),
    ],
)
def test_controls_send_anonymous_visitors_to_log_in_and_refuse_strangers(
    client, running, stranger, method, path
):
    url = f"/tournaments/{running.slug}/{path}"
    response = getattr(client, method)(url)
    assert response.status_code == 302
    assert response["Location"].startswith("/accounts/login/?next=")
    client.force_login(stranger)
    response = getattr(client, method)(url)
    assert response.status_code == 403
    who = "organizers and scorekeepers" if path.endswith("/result/") else "organizers"
    assert f"Only the tournament&#x27;s {who} (and site staff) can do this." in response.content.decode()
    assert Round.objects.get(number=2).status == Round.Status.DRAFT


def test_a_draft_tournament_is_hidden_from_visitors(client, make_tournament, stranger, organizer):
    tournament, _ = make_tournament(4, start=False)
    assert client.get(f"/tournaments/{tournament.slug}/").status_code == 404
    assert tournament.name not in client.get("/tournaments/").content.decode()
    client.force_login(organizer)
    assert client.get(f"/tournaments/{tournament.slug}/").status_code == 200


def test_only_staff_open_the_new_tournament_page(client, stranger, organizer):
    assert client.get("/tournaments/new/").status_code == 302
    client.force_login(stranger)
    assert client.get("/tournaments/new/").status_code == 302
    client.force_login(organizer)
    response = client.post(
        "/tournaments/new/",
        {
            "name": "Cup",
            "game_id": "nacho_pile",
            "format": "swiss",
            "table_size": 9,
            "leftovers": "short",
            "rounds": 3,
            "advance": 1,
        },
    )
    assert response.status_code == 400
    assert "Ensure this value is less than or equal to 7." in response.content.decode()
    response = client.post(
        "/tournaments/new/",
        {
            "name": "Cup",
            "game_id": "nacho_pile",
            "format": "swiss",
            "table_size": 4,
            "leftovers": "short",
            "advance": 1,
        },
    )
    assert response.status_code == 400
    assert "a Swiss tournament needs its number of rounds" in response.content.decode()
    response = client.post(
        "/tournaments/new/",
        {
            "name": "Cup",
            "game_id": "nacho_pile",
            "format": "swiss",
            "table_size": 4,
            "leftovers": "short",
            "rounds": 3,
            "advance": 1,
            "tiebreak_1": "points",
            "tiebreak_2": "wins",
        },
    )
    assert response.status_code == 302
    assert Tournament.objects.get().tiebreaks == ["points", "wins"]


def test_generating_before_the_round_is_complete_shows_the_conflict(client, running, organizer):
    client.force_login(organizer)
    response = client.post(f"/tournaments/{running.slug}/generate/")
    assert response.status_code == 409
    assert "round 2 is not complete yet: the next round waits for every result" in response.content.decode()


def test_result_entry_goes_from_table_to_table_in_order(client, make_tournament, organizer):
    tournament, _ = make_tournament(12)
    round_row = services.round_generate(tournament=tournament, by=organizer)
    services.round_publish(round_row=round_row, by=organizer)
    client.force_login(organizer)
    base = f"/tournaments/{tournament.slug}/rounds/1/tables"
    form = client.get(f"{base}/1/result/").content.decode()
    assert "autofocus" in form
    places = {"expected_version": 0, "place_0": 1, "place_1": 2, "place_2": 3, "place_3": 4}
    assert client.post(f"{base}/1/result/", places)["Location"] == f"{base}/2/result/"
    assert client.post(f"{base}/3/result/", places)["Location"] == f"{base}/2/result/", (
        "back to the first waiting"
    )
    assert client.post(f"{base}/2/result/", places)["Location"] == f"/tournaments/{tournament.slug}/rounds/1/"
    stale = client.post(f"{base}/1/result/", {**places, "place_0": 2, "place_1": 1, "reason": "swap"})
    assert stale.status_code == 409
    assert "saved this result a moment ago: 1st" in stale.content.decode()
    bad = client.post(f"{base}/1/result/", {"expected_version": 1, "place_0": 1, "reason": "x"})
    assert bad.status_code == 400
    assert "enter a place for every seat, or none" in bad.content.decode()
    missing_reason = client.post(f"{base}/1/result/", {**places, "expected_version": 1})
    assert missing_reason.status_code == 400
    assert "say why the result is corrected" in missing_reason.content.decode()


def test_bad_input_on_every_page_control_is_a_message_not_a_500(client, running, organizer):
    client.force_login(organizer)
    base = f"/tournaments/{running.slug}"
    cases = [
        ("rounds/2/swap/", {"first_table": "x"}, 400, "give both tables and seats as whole numbers from 1"),
        (
            "rounds/2/swap/",
            {"first_table": 1, "first_seat": 1, "second_table": 7, "second_seat": 1},
            400,
            "round 2 has no table 7",
        ),
        (
            "rounds/2/swap/",
            {"first_table": 1, "first_seat": 2, "second_table": 1, "second_seat": 2},
            400,
            "that is one seat twice: choose two different seats to swap",
        ),
        ("rounds/2/move/", {"player": "x", "to_table": 1}, 400, "player must be a whole number"),
        ("rounds/2/move/", {"player": 999, "to_table": 1}, 400, "player 999 is not in round 2"),
        ("rounds/1/complete/", {}, 409, "round 1 is already complete"),
        ("rounds/1/publish/", {}, 409, "round 1 is complete: only drafts change"),
        ("rounds/1/tables/1/close/", {"kind": "late"}, 400, "tick the absent players"),
        ("register/", {"names": "  "}, 400, "name at least one player"),
        ("leave/", {"player": "abc"}, 400, "name the player by id"),
        ("organizers/", {"username": "ghost"}, 400, "no user called &#x27;ghost&#x27;"),
        ("finish/", {"confirm": "yes"}, 409, "round 2 is not complete: complete or discard it first"),
        ("start/", {}, 409, "the tournament has already started"),
        ("seed/", {}, 409, "seeds are fixed once round 1 is generated"),
    ]
    for path, data, status, message in cases:
        response = client.post(f"{base}/{path}", data)
        assert response.status_code == status, path
        assert response.content.decode().count(message) == 1, path  # said once, never twice
    assert client.post(f"{base}/rounds/2/teleport/").status_code == 404
    assert client.post(f"{base}/dance/").status_code == 404


def test_find_my_table_answers_the_players_whose_name_holds_the_search(client, make_tournament, organizer):
    tournament, players = make_tournament(9, table_size=2)
    round_row = services.round_generate(tournament=tournament, by=organizer)
    services.round_publish(round_row=round_row, by=organizer)
    names = {player.pk: player.name for player in players}
    expected = []
    for number, seats in enumerate(table_seats(round_row), start=1):
        expected += [[names[pid], str(number), str(seat)] for seat, pid in enumerate(seats, start=1)]
    expected.append(["Ivy", "bye"])

    def found(query):
        response = client.get(f"/tournaments/{tournament.slug}/rounds/1/find/", {"q": query})
        body = response.content.decode()
        if "<tbody>" not in body:
            return []
        rows = [
            [cell.strip() for cell in row.split("</td>")[:-1]]
            for row in body.split("<tbody>")[1].split("</tbody>")[0].split("<tr>")[1:]
        ]
        return [[re.sub(r"<[^>]+>", "", cell).strip() for cell in row] for row in rows]

    assert found("A") == sorted(row for row in expected if "a" in row[0].lower())
    assert [row[0] for row in found("a")] == ["Ada", "Bea", "Cal", "Fay", "Hal"]
    assert found("ivy") == [["Ivy", "bye"]]
    assert found("") == []


def test_csv_exports_have_every_tiebreak_column_and_every_seat(client, make_tournament, play_round):
    tournament, _ = make_tournament(4, table_size=2, rounds=1, rated=False)
    play_round(tournament)
    standings = client.get(f"/tournaments/{tournament.slug}/standings.csv")
    assert standings["Content-Type"] == "text/csv; charset=utf-8"
    assert standings.content.startswith(b"\xef\xbb\xbf")  # a BOM: spreadsheets read the file as UTF-8
    assert standings.content.decode("utf-8-sig").splitlines() == [
        "rank,player,seed,status,points,opponents_points,wins,head_to_head,played,byes,opponents_points_average,"
        "buchholz_cut1,buchholz_median,sonneborn_berger,opponents_match_win_percentage,cumulative,requested_byes,"
        "group",
        "1,Ada,1,Active,1,0,1,0,1,0,0,0,0,0,0.33,1,0,",
        "2,Bea,2,Active,1,0,1,0,1,0,0,0,0,0,0.33,1,0,",
        "3,Cal,3,Active,0,1,0,0,1,0,1,0,0,0,1,0,0,",
        "4,Dov,4,Active,0,1,0,0,1,0,1,0,0,0,1,0,0,",
    ]
    results = (
        client.get(f"/tournaments/{tournament.slug}/results.csv").content.decode("utf-8-sig").splitlines()
    )
    assert results == [
        "round,table,label,seat,player,place,score,points,closed_as",
        "1,1,,1,Ada,1,,1,",
        "1,1,,2,Cal,2,,0,",
        "1,2,,1,Bea,1,,1,",
        "1,2,,2,Dov,2,,0,",
    ]


def test_a_players_path_lists_each_round(client, make_tournament, play_round):
    tournament, _ = make_tournament(3, table_size=2, rounds=2, rated=False)
    play_round(tournament)
    play_round(tournament)
    html = client.get(f"/tournaments/{tournament.slug}/players/cal/").content.decode()
    body = html.split('<table id="path">')[1]
    rows = [re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", row)).strip() for row in body.split("<tr>")[2:]]
    assert rows == ["1 bye – 1", "2 1, seat 1 Ada 1 1"]


def test_list_pages_take_the_same_number_of_queries_whatever_their_size(
    client, make_tournament, play_round, organizer
):
    def count(url):
        with CaptureQueriesContext(connection) as queries:
            assert client.get(url).status_code == 200
        return len(queries)

    small, _ = make_tournament(4, name="Small", table_size=2, rounds=3, rated=False)
    play_round(small)
    large, _ = make_tournament(16, name="Large", table_size=4, rounds=3, rated=False)
    play_round(large)
    play_round(large)
    client.force_login(organizer)
    for page in ("", "rounds/1/", "rounds/1/find/", "players/ada/", "standings.csv", "results.csv"):
        assert count(f"/tournaments/{small.slug}/{page}") == count(f"/tournaments/{large.slug}/{page}"), page
    before = count("/tournaments/")
    make_tournament(5, name="Third")
    assert count("/tournaments/") == before


def test_organizers_seed_by_hand_and_mark_no_shows_from_the_page(
    client, make_tournament, play_round, organizer
):
    tournament, players = make_tournament(4, start=False)
    client.force_login(organizer)
    base = f"/tournaments/{tournament.slug}"
    unknown = client.post(f"{base}/seed/", {"method": "hand", "names": "Dov\nZed"})
    assert unknown.status_code == 400
    assert "not registered: Zed" in unknown.content.decode()
    incomplete = client.post(f"{base}/seed/", {"method": "hand", "names": "Dov\nCal"})
    assert incomplete.status_code == 400
    assert "list every registered player&#x27;s id once, top seed first" in incomplete.content.decode()
    assert client.post(f"{base}/seed/", {"method": "hand", "names": "dov\nCal\nBea\nAda"}).status_code == 302
    assert dict(tournament.registrations.values_list("player__name", "seed")) == {
        "Dov": 1,
        "Cal": 2,
        "Bea": 3,
        "Ada": 4,
    }
    assert client.post(f"{base}/start/").status_code == 302
    assert (
        client.post(
            f"{base}/leave/", {"player": players[0].pk, "status": "no_show", "confirm": "yes"}
        ).status_code
        == 302
    )
    assert tournament.registrations.get(player=players[0]).status == "no_show"


def test_the_live_fragment_holds_the_standings_and_rounds(client, make_tournament, play_round):
    tournament, _ = make_tournament(4, table_size=2, rated=False)
    play_round(tournament)
    fragment = client.get(f"/tournaments/{tournament.slug}/?fragment=live").content.decode()
    assert fragment.lstrip().startswith("<h2>Standings</h2>")
    assert 'id="standings"' in fragment and 'id="rounds"' in fragment
    assert "<html" not in fragment
    page = client.get(f"/tournaments/{tournament.slug}/").content.decode()
    assert '<div id="live" data-refresh-url="?fragment=live" data-refresh-seconds="5">' in page
    assert '<script src="/static/tournaments/standings-live.js" defer></script>' in page


def test_organizers_who_are_not_staff_log_in_from_the_tournament_page(client, running, added_organizer):
    page = client.get(f"/tournaments/{running.slug}/").content.decode()
    assert f'href="/accounts/login/?next=/tournaments/{running.slug}/"' in page
    answer = client.post(
        "/accounts/login/",
        {"username": "helper", "password": "pass-word-123", "next": f"/tournaments/{running.slug}/"},
    )
    assert answer["Location"] == f"/tournaments/{running.slug}/"
    assert 'id="controls"' in client.get(f"/tournaments/{running.slug}/").content.decode()


def test_the_old_organizer_log_in_address_forwards_to_the_one_log_in_page(client):
    response = client.get("/tournaments/login/?next=/tournaments/new/")
    assert (response.status_code, response["Location"]) == (301, "/accounts/login/?next=/tournaments/new/")


def test_leaving_a_player_who_is_not_registered_is_a_404_with_the_message(client, running, organizer):
    client.force_login(organizer)
    response = client.post(
        f"/tournaments/{running.slug}/leave/", {"player": 999, "status": "dropped", "confirm": "yes"}
    )
    assert response.status_code == 404
    assert "player 999 is not registered" in response.content.decode()


def test_a_stale_result_form_comes_back_naming_the_version_now_stored(client, make_tournament, organizer):
    tournament, _ = make_tournament(4)
    services.round_publish(
        round_row=services.round_generate(tournament=tournament, by=organizer), by=organizer
    )
    client.force_login(organizer)
    url = f"/tournaments/{tournament.slug}/rounds/1/tables/1/result/"
    places = {"expected_version": 0, "place_0": 1, "place_1": 2, "place_2": 3, "place_3": 4}
    client.post(url, places)
    stale = client.post(url, {**places, "place_0": 2, "place_1": 1, "reason": "swap"})
    assert stale.status_code == 409
    assert stale.context["form"]["expected_version"].value() == 1
    assert "You are correcting version 1" in stale.content.decode()
    again = client.post(url, {**places, "expected_version": 1, "place_0": 2, "place_1": 1, "reason": "swap"})
    assert again.status_code == 302
