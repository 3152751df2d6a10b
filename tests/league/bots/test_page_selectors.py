"""The bots' page selectors: a bot version's page and a league's page, what each viewer gets, and the API's
standings agreeing with the page's."""

from unittest import mock

import pytest
from django.http import Http404

from league.bots.pages import bot_page, league_page
from tests.league.bots.conftest import make_bots, make_league
from tests.league.bots.test_pages import played_league

pytestmark = pytest.mark.django_db


@pytest.fixture
def no_broker():
    """The league is played in-process instead of queueing work."""
    with mock.patch("league.bots.services.leagues.queue_work"):
        yield


def test_a_bots_page_holds_its_versions_game_and_who_reads_its_logs(staff, member):
    bot = make_bots(staff)[0]

    page = bot_page(bot.pk, None)

    assert page.bot == bot and page.game_name == "Nacho Pile"
    assert page.versions == [bot] and page.newer is None
    assert page.sandbox is None  # a built-in strategy runs without the sandbox
    assert (
        page.can_read_logs,
        bot_page(bot.pk, member).can_read_logs,
        bot_page(bot.pk, staff).can_read_logs,
    ) == (
        False,
        False,
        True,
    )
    assert page.matches == []


def test_a_bot_that_is_not_there_is_a_404(staff):
    bot = make_bots(staff)[0]
    with pytest.raises(Http404):
        bot_page(bot.pk + 1000, None)


def test_a_leagues_page_lets_staff_alone_control_it(staff, member):
    league = make_league(staff, make_bots(staff))

    assert [league_page(league, viewer).can_control for viewer in (None, member, staff)] == [
        False,
        False,
        True,
    ]
    page = league_page(league, None)
    assert page.game_name == "Nacho Pile" and page.recent == [] and page.forecasts == {}


def test_a_leagues_page_and_its_api_standings_rank_the_bots_alike(client, staff, no_broker):
    league = played_league(staff, make_bots(staff))

    page = league_page(league, None)
    answer = client.get(f"/api/bot-leagues/{league.pk}/standings/").json()

    assert [(row.rank, row.bot.label) for row in page.standings] == [
        (row["rank"], row["label"]) for row in answer
    ]
    assert len(page.standings) == 6 and len(page.recent) == 10
