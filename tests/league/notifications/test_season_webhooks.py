"""A season's webhook: its club's organizers register it; it hears its table change (an event joining, a
result corrected at one of its events) at most once a minute per season, one delivery per version of the
table, delivered to a real receiver."""

import json

import pytest
from django.core.cache import cache

from league.core.errors import Forbidden
from league.notifications.models import Delivery
from league.notifications.receivers import SEASON_WEBHOOK_SECONDS
from league.notifications.webhooks import webhook_create
from league.seasons import services as seasons
from league.tournaments import services as tournaments
from tests.factories import StaffFactory, UserFactory
from tests.factories import tournaments as helpers


def played_week(clara, club, places):
    tournament = tournaments.tournament_create(
        created_by=clara, name="Week 1", game_id="nacho_pile", format="swiss", table_size=4, rounds=1
    )
    seasons.club_event_attach(club=club, by=clara, tournament=tournament)
    registrations = [
        tournaments.registration_add(tournament=tournament, by=clara, name=name, seed=seed)
        for seed, name in enumerate(["Ada", "Bea", "Cal", "Dov"], start=1)
    ]
    tournaments.tournament_start(tournament=tournament, by=clara)
    names = {r.player_id: r.player.name for r in registrations}
    helpers.play_round(tournament, clara, lambda index, seats: [places[names[p]] for p in seats])
    return tournament


def test_a_seasons_table_change_reaches_its_webhook_at_most_once_a_minute(
    eager, allow_loopback, receiver, django_capture_on_commit_callbacks, db
):
    cache.clear()
    staff = StaffFactory(username="sam")
    club = seasons.club_create(by=staff, name="Tuesday Nuggets")
    clara = UserFactory(username="clara")
    seasons.club_organizer_add(club=club, by=staff, username="clara")
    season = seasons.season_create(club=club, by=clara, name="Autumn", place_points="10 6 3 1")
    with pytest.raises(Forbidden) as refused:
        webhook_create(by=UserFactory(), url=receiver.url, events=["season.table_changed"], season=season)
    assert refused.value.message == (
        "only the season's club's organizers (and site staff) can register its webhooks"
    )
    webhook_create(by=clara, url=receiver.url, events=["season.table_changed"], season=season)
    week = played_week(clara, club, {"Ada": 1, "Bea": 2, "Cal": 3, "Dov": 4})
    assert Delivery.objects.count() == 0  # not in the season yet
    with django_capture_on_commit_callbacks(execute=True):
        seasons.season_event_add(season=season, by=clara, tournament=week)
    (first,) = receiver.bodies()
    assert first["event"] == "season.table_changed"
    assert [(row["name"], row["total"], row["rank"]) for row in first["data"]["table"]] == [
        ("Ada", "10.00", 1),
        ("Bea", "6.00", 2),
        ("Cal", "3.00", 3),
        ("Dov", "1.00", 4),
    ]
    table = week.round_set.get().tables.get()
    seats = list(table.match.seats.order_by("seat").values_list("player__name", flat=True))
    corrected = {"Ada": 2, "Bea": 1, "Cal": 3, "Dov": 4}
    with django_capture_on_commit_callbacks(execute=True):
        tournaments.table_result(
            table=table, by=clara, expected_version=1, places=[corrected[n] for n in seats], reason="typo"
        )
    assert len(receiver.received) == 1  # within the minute: no second delivery yet
    cache.delete(f"season-webhooks:{season.pk}")  # a minute later (SEASON_WEBHOOK_SECONDS)
    assert SEASON_WEBHOOK_SECONDS == 60
    with django_capture_on_commit_callbacks(execute=True):
        tournaments.table_result(
            table=table, by=clara, expected_version=2, places=[corrected[n] for n in seats], reason="same"
        )
    first, second = receiver.bodies()
    assert [(row["name"], row["total"]) for row in second["data"]["table"]][:2] == [
        ("Bea", "10.00"),
        ("Ada", "6.00"),
    ]
    assert second["data"]["version"] != first["data"]["version"]
    assert json.loads(Delivery.objects.order_by("id").last().body)["data"]["season"]["slug"] == "autumn"
