"""The private links and the venue's address in the REST API: organizers issue, reissue and revoke links
(the token only in the issuing answer), declare the venue's address; everyone else is refused."""

from django.test import Client
from rest_framework.test import APIClient

from league.players.models import Player
from league.tournaments.link_selectors import link_digest
from league.tournaments.models import PrivateLink
from tests.factories import tournaments as helpers


def api(user=None) -> APIClient:
    client = APIClient()
    if user is not None:
        client.force_authenticate(user)
    return client


def test_organizers_issue_reissue_and_revoke_links_through_the_api(organizer):
    tournament, players = helpers.make_tournament(organizer, 4, table_size=4, result_reporting="self_report")
    ada = players[0]
    url = f"/api/tournaments/{tournament.pk}/private-links/{ada.pk}/"
    first = api(organizer).post(url)
    assert first.status_code == 201
    body = first.json()
    assert (body["player"], body["name"], body["reissued"], body["works_until"]) == (
        ada.pk,
        "Ada",
        False,
        None,
    )
    assert body["url"] == f"http://testserver/p/{body['token']}/"
    assert first["Cache-Control"] == "no-store"
    assert PrivateLink.objects.get().token_hash == link_digest(body["token"])
    second = api(organizer).post(url).json()
    assert second["reissued"] is True
    assert Client().get(f"/p/{body['token']}/").status_code == 404
    assert Client().get(f"/p/{second['token']}/").status_code == 200
    listing = api(organizer).get(f"/api/tournaments/{tournament.pk}/private-links/").json()
    assert [(row["player"], row["name"], row["revoked_at"], row["email"]) for row in listing] == [
        (ada.pk, "Ada", None, False)
    ]
    assert second["token"] not in str(listing)
    revoked = api(organizer).delete(url)
    assert revoked.status_code == 200
    assert revoked.json()["revoked_at"] is not None
    assert Client().get(f"/p/{second['token']}/").status_code == 404


def test_the_api_refuses_strangers_anonymous_users_and_unknown_players(organizer, stranger):
    tournament, players = helpers.make_tournament(organizer, 4, table_size=4)
    url = f"/api/tournaments/{tournament.pk}/private-links/{players[0].pk}/"
    assert api().post(url).status_code == 401
    refused = api(stranger).post(url)
    assert refused.status_code == 403
    assert refused.json()["code"] == "forbidden"
    outsider = Player.objects.create(name="Outsider")
    missing = api(organizer).post(f"/api/tournaments/{tournament.pk}/private-links/{outsider.pk}/")
    assert missing.status_code == 404
    assert missing.json()["code"] == "not_found"
    assert api(organizer).delete(url).status_code == 404  # no link yet
    assert api(organizer).post(f"/api/tournaments/999999/private-links/{players[0].pk}/").status_code == 404
    assert PrivateLink.objects.count() == 0


def test_organizers_declare_and_clear_the_venue_address(organizer, stranger):
    tournament, _ = helpers.make_tournament(organizer, 4, table_size=4)
    url = f"/api/tournaments/{tournament.pk}/venue-address/"
    assert api(organizer).get(url).json() == {
        "venue_address": None,
        "venue_day": None,
        "venue_approved": False,
    }
    bad = api(organizer).put(url, {"venue_address": "venue wifi", "venue_day": "2026-12-06"}, format="json")
    assert bad.status_code == 400
    no_day = api(organizer).put(url, {"venue_address": "203.0.113.9"}, format="json")
    assert no_day.status_code == 400
    assert no_day.json()["field"] == "venue_day"
    ok = api(organizer).put(url, {"venue_address": "203.0.113.9", "venue_day": "2026-12-06"}, format="json")
    assert ok.json() == {"venue_address": "203.0.113.9", "venue_day": "2026-12-06", "venue_approved": True}
    assert (
        api(stranger).put(url, {"venue_address": None, "venue_day": None}, format="json").status_code == 403
    )
    cleared = api(organizer).put(url, {"venue_address": None, "venue_day": None}, format="json")
    assert cleared.json() == {"venue_address": None, "venue_day": None, "venue_approved": False}
