"""The clubs' and seasons' tests share a club of staff and its organizer Clara."""

import pytest

from league.seasons import services
from tests.factories import StaffFactory, UserFactory


@pytest.fixture
def staff():
    return StaffFactory(username="sam")


@pytest.fixture
def club(staff):
    return services.club_create(by=staff, name="Tuesday Nuggets")


@pytest.fixture
def clara(club, staff):
    clara = UserFactory(username="clara")
    services.club_organizer_add(club=club, by=staff, username="Clara")  # any case, as sign-up
    return clara
