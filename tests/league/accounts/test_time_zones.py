"""Times in their zone: an event's pages in the event's zone (labelled), the reader's own pages in the zone
set on their account (default the site's), the API in UTC; mail links at SITE_URL, which `serve` sets from
its host and port."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from django.core.exceptions import ImproperlyConfigured
from django.test import Client
from rest_framework.test import APIClient

from league.accounts import zones
from league.notifications.models import Notification
from league.settings import env
from league.site.management.commands.serve import serve_site_url
from league.tournaments import services
from league.tournaments.models import AuditEntry
from tests.factories import PlayerFactory, StaffFactory, UserFactory
from tests.factories import tournaments as helpers

NINE_UTC = datetime(2026, 12, 5, 9, 0, tzinfo=UTC)


@pytest.fixture
def reader(db):
    user = UserFactory(username="reader")
    Notification.objects.create(user=user, kind="table_ready", key="k", text="Your table is ready.", link="")
    Notification.objects.filter(user=user).update(created_at=NINE_UTC)
    return user


def test_the_organizer_log_shows_its_times_in_the_events_zone(db):
    organizer = StaffFactory(username="boss")
    tournament, _ = helpers.make_tournament(organizer, 4, start=False)
    services.tournament_schedule(tournament=tournament, by=organizer, time_zone="Europe/Berlin")
    AuditEntry.objects.filter(tournament=tournament).update(at=NINE_UTC)
    client = Client()
    client.force_login(organizer)
    page = client.get(f"/tournaments/{tournament.slug}/log/").content.decode()
    assert "Times in Europe/Berlin." in page
    assert '<time datetime="2026-12-05T10:00:00+01:00">5 Dec 2026<br>10:00:00</time>' in page
    assert "09:00:00" not in page


def test_the_inbox_shows_the_readers_zone_and_the_api_keeps_utc(reader):
    client = Client()
    client.force_login(reader)
    page = client.get("/notifications/").content.decode()
    assert "Times in UTC" in page and "2026-12-05 09:00" in page
    zones.time_zone_set(user=reader, time_zone="Asia/Tokyo")
    page = client.get("/notifications/").content.decode()
    assert "Times in Asia/Tokyo" in page and "2026-12-05 18:00" in page
    assert "Times in Asia/Tokyo" in client.get("/me/").content.decode()
    session_api = client.get("/api/notifications/").json()
    assert session_api["results"][0]["created_at"] == "2026-12-05T09:00:00Z"
    token_api = APIClient()
    token_api.force_authenticate(reader)
    assert token_api.get("/api/notifications/").json()["results"][0]["created_at"] == "2026-12-05T09:00:00Z"


def test_my_page_sets_the_zone_and_refuses_a_bad_one_with_one_message(reader):
    client = Client()
    client.force_login(reader)
    bad = client.post("/me/time-zone/", {"time_zone": "Mars/Olympus"})
    assert bad.status_code == 400
    message = "&#x27;Mars/Olympus&#x27; is not a time zone: give an IANA name such as Europe/Berlin"
    assert bad.content.decode().count(message) == 1
    assert zones.reader_zone(reader) == "UTC"
    done = client.post("/me/time-zone/", {"time_zone": " Europe/Berlin "}, follow=True)
    assert "Your pages show times in Europe/Berlin." in done.content.decode()
    assert zones.reader_zone(reader) == "Europe/Berlin"
    client.post("/me/time-zone/", {"time_zone": ""})
    assert zones.reader_zone(reader) == "UTC"
    assert Client().post("/me/time-zone/", {"time_zone": "Asia/Tokyo"}).status_code == 302  # to the login
    assert zones.reader_zone(reader) == "UTC"


def test_site_url_is_checked_and_serve_derives_it_from_its_host_and_port(monkeypatch):
    monkeypatch.setenv("SITE_URL", "https://league.example.org/")
    assert env.site_url("SITE_URL", "http://localhost:8000") == "https://league.example.org"
    monkeypatch.setenv("SITE_URL", "league.example.org/path")
    with pytest.raises(ImproperlyConfigured, match="^SITE_URL must be the site's address"):
        env.site_url("SITE_URL", "http://localhost:8000")
    monkeypatch.delenv("SITE_URL")
    assert env.site_url("SITE_URL", "http://localhost:8000") == "http://localhost:8000"
    assert serve_site_url("127.0.0.1", 8001) == "http://127.0.0.1:8001"
    assert serve_site_url("0.0.0.0", 8002) == "http://localhost:8002"
    assert serve_site_url("::1", 8003) == "http://[::1]:8003"


def test_a_players_results_and_the_home_page_name_the_readers_zone(reader):
    player = PlayerFactory(name="Reader", user=reader)
    zones.time_zone_set(user=reader, time_zone="Asia/Tokyo")
    client = Client()
    client.force_login(reader)
    assert "<th>Played (Asia/Tokyo)</th>" in client.get(player.get_absolute_url()).content.decode()
    assert "Times in Asia/Tokyo." in client.get("/").content.decode()
    assert "<th>Played (UTC)</th>" in Client().get(player.get_absolute_url()).content.decode()
