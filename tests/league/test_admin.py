"""The admin: every league model is there; matches and corrections go through the services."""

import re

import pytest
from django.contrib.auth import get_user_model

from games.registry import get_spec
from league.matches.models import Match
from league.ratings.models import PendingRatingUpdate
from league.results.models import ResultVersion


@pytest.fixture
def admin_client(client, db):
    user = get_user_model().objects.create_superuser("boss", "boss@example.invalid", "pass-word-123")
    client.force_login(user)
    return client


@pytest.mark.parametrize(
    "model",
    [
        "players/player",
        "matches/match",
        "results/resultversion",
        "ratings/ratingpool",
        "ratings/rating",
        "ratings/ratinghistory",
        "ratings/pendingratingupdate",
        "django_celery_beat/periodictask",
    ],
)
def test_admin_lists_every_league_model(admin_client, match_of, submit, model):
    submit(match_of(), [1, 2, 3, 4])
    assert admin_client.get(f"/admin/{model}/").status_code == 200


def test_admin_adds_a_match_through_the_service(admin_client, players):
    response = admin_client.post(
        "/admin/matches/match/add/",
        {
            "game": "nacho_pile",
            "seat_names": "cat\nAnn\n",
            "options_json": "",
            "rated": "on",
            "played_at_0": "2026-03-01",
            "played_at_1": "20:00:00",
        },
    )
    assert response.status_code == 302
    match = Match.objects.get()
    assert list(match.seats.values_list("player__name", flat=True)) == ["Cat", "Ann"]
    assert match.options == get_spec("nacho_pile").validate_options({})


def test_admin_refuses_a_bad_match_with_a_form_error(admin_client, players):
    response = admin_client.post(
        "/admin/matches/match/add/",
        {
            "game": "chickie_nuggs",
            "seat_names": "Ann\nNobody",
            "options_json": "[]",
            "rated": "on",
            "played_at_0": "2026-03-01",
            "played_at_1": "20:00:00",
        },
    )
    assert response.status_code == 200
    page = response.content.decode()
    assert "no player called Nobody" in page and "options are a JSON object" in page
    assert not Match.objects.exists()


def test_admin_corrects_a_result_as_a_new_version(admin_client, match_of, submit):
    match = match_of()
    submit(match, [1, 2, 3, 4])
    url = f"/admin/matches/match/{match.pk}/change/"
    page = admin_client.get(url).content.decode()
    assert "Result versions" in page

    hidden = dict(re.findall(r'<input type="hidden" name="([\w-]+)" value="([^"]*)"', page))
    inline_management = {name: value for name, value in hidden.items() if name != "csrfmiddlewaretoken"}
    assert inline_management["result_versions-TOTAL_FORMS"] == "1"

    refused = admin_client.post(
        url, {**inline_management, "new_places": "4, 3, 2, 1", "correction_reason": ""}
    )
    assert refused.status_code == 200 and "say why the result is corrected" in refused.content.decode()
    accepted = admin_client.post(
        url, {**inline_management, "new_places": "4, 3, 2, 1", "correction_reason": "typo"}
    )
    assert accepted.status_code == 302

    versions = list(
        ResultVersion.objects.filter(match=match).order_by("version").values_list("version", "places")
    )
    assert versions == [(1, [1, 2, 3, 4]), (2, [4, 3, 2, 1])]
    assert PendingRatingUpdate.objects.filter(match=match).count() == 1
    assert admin_client.post(f"/admin/results/resultversion/{versions[0][0]}/delete/").status_code == 403


def test_admin_voids_instead_of_deleting(admin_client, match_of, submit):
    match = match_of()
    submit(match, [1, 2, 3, 4])
    response = admin_client.post(
        "/admin/matches/match/", {"action": "void_matches", "_selected_action": [match.pk]}
    )
    assert response.status_code == 302
    match.refresh_from_db()
    assert match.status == Match.Status.VOID
    assert admin_client.post(f"/admin/matches/match/{match.pk}/delete/").status_code == 403
