"""Head-to-head: for each bot a version shared a rated table with, how often each finished ahead (a tie counts
half), from a hand-built history, on the bot's page and in the API."""

from datetime import UTC, datetime, timedelta

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from rest_framework.test import APIClient

from league.bots.head_to_head import HeadToHead, bot_head_to_head
from league.bots.models import BotLeague
from league.bots.services.definitions import bot_revise
from league.core.catalogue import game_spec
from league.matches.models import Match
from league.matches.services import ScheduledMatch, matches_schedule
from league.results.services import result_submit, result_void
from tests.league.bots.conftest import make_bots, make_league

pytestmark = pytest.mark.django_db


PLAYED_AT = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)


def scheduled(bots, *, rated=True):
    """A bot league's match of `bots` (seat order), rated in its pool or not, not played yet."""
    league = BotLeague.objects.get()
    (match_id,) = matches_schedule(
        owner=Match.Owner.FIXTURE,
        game_id="nacho_pile",
        options=game_spec("nacho_pile").validate_options({}, num_players=len(bots)),
        rating_pool_id=league.rating_pool_id if rated else None,
        rated=rated,
        tables=[
            ScheduledMatch(PLAYED_AT + timedelta(minutes=Match.objects.count()), [b.player_id for b in bots])
        ],
    )
    return match_id


def played(bots, places, *, rated=True, by):
    """A stored result of a new match of `bots` (seat order) with these places."""
    match_id = scheduled(bots, rated=rated)
    result_submit(
        match_id=match_id, expected_version=0, places=places, entered_by=by, owner=Match.Owner.FIXTURE
    )
    return match_id


@pytest.fixture
def history(staff):
    """Random, Careful, Balanced, Daring (Nacho Pile): three rated matches, one at a 3-seat table with a tie,
    and three that do not count (unrated, voided, not played)."""
    bots = make_bots(staff)
    make_league(staff, bots)
    a, b, c, d = bots[:4]
    played([a, b, c], [1, 2, 2], by=staff)  # A ahead of B and C; B and C tie
    played([a, b, d], [3, 1, 2], by=staff)  # A behind B and D; B ahead of D
    played([c, a], [1, 1], by=staff)  # A and C tie
    played([a, b], [2, 1], rated=False, by=staff)  # unrated: not counted
    void = played([a, d], [1, 2], by=staff)
    result_void(match_id=void, entered_by=staff, reason="lost")  # voided: not counted
    scheduled([a, d])  # not played: not counted
    return a, b, c, d


def test_each_opponent_with_ahead_behind_and_ties_and_a_tie_counting_half(history):
    a, b, c, d = history

    rows = bot_head_to_head(a)

    assert rows == [  # most games together first, then by name
        HeadToHead(c.player_id, c.pk, "Balanced", games=2, ahead=1, behind=0, ties=1),
        HeadToHead(b.player_id, b.pk, "Careful", games=2, ahead=1, behind=1, ties=0),
        HeadToHead(d.player_id, d.pk, "Daring", games=1, ahead=0, behind=1, ties=0),
    ]
    assert [row.score_percent for row in rows] == [75.0, 50.0, 0.0]
    assert bot_head_to_head(b) == [
        HeadToHead(a.player_id, a.pk, "Random", games=2, ahead=1, behind=1, ties=0),
        HeadToHead(c.player_id, c.pk, "Balanced", games=1, ahead=0, behind=0, ties=1),
        HeadToHead(d.player_id, d.pk, "Daring", games=1, ahead=1, behind=0, ties=0),
    ]
    assert [row.score for row in bot_head_to_head(c)] == [0.25, 0.5]  # against Random, then Careful


def test_a_new_version_is_a_bot_of_its_own(history, staff):
    a, b, _, _ = history
    b2 = bot_revise(bot=b, by=staff, params={"caution": 1.25})
    played([a, b2], [2, 1], by=staff)

    rows = {row.name: (row.games, row.ahead, row.behind) for row in bot_head_to_head(a)}

    assert rows["Careful"] == (2, 1, 1)  # version 1 as before
    assert rows["Careful v2"] == (1, 0, 1)
    assert [row.games for row in bot_head_to_head(b2)] == [1]


def test_one_query_whatever_the_history(history, staff):
    a, b, c, d = history
    for _ in range(5):
        played([a, b, c], [1, 2, 3], by=staff)
    with CaptureQueriesContext(connection) as queries:
        rows = bot_head_to_head(a)
    assert len(queries) == 1
    assert [(row.name, row.games) for row in rows] == [("Balanced", 7), ("Careful", 7), ("Daring", 1)]


def test_a_bot_without_rated_matches_has_no_rows(staff):
    bot = make_bots(staff)[0]
    assert bot_head_to_head(bot) == []


def test_the_bot_page_shows_the_table(history):
    a, _, _, _ = history

    html = Client().get(reverse("bots:bot", args=[a.pk])).content.decode()

    assert "Head-to-head" in html
    table = html.split('id="head-to-head"', 1)[1].split("</table>", 1)[0]
    cells = [
        [cell.split(">", 1)[1].split("<", 1)[0] if ">" in cell else cell for cell in row.split("<td")[1:]]
        for row in table.split("<tr")[2:]
    ]
    assert [row[1:] for row in cells] == [
        ["2", "1", "0", "1", "75%"],
        ["2", "1", "1", "0", "50%"],
        ["1", "0", "1", "0", "0%"],
    ]
    assert ">Careful</a>" in table or "Careful</bdi></a>" in table


def test_the_api_lists_the_rows(history):
    a, b, c, d = history

    response = APIClient().get(f"/api/bots/{a.pk}/head-to-head/")

    assert response.status_code == 200
    assert response.json() == [
        {
            "bot": c.pk,
            "player": c.player_id,
            "name": "Balanced",
            "games": 2,
            "ahead": 1,
            "behind": 0,
            "ties": 1,
            "score": 0.75,
        },
        {
            "bot": b.pk,
            "player": b.player_id,
            "name": "Careful",
            "games": 2,
            "ahead": 1,
            "behind": 1,
            "ties": 0,
            "score": 0.5,
        },
        {
            "bot": d.pk,
            "player": d.player_id,
            "name": "Daring",
            "games": 1,
            "ahead": 0,
            "behind": 1,
            "ties": 0,
            "score": 0.0,
        },
    ]
    assert APIClient().get("/api/bots/999999/head-to-head/").status_code == 404
