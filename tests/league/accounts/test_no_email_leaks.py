"""Email addresses never leave the server except to their owner and staff.

Two checks: every operation of the API's own OpenAPI schema (/api/schema/), called as a visitor and as
another signed-in user with real objects of every kind present (users with email addresses who created
tournaments, organize them, entered results, registered bots, issued claim links and own players), answers
no body that holds anyone else's address; and the templates render `.email` only on the pages that show the
signed-in user their own account.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from unittest import mock

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model

from league.accounts import services as account_services
from league.bots.services.challenges import challenge_create
from league.bots.services.definitions import bot_register
from league.bots.services.ladders import ladder_create, ladder_enter
from league.bots.services.leagues import league_create, league_start
from league.bots.services.work import work_play
from league.notifications.webhooks import webhook_create
from league.seasons import services as seasons
from league.tournaments import services as tournament_services
from league.tournaments.models import Tournament
from tests.factories import MatchFactory
from tests.factories import tournaments as helpers
from tests.league.accounts.conftest import api_for, browser_for

# Templates allowed to render an email address: each shows the signed-in user's own (`user.email`).
OWNER_TEMPLATES = {"accounts/me.html", "accounts/delete.html"}


@pytest.fixture
def world(staff, orga, alice, submit):
    """One of everything the API lists or shows, made by users with email addresses; the ids of each kind,
    keyed by the path parameter that names them (under the path's first segment)."""
    tournament, entrants = helpers.make_tournament(staff, 4, name="Mail Open", table_size=2, rounds=2)
    tournament_services.organizer_add(tournament=tournament, by=staff, username="orga")
    first = helpers.play_round(tournament, orga)  # results entered by orga
    tournament_services.round_publish(
        round_row=tournament_services.round_generate(tournament=tournament, by=orga), by=orga
    )
    account_services.claim_redeem(
        user=alice, token=account_services.claim_link_issue(by=orga, player_id=entrants[0].pk).token
    )
    account_services.api_token_create(user=orga)
    match = MatchFactory(players=entrants[:2])
    submit(match, [1, 2])  # entered by staff
    bots = [
        bot_register(name=f"Mailbot {n}", game_id="nacho_pile", kind="builtin", strategy="random", by=orga)
        for n in range(3)
    ]
    league = league_create(
        name="Mail League",
        game_id="nacho_pile",
        bot_ids=[bot.pk for bot in bots],
        table_size=3,
        target_kind="rounds",
        target_value=1,
        sittings_per_round=1,
        seed=7,
        by=staff,
    )
    with mock.patch("league.bots.services.leagues.queue_work"):
        league_start(league_id=league.pk)
        work_play(league_id=league.pk, worker="test")
    league_match = league.fixtures.exclude(match=None).first().match_id
    ladder = ladder_create(name="Mail Ladder", game_id="nacho_pile", table_size=3, by=staff)
    for bot in bots:
        ladder_enter(ladder_id=ladder.pk, bot_id=bot.pk, by=orga)  # orga's own bots
    challenge = challenge_create(bot_id=bots[0].pk, opponent_ids=[bots[1].pk], matches=2, seed=1, by=orga)
    work_play(worker="test")
    webhook = webhook_create(
        by=orga, url="https://example.com/in", events=["table.ready"], tournament=tournament
    )
    club = seasons.club_create(by=staff, name="Mail Club")
    seasons.club_organizer_add(club=club, by=staff, username="orga")
    seasons.club_event_attach(club=club, by=orga, tournament=tournament)
    season = seasons.season_create(club=club, by=orga, name="Mail Season", place_points="10 6")
    seasons.season_event_add(season=season, by=orga, tournament=tournament)
    return {
        "clubs": {"id": club.pk},
        "seasons": {"id": season.pk},
        "ladders": {"id": ladder.pk},
        "challenges": {"id": challenge.pk},
        "webhooks": {"id": webhook.pk},
        "bot-leagues": {"id": league.pk, "match_id": league_match},
        "bots": {"id": bots[0].pk},
        "matches": {"id": match.pk},
        "rating-pools": {"id": league.rating_pool_id},
        "players": {"id": entrants[0].pk},
        "tournaments": {
            "id": tournament.pk,
            "player_id": entrants[0].pk,
            "role": "organizer",
            "username": "orga",
            "call_id": 1,  # no call: each call's answers are checked by its own tests
        },
        "version-tests": {"id": 1},
        "tournament-rounds": {"id": first.pk},
        "tournament-tables": {"id": first.tables.first().pk},
    }


def operations(client) -> list[tuple[str, str]]:
    schema = json.loads(client.get("/api/schema/?format=json").content)
    return [
        (method, path)
        for path, methods in schema["paths"].items()
        for method in methods
        if method in ("get", "post", "put", "patch", "delete")
    ]


def url_of(path: str, world: dict) -> str:
    ids = world.get(path.split("/")[2], {})
    return re.sub(r"\{(\w+)\}", lambda found: str(ids[found.group(1)]), path)


def addresses() -> set[str]:
    return {
        email.lower() for email in get_user_model().objects.exclude(email="").values_list("email", flat=True)
    }


@pytest.mark.parametrize("who", ["anonymous", "another user"])
def test_no_api_response_holds_another_users_email(world, who, bob):
    client = api_for(bob if who == "another user" else None)
    everyone = addresses()
    others = everyone - ({bob.email} if who == "another user" else set())
    assert {"staffer@secret.example", "orga@secret.example", "alice@secret.example"} <= others
    seen = {}
    for method, path in operations(client):
        url = url_of(path, world)
        body = {} if method != "get" else None
        response = getattr(client, method)(url, body, format="json") if body is not None else client.get(url)
        text = response.content.decode().lower()
        seen[(method, path)] = response.status_code
        assert [address for address in others if address in text] == [], (method, url)
        assert response.status_code < 500, (method, url, text)
    gets = {path: status for (method, path), status in seen.items() if method == "get"}
    # every read found its object: the world holds one of each ... except what only organizers read (the start
    # preview, the roles), the caller's own entry and bots, and what only a bot's author reads (its logs)
    organizers_only = (
        "/api/tournaments/{id}/start-preview/",
        "/api/tournaments/{id}/roles/",
        "/api/tournaments/{id}/private-links/",
        "/api/tournaments/{id}/venue-address/",
        # the floor: judge calls, penalties and their types are its judges' and organizers'
        "/api/tournaments/{id}/calls/",
        "/api/tournaments/{id}/penalties/",
        "/api/tournaments/{id}/penalty-types/",
    )
    # ... and what only its owner reads (orga's webhook and its deliveries: a 404 to anyone else)
    owners_only = ("/api/webhooks/{id}/", "/api/webhooks/{id}/deliveries/")
    mine = ("/api/notifications/", "/api/webhooks/")
    assert {path: status for path, status in gets.items() if status != 200} == (
        {
            "/api/me/": 401,
            **dict.fromkeys(organizers_only, 401),
            "/api/tournaments/{id}/entry/": 401,
            **dict.fromkeys(owners_only + mine, 401),
            "/api/bots/mine/": 401,
            "/api/bots/{id}/logs/": 401,
            "/api/challenges/": 401,
            "/api/challenges/{id}/": 401,
            "/api/version-tests/": 401,  # an author's own tests
            "/api/version-tests/{id}/": 401,
        }
        if who == "anonymous"
        else {
            **dict.fromkeys(organizers_only, 403),
            "/api/tournaments/{id}/entry/": 404,
            **dict.fromkeys(owners_only, 404),
            "/api/bots/{id}/logs/": 403,
            "/api/challenges/{id}/": 403,
            "/api/version-tests/{id}/": 404,  # the world has none
        }  # orga's challenge: theirs and staff's to see
    )
    assert len(seen) >= 45


def test_my_own_address_is_in_my_answer_only(world, alice, bob):
    assert api_for(alice).get("/api/me/").json()["email"] == "alice@secret.example"
    assert "alice@secret.example" not in api_for(bob).get("/api/me/").content.decode()


def templates() -> list[Path]:
    root = Path(settings.BASE_DIR) / "templates"
    return sorted(root.rglob("*.html"))


def test_templates_render_email_only_on_the_owners_pages():
    root = Path(settings.BASE_DIR) / "templates"
    rendering = {
        str(path.relative_to(root)): sorted(set(re.findall(r"\{\{[^}]*\.email\b[^}]*\}\}", path.read_text())))
        for path in templates()
    }
    found = {name: tags for name, tags in rendering.items() if tags}
    assert set(found) == OWNER_TEMPLATES
    assert all(tag.replace(" ", "").startswith("{{user.email") for tags in found.values() for tag in tags), (
        found
    )


@pytest.mark.parametrize("who", ["anonymous", "another user"])
def test_no_page_of_another_user_holds_their_email(world, who, bob, orga, alice):
    client = browser_for(bob if who == "another user" else None)
    slug = Tournament.objects.get(pk=world["tournaments"]["id"]).slug
    pages = [
        "/",
        "/players/",
        "/players/ada/",
        "/matches/",
        f"/matches/{world['matches']['id']}/",
        "/tournaments/",
        f"/tournaments/{slug}/",
        f"/tournaments/{slug}/rounds/1/",
        "/bots/",
        "/me/",
    ]
    others = addresses() - {bob.email}
    for url in pages:
        text = client.get(url).content.decode().lower()
        assert [address for address in others if address in text] == [], url
