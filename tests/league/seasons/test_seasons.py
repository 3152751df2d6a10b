"""Clubs and seasons through their services and pages: a club's organizers reach its events, a season of
three weekly events and a second club's event by invitation, a correction moving the table at once, the
freeze, the pages and the attacks on them."""

from datetime import timedelta
from decimal import Decimal as D

import pytest
from django.test import Client

from league.core.errors import Conflict, Forbidden
from league.seasons import selectors, services
from league.seasons.models import CalendarFeed, ClubEvent, SeasonEvent
from league.tournaments import services as tournaments
from league.tournaments.models import Registration, Tournament
from tests.factories import UserFactory
from tests.factories import tournaments as helpers

pytestmark = pytest.mark.django_db


def weekly(club, clara, name, places, registrar=None):
    """A 4-player Swiss of one round at a table of 4 (Ada, Bea, Cal, Dov), played in `places`, finished.
    The walk-ins are registered by name (the club's reach); `registrar` (staff) for another club's event."""
    tournament = tournaments.tournament_create(
        created_by=clara, name=name, game_id="nacho_pile", format="swiss", table_size=4, rounds=1
    )
    services.club_event_attach(club=club, by=clara, tournament=tournament)
    registrations = [
        tournaments.registration_add(tournament=tournament, by=registrar or clara, name=name, seed=seed)
        for seed, name in enumerate(["Ada", "Bea", "Cal", "Dov"], start=1)
    ]
    tournaments.tournament_start(tournament=tournament, by=clara)
    by_name = {r.player_id: r.player.name for r in registrations}
    helpers.play_round(tournament, clara, lambda index, seats: [places[by_name[p]] for p in seats])
    tournament.refresh_from_db()
    if tournament.status != Tournament.Status.FINISHED:
        tournaments.tournament_finish(tournament=tournament, by=clara)
        tournament.refresh_from_db()
    return tournament


def test_a_club_organizer_creates_and_runs_the_clubs_events(club, clara):
    tournament = weekly(club, clara, "Week 1", {"Ada": 1, "Bea": 2, "Cal": 3, "Dov": 4})
    assert tournament.status == Tournament.Status.FINISHED
    assert set(tournament.organizers.values_list("username", flat=True)) == {"clara", "sam"}
    stranger = UserFactory(username="stranger")
    with pytest.raises(Forbidden):
        tournaments.tournament_create(created_by=stranger, name="Nope", game_id="nacho_pile", format="swiss")
    with pytest.raises(Forbidden):
        services.season_create(club=club, by=stranger, name="Mine", place_points="10 5")
    with pytest.raises(Forbidden):
        services.club_create(by=clara, name="Another")  # clubs are made by site staff


def test_a_season_of_three_weeks_and_another_clubs_event_by_invitation(club, clara, staff):
    season = services.season_create(
        club=club, by=clara, name="Autumn", place_points="10 6 3 1", per_win="1", tie_breaks=["firsts"]
    )
    weeks = [
        weekly(club, clara, "Week 1", {"Ada": 1, "Bea": 2, "Cal": 3, "Dov": 4}),
        weekly(club, clara, "Week 2", {"Ada": 2, "Bea": 1, "Cal": 3, "Dov": 4}),
        weekly(club, clara, "Week 3", {"Ada": 3, "Bea": 1, "Cal": 2, "Dov": 4}),
    ]
    for week in weeks:
        assert services.season_event_add(season=season, by=clara, tournament=week).accepted_at is not None
    other = services.club_create(by=staff, name="Saturday Feet")
    olga = UserFactory(username="olga")
    services.club_organizer_add(club=other, by=staff, username="olga")
    away = weekly(other, olga, "Away day", {"Ada": 4, "Bea": 3, "Cal": 1, "Dov": 2}, registrar=staff)
    entry = services.season_event_add(season=season, by=clara, tournament=away, multiplier="2")
    assert entry.accepted_at is None  # another club's event: invited
    with pytest.raises(Forbidden):
        services.season_event_answer(entry=entry, by=clara, accept=True)  # not hers to accept
    services.season_event_answer(entry=entry, by=olga, accept=True)
    lines = selectors.season_table(season).lines
    # Ada: 10+1, 6, 3, away 4th (1 ×2 = 2) = 22; Bea: 6, 10+1, 10+1, away 3rd (3 ×2 = 6) = 34;
    # Cal: 3, 3, 6, away 1st ((10+1) ×2 = 22) = 34; Dov: 1, 1, 1, away 2nd (6 ×2 = 12) = 15.
    # Bea and Cal tie on 34: Bea has two first places, Cal one.
    assert [(line.name, line.total, line.rank) for line in lines] == [
        ("Bea", D("34.00"), 1),
        ("Cal", D("34.00"), 2),
        ("Ada", D("22.00"), 3),
        ("Dov", D("15.00"), 4),
    ]
    # a correction in week 1 (Dov and Ada swap) moves the table at once
    table = weeks[0].round_set.get().tables.get()
    seats = list(table.match.seats.order_by("seat").values_list("player__name", flat=True))
    swapped = {"Ada": 4, "Bea": 2, "Cal": 3, "Dov": 1}
    tournaments.table_result(
        table=table, by=clara, expected_version=1, places=[swapped[n] for n in seats], reason="slip misread"
    )
    lines = {line.name: line.total for line in selectors.season_table(season).lines}
    assert (lines["Ada"], lines["Dov"]) == (D("12.00"), D("25.00"))  # Ada 1 + 6 + 3 + 2; Dov 11 + 1 + 1 + 12
    # frozen: a later correction leaves the table and says which event changed
    services.season_freeze(season=season, by=clara)
    tournaments.table_result(
        table=table, by=clara, expected_version=2, places=[[1, 2, 3, 4][i] for i in range(4)], reason="back"
    )
    frozen = selectors.season_table(season)
    assert {line.name: line.total for line in frozen.lines}["Dov"] == D("25.00")
    assert frozen.changed_after_freeze == ["Week 1"]
    with pytest.raises(Conflict):
        services.season_event_add(season=season, by=clara, tournament=weeks[0])


def test_the_season_page_explains_each_players_points_and_refuses_strangers(club, clara):
    season = services.season_create(club=club, by=clara, name="Winter", place_points="10 6 3 1", best_of="1")
    for n, week in enumerate(
        [{"Ada": 1, "Bea": 2, "Cal": 3, "Dov": 4}, {"Ada": 2, "Bea": 1, "Cal": 3, "Dov": 4}], start=1
    ):
        services.season_event_add(season=season, by=clara, tournament=weekly(club, clara, f"Week {n}", week))
    page = Client().get(f"/seasons/{season.slug}/").content.decode()
    assert "A player&#x27;s best 1 results count; the rest are dropped (the later of equal results)." in page
    assert "place 1 → 10.00 for the place = <strong>10.00</strong>" in page
    assert "Dropped: <bdi>Week 2</bdi> (6.00)" in page  # Ada's second-best result
    csv = Client().get(f"/seasons/{season.slug}/csv/").content.decode("utf-8-sig").splitlines()
    assert csv[0] == "rank,player,total,events attended,qualifies,counted,dropped"
    assert csv[1] == "1,Ada,10.00,2,no,Week 1: 10.00,Week 2: 6.00"
    stranger = Client()
    stranger.force_login(UserFactory(username="mallory"))
    answer = stranger.post(f"/seasons/{season.slug}/", {"action": "freeze"})
    assert answer.status_code == 403
    assert "only the club&#x27;s organizers (and site staff) can do this" in answer.content.decode()
    assert stranger.get(f"/clubs/{club.slug}/new-event/").status_code == 404
    screen = Client().get(f"/seasons/{season.slug}/projector/?top=1").content.decode()
    assert (
        '<td class="num">1</td><td><bdi>Ada</bdi></td><td class="num">10.00</td><td class="num">2</td>'
        in screen
    )
    assert "and 3 more on the season's page" in screen
    week_one = Tournament.objects.get(name="Week 1")
    event_page = Client().get(f"/tournaments/{week_one.slug}/").content.decode()
    assert (
        f'Counts in <a href="/seasons/{season.slug}/"><bdi>Winter</bdi></a> '
        '<span class="muted">(<bdi>Tuesday Nuggets</bdi>)</span>.'
    ) in event_page
    ada_page = Client().get("/players/ada/").content.decode()
    assert (
        '</a> <span class="muted">(<bdi>Tuesday Nuggets</bdi>)</span>: rank 1, 10.00 points</li>' in ada_page
    )
    club_page = Client().get(f"/clubs/{club.slug}/").content.decode()
    assert '<a href="/players/ada/"><bdi>Ada</bdi></a>' in club_page
    assert ClubEvent.objects.filter(club=club).count() == 2 and SeasonEvent.objects.count() == 2


def test_the_api_gives_a_season_with_its_table_and_a_club_with_its_events(club, clara):
    season = services.season_create(club=club, by=clara, name="Spring", place_points="10 6 3 1")
    week = weekly(club, clara, "Week 1", {"Ada": 2, "Bea": 1, "Cal": 3, "Dov": 4})
    services.season_event_add(season=season, by=clara, tournament=week, multiplier="1.5")
    body = Client().get(f"/api/seasons/{season.pk}/").json()
    assert body["events"] == [{"tournament": week.pk, "multiplier": "1.50", "joined": True}]
    assert body["frozen"] == {"frozen": False, "changed_after_freeze": []}
    assert [(line["name"], line["total"], line["rank"]) for line in body["table"]] == [
        ("Bea", "15.00", 1),
        ("Ada", "9.00", 2),
        ("Cal", "4.50", 3),
        ("Dov", "1.50", 4),
    ]
    assert body["table"][0]["counted"][0]["points"] == "15.00"
    clubs = Client().get("/api/clubs/").json()
    assert [(c["name"], c["events"], c["seasons"]) for c in clubs["results"]] == [
        ("Tuesday Nuggets", [week.pk], [season.pk])
    ]
    refused = Client().post("/api/clubs/", {"name": "x"})
    assert (refused.status_code, refused.json()["code"]) == (401, "not_authenticated")


def test_the_clubs_schedule_and_a_players_own_events_as_calendars(club, clara, settings):
    settings.SITE_URL = "https://league.example"
    tournament = tournaments.tournament_create(
        created_by=clara,
        name="Night in Berlin",
        game_id="nacho_pile",
        format="swiss",
        rounds=3,
        time_zone="Europe/Berlin",
        starts_at="2026-12-08T19:30",
    )
    services.club_event_attach(club=club, by=clara, tournament=tournament)
    tournaments.tournament_open_registration(tournament=tournament, by=clara)
    feed = Client().get(f"/clubs/{club.slug}/calendar.ics")
    assert feed["Content-Type"] == "text/calendar; charset=utf-8"
    body = feed.content.decode()
    assert "SUMMARY:Night in Berlin" in body
    assert "DTSTART;TZID=Europe/Berlin:20261208T193000" in body  # the event's own zone and time
    assert "DTEND;TZID=Europe/Berlin:20261208T223000" in body
    assert f"URL:https://league.example/tournaments/{tournament.slug}/" in body
    assert "BEGIN:VTIMEZONE" in body and "TZID:Europe/Berlin" in body
    # a player's own feed: a private address, made, read, remade (the old one stops) and stopped
    user = helpers.user_with_player("ada", "Ada")
    player = user.player
    browser = Client()
    browser.force_login(user)
    assert browser.get("/calendar/not-a-token-at-all.ics").status_code == 404
    page = browser.post("/me/calendar/", {"action": "issue"}).content.decode()
    address = page.split('<code id="feed-address">')[1].split("</code>")[0]
    path = address.removeprefix("http://testserver")
    mine = Client().get(path)
    assert mine.status_code == 200 and mine["Cache-Control"] == "no-store"
    assert "Night in Berlin" not in mine.content.decode()  # Ada is in no event yet
    Registration.objects.create(tournament=tournament, player=player, status=Registration.Status.ACTIVE)
    assert "SUMMARY:Night in Berlin" in Client().get(path).content.decode()
    browser.post("/me/calendar/", {"action": "issue"})
    assert Client().get(path).status_code == 404  # remade: the old address stops
    browser.post("/me/calendar/", {"action": "revoke"})
    assert CalendarFeed.objects.count() == 0


def test_next_weeks_event_is_a_clone_in_the_club_and_its_open_seasons(club, clara):
    season = services.season_create(club=club, by=clara, name="Weekly", place_points="10 6 3 1")
    first = tournaments.tournament_create(
        created_by=clara,
        name="Week 1",
        game_id="nacho_pile",
        format="swiss",
        rounds=2,
        time_zone="Europe/Berlin",
        starts_at="2026-12-01T19:00",
    )
    services.club_event_attach(club=club, by=clara, tournament=first)
    services.season_event_add(season=season, by=clara, tournament=first, multiplier="1.5")
    tournaments.tournament_open_registration(tournament=first, by=clara)
    browser = Client()
    browser.force_login(clara)
    answer = browser.post(
        f"/clubs/{club.slug}/", {"action": "clone", "tournament": first.pk, "shift_days": "7"}
    )
    second = Tournament.objects.get(name="Week 2")
    assert answer["Location"] == f"/tournaments/{second.slug}/"
    assert second.starts_at - first.starts_at == timedelta(days=7)
    assert ClubEvent.objects.get(tournament=second).club == club
    assert SeasonEvent.objects.get(season=season, tournament=second).multiplier == D("1.50")
    stranger = Client()
    stranger.force_login(UserFactory(username="mallory"))
    refused = stranger.post(f"/clubs/{club.slug}/", {"action": "clone", "tournament": first.pk})
    assert refused.status_code == 403
    assert Tournament.objects.filter(name__startswith="Week").count() == 2


def test_the_season_form_as_the_club_page_sends_it_and_its_refusals(club, clara):
    browser = Client()
    browser.force_login(clara)
    form = {
        "action": "season",
        "name": "Spring",
        "place_points": "10 6 3 1",
        "per_win": "0",
        "participation": "0",
        "best_of": "",
        "minimum_events": "0",
        "qualify_top": "",
        "qualify_points": "",
    }
    assert browser.post(f"/clubs/{club.slug}/", form)["Location"] == "/seasons/spring/"
    bad = browser.post(f"/clubs/{club.slug}/", {**form, "name": "Bad", "place_points": "10 lots"})
    assert bad.status_code == 400
    assert "points for a place is a number, e.g. 2.5" in bad.content.decode()
    both = browser.post(
        f"/clubs/{club.slug}/", {**form, "name": "Both", "qualify_top": "4", "qualify_points": "20"}
    )
    assert both.status_code == 400
    assert "qualify by rank or by points, not both" in both.content.decode()


def test_another_organizers_draft_cannot_be_added_to_a_season(club, clara, staff):
    season = services.season_create(club=club, by=clara, name="Closed", place_points="10 6")
    draft = tournaments.tournament_create(
        created_by=staff, name="Secret Draft", game_id="nacho_pile", format="swiss", rounds=1
    )
    browser = Client()
    browser.force_login(clara)
    answer = browser.post(f"/seasons/{season.slug}/", {"action": "add", "tournament": draft.slug})
    assert answer.status_code == 400
    assert "no event has that address name" in answer.content.decode()
    assert SeasonEvent.objects.filter(season=season).count() == 0


def test_an_event_of_no_club_answers_its_invitation_on_its_own_page(club, clara, staff):
    season = services.season_create(club=club, by=clara, name="Open circuit", place_points="10 5")
    olga = UserFactory(username="olga")
    lone = tournaments.tournament_create(
        created_by=staff, name="Olga's Open", game_id="nacho_pile", format="swiss", rounds=3
    )
    tournaments.organizer_add(tournament=lone, by=staff, username="olga")
    entry = services.season_event_add(season=season, by=clara, tournament=lone)
    assert entry.accepted_at is None
    page_url = lone.get_absolute_url()
    client = Client()
    client.force_login(olga)
    page = client.get(page_url).content.decode()
    assert 'id="season-invitations"' in page and "Open circuit" in page and "Tuesday Nuggets" in page
    anonymous = Client().get(page_url).content.decode()
    assert 'id="season-invitations"' not in anonymous  # organizers only
    stranger = Client()
    stranger.force_login(UserFactory(username="stranger"))
    assert stranger.post(f"/seasons/invitations/{entry.pk}/", {"answer": "accept"}).status_code == 403
    assert client.post(f"/seasons/invitations/{entry.pk}/", {"answer": "maybe"}).status_code == 400
    assert client.get(f"/seasons/invitations/{entry.pk}/").status_code == 405
    assert client.post("/seasons/invitations/999999/", {"answer": "accept"}).status_code == 404
    assert SeasonEvent.objects.get(pk=entry.pk).accepted_at is None
    response = client.post(f"/seasons/invitations/{entry.pk}/", {"answer": "accept"})
    assert response.status_code == 302 and response["Location"] == page_url
    assert SeasonEvent.objects.get(pk=entry.pk).accepted_at is not None
    page = client.get(page_url).content.decode()
    assert 'id="season-invitations"' not in page
    assert (
        "Olga&#x27;s Open now counts in Open circuit." in page
        or "Olga's Open now counts in Open circuit." in page
    )
