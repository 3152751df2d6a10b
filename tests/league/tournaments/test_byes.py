"""Byes and breaks in Swiss: a registered player asks for a bye (scored as the organizer set: a win, half or
zero) or to sit a round out, before the round is generated; the pairing leaves them out and the round records
it; an organizer asks for anyone; the same through the pages and the API, with the server checking who may."""

import re

import pytest
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from league.core.errors import Forbidden, NotFound, UserError
from league.tournaments import selectors, services
from league.tournaments.errors import StateConflict
from league.tournaments.history import load_history
from league.tournaments.log import describe
from league.tournaments.models import ByeRequest
from tests.factories import StaffFactory, UserFactory
from tests.factories.tournaments import better_seed_wins, table_seats, user_with_player


@pytest.fixture
def ada(db):
    """The user who owns player Ada (the top seed of the tournaments below)."""
    return user_with_player("ada")


def swiss(make_tournament, count=8, **settings):
    values = {"table_size": 2, "rounds": 3, "rated": False, **settings}
    tournament, players = make_tournament(count, **values)
    return tournament, {player.name: player.pk for player in players}


def points(tournament) -> dict[str, float]:
    return {row.name: row.points for row in selectors.standing_rows_of(load_history(tournament))}


@pytest.mark.parametrize(("score", "expected"), [("win", 1.0), ("half", 0.5), ("zero", 0.0)])
def test_a_requested_bye_scores_as_the_organizer_set(
    make_tournament, play_round, organizer, ada, score, expected
):
    tournament, ids = swiss(make_tournament, requested_bye_score=score)
    request = services.bye_request(tournament=tournament, by=ada, round_number=1)
    assert (request.player_id, request.round_number, request.kind) == (ids["Ada"], 1, "bye")
    round_row = play_round(tournament, better_seed_wins(tournament))
    seated = sum(table_seats(round_row), [])
    assert ids["Ada"] not in seated and len(seated) == 6
    assert (round_row.requested_byes, round_row.byes, round_row.sat_out) == (
        [[ids["Ada"], score]],
        [ids["Hal"]],
        [],
    )
    standings = {row.name: row for row in selectors.standing_rows_of(load_history(tournament))}
    ada_line = standings["Ada"]
    assert (ada_line.points, ada_line.played, ada_line.byes, ada_line.requested_byes) == (expected, 0, 0, 1)
    assert ada_line.wins == (1 if score == "win" else 0)
    assert (standings["Hal"].points, standings["Hal"].byes) == (1.0, 1), "the odd player out's bye is a win"
    second = play_round(tournament, better_seed_wins(tournament))
    assert ids["Ada"] in sum(table_seats(second), []), "back the round after"


def test_sitting_out_scores_nothing_and_the_player_comes_back(make_tournament, play_round, organizer, ada):
    tournament, ids = swiss(make_tournament, requested_bye_score="win")
    play_round(tournament, better_seed_wins(tournament))
    services.bye_request(tournament=tournament, by=ada, round_number=2, kind="sit_out")
    second = play_round(tournament, better_seed_wins(tournament))
    assert ids["Ada"] not in sum(table_seats(second), [])
    assert (second.sat_out, second.requested_byes) == ([ids["Ada"]], [])
    line = next(row for row in selectors.standing_rows_of(load_history(tournament)) if row.name == "Ada")
    assert (line.points, line.played, line.byes, line.requested_byes) == (1.0, 1, 0, 0)
    assert ids["Ada"] in sum(table_seats(play_round(tournament, better_seed_wins(tournament))), [])


def test_a_bye_is_asked_for_before_its_round_is_generated(make_tournament, play_round, organizer, ada):
    tournament, ids = swiss(make_tournament)
    services.bye_request(tournament=tournament, by=ada, round_number=2)
    services.bye_request(
        tournament=tournament, by=ada, round_number=2, kind="sit_out"
    )  # asking again: the kind
    assert list(ByeRequest.objects.values_list("round_number", "kind")) == [(2, "sit_out")]
    draft = services.round_generate(tournament=tournament, by=organizer)
    with pytest.raises(StateConflict, match="^round 1 is already generated: a bye is asked for before that$"):
        services.bye_request(tournament=tournament, by=ada, round_number=1)
    services.round_discard(round_row=draft, by=organizer)
    services.bye_request(
        tournament=tournament, by=ada, round_number=1
    )  # the draft is gone: round 1 is open again
    services.bye_cancel(tournament=tournament, by=ada, round_number=1)
    play_round(tournament)
    play_round(tournament)
    with pytest.raises(StateConflict, match="^round 2 is already generated"):
        services.bye_cancel(tournament=tournament, by=ada, round_number=2)
    with pytest.raises(NotFound, match="^no bye was asked for in round 3$"):
        services.bye_cancel(tournament=tournament, by=ada, round_number=3)


@pytest.mark.parametrize(
    ("settings", "number", "error", "message"),
    [
        ({}, 4, UserError, "the Swiss rounds run from 1 to 3"),
        ({}, 0, UserError, "give the round as a whole number from 1"),
        ({}, "2", UserError, "give the round as a whole number from 1"),
        (
            {"format": "round_robin", "rounds": None},
            1,
            UserError,
            "byes on request are for Swiss rounds: this format plays a fixed schedule",
        ),
        (
            {"format": "stages", "rounds": 2, "cut_size": 4},
            3,
            UserError,
            "byes on request are for the Swiss rounds 1 to 2",
        ),
    ],
)
def test_a_request_outside_the_swiss_rounds_is_refused(
    make_tournament, ada, settings, number, error, message
):
    tournament, _ = swiss(make_tournament, **settings)
    with pytest.raises(error, match=f"^{message}$"):
        services.bye_request(tournament=tournament, by=ada, round_number=number)


def test_who_may_ask_for_whose_bye(make_tournament, organizer, ada):
    bea = user_with_player("bea")  # Bea, seed 2, is registered too
    tournament, ids = swiss(make_tournament)
    other = user_with_player("zed")  # Zed is not registered
    helper = UserFactory(username="helper")
    services.role_add(tournament=tournament, by=organizer, username="helper", role="organizer")
    staff = StaffFactory(username="site-staff")
    with pytest.raises(Forbidden, match="^sign in to take part in a tournament$"):
        services.bye_request(tournament=tournament, by=None, round_number=1)
    refused = re.escape(
        "only the player themselves or the tournament's organizers (and site staff) can do this"
    )
    for user in (bea, other):
        with pytest.raises(Forbidden, match=f"^{refused}$"):
            services.bye_request(tournament=tournament, by=user, round_number=1, player_id=ids["Ada"])
    with pytest.raises(NotFound, match="^you are not registered in this tournament$"):
        services.bye_request(tournament=tournament, by=other, round_number=1)
    services.bye_request(tournament=tournament, by=ada, round_number=1, player_id=ids["Ada"])  # their own id
    services.bye_request(tournament=tournament, by=helper, round_number=2, player_id=ids["Ada"])
    services.bye_request(tournament=tournament, by=staff, round_number=3, player_id=ids["Ada"])
    with pytest.raises(NotFound, match=f"^player {ids['Ada'] + 1000} is not registered in this tournament$"):
        services.bye_request(tournament=tournament, by=organizer, round_number=1, player_id=ids["Ada"] + 1000)
    with pytest.raises(Forbidden, match=f"^{refused}$"):
        services.bye_cancel(tournament=tournament, by=bea, round_number=2, player_id=ids["Ada"])
    assert list(
        ByeRequest.objects.order_by("round_number").values_list("round_number", "requested_by__username")
    ) == [(1, "ada"), (2, "helper"), (3, "site-staff")]


def test_the_tournament_page_asks_for_a_bye_and_takes_it_back(client, make_tournament, organizer, ada):
    tournament, ids = swiss(make_tournament, requested_bye_score="half")
    client.force_login(ada)
    page = client.get(tournament.get_absolute_url()).content.decode()
    assert "a <strong>bye</strong> scores half a win" in page
    assert (
        "<label>Round <select "
        'name="round"><option>1</option><option>2</option><option>3</option></select></label>' in page
    )
    response = client.post(f"/tournaments/{tournament.slug}/byes/request/", {"round": "2", "kind": "bye"})
    assert response["Location"] == tournament.get_absolute_url()
    page = client.get(tournament.get_absolute_url()).content.decode()
    assert "Ada has a bye in round 2." in page and "Round 2: bye" in page
    response = client.post(f"/tournaments/{tournament.slug}/byes/request/", {"round": "2", "kind": "sit_out"})
    assert "Ada sits out round 2." in client.get(response["Location"]).content.decode()
    response = client.post(f"/tournaments/{tournament.slug}/byes/cancel/", {"round": "2"})
    assert "The request for round 2 is taken back." in client.get(response["Location"]).content.decode()
    assert not ByeRequest.objects.exists()
    bad = client.post(f"/tournaments/{tournament.slug}/byes/request/", {"round": "9"})
    assert (bad.status_code, "the Swiss rounds run from 1 to 3" in bad.content.decode()) == (400, True)
    bad = client.post(f"/tournaments/{tournament.slug}/byes/request/", {"round": "x"})
    assert (bad.status_code, "round must be a whole number" in bad.content.decode()) == (400, True)
    bad = client.post(
        f"/tournaments/{tournament.slug}/byes/request/", {"round": "1", "player": str(ids["Bea"])}
    )
    assert bad.status_code == 403
    assert client.post(f"/tournaments/{tournament.slug}/byes/dance/", {"round": "1"}).status_code == 404


def test_an_organizer_asks_for_anyone_from_the_page(client, make_tournament, organizer):
    tournament, ids = swiss(make_tournament)
    client.force_login(organizer)
    page = client.get(tournament.get_absolute_url()).content.decode()
    assert f'<option value="{ids["Cal"]}">Cal</option>' in page
    client.post(
        f"/tournaments/{tournament.slug}/byes/request/", {"round": "1", "player": ids["Cal"], "kind": "bye"}
    )
    page = client.get(tournament.get_absolute_url()).content.decode()
    assert "Cal has a bye in round 1." in page and "Round 1: <bdi>Cal</bdi> · bye" in page


def test_anonymous_visitors_are_sent_to_log_in(client, make_tournament):
    tournament, _ = swiss(make_tournament)
    response = client.post(f"/tournaments/{tournament.slug}/byes/request/", {"round": "1"})
    assert response["Location"].startswith("/accounts/login/?next=")
    assert "byes-panel" not in client.get(tournament.get_absolute_url()).content.decode()


def api_for(user) -> APIClient:
    api = APIClient()
    if user is not None:
        api.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.get_or_create(user=user)[0].key}")
    return api


def test_the_api_asks_lists_and_takes_back(make_tournament, play_round, organizer, ada):
    bea = user_with_player("bea")
    tournament, ids = swiss(make_tournament, requested_bye_score="win")
    url = f"/api/tournaments/{tournament.pk}/bye-requests/"
    assert api_for(None).post(url, {"round": 1}, format="json").status_code == 401
    response = api_for(ada).post(url, {"round": 1}, format="json")
    assert (response.status_code, response.json()) == (
        201,
        {"round": 1, "player": ids["Ada"], "name": "Ada", "kind": "bye"},
    )
    staff_api = api_for(organizer)
    response = staff_api.post(url, {"round": 2, "player": ids["Bea"], "kind": "sit_out"}, format="json")
    assert response.status_code == 201
    assert api_for(None).get(url).json() == [
        {"round": 1, "player": ids["Ada"], "name": "Ada", "kind": "bye"},
        {"round": 2, "player": ids["Bea"], "name": "Bea", "kind": "sit_out"},
    ]
    bea_api = api_for(bea)
    response = bea_api.post(url, {"round": 3, "player": ids["Ada"]}, format="json")
    assert (response.status_code, response.json()["code"]) == (403, "forbidden")
    response = api_for(ada).post(url, {"round": 1, "kind": "nap"}, format="json")
    assert (response.status_code, response.json()["field"]) == (400, "kind")
    round_row = play_round(tournament)
    response = api_for(ada).post(url, {"round": 1}, format="json")
    assert (response.status_code, response.json()["detail"]) == (
        409,
        "round 1 is already generated: a bye is asked for before that",
    )
    rounds = api_for(None).get(f"/api/tournaments/{tournament.pk}/rounds/").json()
    assert (rounds[0]["requested_byes"], rounds[0]["sat_out"]) == ([[ids["Ada"], "win"]], [])
    assert round_row.requested_byes == [[ids["Ada"], "win"]]
    standings = {
        row["name"]: row for row in api_for(None).get(f"/api/tournaments/{tournament.pk}/standings/").json()
    }
    assert (standings["Ada"]["points"], standings["Ada"]["requested_byes"], standings["Ada"]["byes"]) == (
        1.0,
        1,
        0,
    )
    assert api_for(None).get(url).json() == [
        {"round": 2, "player": ids["Bea"], "name": "Bea", "kind": "sit_out"}
    ]
    assert staff_api.delete(url, {"round": 2, "player": ids["Bea"]}, format="json").status_code == 204
    assert api_for(None).get(url).json() == []


def test_the_round_page_and_the_exports_name_the_requested_byes(client, make_tournament, play_round, ada):
    tournament, ids = swiss(make_tournament, requested_bye_score="half")
    services.bye_request(tournament=tournament, by=ada, round_number=1)
    play_round(tournament)
    page = client.get(f"/tournaments/{tournament.slug}/rounds/1/").content.decode()
    assert (
        '<p id="requested-byes"><strong>Bye asked for</strong> (scores half a win): <bdi>Ada</bdi></p>'
        in page
    )
    results = client.get(f"/tournaments/{tournament.slug}/results.csv").content.decode().splitlines()
    assert "1,,bye asked for,,Ada,,,0.5," in results
    find = client.get(f"/tournaments/{tournament.slug}/rounds/1/find/", {"q": "ada"}).content.decode()
    assert "bye (asked for)" in find


def test_requests_and_take_backs_are_in_the_log(make_tournament, organizer, ada):
    tournament, ids = swiss(make_tournament)
    services.bye_request(tournament=tournament, by=ada, round_number=2)
    services.bye_request(
        tournament=tournament, by=organizer, round_number=3, kind="sit_out", player_id=ids["Cal"]
    )
    services.bye_cancel(tournament=tournament, by=ada, round_number=2)
    with pytest.raises(NotFound):
        services.bye_cancel(tournament=tournament, by=ada, round_number=2)
    entries = tournament.audit_entries.filter(action__startswith="bye.").order_by("id")
    assert [(entry.actor.username, describe(entry, tournament.time_zone)) for entry in entries] == [
        ("ada", "Ada: a bye in round 2"),
        ("organizer", "Cal: sits out in round 3"),
        ("ada", "Ada: the request for round 2 taken back"),
    ]
    assert entries[1].details == {"player": "Cal", "player_id": ids["Cal"], "round": 3, "kind": "sit_out"}
