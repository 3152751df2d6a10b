import pytest
from django.core.cache import cache

from league.ratings.services import pool_update
from league.results.services import result_submit
from league.tournaments.pages import _PATHS
from tests.factories import MatchFactory, PlayerFactory, StaffFactory


@pytest.fixture(autouse=True)
def fresh_throttle_counts():
    """Every test starts with no API throttle counts and no stored page (they live in the cache, which
    outlives a test), and no path inputs kept in the process (a rolled-back tournament's id comes again)."""
    cache.clear()
    _PATHS.clear()


@pytest.fixture
def staff(db):
    return StaffFactory(username="organizer")


@pytest.fixture
def players(db):
    """Four players, Ann, Bob, Cat and Dan, in seat order."""
    return [PlayerFactory(name=name) for name in ("Ann", "Bob", "Cat", "Dan")]


@pytest.fixture
def submit(staff):
    """Submit a result as the organizer and bring the match's pool up to date (the worker's job)."""

    def submit(match, places=None, *, scores=None, version=None, reason=""):
        match.refresh_from_db()
        expected = match.result_version if version is None else version
        result = result_submit(
            match_id=match.pk,
            expected_version=expected,
            places=places,
            scores=scores,
            entered_by=staff,
            reason=reason or ("correction" if expected else ""),
        )
        if match.rating_pool_id:
            pool_update(pool_id=match.rating_pool_id)
        return result

    return submit


@pytest.fixture
def match_of(players):
    def match_of(seated=None, **kwargs):
        return MatchFactory(players=seated or players, **kwargs)

    return match_of


@pytest.fixture
def league(db, players, submit):
    """Two rated Nacho Pile matches and one Chicken Foot match, all with results."""
    first = MatchFactory(players=players)
    submit(first, [1, 1, 2, 3])
    second = MatchFactory(players=players[:3])
    submit(second, [3, 2, 1])
    foot = MatchFactory(players=players[:2], game_id="chicken_foot")
    submit(foot, scores=[12, 3])
    return first, second, foot
