"""One small site with a page of every type, for the browser checks that walk them all (accessibility, phone
layout, screenshots): the demo league, the demo tournaments (a live Swiss, a half-played cup, an open day),
a played bot league with a calibration, a ladder, a player's account, an organizer and a bot author.

`build_site()` returns the pages as `Visit`s: a name, a path and who looks at it (None: a visitor)."""

from __future__ import annotations

from dataclasses import dataclass
from unittest import mock

from django.conf import settings
from django.contrib.auth import get_user_model
from django.test import Client

from league.bots.models import BotLeague, Fixture
from league.bots.services.ladders import ladder_create, ladder_enter
from league.bots.services.leagues import league_start
from league.bots.services.work import work_play
from league.matches.models import MatchSeat
from league.ratings.services import calibration_refresh
from league.seasons import services as seasons
from league.site.demo import DEMO_PLAYER_USERNAME, ensure_demo_player, load_demo
from league.tournaments.demo import CUP_NAME, OPEN_NAME, SWISS_NAME, load_tournament_demo
from league.tournaments.models import Round, Table, Tournament
from tests.factories import StaffFactory, UserFactory
from tests.league.bots.conftest import make_bots, make_league


@dataclass(frozen=True)
class Visit:
    name: str
    path: str
    user: str | None = None  # username of who looks, None for a visitor


def _played_league(staff, bots, name: str) -> BotLeague:
    league = make_league(staff, bots, name=name)
    league_start(league_id=league.pk)
    work_play(league_id=league.pk, worker="test")
    league.refresh_from_db()
    return league


def build_site() -> list[Visit]:
    """Create the site's data (in the test database) and return every page type to visit."""
    organizer = StaffFactory(username="organizer")
    load_demo(admin=organizer)
    load_tournament_demo(admin=organizer)
    ensure_demo_player()
    author = UserFactory(username="author")
    with mock.patch("league.bots.services.leagues.queue_work"):
        league = _played_league(organizer, make_bots(author), "Nacho season")
        ladder = ladder_create(name="Weekday run", game_id="nacho_pile", table_size=3, by=organizer)
        for entrant in league.bots.order_by("pk")[:4]:
            ladder_enter(ladder_id=ladder.pk, bot_id=entrant.pk, by=organizer)
    calibration_refresh(pool_id=league.rating_pool_id)
    bot = league.bots.order_by("pk").first()
    replay = Fixture.objects.filter(league=league, done=True).order_by("position").first().match_id

    swiss, cup, open_day = (Tournament.objects.get(name=name) for name in (SWISS_NAME, CUP_NAME, OPEN_NAME))
    live_round = Round.objects.filter(tournament=swiss).order_by("-number").first()
    finished_round = Round.objects.filter(tournament=swiss).order_by("number").first()
    match = Table.objects.filter(round=finished_round, match__isnull=False).order_by("number").first().match
    chiara = get_user_model().objects.get(username=DEMO_PLAYER_USERNAME).player
    at_table = set(MatchSeat.objects.filter(player=chiara).values_list("match_id", flat=True))
    tables = Table.objects.filter(round__tournament=swiss, match__isnull=False).select_related("round")
    table = max((t for t in tables if t.match_id in at_table), key=lambda t: t.round.number, default=None)
    table = table or live_round.tables.order_by("number").first()
    club = seasons.club_create(by=organizer, name="Demo Club")
    seasons.club_event_attach(club=club, by=organizer, tournament=swiss)
    season = seasons.season_create(
        club=club,
        by=organizer,
        name="Demo Season",
        place_points="10 6 3 1",
        best_of="2",
        tie_breaks=["firsts"],
    )
    seasons.season_event_add(season=season, by=organizer, tournament=swiss)

    public = [
        Visit("home", "/"),
        Visit("players", "/players/"),
        Visit("player", f"/players/{chiara.slug}/"),
        Visit("leaderboard", "/games/nacho_pile/"),
        Visit("tournaments", "/tournaments/"),
        Visit("tournament", f"/tournaments/{swiss.slug}/"),
        Visit("bracket", f"/tournaments/{cup.slug}/"),
        Visit("open day", f"/tournaments/{open_day.slug}/"),
        Visit("round", f"/tournaments/{swiss.slug}/rounds/{finished_round.number}/"),
        Visit("match", f"/matches/{match.pk}/"),
        Visit("matches", "/matches/"),
        Visit("replay", f"/bots/matches/{replay}/replay/"),
        Visit("bots", "/bots/bots/"),
        Visit("bot", f"/bots/bots/{bot.pk}/"),
        Visit("bot player", f"/players/{bot.player.slug}/"),
        Visit("leagues", "/bots/"),
        Visit("league", f"/bots/{league.pk}/"),
        Visit("ladders", "/bots/ladders/"),
        Visit("ladder", f"/bots/ladders/{ladder.pk}/"),
        Visit("calibration", f"/games/pools/{league.rating_pool_id}/calibration/"),
        Visit("club", f"/clubs/{club.slug}/"),
        Visit("season", f"/seasons/{season.slug}/"),
        Visit("log in", "/accounts/login/"),
        Visit("sign up", "/accounts/signup/"),
    ]
    signed_in = [
        Visit("tournament form", "/tournaments/new/", "organizer"),
        Visit("organizer round", f"/tournaments/{swiss.slug}/rounds/{live_round.number}/", "organizer"),
        Visit("check-in desk", f"/tournaments/{open_day.slug}/check-in/", "organizer"),
        Visit("club, its organizer", f"/clubs/{club.slug}/", "organizer"),
        Visit("my calendar", "/me/calendar/", DEMO_PLAYER_USERNAME),
        Visit("me", "/me/", DEMO_PLAYER_USERNAME),
        Visit(
            "table",
            f"/tournaments/{swiss.slug}/rounds/{table.round.number}/tables/{table.number}/",
            DEMO_PLAYER_USERNAME,
        ),
        Visit("upload form", "/bots/bots/upload/", "author"),
        Visit("my bots", "/bots/bots/mine/", "author"),
        Visit("bot, its author (play now, versions in ladders)", f"/bots/bots/{bot.pk}/", "author"),
        Visit("challenges", "/bots/challenges/", "author"),
    ]
    return public + signed_in


def session_cookie(username: str, base_url: str) -> dict:
    """A signed-in session of `username` as a browser cookie (no log-in page to go through)."""
    client = Client()
    client.force_login(get_user_model().objects.get(username=username))
    return {
        "name": settings.SESSION_COOKIE_NAME,
        "value": client.cookies[settings.SESSION_COOKIE_NAME].value,
        "url": base_url,
    }
