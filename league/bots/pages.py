"""Page selectors of the bots' pages: what a bot's page and a bot league's page show, read in one call and
returned as a frozen dataclass (`league.web.bots` renders them; the league's standings endpoint of the API
reads the same `selectors.league_standings`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import cast

from django.conf import settings
from django.contrib.auth.models import AnonymousUser, User
from django.db.models import QuerySet
from django.http import Http404

from games.core.protocol import Limits
from league.bots import sandbox_selectors, selectors, uploads
from league.bots.head_to_head import HeadToHead, bot_head_to_head
from league.bots.ladder_versions import LadderVersions, ladder_versions, line_of
from league.bots.models import BotDefinition, BotLeague, Fixture
from league.core.catalogue import game_name
from league.matches.models import MatchSeat
from league.matches.selectors import Viewer
from league.ratings.charts import Chart
from league.ratings.models import Prediction
from league.ratings.selectors import predictions_by_seat

STARTUP_SECONDS = Limits().startup_seconds  # the first answer's allowance beside the move limit


@dataclass(frozen=True)
class BotPage:
    """A bot version's page: the version, its game, every version of the bot (newest first) and the newest
    ready one after it, the leagues it entered, the sandbox's state (external programs only), its forfeit
    rates and last matches (those the viewer may see), whether the viewer may read its logs, its
    head-to-head record against each bot it shared a rated table with, and the ladders its versions entered
    with which of them are active there (which its author and staff may change: `can_choose_versions`)."""

    bot: BotDefinition
    game_name: str
    versions: list[BotDefinition]
    newer: BotDefinition | None
    leagues: QuerySet[BotLeague]
    sandbox: sandbox_selectors.SandboxStatus | None
    max_processes: int
    startup_seconds: float
    rates: selectors.ForfeitRates
    matches: list[MatchSeat]
    can_read_logs: bool
    head_to_head: list[HeadToHead]
    ladders: list[LadderVersions]
    can_choose_versions: bool
    # An uploaded program: "No worker can run node programs now; ..." when no worker's probe found its
    # runtime (`sandbox_selectors.runtime_message`), else empty.
    runtime_message: str = ""


def bot_page(pk: int, viewer: Viewer) -> BotPage:
    """Bot version `pk`'s page for `viewer`; 404 for no such version."""
    rows = BotDefinition.objects.select_related("player", "previous", "program").defer("program__content")
    try:
        bot = rows.get(pk=pk)
    except BotDefinition.DoesNotExist:
        raise Http404("no such bot") from None
    versions = list(selectors.bot_versions(bot))
    return BotPage(
        bot=bot,
        game_name=game_name(bot.game_id),
        versions=versions,
        newer=next(
            (version for version in versions if version.version > bot.version and version.is_ready), None
        ),
        leagues=selectors.bot_leagues(bot),
        sandbox=sandbox_selectors.sandbox_status() if bot.is_external else None,
        max_processes=settings.SANDBOX_MAX_PROCESSES,
        startup_seconds=STARTUP_SECONDS,
        rates=selectors.bot_forfeit_rates(bot, viewer=viewer),
        matches=selectors.bot_matches(bot, viewer=viewer),
        can_read_logs=uploads.can_read_logs(cast(User | AnonymousUser | None, viewer), bot),
        runtime_message=(
            sandbox_selectors.runtime_message(bot.program.runtime) if bot.program is not None else ""
        ),
        head_to_head=bot_head_to_head(bot, viewer=viewer),
        ladders=ladder_versions(versions).get(line_of(bot), []),
        can_choose_versions=bool(
            viewer is not None
            and viewer.is_authenticated
            and (getattr(viewer, "is_staff", False) or bot.created_by_id == viewer.pk)
        ),
    )


@dataclass(frozen=True)
class LeaguePage:
    """A bot league's page (and its live part): the league, its game, its standings, progress, last matches
    with each seat's stored forecast (by (match id, seat)), the rating chart, whether the viewer controls
    it (staff) and what the sandbox's state means for it."""

    league: BotLeague
    game_name: str
    standings: list[selectors.BotStandingRow]
    progress: selectors.Progress
    recent: list[Fixture]
    forecasts: dict[tuple[int, int], Prediction]
    chart: Chart | None
    can_control: bool
    sandbox_message: str


def league_page(league: BotLeague, viewer: Viewer) -> LeaguePage:
    """`league`'s page for `viewer`."""
    recent = list(selectors.league_recent_matches(league))
    return LeaguePage(
        league=league,
        game_name=game_name(league.game_id),
        standings=selectors.league_standings(league),
        progress=selectors.league_progress(league),
        recent=recent,
        forecasts=predictions_by_seat([fixture.match_id for fixture in recent]),
        chart=selectors.league_chart(league),
        can_control=bool(getattr(viewer, "is_staff", False)),
        sandbox_message=sandbox_selectors.sandbox_status(league).message,
    )
