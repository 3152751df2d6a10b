"""Account fixtures: people with accounts and email addresses, an organizer who is not staff, a tournament."""

import pytest
from django.test import Client
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from league.players.models import Player
from league.tournaments import services as tournament_services
from tests.factories import StaffFactory, UserFactory
from tests.factories import tournaments as helpers

PASSWORD = "pass-word-123"


def browser_for(user=None) -> Client:
    """A page client, logged in as `user` when given."""
    client = Client()
    if user is not None:
        client.force_login(user, backend="django.contrib.auth.backends.ModelBackend")
    return client


def api_for(user=None) -> APIClient:
    """An API client with `user`'s token when given."""
    client = APIClient()
    if user is not None:
        client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.get_or_create(user=user)[0].key}")
    return client


@pytest.fixture
def staff(db):
    return StaffFactory(username="staffer", email="staffer@secret.example")


@pytest.fixture
def alice(db):
    """A user without a player."""
    return UserFactory(username="alice", email="alice@secret.example")


@pytest.fixture
def bob(db):
    """Another user without a player."""
    return UserFactory(username="bob", email="bob@secret.example")


@pytest.fixture
def orga(db):
    """An organizer who is not site staff."""
    return UserFactory(username="orga", email="orga@secret.example")


@pytest.fixture
def event(staff, orga):
    """A running 4-player Swiss (tables of 2) of Ada, Bea, Cal and Dov (nobody's players), run by orga."""
    tournament, players = helpers.make_tournament(staff, 4, name="Club Night", table_size=2, rounds=2)
    tournament_services.organizer_add(tournament=tournament, by=staff, username="orga")
    return tournament, players


@pytest.fixture
def other_event(staff):
    """Another tournament, of Eli and Fay, that orga does not organize."""
    tournament, players = helpers.make_tournament(
        staff, 0, name="Far Away", table_size=2, rounds=1, start=False
    )
    for name in ("Eli", "Fay"):
        tournament_services.registration_add(tournament=tournament, by=staff, name=name)
    return tournament, list(Player.objects.filter(name__in=("Eli", "Fay")).order_by("name"))
