"""Who may lift the limits per client address: a venue's address lifts them only when an organizer declared
the address they connect from and site staff approved it (a staff member's own declaration is approved at
once). The attacks: an organizer of one event (staff made it and named them) who declares a stranger's
address, or their own, so as to try passwords over every account from it without the per-address lockout."""

import pytest
from django.contrib import admin
from django.contrib.messages.storage.fallback import FallbackStorage
from django.test import Client, RequestFactory
from django.utils import timezone
from rest_framework.test import APIClient

from league.core.errors import Forbidden
from league.core.throttling import VENUE_CHECKS, declared_venue
from league.tournaments import services
from league.tournaments.models import AuditEntry, Tournament
from league.tournaments.venues import is_declared_venue
from tests.factories import StaffFactory, UserFactory
from tests.factories import tournaments as helpers

HOME = "198.51.100.23"  # the attacker's own address
VICTIM = "203.0.113.50"  # somebody else's: a school's, a library's
LOGIN = "/accounts/login/"


@pytest.fixture
def mallory(db):
    return UserFactory(username="mallory")


@pytest.fixture
def own_event(mallory):
    tournament, _ = helpers.make_tournament(StaffFactory(), 4, table_size=4, name="Mallory's Night")
    tournament.organizers.add(mallory)
    return tournament


def links_page(user, address: str) -> tuple[Client, str]:
    client = Client(REMOTE_ADDR=address)
    client.force_login(user)
    return client, f"/tournaments/{Tournament.objects.get().slug}/private-links/"


def wrong_login(username: str, address: str) -> int:
    return Client(REMOTE_ADDR=address).post(LOGIN, {"username": username, "password": "wrong"}).status_code


def test_an_organizer_cannot_declare_an_address_they_do_not_connect_from(own_event, mallory):
    client, url = links_page(mallory, HOME)
    today = timezone.localdate().isoformat()
    answer = client.post(url, {"action": "venue", "venue_address": VICTIM, "venue_day": today})
    assert answer.status_code == 400
    assert (
        "declare the address you connect from at the venue, on its network (this device connects from "
        "198.51.100.23); site staff can declare another"
    ) in answer.content.decode()
    own_event.refresh_from_db()
    assert (own_event.venue_address, own_event.venue_day) == (None, None)
    api = APIClient(REMOTE_ADDR=HOME)
    api.force_authenticate(mallory)
    put = api.put(
        f"/api/tournaments/{own_event.pk}/venue-address/",
        {"venue_address": VICTIM, "venue_day": today},
        format="json",
    )
    assert (put.status_code, put.json()["field"]) == (400, "venue_address")
    assert not declared_venue(VICTIM)


def test_an_organizers_own_address_lifts_nothing_until_staff_approve_it(own_event, mallory, settings):
    settings.LOGIN_ADDRESS_FAILURE_LIMIT = 4
    for name in ("ada", "bea", "cy", "dot", "eve"):
        UserFactory(username=name)
    client, url = links_page(mallory, HOME)
    today = timezone.localdate().isoformat()
    assert client.post(url, {"action": "venue", "venue_address": HOME, "venue_day": today}).status_code == 302
    own_event.refresh_from_db()
    assert (own_event.venue_address, own_event.venue_approved_at) == (HOME, None)
    page = client.get(url).content.decode()
    assert (
        "Declared, waiting for site staff to approve it: until then the usual limits per address apply."
        in page
    )
    # Password spraying over every account from the declared address still meets the per-address lockout.
    assert [wrong_login(name, HOME) for name in ("ada", "bea", "cy", "dot", "eve")] == [
        400,
        400,
        400,
        429,
        429,
    ]
    assert not declared_venue(HOME)


def test_staff_approval_lifts_the_limits_and_a_changed_address_needs_it_again(own_event, mallory, settings):
    settings.LOGIN_ADDRESS_FAILURE_LIMIT = 4
    services.venue_address_set(
        tournament=own_event, by=mallory, address=HOME, day=timezone.localdate(), client=HOME
    )
    staff = StaffFactory(username="sam")
    request = RequestFactory().post("/admin/tournaments/tournament/")
    request.user = staff
    request.session = {}
    request._messages = FallbackStorage(request)
    admin.site._registry[Tournament].approve_venue_address(request, Tournament.objects.all())
    own_event.refresh_from_db()
    assert (own_event.venue_approved_by, own_event.venue_address) == (staff, HOME)
    assert declared_venue(HOME)
    assert [wrong_login(f"n{n}", HOME) for n in range(6)] == [400] * 6
    actions = list(AuditEntry.objects.filter(tournament=own_event).values_list("action", flat=True))
    assert actions.count("venue.address_set") == 2 and actions.count("venue.address_approved") == 1
    # Saving the same declaration again keeps the approval; another day drops it.
    services.venue_address_set(
        tournament=own_event, by=mallory, address=HOME, day=timezone.localdate(), client=HOME
    )
    assert declared_venue(HOME)
    tomorrow = timezone.localdate() + timezone.timedelta(days=1)
    services.venue_address_set(tournament=own_event, by=mallory, address=HOME, day=tomorrow, client=HOME)
    own_event.refresh_from_db()
    assert (own_event.venue_approved_at, own_event.venue_approved_by) == (None, None)
    assert not declared_venue(HOME)


def test_only_staff_approve_a_venue_address(own_event, mallory):
    services.venue_address_set(
        tournament=own_event, by=mallory, address=HOME, day=timezone.localdate(), client=HOME
    )
    with pytest.raises(Forbidden) as refused:
        services.venue_address_approve(tournament=own_event, by=mallory)
    assert refused.value.message == "only site staff approve a venue's address"
    own_event.refresh_from_db()
    assert own_event.venue_approved_at is None


def test_staff_declare_any_address_approved_at_once(own_event, db):
    staff = StaffFactory(username="sam")
    client, url = links_page(staff, HOME)
    today = timezone.localdate().isoformat()
    assert (
        client.post(url, {"action": "venue", "venue_address": VICTIM, "venue_day": today}).status_code == 302
    )
    own_event.refresh_from_db()
    assert (own_event.venue_address, own_event.venue_approved_by) == (VICTIM, staff)
    assert declared_venue(VICTIM)
    assert (
        "Approved: the limits per address are lifted at 203.0.113.50 on" in client.get(url).content.decode()
    )


def test_the_tournaments_rule_is_registered_once_for_cores_limits():
    assert VENUE_CHECKS.count(is_declared_venue) == 1
