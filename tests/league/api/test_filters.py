"""List filters say so when a value makes no sense (400 naming the filter and what it accepts), never ignore
it; an empty value is no filter; a well-formed id that matches nothing is an empty list."""

from datetime import timedelta

import pytest
from rest_framework.test import APIClient

from league.bots.services.definitions import bot_register
from league.tournaments import services as tournament_services
from league.tournaments.models import Tournament
from tests.factories import FIRST_PLAY, MatchFactory
from tests.league.api_errors import field_error_body

GAMES = "nacho_pile, nobody_but_us_chickens, chicken_foot, chickie_nuggs"


def refused(response, field: str, detail: str) -> None:
    assert response.status_code == 400
    assert response.json() == field_error_body(field, detail)


def ids(response) -> list[int]:
    assert response.status_code == 200, response.json()
    return [row["id"] for row in response.json()["results"]]


@pytest.mark.parametrize("name", ["played_before", "played_after"])
def test_a_utc_offset_postgresql_cannot_store_is_a_400_naming_the_filter(api, league, name):
    response = api.get(f"/api/matches/?{name}=2020-06-11T13:16:29%2B16:00")
    refused(response, name, f"{name}: UTC offsets run from -15:59 to +15:59, not +16:00")
    response = api.get(f"/api/matches/?{name}=2020-06-11T13:16:29-17:30")
    refused(response, name, f"{name}: UTC offsets run from -15:59 to +15:59, not -17:30")


@pytest.mark.postgres
@pytest.mark.parametrize("name", ["played_before", "played_after"])
def test_a_utc_offset_postgresql_cannot_store_is_a_400_on_postgresql(api, league, name):
    response = api.get(f"/api/matches/?{name}=2020-06-11T13:16:29%2B16:00")
    refused(response, name, f"{name}: UTC offsets run from -15:59 to +15:59, not +16:00")
    assert api.get(f"/api/matches/?{name}=2020-06-11T13:16:29%2B15:59").status_code == 200


def test_played_after_and_before_compare_moments_whatever_their_offset(api, players):
    first, second, third = (
        MatchFactory(players=players, played_at=FIRST_PLAY + timedelta(minutes=10 * n)) for n in range(3)
    )
    assert FIRST_PLAY.isoformat() == "2026-01-01T18:00:00+00:00"
    assert ids(api.get("/api/matches/?played_after=2026-01-02T10:09:00%2B15:59")) == [third.pk, second.pk]
    assert ids(api.get("/api/matches/?played_before=2026-01-01T02:12:00-15:59")) == [second.pk, first.pk]
    assert ids(api.get("/api/matches/?played_before=2026-01-01T18:10:00")) == [first.pk]


@pytest.mark.parametrize("value", ["0001-01-01T00:00:00%2B15:00", "9999-12-31T23:59:59-15:00"])
def test_a_moment_outside_the_years_1_to_9999_in_utc_is_a_400(api, league, value):
    refused(
        api.get(f"/api/matches/?played_after={value}"),
        "played_after",
        "played_after: a moment from year 1 to 9999 in UTC",
    )


def test_a_date_that_is_not_iso_8601_is_a_400(api, league):
    refused(
        api.get("/api/matches/?played_after=yesterday"),
        "played_after",
        "played_after: a date and time in ISO 8601, e.g. 2026-01-31T18:00:00+01:00",
    )


@pytest.mark.parametrize(("url", "name"), [("/api/matches/", "rated"), ("/api/players/", "active")])
def test_a_boolean_filter_takes_true_or_false_only(api, league, url, name):
    refused(api.get(f"{url}?{name}=-1"), name, f"{name}: true or false (or 1 or 0), not '-1'")
    refused(api.get(f"{url}?{name}=yes"), name, f"{name}: true or false (or 1 or 0), not 'yes'")


def test_boolean_filters_read_true_false_1_and_0(api, league, players):
    first, second, foot = league
    players[3].active = False
    players[3].save(update_fields=["active"])
    everyone = [player.pk for player in players]
    assert ids(api.get("/api/players/?active=false")) == [players[3].pk]
    assert ids(api.get("/api/players/?active=0")) == [players[3].pk]
    assert ids(api.get("/api/players/?active=TRUE")) == everyone[:3]
    assert ids(api.get("/api/players/?active=1")) == everyone[:3]
    assert ids(api.get("/api/players/?active=")) == everyone
    assert ids(api.get("/api/matches/?rated=false")) == []
    assert ids(api.get("/api/matches/?rated=true")) == [foot.pk, second.pk, first.pk]


GAME_FILTERS = [
    "/api/matches/?game=",
    "/api/ratings/?game=",
    "/api/rating-history/?game=",
    "/api/bots/?game_id=",
    "/api/bot-leagues/?game_id=",
    "/api/tournaments/?game_id=",
]


@pytest.mark.parametrize("url", GAME_FILTERS)
def test_an_unknown_game_is_a_400_naming_the_games(api, league, url):
    name = url.split("?")[1].rstrip("=")
    refused(api.get(f"{url}zzz"), name, f"{name}: one of {GAMES}, not 'zzz'")


@pytest.mark.parametrize("url", GAME_FILTERS)
def test_an_empty_game_is_no_filter(api, league, url):
    assert api.get(url).json()["count"] == api.get(url.split("?")[0]).json()["count"]


def test_the_game_filters_filter(api, league, staff):
    first, second, foot = league
    bot = bot_register(name="Randy", game_id="chicken_foot", kind="builtin", strategy="random", by=staff)
    tournament = tournament_services.tournament_create(
        created_by=staff, name="Open", game_id="chicken_foot", format="round_robin", table_size=2
    )
    assert ids(api.get("/api/matches/?game=chicken_foot")) == [foot.pk]
    assert {row["pool"] for row in api.get("/api/ratings/?game=chicken_foot").json()["results"]} == {
        foot.rating_pool_id
    }
    assert {row["match"] for row in api.get("/api/rating-history/?game=chicken_foot").json()["results"]} == {
        foot.pk
    }
    assert ids(api.get("/api/bots/?game_id=chicken_foot")) == [bot.pk]
    assert ids(api.get("/api/bots/?game_id=nacho_pile")) == []
    assert ids(APIClient().get("/api/tournaments/?game_id=nacho_pile")) == []
    client = APIClient()
    client.force_authenticate(staff)
    assert ids(client.get("/api/tournaments/?game_id=chicken_foot")) == [tournament.pk]


@pytest.mark.parametrize("url", ["/api/ratings/", "/api/rating-history/"])
def test_an_id_that_matches_nothing_is_an_empty_list(api, league, url):
    response = api.get(f"{url}?player=0")
    assert response.status_code == 200
    assert response.json() == {"count": 0, "next": None, "previous": None, "results": []}
    assert api.get(f"{url}?pool=99999").json()["count"] == 0


@pytest.mark.parametrize(
    "url",
    ["/api/ratings/?player=", "/api/rating-history/?match=", "/api/matches/?player=", "/api/ratings/?pool="],
)
def test_an_id_is_a_whole_number_of_64_bits(api, league, url):
    name = url.split("?")[1].rstrip("=")
    for value in ["abc", "1.5", "100000000000000000000", "²"]:
        refused(
            api.get(f"{url}{value}"),
            name,
            f"{name}: a whole number from -9223372036854775808 to 9223372036854775807, not {value!r}",
        )


def test_the_player_filters_filter(api, league, players):
    first, second, foot = league
    dan = players[3].pk
    assert ids(api.get(f"/api/matches/?player={dan}")) == [first.pk]
    assert {row["player"]["id"] for row in api.get(f"/api/ratings/?player={dan}").json()["results"]} == {dan}
    assert [row["match"] for row in api.get(f"/api/rating-history/?player={dan}").json()["results"]] == [
        first.pk
    ]


CHOICE_FILTERS = [
    ("/api/matches/?status=", "status", "scheduled, running, finished, void"),
    ("/api/players/?kind=", "kind", "person, bot"),
    ("/api/ratings/?kind=", "kind", "people, bot_league"),
    ("/api/bots/?kind=", "kind", "builtin, external"),
    ("/api/bot-leagues/?status=", "status", "draft, running, paused, finished"),
    ("/api/tournaments/?status=", "status", "draft, registration, running, finished, cancelled"),
    (
        "/api/tournaments/?tournament_format=",
        "tournament_format",
        "swiss, round_robin, single_elimination, double_elimination, stages",
    ),
]


@pytest.mark.parametrize(("url", "name", "choices"), CHOICE_FILTERS)
def test_a_choice_filter_names_its_choices(api, league, url, name, choices):
    refused(api.get(f"{url}zzz"), name, f"{name}: one of {choices}, not 'zzz'")
    assert api.get(url).status_code == 200


def test_the_tournament_format_filter_does_not_collide_with_the_response_format(api, staff):
    swiss = tournament_services.tournament_create(
        created_by=staff, name="Swiss Open", game_id="nacho_pile", format="swiss", table_size=4, rounds=3
    )
    tournament_services.tournament_create(
        created_by=staff, name="Robin", game_id="nacho_pile", format="round_robin", table_size=4
    )
    for tournament in Tournament.objects.all():
        tournament_services.tournament_open_registration(tournament=tournament, by=staff)
    assert ids(api.get("/api/tournaments/?tournament_format=swiss")) == [swiss.pk]
    assert len(ids(api.get("/api/tournaments/?format=json"))) == 2


def test_ordering_by_a_field_the_endpoint_does_not_offer_is_a_400(api, league):
    first, second, foot = league
    refused(
        api.get("/api/matches/?ordering=zzz"),
        "ordering",
        "ordering: one of played_at, id (- first for descending), not 'zzz'",
    )
    refused(
        api.get("/api/matches/?ordering=id,-rated"),
        "ordering",
        "ordering: one of played_at, id (- first for descending), not '-rated'",
    )
    assert ids(api.get("/api/matches/?ordering=id")) == [first.pk, second.pk, foot.pk]
    assert ids(api.get("/api/matches/?ordering=")) == [foot.pk, second.pk, first.pk]


def test_a_text_filter_takes_at_most_200_characters(api, league):
    refused(
        api.get("/api/players/?name=" + "x" * 100_000),
        "name",
        "name: Ensure this value has at most 200 characters (it has 100000).",
    )
    refused(
        api.get("/api/bots/?name=" + "x" * 201),
        "name",
        "name: Ensure this value has at most 200 characters (it has 201).",
    )
