"""The floor's API (issue 48): judge calls, a table's extra time, penalties and penalty types, with the
same rules and messages as the pages."""

from datetime import timedelta

from rest_framework.test import APIClient

from league.players.models import Player
from league.tournaments import floor_selectors
from league.tournaments.floor_models import JudgeCall
from tests.factories import UserFactory
from tests.factories import tournaments as helpers
from tests.league.tournaments.test_floor import NOON, clock, floor_event, seated  # noqa: F401

__all__ = ["clock", "floor_event"]


def api(user=None) -> APIClient:
    client = APIClient()
    if user is not None:
        client.force_authenticate(user)
    return client


def test_a_call_through_the_api_from_open_to_resolved(floor_event, clock):
    tournament, _, tables, judy = floor_event
    table = tables[0]
    player = seated(table)[0]
    opened = api(player.user).post(f"/api/tournament-tables/{table.pk}/call/")
    assert opened.status_code == 201
    body = opened.json()
    assert {
        key: body[key] for key in ("status", "round", "table", "caller", "caller_name", "claimed_by")
    } == {
        "status": "open",
        "round": 1,
        "table": 1,
        "caller": player.pk,
        "caller_name": player.name,
        "claimed_by": "",
    }
    again = api(player.user).post(f"/api/tournament-tables/{table.pk}/call/")
    assert (again.status_code, again.json()["detail"]) == (
        409,
        "a judge was called to table 1 already: a judge comes soon",
    )
    assert api().post(f"/api/tournament-tables/{table.pk}/call/").status_code in (401, 403)

    calls = f"/api/tournaments/{tournament.pk}/calls/"
    assert api(player.user).get(calls).status_code == 403
    assert [row["id"] for row in api(judy).get(calls).json()] == [body["id"]]
    clock.at = NOON + timedelta(minutes=2)
    claimed = api(judy).post(f"{calls}{body['id']}/claim/")
    assert (claimed.status_code, claimed.json()["status"], claimed.json()["claimed_by"]) == (
        200,
        "claimed",
        "judy",
    )
    resolved = api(judy).post(f"{calls}{body['id']}/resolve/", {"note": "Replayed the turn."}, format="json")
    assert (resolved.json()["status"], resolved.json()["note"]) == ("resolved", "Replayed the turn.")
    assert api(judy).get(calls).json() == []
    assert [row["note"] for row in api(judy).get(calls + "?status=resolved").json()] == ["Replayed the turn."]
    assert api(judy).post(f"{calls}{body['id']}/resolve/", {}, format="json").status_code == 409


def test_a_judge_of_another_event_reaches_nothing_here(organizer, floor_event):
    tournament, _, tables, _ = floor_event
    other, _ = helpers.make_tournament(organizer, 4, name="Elsewhere Open")
    UserFactory(username="jo")
    from django.contrib.auth import get_user_model

    from league.tournaments import services

    services.role_add(tournament=other, by=organizer, username="jo", role="judge")
    jo = get_user_model().objects.get(username="jo")
    call = JudgeCall.objects.create(
        tournament=tournament, table=tables[0], caller=seated(tables[0])[0], opened_at=NOON
    )
    assert api(jo).get(f"/api/tournaments/{tournament.pk}/calls/").status_code == 403
    assert api(jo).post(f"/api/tournaments/{tournament.pk}/calls/{call.pk}/claim/").status_code == 403
    assert api(jo).post(f"/api/tournaments/{other.pk}/calls/{call.pk}/claim/").status_code == 404
    assert (
        api(jo).post(f"/api/tournament-tables/{tables[0].pk}/extensions/", {"minutes": 5}).status_code == 403
    )
    player = seated(tables[0])[0]
    given = api(jo).post(
        f"/api/tournaments/{tournament.pk}/penalties/", {"player": player.pk, "infraction": "Slow play"}
    )
    assert given.status_code == 403
    # Hal plays here, not in jo's event (Ada to Dov): no such player there.
    hal = Player.objects.get(name="Hal")
    elsewhere = api(jo).post(
        f"/api/tournaments/{other.pk}/penalties/",
        {"player": hal.pk, "infraction": "Slow play"},
        format="json",
    )
    assert (elsewhere.status_code, elsewhere.json()["detail"]) == (404, "no such player in this tournament")


def test_extra_time_through_the_api(floor_event, clock):
    _, _, tables, judy = floor_event
    url = f"/api/tournament-tables/{tables[1].pk}/extensions/"
    assert api().get(url).json() == {
        "table": tables[1].pk,
        "number": 2,
        "extra_minutes": 0,
        "state": "running",
        "seconds_left": 3000,
        "ends_at": "2026-12-05T12:50:00Z",
    }
    refused = api(judy).post(url, {"minutes": 31}, format="json")
    assert (refused.status_code, refused.json()["detail"]) == (
        400,
        "minutes must be a whole number from 1 to 30",
    )
    given = api(judy).post(url, {"minutes": 12, "note": "deck check"}, format="json")
    assert given.status_code == 201
    assert (given.json()["extra_minutes"], given.json()["seconds_left"], given.json()["ends_at"]) == (
        12,
        3720,
        "2026-12-05T13:02:00Z",
    )


def test_penalties_through_the_api(organizer, floor_event):
    tournament, _, tables, judy = floor_event
    ada, bea = seated(tables[0])[:2]
    url = f"/api/tournaments/{tournament.pk}/penalties/"
    given = api(judy).post(
        url,
        {"player": ada.pk, "infraction": "Slow play", "kind": "points", "points": 1, "note": "twice"},
        format="json",
    )
    assert given.status_code == 201
    body = given.json()
    assert {
        key: body[key] for key in ("player", "round", "infraction", "kind", "points", "note", "given_by")
    } == {
        "player": ada.pk,
        "round": 1,
        "infraction": "Slow play",
        "kind": "points",
        "points": 1.0,
        "note": "twice",
        "given_by": "judy",
    }
    assert [row["id"] for row in api(ada.user).get(url).json()] == [body["id"]]
    assert api(bea.user).get(url).json() == []
    assert api(UserFactory(username="outsider")).get(url).status_code == 403
    bad = api(judy).post(url, {"player": ada.pk, "infraction": "Slow play", "kind": "ban"}, format="json")
    assert bad.status_code == 400

    types = f"/api/tournaments/{tournament.pk}/penalty-types/"
    assert api(judy).get(types).json()["names"][0] == "Slow play"
    assert api(judy).put(types, {"names": ["Late"]}, format="json").status_code == 403
    assert api(organizer).put(types, {"names": ["Late", "Marked cards"]}, format="json").json() == {
        "names": ["Late", "Marked cards"]
    }
    assert floor_selectors.penalty_types_of(tournament) == ["Late", "Marked cards"]
