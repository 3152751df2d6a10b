"""Per-address limits at a venue, where every phone shares one address: the defaults are sized for a hundred
phones, and an organizer may declare the venue's address for the event day, from which the limits count
per account (and per private link) instead of per address.

The sixty phones are Django test clients with one fixed REMOTE_ADDR (a browser with sixty contexts would be
too heavy for a test); each signs up through the mailed link, makes its player, joins, and mistypes its
password once on a later log-in."""

import re
from datetime import date, timedelta
from zoneinfo import ZoneInfo

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.test import Client
from django.utils import timezone

from league.tournaments import services
from league.tournaments.models import Registration
from tests.factories import UserFactory
from tests.factories import tournaments as helpers

User = get_user_model()
VENUE = "203.0.113.7"
LOGIN = "/accounts/login/"
GOOD = "correct horse 9"
LINK = re.compile(r"^http://localhost:8000(/accounts/signup/[^/\s]+/)$", re.MULTILINE)


def sign_up(client: Client, n: int):
    values = {"username": f"p{n}", "email": f"p{n}@secret.example", "password1": GOOD, "password2": GOOD}
    return client.post("/accounts/signup/", values)


def wrong_login(username: str, address: str = VENUE) -> int:
    return Client(REMOTE_ADDR=address).post(LOGIN, {"username": username, "password": "wrong"}).status_code


def declare(tournament, organizer, day: date | None = None) -> None:
    services.venue_address_set(
        tournament=tournament, by=organizer, address=VENUE, day=day or timezone.localdate(), client=VENUE
    )


def test_sixty_phones_behind_one_address_sign_up_join_and_log_in(organizer):
    tournament = helpers.open_signup(organizer, capacity=100)
    for n in range(60):
        phone = Client(REMOTE_ADDR=VENUE)
        assert sign_up(phone, n)["Location"] == "/accounts/signup/sent/"
        link = LINK.search(mail.outbox[-1].body).group(1)
        assert phone.post(link).status_code == 302
        assert phone.post("/me/player/", {"name": f"Phone {n}"}).status_code == 302
        assert phone.post(f"/tournaments/{tournament.slug}/entry/join/").status_code == 302
        phone.post("/accounts/logout/")
        assert wrong_login(f"p{n}") == 400
        again = Client(REMOTE_ADDR=VENUE).post(LOGIN, {"username": f"p{n}", "password": GOOD})
        assert again.status_code == 302
    assert User.objects.count() == 61
    active = tournament.registrations.filter(status=Registration.Status.ACTIVE)
    assert sorted(active.values_list("player__name", flat=True)) == sorted(f"Phone {n}" for n in range(60))


def test_failed_log_ins_lock_an_address_after_300_over_all_names(db, settings):
    assert settings.LOGIN_ADDRESS_FAILURE_LIMIT == 300
    settings.LOGIN_ADDRESS_FAILURE_LIMIT = 4
    UserFactory(username="zed")
    assert [wrong_login(f"name{n}") for n in range(4)] == [400, 400, 400, 429]
    assert Client(REMOTE_ADDR=VENUE).post(LOGIN, {"username": "zed", "password": "x"}).status_code == 429
    assert wrong_login("zed", "198.51.100.1") == 400


def test_at_the_declared_venue_failed_log_ins_count_per_account(organizer, settings):
    settings.LOGIN_ADDRESS_FAILURE_LIMIT = 4
    tournament, _ = helpers.make_tournament(organizer, 4, table_size=4)
    declare(tournament, organizer)
    UserFactory(username="zed", password=GOOD)
    assert [wrong_login(f"name{n}") for n in range(8)] == [400] * 8
    assert [wrong_login("zed") for _ in range(5)] == [400, 400, 400, 400, 429]  # the account's own limit
    assert Client(REMOTE_ADDR=VENUE).post(LOGIN, {"username": "zed", "password": GOOD}).status_code == 429
    assert Client(REMOTE_ADDR=VENUE).post(LOGIN, {"username": "amy", "password": "x"}).status_code == 400


def test_a_venue_address_declared_for_another_day_lifts_nothing(organizer, settings):
    settings.LOGIN_ADDRESS_FAILURE_LIMIT = 4
    tournament, _ = helpers.make_tournament(organizer, 4, table_size=4)
    declare(tournament, organizer, day=timezone.localdate() + timedelta(days=3))
    assert [wrong_login(f"name{n}") for n in range(4)] == [400, 400, 400, 429]


def test_at_the_declared_venue_sign_ups_count_per_email_address(organizer, settings):
    settings.SIGN_UP_REQUESTS_PER_CLIENT_HOUR = 2
    tournament, _ = helpers.make_tournament(organizer, 4, table_size=4)
    phone = Client(REMOTE_ADDR=VENUE)
    assert [sign_up(phone, n).status_code for n in range(3)] == [302, 302, 429]
    declare(tournament, organizer)
    assert [sign_up(phone, n).status_code for n in range(3, 8)] == [302] * 5
    assert len(mail.outbox) == 7
    settings.SIGN_UP_MAILS_PER_ADDRESS_HOUR = 1
    assert sign_up(phone, 3).status_code == 302
    assert len(mail.outbox) == 7  # that address had its mail: the page answers the same, sends nothing


@pytest.mark.parametrize("zone", ["Pacific/Kiritimati", "Pacific/Pago_Pago"])
def test_the_event_day_is_the_tournaments_own(organizer, settings, zone):
    settings.LOGIN_ADDRESS_FAILURE_LIMIT = 2
    tournament, _ = helpers.make_tournament(organizer, 4, table_size=4, time_zone=zone)
    local_day = timezone.now().astimezone(ZoneInfo(zone)).date()
    declare(tournament, organizer, day=local_day)
    assert [wrong_login(f"name{n}") for n in range(3)] == [400, 400, 400]
