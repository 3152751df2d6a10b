"""Page selectors of version tests ("is v2 better than v1?"): a test's page, and the tests a bot's page lists
for its author; frozen dataclasses (`league.web.bots.version_tests` renders them; the API reads the same)."""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth.models import AnonymousUser, User
from django.core.paginator import Page, Paginator
from django.db.models import Q, QuerySet

from league.bots import sprt
from league.bots.models import BotDefinition, VersionTest, VersionTestMatch
from league.bots.selectors import _seats_in_order, void_reason
from league.core.catalogue import game_name

COUNT_LABELS = (
    "0 (worse in both games)",
    "0.25 (worse in one, level in the other)",
    "0.5 (level, or better in one and worse in the other)",
    "0.75 (better in one, level in the other)",
    "1 (better in both games)",
)


PAIRS_PER_PAGE = 50


@dataclass(frozen=True)
class PairRow:
    """One pair of a test: its index, seed and its two matches (v1 in the pair's seat first, then v2)."""

    pair: int
    seed: int
    games: list[VersionTestMatch]


@dataclass(frozen=True)
class VersionTestPage:
    test: VersionTest
    game_name: str
    bounds: sprt.Bounds
    counts: list[tuple[str, int]]
    pairs_played: int
    elo_estimate: float | None
    pairs: list[PairRow]
    page: Page
    opponents: list[BotDefinition]


def version_test_games(test: VersionTest, *, newest_first: bool = False) -> QuerySet[VersionTestMatch]:
    """The test's matches, by pair (newest first if asked) then game, with their seats and players and
    `void_reason`."""
    return (
        VersionTestMatch.objects.filter(test=test)
        .annotate(void_reason=void_reason())
        .select_related("match")
        .prefetch_related(_seats_in_order())
        .order_by("-pair" if newest_first else "pair", "game")
    )


def version_test_page(test: VersionTest, page: str | int | None = None) -> VersionTestPage:
    """What a version test's page shows: verdict, LLR and its bounds, the pentanomial counts, and page `page`
    of its pairs, `PAIRS_PER_PAGE` a page, newest first."""
    games = Paginator(version_test_games(test, newest_first=True), 2 * PAIRS_PER_PAGE).get_page(page)
    pairs: dict[int, list[VersionTestMatch]] = {}
    for game in games:
        pairs.setdefault(game.pair, []).append(game)
    return VersionTestPage(
        test=test,
        game_name=game_name(test.game_id),
        bounds=sprt.bounds(test.alpha, test.beta),
        counts=list(zip(COUNT_LABELS, test.counts, strict=True)),
        pairs_played=sum(test.counts),
        elo_estimate=sprt.elo_estimate(test.counts),
        pairs=[PairRow(pair, rows[0].seed, rows) for pair, rows in sorted(pairs.items(), reverse=True)],
        page=games,
        opponents=list(test.opponents.order_by("name", "pk")),
    )


def bot_version_tests(bot: BotDefinition, viewer: User | AnonymousUser | None) -> dict[str, object]:
    """For a bot's page: the version tests of this version that the viewer may see (its author and staff),
    and whether the viewer may test it against another version (its author, when it has another)."""
    if (
        viewer is None
        or not viewer.is_authenticated
        or not (viewer.is_staff or bot.created_by_id == viewer.pk)
    ):
        return {"version_tests": [], "can_test_versions": False}
    tests = list(
        VersionTest.objects.filter(Q(v1=bot) | Q(v2=bot))
        .select_related("v1", "v2")
        .order_by("-created_at")[:20]
    )
    has_other = BotDefinition.objects.filter(**bot.line).exclude(pk=bot.pk).exists()
    return {
        "version_tests": tests,
        "can_test_versions": bot.created_by_id == viewer.pk and has_other,
    }
