"""The API of drafts that warn and big days: a draft round's warnings, the `auto_next_round` setting, a Day 2
and the tournament's days, and their schema (issue 48)."""

import pytest
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from league.players.models import Player
from league.tournaments import services
from tests.factories.tournaments import better_seed_wins, make_tournament, play_round

pytestmark = pytest.mark.django_db


@pytest.fixture
def api(organizer):
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.get_or_create(user=organizer)[0].key}")
    return client


def seat(round_row, *tables):
    for row, names in zip(round_row.tables.order_by("number"), tables, strict=True):
        row.planned_seats = [Player.objects.get(name=name).pk for name in names]
        row.save(update_fields=["planned_seats"])


def test_a_draft_round_carries_its_warnings_with_bare_names(api, organizer):
    tournament, _ = make_tournament(organizer, 4, table_size=2, rounds=3)
    first = services.round_generate(tournament=tournament, by=organizer)
    seat(first, ["Ada", "Bea"], ["Cal", "Dov"])
    services.round_publish(round_row=first, by=organizer)
    for table in first.tables.all():
        services.table_result(table=table, by=organizer, expected_version=0, places=[1, 2])
    services.round_complete(round_row=first, by=organizer)
    second = services.round_generate(tournament=tournament, by=organizer)
    seat(second, ["Ada", "Bea"], ["Dov", "Cal"])
    answer = api.get(f"/api/tournament-rounds/{second.pk}/").json()
    assert answer["warnings"] == [
        {
            "kind": "repeat_opponents",
            "message": "Table 1: Ada and Bea meet again (they met in round 1); avoidable: another "
            "arrangement keeps them apart with fewer repeats.",
        },
        {
            "kind": "repeat_opponents",
            "message": "Table 2: Dov and Cal meet again (they met in round 1); avoidable: another "
            "arrangement keeps them apart with fewer repeats.",
        },
    ]
    moved = api.post(
        f"/api/tournament-rounds/{second.pk}/swap/",
        {"first_table": 1, "first_seat": 2, "second_table": 2, "second_seat": 1},
        format="json",
    ).json()
    assert moved["warnings"] == []  # Ada-Dov and Bea-Cal: fresh pairs
    assert moved["quality"]["repeat_pairs"] == 0
    services.round_publish(round_row=second, by=organizer)
    assert api.get(f"/api/tournament-rounds/{second.pk}/").json()["warnings"] == []


def test_auto_next_round_and_a_day_two_through_the_api(api, organizer):
    created = api.post(
        "/api/tournaments/",
        {
            "name": "Big Day",
            "game": "nacho_pile",
            "table_size": 2,
            "rounds": 4,
            "day2_after_round": 2,
            "day2_points": 2,
            "auto_next_round": True,
        },
        format="json",
    )
    assert created.status_code == 201, created.json()
    body = created.json()
    assert (body["auto_next_round"], body["day2_after_round"], body["day2_points"]) == (True, 2, 2.0)
    assert body["days"] == [
        {
            "number": 1,
            "first_round": 1,
            "last_round": 2,
            "stage": "Swiss",
            "field": "everyone",
            "qualified": None,
        },
        {
            "number": 2,
            "first_round": 3,
            "last_round": 4,
            "stage": "Swiss",
            "field": "the players with at least 2 points after round 2",
            "qualified": None,
        },
    ]
    refused = api.patch(f"/api/tournaments/{body['id']}/", {"day2_points": None}, format="json")
    assert refused.status_code == 400
    assert refused.json()["detail"] == (
        "a Day 2 needs both the last round of Day 1 and the points that qualify for it"
    )


def test_the_days_name_who_qualified_once_day_one_is_complete(api, organizer):
    tournament, _ = make_tournament(organizer, 8, table_size=2, rounds=4, day2_after_round=2, day2_points=2)
    play_round(tournament, organizer, better_seed_wins(tournament))
    play_round(tournament, organizer, better_seed_wins(tournament))
    day_two = api.get(f"/api/tournaments/{tournament.pk}/").json()["days"][1]
    ada, bea = Player.objects.get(name="Ada"), Player.objects.get(name="Bea")
    assert day_two["qualified"] == [
        {"player": ada.pk, "name": "Ada", "points": 2.0},
        {"player": bea.pk, "name": "Bea", "points": 2.0},
    ]
    off = api.patch(f"/api/tournaments/{tournament.pk}/", {"auto_next_round": True}, format="json")
    assert (off.status_code, off.json()["auto_next_round"]) == (200, True)


def test_the_schema_documents_warnings_and_days(client):
    components = client.get("/api/schema/", {"format": "json"}).json()["components"]["schemas"]
    warnings = components["TournamentRound"]["properties"]["warnings"]
    assert warnings["items"] == {"$ref": "#/components/schemas/DraftWarning"}
    assert set(components["DraftWarning"]["properties"]) == {"kind", "message"}
    assert components["Tournament"]["properties"]["days"]["items"] == {"$ref": "#/components/schemas/Day"}
    assert set(components["Day"]["properties"]) == {
        "number",
        "first_round",
        "last_round",
        "stage",
        "field",
        "qualified",
    }
    for name in ("auto_next_round", "day2_after_round", "day2_points"):
        assert name in components["Tournament"]["properties"]
        assert name in components["PatchedTournamentWrite"]["properties"]
