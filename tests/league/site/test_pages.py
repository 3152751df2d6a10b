"""The public site as a visitor sees it: home, the people's list, plain words, error pages, the frame of every
page (skip link, menu, log-out form, favicon), a match's links, a bot league's live part."""

import pytest
from django.core.exceptions import PermissionDenied
from django.test import Client, override_settings
from django.urls import reverse

import league.web.site
from league.bots.models import BotLeague
from league.bots.services.definitions import bot_register
from league.bots.services.leagues import league_start
from league.matches.models import Match
from tests.factories import MatchFactory, StaffFactory, UserFactory
from tests.factories.tournaments import make_tournament, open_signup, play_round
from tests.league.bots.conftest import make_bots, make_league

SEARCH_PARAMS = {"iterations": 25, "determinizations": 0, "c": 0.7}


def page_of(client, url: str, status: int = 200) -> str:
    response = client.get(url)
    assert response.status_code == status
    return response.content.decode()


def search_bot(by, name="Deep Thought", game_id="nacho_pile"):
    return bot_register(
        name=name, game_id=game_id, kind="builtin", strategy="search", params=SEARCH_PARAMS, by=by
    )


def test_home_shows_games_leaders_and_recent_results(client, league):
    page = page_of(client, "/")
    assert "Nacho Pile" in page and "Chicken Foot" in page and "Chickie Nuggs" in page
    assert (
        '<li><a href="/players/ann/"><bdi>Ann</bdi></a> <span class="muted">' in page
    )  # a leader of Nacho Pile
    assert f'href="/matches/{league[2].pk}/">#{league[2].pk}</a>' in page
    assert "No tournament is being played right now." in page and "No tournament is open for sign-up." in page


def test_home_shows_live_and_open_tournaments_but_no_draft(client, db):
    organizer = StaffFactory(username="boss")
    make_tournament(organizer, 8, name="Spring Open")
    make_tournament(organizer, 4, start=False, name="Secret Draft")
    open_signup(organizer, name="Autumn Open Day")
    page = page_of(client, "/")
    live = page[page.index('id="live-heading"') : page.index('id="upcoming-heading"')]
    upcoming = page[page.index('id="upcoming-heading"') :]
    spring = (
        '<a href="/tournaments/spring-open/"><bdi>Spring Open</bdi></a> <span class="muted">Nacho Pile · 8 '
        "players</span>"
    )
    assert spring in live
    assert '<a href="/tournaments/autumn-open-day/"><bdi>Autumn Open Day</bdi></a>' in upcoming
    assert "Secret Draft" not in page


def test_home_leaves_bot_matches_out_of_recent_results(client, league, submit, staff):
    bots = [search_bot(staff, name) for name in ("Deep Thought", "Marvin")]
    bot_match = MatchFactory(players=[bot.player for bot in bots], rated=False)
    submit(bot_match, [1, 2])
    page = page_of(client, "/")
    assert f'href="/matches/{league[0].pk}/"' in page
    assert f'href="/matches/{bot_match.pk}/"' not in page and "Deep Thought" not in page


def test_home_query_count_does_not_grow_with_rows(
    client, league, players, submit, django_assert_max_num_queries
):
    with django_assert_max_num_queries(12) as few:
        client.get("/")
    for _ in range(12):
        submit(MatchFactory(players=players), [1, 2, 3, 4])
    with django_assert_max_num_queries(len(few.captured_queries)):
        page = page_of(client, "/")
    assert page.count('<ol class="placings">') == 10


def test_players_lists_people_and_points_to_the_bots_list(client, players, staff):
    bot = search_bot(staff)
    page = page_of(client, "/players/")
    assert '<a href="/players/ann/"><bdi>Ann</bdi></a>' in page
    assert bot.player.name not in page
    assert '<a href="/bots/bots/" id="bots-list">their own list</a>' in page
    assert f'<a href="{bot.get_absolute_url()}"><bdi>{bot.label}</bdi></a>' in page_of(client, "/bots/bots/")
    bot_player_page = page_of(client, bot.player.get_absolute_url())
    assert f'A bot: <a href="{bot.get_absolute_url()}">its bot page</a>' in bot_player_page


def test_pages_say_plain_words_and_keep_the_exact_terms_in_details(client, league, staff):
    leaderboard = page_of(client, "/games/nacho_pile/")
    assert "Rated by places: each finish counts against every other player at the table." in leaderboard
    assert leaderboard.index("<details") < leaderboard.index("BradleyTerryFull model")
    assert "(BradleyTerryFull model)" not in leaderboard

    search_bot(staff)
    bots = page_of(client, "/bots/bots/")
    assert "<td>Search bot, 25 iterations a move<details" in bots
    assert (
        "<summary>Exact settings</summary><code>search c=0.7 chance_nodes=True determinizations=0 "
        "exploration=0.1 iterations=25 " in bots
    )

    foot = MatchFactory(
        players=[s.player for s in league[2].seats.all()],
        game_id="chicken_foot",
        options={"lead_policy": "skip_unheld"},
    )
    match_page = page_of(client, foot.get_absolute_url())
    assert "Rules changed from the standard game: Lead policy: skip unheld" in match_page
    exact = match_page[match_page.index("<details") :]
    assert (
        "lead_policy=skip_unheld" in exact
        and "lead_policy=" not in match_page[: match_page.index("<details")]
    )


def test_a_scheduled_match_says_scheduled_and_a_finished_one_when_it_was_played(client, league, match_of):
    scheduled = match_of()
    page = page_of(client, scheduled.get_absolute_url())
    assert "scheduled, not played yet" in page and "· played" not in page
    finished = page_of(client, league[0].get_absolute_url())
    assert f"played {league[0].played_at:%Y-%m-%d %H:%M}" in finished
    listing = page_of(client, "/matches/")
    row = listing[listing.index(f'href="/matches/{scheduled.pk}/"') :]
    assert row.index('<span class="muted">not yet</span>') < row.index("</tr>")


def test_a_tournament_match_links_to_its_round(client, db):
    organizer = StaffFactory(username="boss")
    tournament, _ = make_tournament(organizer, 8, name="Spring Open")
    play_round(tournament, organizer)
    match = Match.objects.filter(tournament_table__round__tournament=tournament).first()
    page = page_of(client, match.get_absolute_url())
    assert (
        '<a id="match-event" href="/tournaments/spring-open/rounds/1/"><bdi>Spring Open</bdi>, round 1</a>'
        in page
    )


def test_a_bot_league_match_links_to_its_league(client, staff):
    league = make_league(staff, make_bots(staff)[:3])
    league_start(league_id=league.pk)
    match = Match.objects.filter(bot_fixture__league=league).first()
    page = page_of(client, match.get_absolute_url())
    assert f'<a id="match-event" href="/bots/{league.pk}/"><bdi>Nacho season</bdi></a>' in page


def test_a_finished_leagues_live_part_carries_its_status_and_no_pause(client, staff):
    league = make_league(staff, make_bots(staff)[:3])
    league_start(league_id=league.pk)
    client.force_login(staff)
    running = page_of(client, f"/bots/{league.pk}/live/")
    assert '<div data-league-status="running">' in running and ">Pause</button>" in running
    BotLeague.objects.filter(pk=league.pk).update(status=BotLeague.Status.FINISHED)
    finished = page_of(client, f"/bots/{league.pk}/live/")
    assert '<div data-league-status="finished">' in finished
    assert '<span class="badge finished" id="league-status">Finished</span>' in finished
    assert ">Pause</button>" not in finished and "matches/s" not in finished


def test_every_page_has_a_skip_link_a_menu_a_favicon_and_the_site_login(client, db):
    page = page_of(client, "/players/")
    assert '<a class="skip-link" href="#main">Skip to the content</a>' in page
    assert '<main id="main" tabindex="-1">' in page
    assert '<details class="menu">\n  <summary>Menu</summary>' in page
    assert '<link rel="icon" href="/static/league/favicon.svg" type="image/svg+xml">' in page
    assert '<a href="/accounts/login/?next=/players/" id="log-in">Log in</a>' in page
    assert "/admin/login/" not in page
    favicon = client.get("/favicon.ico")
    assert (favicon.status_code, favicon["Location"]) == (301, "/static/league/favicon.svg")


def test_signed_in_the_header_has_a_log_out_form(client, db):
    client.force_login(UserFactory(username="zoe"))
    page = page_of(client, "/")
    form = page[page.index('<form class="inline" method="post" action="/accounts/logout/">') :]
    assert 'name="csrfmiddlewaretoken"' in form[: form.index("</form>")]
    assert '<button type="submit" class="link" id="log-out">Log out</button></form>' in form
    assert 'id="log-in"' not in page


def test_tables_scroll_in_a_focusable_labelled_region(client, league):
    page = page_of(client, league[0].get_absolute_url())
    assert (
        '<div class="table-wrap" tabindex="0" role="region" aria-label="Seats and results (table)">' in page
    )


@override_settings(DEBUG=False)
def test_a_missing_page_is_the_sites_404_with_a_way_back(client, db):
    page = page_of(client, "/no-such-page/", status=404)
    assert "<title>Page not found · Pecking Order</title>" in page
    assert "Nothing is at <code>/no-such-page/</code>" in page
    assert '<a class="button" href="/" id="back-home">Back to the home page</a>' in page
    assert '<form method="get" action="/players/" role="search">' in page
    assert page_of(client, "/players/no-such-player/", status=404).count("This page does not exist") == 1


@override_settings(DEBUG=False)
def test_a_refused_page_is_the_sites_403(client, db, monkeypatch):
    def refuse(*args, **kwargs):
        raise PermissionDenied

    monkeypatch.setattr(league.web.site, "home_leaders", refuse)
    page = page_of(client, "/", status=403)
    assert "<h1>You may not open this page</h1>" in page
    assert '<a href="/accounts/login/?next=/">Log in</a> and try again.' in page
    assert 'id="back-home"' in page


@override_settings(DEBUG=False)
def test_a_bug_is_the_sites_500_without_context(db, monkeypatch):
    def fail(*args, **kwargs):
        raise RuntimeError("a bug")

    monkeypatch.setattr(league.web.site, "home_leaders", fail)
    page = page_of(Client(raise_request_exception=False), "/", status=500)
    assert "<h1>Something went wrong on our side</h1>" in page
    assert '<a class="button" href="/" id="back-home">Back to the home page</a>' in page
    assert "a bug" not in page


@override_settings(DEBUG=False)
@pytest.mark.parametrize("url", ["/api/does-not-exist/", "/api/does-not-exist"])
def test_under_api_a_missing_url_stays_json(client, db, url):
    response = client.get(url)
    assert (response.status_code, response["Content-Type"]) == (404, "application/json")
    assert response.json()["code"] == "not_found"


def test_the_reverse_of_the_site_urls_used_above():
    assert reverse("bots:bots") == "/bots/bots/" and reverse("accounts:logout") == "/accounts/logout/"
