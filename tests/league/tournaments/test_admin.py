"""The tournament admin: lists and forms open, and actions drive a tournament through the services."""

from django.contrib.auth import get_user_model

from league.tournaments.models import Round, Tournament


def test_the_admin_drives_a_tournament_through_the_services(client, make_tournament, organizer):
    tournament, _ = make_tournament(8, start=False)
    client.force_login(get_user_model().objects.create_superuser("root", "root@example.invalid", "pass-word-123"))
    for url in ("/admin/tournaments/tournament/", f"/admin/tournaments/tournament/{tournament.pk}/change/",
                "/admin/tournaments/round/"):  # fmt: skip
        assert client.get(url).status_code == 200, url
    changelist = "/admin/tournaments/tournament/"
    client.post(changelist, {"action": "start", "_selected_action": [tournament.pk]})
    client.post(changelist, {"action": "generate_round", "_selected_action": [tournament.pk]})
    round_row = Round.objects.get()
    assert client.get(f"/admin/tournaments/round/{round_row.pk}/change/").status_code == 200
    client.post("/admin/tournaments/round/", {"action": "publish", "_selected_action": [round_row.pk]})
    response = client.post("/admin/tournaments/round/", {"action": "complete", "_selected_action": [round_row.pk]},
                           follow=True)  # fmt: skip
    round_row.refresh_from_db()
    tournament.refresh_from_db()
    assert (tournament.status, round_row.status) == (Tournament.Status.RUNNING, Round.Status.PUBLISHED)
    assert "round 1 still waits for the result of table 1, 2" in response.content.decode()
