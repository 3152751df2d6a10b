"""Physical tables, fixed seats and accessibility notes in the REST API and its schema; the notes never
reach a public page or the public API, and go with the event's private data."""

import pytest
from rest_framework.test import APIClient

from league.tournaments import services
from league.tournaments.errors import StateConflict
from league.tournaments.models import PrivateLink, Registration
from tests.factories import UserFactory
from tests.factories import tournaments as helpers

NOTE = "Wheelchair: needs the end of a table (NOTE-7731)"


def api(user=None) -> APIClient:
    client = APIClient()
    if user is not None:
        client.force_authenticate(user)
    return client


def test_tables_carry_their_physical_number_fixed_flag_and_short_code(organizer):
    tournament, players = helpers.make_tournament(organizer, 8)
    round_row = services.round_generate(tournament=tournament, by=organizer)
    top = round_row.tables.get(number=1)
    pinned = api(organizer).post(
        f"/api/tournament-tables/{top.pk}/fix/", {"physical_number": 14}, format="json"
    )
    assert pinned.status_code == 200
    assert {key: pinned.json()[key] for key in ("number", "physical_number", "fixed", "short_code")} == {
        "number": 1,
        "physical_number": 14,
        "fixed": True,
        "short_code": "1.14",
    }
    services.round_publish(round_row=round_row, by=organizer)
    body = api().get(f"/api/tournaments/{tournament.pk}/rounds/").json()
    rows = body["results"] if isinstance(body, dict) else body
    tables = rows[0]["tables"]
    assert [(t["number"], t["physical_number"], t["fixed"], t["short_code"]) for t in tables] == [
        (1, 14, True, "1.14"),
        (2, 2, False, "1.2"),
    ]
    refused = api(organizer).post(
        f"/api/tournament-tables/{top.pk}/fix/", {"physical_number": 3}, format="json"
    )
    assert refused.status_code == 409
    stranger = UserFactory(username="nobody")
    assert (
        api(stranger)
        .post(f"/api/tournament-tables/{top.pk}/fix/", {"physical_number": 3}, format="json")
        .status_code
        == 403
    )
    for bad in (0, 10_000, "x"):
        response = api(organizer).post(
            f"/api/tournament-tables/{top.pk}/fix/", {"physical_number": bad}, format="json"
        )
        assert response.status_code == 400


def test_organizers_set_a_fixed_table_and_a_note_others_never_see_the_note(client, organizer):
    tournament, players = helpers.make_tournament(organizer, 8)
    ada = players[0]
    url = f"/api/tournaments/{tournament.pk}/registrations/{ada.pk}/seating/"
    stranger = UserFactory(username="nobody")
    body = {"fixed_table": 6, "accessibility_note": NOTE}
    assert api(stranger).patch(url, body, format="json").status_code == 403
    assert api().patch(url, body, format="json").status_code in (401, 403)
    answer = api(organizer).patch(url, body, format="json")
    assert answer.status_code == 200
    assert (answer.json()["fixed_table"], answer.json()["accessibility_note"]) == (6, NOTE)
    assert api(organizer).patch(url, {"fixed_table": 0}, format="json").status_code == 400
    assert api(organizer).patch(url, {"accessibility_note": "x" * 501}, format="json").status_code == 400
    assert (
        api(organizer)
        .patch(f"/api/tournaments/{tournament.pk}/registrations/999999/seating/", body, format="json")
        .status_code
        == 404
    )
    # organizers read it in the list
    listed = api(organizer).get(f"/api/tournaments/{tournament.pk}/registrations/").json()
    assert [row["accessibility_note"] for row in listed if row["player"] == ada.pk] == [NOTE]
    # nobody else does: API, public pages
    for who in (None, stranger):
        rows = api(who).get(f"/api/tournaments/{tournament.pk}/registrations/").json()
        assert all("accessibility_note" not in row and "fixed_table" not in row for row in rows)
        assert "NOTE-7731" not in api(who).get(f"/api/tournaments/{tournament.pk}/").content.decode()
    helpers.play_round(tournament, organizer, complete=False)
    pages = [
        f"/tournaments/{tournament.slug}/",
        f"/tournaments/{tournament.slug}/rounds/1/",
        f"/tournaments/{tournament.slug}/rounds/1/find/?q=Ada",
        f"/tournaments/{tournament.slug}/rounds/1/slips/",
        f"/tournaments/{tournament.slug}/rounds/1/print/",
        f"/tournaments/{tournament.slug}/rounds/1/tables/1/",
        f"/tournaments/{tournament.slug}/projector/",
        f"/tournaments/{tournament.slug}/embed/",
        f"/tournaments/{tournament.slug}/players/{ada.slug}/",
        f"/tournaments/{tournament.slug}/standings.csv",
        f"/tournaments/{tournament.slug}/results.csv",
    ]
    client.force_login(stranger)
    for page in pages:
        response = client.get(page)
        assert response.status_code == 200, page
        assert b"NOTE-7731" not in response.content, page
    # the log (organizers') says a note changed, never what it says
    client.force_login(organizer)
    assert b"NOTE-7731" not in client.get(f"/tournaments/{tournament.slug}/log/").content


def test_the_private_data_goes_once_the_event_ended(organizer):
    tournament, players = helpers.make_tournament(organizer, 4, result_reporting="self_report")
    for player in players[:2]:
        registration = Registration.objects.get(tournament=tournament, player=player)
        services.registration_seating(registration=registration, by=organizer, accessibility_note=NOTE)
        services.private_link_issue(tournament=tournament, by=organizer, player_id=player.pk)
    url = f"/api/tournaments/{tournament.pk}/delete-private-data/"
    running = api(organizer).post(url)
    assert running.status_code == 409
    assert api(UserFactory(username="nobody")).post(url).status_code == 403
    services.tournament_cancel(tournament=tournament, by=organizer, reason="the hall flooded")
    done = api(organizer).post(url)
    assert done.status_code == 200
    assert done.json() == {"private_links": 2, "accessibility_notes": 2}
    assert not PrivateLink.objects.filter(registration__tournament=tournament).exists()
    assert list(
        Registration.objects.filter(tournament=tournament).values_list("accessibility_note", flat=True)
    ) == [
        "",
        "",
        "",
        "",
    ]
    entry = tournament.audit_entries.get(action="tournament.private_data_deleted")
    assert entry.details == {"private_links": 2, "accessibility_notes": 2}


def test_deleting_private_data_of_a_running_event_is_refused_by_the_service(organizer):
    tournament, _ = helpers.make_tournament(organizer, 4)
    with pytest.raises(StateConflict):
        services.tournament_private_data_delete(tournament=tournament, by=organizer)


def test_the_schema_documents_physical_numbers_fixed_seats_and_notes(client, db):
    schema = client.get("/api/schema/", {"format": "json"}).json()
    components = schema["components"]["schemas"]
    table = components["TournamentTable"]["properties"]
    assert {"physical_number", "fixed", "short_code"} <= set(table)
    registration = components["TournamentRegistration"]["properties"]
    assert {"fixed_table", "accessibility_note"} <= set(registration)
    paths = schema["paths"]
    assert "post" in paths["/api/tournament-tables/{id}/fix/"]
    assert "patch" in paths["/api/tournaments/{id}/registrations/{player_id}/seating/"]
    assert "post" in paths["/api/tournaments/{id}/delete-private-data/"]
