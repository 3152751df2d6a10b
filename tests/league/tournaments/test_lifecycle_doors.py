"""Delete, cancel, clone and undo through the API and the pages: each checks who asks on the server, and bad
input answers with a message, never a 500."""

from rest_framework.test import APIClient

from league.matches.models import Match
from league.tournaments import services
from league.tournaments.models import Table, Tournament
from tests.factories import tournaments as helpers


def api(user=None):
    client = APIClient()
    if user is not None:
        client.force_authenticate(user)
    return client


def running(organizer):
    tournament, _ = helpers.make_tournament(organizer, 4, table_size=2, rounds=2, rated=False)
    round_row = services.round_generate(tournament=tournament, by=organizer)
    services.round_publish(round_row=round_row, by=organizer)
    return tournament, round_row


def test_the_api_cancels_and_undoes(organizer, stranger):
    tournament, _ = running(organizer)
    base = f"/api/tournaments/{tournament.pk}"
    assert api(stranger).post(f"{base}/cancel/", {"reason": "x"}, format="json").status_code == 403
    assert api().post(f"{base}/cancel/", {"reason": "x"}, format="json").status_code in (401, 403)
    blank = api(organizer).post(f"{base}/cancel/", {"reason": "  "}, format="json")
    assert (blank.status_code, blank.json()["detail"]) == (
        400,
        "say why the event is cancelled: the players read it",
    )
    assert api(organizer).post(f"{base}/cancel/", {"reason": ["x"]}, format="json").status_code == 400
    answer = api(organizer).post(f"{base}/cancel/", {"reason": "Snow"}, format="json")
    assert (answer.status_code, answer.json()["status"], answer.json()["cancel_reason"]) == (
        200,
        "cancelled",
        "Snow",
    )
    again = api(organizer).post(f"{base}/cancel/", {"reason": "Snow"}, format="json")
    assert (again.status_code, again.json()["detail"]) == (
        409,
        "the tournament is cancelled: undo the cancel (for 10 minutes after it) or clone the event",
    )
    assert api(stranger).post(f"{base}/cancel/undo/").status_code == 403
    undone = api(organizer).post(f"{base}/cancel/undo/")
    assert (undone.status_code, undone.json()["status"], undone.json()["cancel_reason"]) == (
        200,
        "running",
        "",
    )


def test_the_api_clones_and_deletes(organizer, stranger):
    source, _ = running(organizer)
    base = f"/api/tournaments/{source.pk}"
    assert api(stranger).post(f"{base}/clone/", {}, format="json").status_code == 403
    bad = api(organizer).post(f"{base}/clone/", {"shift_days": "soon"}, format="json")
    assert bad.status_code == 400
    made = api(organizer).post(f"{base}/clone/", {"name": "Spring Open II", "shift_days": 7}, format="json")
    assert (made.status_code, made.json()["name"], made.json()["status"]) == (201, "Spring Open II", "draft")
    refused = api(organizer).delete(f"{base}/")
    assert (refused.status_code, refused.json()["detail"]) == (
        409,
        "round 1 was published: a tournament that played cannot be deleted; cancel it instead (its results "
        "and ratings stay)",
    )
    clone = f"/api/tournaments/{made.json()['id']}/"
    assert api(stranger).delete(clone).status_code in (403, 404)
    gone = api(organizer).delete(clone)
    assert (gone.status_code, gone.json()) == (200, {"walk_ins_deleted": []})
    assert not Tournament.objects.filter(name="Spring Open II").exists()


def test_the_api_undoes_a_tables_closing(organizer, stranger):
    _, round_row = running(organizer)
    table = round_row.tables.order_by("number").first()
    seats = list(table.match.seats.order_by("seat").values_list("player_id", flat=True))
    api(organizer).post(
        f"/api/tournament-tables/{table.pk}/close/", {"absent": seats[:1], "kind": "forfeit"}, format="json"
    )
    assert api(stranger).post(f"/api/tournament-tables/{table.pk}/close/undo/").status_code == 403
    answer = api(organizer).post(f"/api/tournament-tables/{table.pk}/close/undo/")
    assert (answer.status_code, answer.json()["closed_as"], answer.json()["match_status"]) == (
        200,
        "",
        "scheduled",
    )
    again = api(organizer).post(f"/api/tournament-tables/{table.pk}/close/undo/")
    assert (again.status_code, again.json()["detail"]) == (409, "table 1 of round 1 is not closed")


def test_the_page_cancels_undoes_and_shows_why(client, organizer, stranger):
    tournament, _ = running(organizer)
    page = f"/tournaments/{tournament.slug}/"
    client.force_login(stranger)
    assert client.post(f"{page}cancel/", {"reason": "x"}).status_code == 403
    client.force_login(organizer)
    body = client.get(page).content.decode()
    assert 'id="cancel"' in body and 'id="clone"' in body and 'id="delete"' not in body
    blank = client.post(f"{page}cancel/", {"reason": ""})
    assert (
        blank.status_code == 400
        and "say why the event is cancelled: the players read it" in blank.content.decode()
    )
    assert client.post(f"{page}cancel/", {"reason": "The hall flooded."}).status_code == 302
    body = client.get(page).content.decode()
    assert "<strong>This event is cancelled.</strong> The hall flooded.</p>" in body
    assert 'id="cancel-undo"' in body and 'id="cancel"' not in body
    visitor = client.__class__().get(page).content.decode()
    assert "The hall flooded." in visitor and "cancel-undo" not in visitor
    listed = client.get("/tournaments/").content.decode()
    assert "Cancelled" in listed and tournament.name in listed
    assert client.get(f"{page}rounds/1/").status_code == 200
    assert client.post(f"{page}cancel-undo/").status_code == 302
    assert Tournament.objects.get(pk=tournament.pk).status == "running"


def test_the_page_clones_and_deletes_a_draft(client, organizer):
    source, _ = running(organizer)
    client.force_login(organizer)
    made = client.post(
        f"/tournaments/{source.slug}/clone/", {"name": "Autumn Open", "shift_days": "7", "shift_hours": "0"}
    )
    clone = Tournament.objects.get(name="Autumn Open")
    assert (made.status_code, made["Location"]) == (302, f"/tournaments/{clone.slug}/")
    bad = client.post(
        f"/tournaments/{source.slug}/clone/", {"name": "X", "shift_days": "many", "shift_hours": "0"}
    )
    assert bad.status_code == 400 and "Enter a whole number." in bad.content.decode()
    body = client.get(f"/tournaments/{clone.slug}/").content.decode()
    assert 'id="delete"' in body
    asked = client.post(f"/tournaments/{clone.slug}/delete/")
    assert asked.status_code == 200 and "Delete Autumn Open?" in asked.content.decode()
    assert Tournament.objects.filter(pk=clone.pk).exists()
    done = client.post(f"/tournaments/{clone.slug}/delete/", {"confirm": "yes"})
    assert (done.status_code, done["Location"]) == (302, "/tournaments/")
    assert not Tournament.objects.filter(pk=clone.pk).exists()


def test_the_result_page_undoes_a_closing(client, organizer):
    tournament, round_row = running(organizer)
    table = round_row.tables.order_by("number").first()
    seats = list(table.match.seats.order_by("seat").values_list("player_id", flat=True))
    client.force_login(organizer)
    base = f"/tournaments/{tournament.slug}/rounds/1/tables/1"
    closed = client.post(f"{base}/close/", {"absent": [seats[0]], "kind": "forfeit"}, follow=True)
    assert "You can undo it for 10 minutes on the table&#x27;s result page." in closed.content.decode()
    assert 'id="close-undo"' in client.get(f"{base}/result/").content.decode()
    undone = client.post(f"{base}/close/undo/")
    assert (undone.status_code, undone["Location"]) == (302, f"{base}/result/")
    table = Table.objects.get(pk=table.pk)
    assert (table.closed_as, Match.objects.get(pk=table.match_id).status) == ("", "scheduled")
    page = client.get(f"{base}/result/").content.decode()
    assert 'id="close-undo"' not in page and "You are correcting" not in page
