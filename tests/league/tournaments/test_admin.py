"""The tournament admin: lists and forms open, and actions drive a tournament through the services."""

from django.contrib.auth import get_user_model

from league.tournaments.models import Round, Tournament


def test_the_admin_drives_a_tournament_through_the_services(client, make_tournament, organizer):
    tournament, _ = make_tournament(8, start=False)
    client.force_login(
        get_user_model().objects.create_superuser("root", "root@example.invalid", "pass-word-123")
    )
    for url in (
        "/admin/tournaments/tournament/",
        f"/admin/tournaments/tournament/{tournament.pk}/change/",
        "/admin/tournaments/round/",
    ):
        assert client.get(url).status_code == 200, url
    changelist = "/admin/tournaments/tournament/"
    client.post(changelist, {"action": "start", "_selected_action": [tournament.pk]})
    client.post(changelist, {"action": "generate_round", "_selected_action": [tournament.pk]})
    round_row = Round.objects.get()
    assert client.get(f"/admin/tournaments/round/{round_row.pk}/change/").status_code == 200
    client.post("/admin/tournaments/round/", {"action": "publish", "_selected_action": [round_row.pk]})
    response = client.post(
        "/admin/tournaments/round/", {"action": "complete", "_selected_action": [round_row.pk]}, follow=True
    )
    round_row.refresh_from_db()
    tournament.refresh_from_db()
    assert (tournament.status, round_row.status) == (Tournament.Status.RUNNING, Round.Status.PUBLISHED)
    assert "round 1 still waits for the result of table 1, 2" in response.content.decode()


def test_the_change_form_saves_settings_through_the_service_and_leaves_registrations_alone(
    client, make_tournament
):
    tournament, _ = make_tournament(4, start=False)
    root = get_user_model().objects.create_superuser("root", "root@example.invalid", "pass-word-123")
    client.force_login(root)
    url = f"/admin/tournaments/tournament/{tournament.pk}/change/"
    page = client.get(url).context
    form, registrations = page["adminform"].form, page["inline_admin_formsets"][0].formset
    data = {name: value for name, value in form.initial.items() if value is not None and name in form.fields}
    data.update({"name": "Summer Open", "options": "{}", "points": "{}", "tiebreaks": '["points"]'})
    data["organizers"] = []
    prefix = registrations.prefix
    data.update({f"{prefix}-TOTAL_FORMS": 4, f"{prefix}-INITIAL_FORMS": 4, f"{prefix}-0-seed": 99})
    data.update({f"{prefix}-{index}-id": row.instance.pk for index, row in enumerate(registrations.forms)})
    data.update({f"{prefix}-{index}-tournament": tournament.pk for index in range(4)})
    response = client.post(url, data)
    assert response.status_code == 302
    tournament.refresh_from_db()
    assert (tournament.name, tournament.slug) == ("Summer Open", "summer-open")
    assert tournament.tiebreaks == ["points"]
    assert list(tournament.registrations.order_by("seed").values_list("seed", flat=True)) == [1, 2, 3, 4]
