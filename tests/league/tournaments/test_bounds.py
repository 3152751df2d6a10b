"""A tournament's numbers have one set of bounds, the service's: the page form, the API serializer and the
admin (through the service) accept the same numbers, and a number the column cannot store is a 400, never a
500 (DataError) nor silently stored."""

import pytest
from django.contrib.auth import get_user_model
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from league.api.tournaments.registrations import RegistrationWriteSerializer
from league.api.tournaments.tournaments import TournamentWriteSerializer
from league.core.errors import UserError
from league.tournaments import services
from league.tournaments.forms import TournamentForm
from league.tournaments.models import Tournament
from tests.league.api_errors import field_error_body

PAGE = {
    "name": "Cup",
    "game_id": "nacho_pile",
    "format": "stages",
    "table_size": 4,
    "leftovers": "short",
    "rounds": 3,
    "first_stage": "swiss",
    "cut_size": 8,
    "cut_format": "single_elimination",
    "advance": 1,
}
API = {"name": "Cup", "game": "nacho_pile", "format": "stages", "table_size": 4, "rounds": 3, "cut_size": 8}

# The inputs: a cut the column cannot store, an advance beyond 2**31 - 1, and one it stored though the
# API caps it at 6.
TOO_BIG = [
    ("cut_size", 100000, "Ensure this value is less than or equal to 1024."),
    ("advance", 2147483648, "Ensure this value is less than or equal to 6."),
    ("advance", 1000, "Ensure this value is less than or equal to 6."),
]


@pytest.mark.parametrize(("field", "value", "message"), TOO_BIG)
def test_the_new_tournament_page_refuses_numbers_beyond_the_bounds(client, organizer, field, value, message):
    client.force_login(organizer)
    response = client.post("/tournaments/new/", {**PAGE, field: value})
    assert response.status_code == 400
    assert response.context["form"].errors == {field: [message]}
    assert not Tournament.objects.exists()


@pytest.mark.parametrize(("field", "value", "message"), TOO_BIG)
def test_the_api_refuses_the_same_numbers(organizer, field, value, message):
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=organizer).key}")
    response = api.post("/api/tournaments/", {**API, field: value}, format="json")
    assert (response.status_code, response.json()) == (400, field_error_body(field, message))
    assert not Tournament.objects.exists()


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("cut_size", 100000, "cut size must be a whole number from 2 to 1024"),
        ("advance", 2147483648, "advance must be a whole number from 1 to 6"),
        ("advance", 1000, "advance must be a whole number from 1 to 6"),
        ("rounds", 61, "rounds must be a whole number from 1 to 60"),
        ("table_size", 8, "table size must be a whole number from 2 to 7"),
        ("advance", True, "advance must be a whole number from 1 to 6"),
    ],
)
def test_the_service_checks_the_bounds_for_every_caller(organizer, field, value, message):
    settings = {
        "name": "Cup",
        "game_id": "chicken_foot",
        "format": "stages",
        "table_size": 4,
        "rounds": 3,
        "cut_size": 8,
        field: value,
    }
    with pytest.raises(UserError) as caught:
        services.tournament_create(created_by=organizer, **settings)
    assert (caught.value.field, caught.value.message) == (field, message)
    assert not Tournament.objects.exists()


def test_a_cut_size_is_bounded_whatever_the_format(organizer):
    with pytest.raises(UserError, match="^cut size must be a whole number from 2 to 1024$"):
        services.tournament_create(
            created_by=organizer,
            name="Cup",
            game_id="nacho_pile",
            format="swiss",
            table_size=4,
            rounds=3,
            cut_size=100000,
        )


def test_the_admin_cannot_store_an_advance_beyond_the_bounds(client, make_tournament):
    tournament, _ = make_tournament(4, start=False)
    client.force_login(
        get_user_model().objects.create_superuser("root", "root@example.invalid", "pass-word-123")
    )
    url = f"/admin/tournaments/tournament/{tournament.pk}/change/"
    form = client.get(url).context["adminform"].form
    data = {name: value for name, value in form.initial.items() if value is not None and name in form.fields}
    data.update(
        {
            "options": "{}",
            "points": "{}",
            "tiebreaks": '["points"]',
            "organizers": [],
            "advance": 1000,
            "registrations-TOTAL_FORMS": 0,
            "registrations-INITIAL_FORMS": 0,
        }
    )
    response = client.post(url, data, follow=True)
    assert [str(m) for m in response.context["messages"]][0] == "advance must be a whole number from 1 to 6"
    tournament.refresh_from_db()
    assert tournament.advance == 1


def test_the_page_form_and_the_api_take_the_services_bounds():
    form = TournamentForm().fields
    api = TournamentWriteSerializer().fields
    for name, bounds in services.SETTING_BOUNDS.items():
        assert (form[name].min_value, form[name].max_value) == (bounds.low, bounds.high), name
        assert (api[name].min_value, api[name].max_value) == (bounds.low, bounds.high), name
    seed = RegistrationWriteSerializer().fields["seed"]
    assert (
        (seed.min_value, seed.max_value)
        == (services.SEED_BOUNDS.low, services.SEED_BOUNDS.high)
        == (1, 100_000)
    )


def test_a_registration_seed_is_bounded_in_the_service(make_tournament, organizer):
    tournament, _ = make_tournament(2, start=False)
    with pytest.raises(UserError, match="^seed must be a whole number from 1 to 100000$"):
        services.registration_add(tournament=tournament, by=organizer, name="Zed", seed=2147483648)


def test_a_player_id_beyond_64_bits_names_no_registration(client, make_tournament, organizer):
    tournament, _ = make_tournament(4)
    huge = 2**64
    api = APIClient()
    api.force_authenticate(organizer)
    response = api.patch(
        f"/api/tournaments/{tournament.pk}/registrations/{huge}/", {"status": "dropped"}, format="json"
    )
    assert (response.status_code, response.json()) == (
        404,
        field_error_body("player", f"player {huge} is not registered", "not_found"),
    )
    client.force_login(organizer)
    page = client.post(f"/tournaments/{tournament.slug}/leave/", {"player": str(huge), "status": "dropped"})
    assert page.status_code == 404
    assert f"player {huge} is not registered" in page.content.decode()
    assert tournament.registrations.filter(status="active").count() == 4


def test_a_name_too_long_for_a_player_is_refused_before_it_is_looked_up(client, make_tournament, organizer):
    tournament, _ = make_tournament(4, start=False)
    client.force_login(organizer)
    response = client.post(f"/tournaments/{tournament.slug}/register/", {"names": "x" * 100_000})
    assert response.status_code == 400
    assert "a name has at most 80 characters" in response.content.decode()
