"""Reads for bots and bot leagues: lists, standings, progress, recent matches, the convergence chart, an
author's bots with their matches and logs. What the workers proved of their sandbox is `sandbox_selectors.py`.

Each function runs a fixed number of queries, whatever the number of bots or matches.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from datetime import timedelta
from typing import TYPE_CHECKING, TypedDict, cast

from django.contrib.auth.models import User
from django.db.models import Avg, Count, Exists, OuterRef, Prefetch, Q, QuerySet, Subquery, TextField, Value
from django.db.models.functions import Coalesce
from django.utils import timezone

from league.bots.models import (
    BotDefinition,
    BotLeague,
    Challenge,
    ChallengeMatch,
    Fixture,
    LadderEvent,
    LeagueEntry,
)
from league.matches.models import Match, MatchSeat
from league.matches.selectors import Viewer, seen_by
from league.programs.models import ProgramLog
from league.ratings import maths
from league.ratings.charts import Chart, Series, history_chart
from league.ratings.models import Rating, RatingHistory
from league.ratings.selectors import history_points
from league.results.models import ResultVersion

if TYPE_CHECKING:  # django-stubs-ext is a development requirement only
    from django_stubs_ext import WithAnnotations

RATE_WINDOW_SECONDS = 30


def leagues_list(kind: str = BotLeague.Kind.LEAGUE) -> QuerySet[BotLeague]:
    """Every league (or ladder), newest first, with its number of bots and of matches drawn and played."""
    return (
        BotLeague.objects.filter(kind=kind)
        .annotate(
            bot_count=Count("entries", distinct=True),
            drawn=Count("fixtures", distinct=True),
            played=Count("fixtures", filter=Q(fixtures__done=True), distinct=True),
        )
        .order_by("-created_at", "-id")
    )


def bots_list() -> QuerySet[BotDefinition]:
    return BotDefinition.objects.select_related("player").order_by("game_id", "name", "-version")


def _seats_in_order() -> Prefetch:
    """A match's seats with their players, in seat order: an explicit order (MatchSeat's default orders by the
    match, a join that PostgreSQL answered by hashing the whole match table)."""
    return Prefetch("match__seats", queryset=MatchSeat.objects.select_related("player").order_by("seat"))


@dataclass(frozen=True)
class BotStandingRow:
    rank: int
    bot: BotDefinition
    conservative: float | None
    mu: float | None
    uncertainty: float | None
    matches: int
    mean_place: float | None
    win_share: float | None


def league_standings(league: BotLeague) -> list[BotStandingRow]:
    """The league's bots ranked by conservative rating (mu − 3σ), with mean place, share of wins and matches.

    Bots without a rated match yet come last, by name. Ties in rating share a rank.
    """
    entries = list(LeagueEntry.objects.filter(league=league).select_related("bot"))
    ratings = {r.player_id: r for r in Rating.objects.filter(pool_id=league.rating_pool_id)}
    places = {
        row["player_id"]: row
        for row in MatchSeat.objects.filter(match__bot_fixture__league=league, match__bot_fixture__done=True)
        .values("player_id")
        .annotate(mean=Avg("place"), wins=Count("id", filter=Q(place=1)), n=Count("id"))
    }

    def key(entry: LeagueEntry):
        rating = ratings.get(entry.bot.player_id)
        return (rating is None, -(rating.conservative if rating else 0.0), entry.bot.name, entry.bot.version)

    rows: list[BotStandingRow] = []
    previous = None
    for position, entry in enumerate(sorted(entries, key=key), start=1):
        rating = ratings.get(entry.bot.player_id)
        played = places.get(entry.bot.player_id)
        conservative = rating.conservative if rating else None
        rank = rows[-1].rank if rows and conservative is not None and conservative == previous else position
        previous = conservative
        rows.append(
            BotStandingRow(
                rank=rank,
                bot=entry.bot,
                conservative=conservative,
                mu=rating.mu if rating else None,
                uncertainty=rating.uncertainty if rating else None,
                matches=played["n"] if played else 0,
                mean_place=played["mean"] if played else None,
                win_share=played["wins"] / played["n"] if played else None,
            )
        )
    return rows


@dataclass(frozen=True)
class LadderStandings:
    """A ladder's current entries ranked by rating, and the versions that left (retired or withdrawn) with
    the event that took each out; `entered` is each bot's entry event; `kept_apart` are the groups of bots in
    it now that are one author's uploaded programs (they never share a table: `league.bots.matchmaking`)."""

    current: list[BotStandingRow]
    retired: list[BotStandingRow]
    left: dict[int, LadderEvent]
    entered: dict[int, LadderEvent]
    kept_apart: list[list[BotDefinition]] = field(default_factory=list)


def _reranked(rows: list[BotStandingRow]) -> list[BotStandingRow]:
    ranked: list[BotStandingRow] = []
    for position, row in enumerate(rows, start=1):
        tied = ranked and row.conservative is not None and row.conservative == ranked[-1].conservative
        ranked.append(replace(row, rank=ranked[-1].rank if tied else position))
    return ranked


def ladder_standings(ladder: BotLeague) -> LadderStandings:
    """The ladder's standings (as a league's: conservative rating, matches, mean place, share of wins), split
    into the bots in it now and those that left; retired versions by name and version."""
    rows = league_standings(ladder)
    events = list(LadderEvent.objects.filter(league=ladder).order_by("seq"))
    inside: set[int] = set()
    left: dict[int, LadderEvent] = {}
    entered: dict[int, LadderEvent] = {}
    for event in events:
        if event.action == LadderEvent.Action.ENTER:
            inside.add(event.bot_id)
            entered[event.bot_id] = event
        else:
            inside.discard(event.bot_id)
            left[event.bot_id] = event
    current = _reranked([row for row in rows if row.bot.pk in inside])
    retired = sorted(
        (row for row in rows if row.bot.pk not in inside), key=lambda row: (row.bot.name, row.bot.version)
    )
    by_author: dict[int, list[BotDefinition]] = {}
    for row in current:
        author = entered[row.bot.pk].author
        if author is not None:
            by_author.setdefault(author, []).append(row.bot)
    kept_apart = [bots for _, bots in sorted(by_author.items()) if len(bots) > 1]
    return LadderStandings(current, retired, left, entered, kept_apart)


@dataclass(frozen=True)
class ChallengeLine:
    """One bot of a challenge: its matches played, wins (first place, shared or not), share and mean place."""

    bot: BotDefinition
    played: int
    wins: int
    win_share: float | None
    mean_place: float | None


def challenge_summary(challenge: Challenge) -> list[ChallengeLine]:
    """The challenger's bot, then its opponents (by id), with what they made of the matches played."""
    bots = [challenge.bot, *challenge.opponents.order_by("pk")]
    rows = {
        row["player_id"]: row
        for row in MatchSeat.objects.filter(
            match__challenge_match__challenge=challenge, match__challenge_match__done=True
        )
        .values("player_id")
        .annotate(mean=Avg("place"), wins=Count("id", filter=Q(place=1)), n=Count("id"))
    }
    lines = []
    for bot in bots:
        row = rows.get(bot.player_id)
        played = row["n"] if row else 0
        lines.append(
            ChallengeLine(
                bot=bot,
                played=played,
                wins=row["wins"] if row else 0,
                win_share=row["wins"] / played if row and played else None,
                mean_place=row["mean"] if row else None,
            )
        )
    return lines


class VoidReason(TypedDict):
    """The annotation `void_reason()` adds."""

    void_reason: str


def void_reason() -> Coalesce:
    """Why a fixture's or challenge match's match is void (its void version's reason), "" when it is not: an
    annotation of fixtures and challenge matches."""
    voids = ResultVersion.objects.filter(match_id=OuterRef("match_id"), void=True).order_by("-version")
    return Coalesce(Subquery(voids.values("reason")[:1]), Value(""), output_field=TextField())


def challenge_games(challenge: Challenge) -> QuerySet[WithAnnotations[ChallengeMatch, VoidReason]]:
    """The challenge's matches in order, with their seats and players, and `void_reason`."""
    return (
        ChallengeMatch.objects.filter(challenge=challenge)
        .annotate(void_reason=void_reason())
        .select_related("match")
        .prefetch_related(_seats_in_order())
        .order_by("index")
    )


def challenge_ahead(challenge: Challenge) -> int:
    """How many matches are ahead of a queued challenge's next one: the open matches of the challenges queued
    before it (challenges are claimed oldest first; they share the workers with the other kinds of work by
    `league.bots.services.work.SHARES`). 0 for a finished challenge."""
    if challenge.status != Challenge.Status.QUEUED:
        return 0
    return ChallengeMatch.objects.filter(
        done=False, challenge__status=Challenge.Status.QUEUED, challenge_id__lt=challenge.pk
    ).count()


def challenges_of(user: User) -> QuerySet[Challenge]:
    """A user's challenges, newest first, with their matches played."""
    return (
        Challenge.objects.filter(challenger=user)
        .select_related("bot")
        .annotate(played=Count("games", filter=Q(games__done=True)))
        .order_by("-created_at", "-id")
    )


@dataclass(frozen=True)
class Progress:
    played: int
    drawn: int
    target: int
    percent: int
    per_second: float
    round: int


def league_target_matches(league: BotLeague, bots: int) -> int:
    """Matches the league plays by its target (for a target of matches per bot, the least that reaches it)."""
    per_sitting = bots // league.table_size
    if league.target_kind == BotLeague.Target.ROUNDS:
        return league.target_value * league.sittings_per_round * per_sitting
    return -(-league.target_value * bots // league.table_size)


def league_progress(league: BotLeague) -> Progress:
    """Matches played of the target, and matches stored per second over the last half minute."""
    counts = Fixture.objects.filter(league=league).aggregate(
        drawn=Count("id"), played=Count("id", filter=Q(done=True))
    )
    bots = LeagueEntry.objects.filter(league=league).count()
    target = max(league_target_matches(league, bots), counts["played"])
    if league.status == BotLeague.Status.FINISHED:
        target = counts["played"]
    since = timezone.now() - timedelta(seconds=RATE_WINDOW_SECONDS)
    recent = ResultVersion.objects.filter(match__bot_fixture__league=league, entered_at__gte=since).count()
    return Progress(
        played=counts["played"],
        drawn=counts["drawn"],
        target=target,
        percent=round(100 * counts["played"] / target) if target else 0,
        per_second=recent / RATE_WINDOW_SECONDS,
        round=league.current_round,
    )


def league_recent_matches(league: BotLeague, limit: int = 10) -> list[Fixture]:
    """The last matches stored, newest first, with their seats and players."""
    return list(
        Fixture.objects.filter(league=league, done=True)
        .select_related("match")
        .prefetch_related(_seats_in_order())
        .order_by("-position")[:limit]
    )


def league_chart(league: BotLeague) -> Chart | None:
    """Each bot's conservative rating after each of its matches, with the match's time (thinned by the
    chart)."""
    names = dict(LeagueEntry.objects.filter(league=league).values_list("bot__player_id", "bot__name"))
    values: dict[int, list[float]] = {player_id: [] for player_id in names}
    dates: dict[int, list] = {player_id: [] for player_id in names}
    rows = history_points(
        RatingHistory.objects.filter(pool_id=league.rating_pool_id), "player_id", "mu_after", "sigma_after"
    )
    for player_id, mu, sigma, played_at in rows.iterator(chunk_size=5000):
        values.setdefault(player_id, []).append(maths.conservative(mu, sigma))
        dates.setdefault(player_id, []).append(
            timezone.localtime(played_at) if played_at else league.created_at
        )
    series = [
        Series(names.get(player_id, str(player_id)), points, dates[player_id])
        for player_id, points in values.items()
    ]
    return history_chart(series, by_time=False)


def bot_leagues(bot: BotDefinition) -> QuerySet[BotLeague]:
    return BotLeague.objects.filter(entries__bot=bot).order_by("-created_at")


def bot_versions(bot: BotDefinition) -> QuerySet[BotDefinition]:
    return BotDefinition.objects.filter(**bot.line).order_by("-version")


# --- uploaded bots and their logs (league.bots.uploads) -----------------------------------------------------

ERROR_REASONS = ("crashed", "protocol_error", "illegal_action", "limit_exceeded")


@dataclass(frozen=True)
class ForfeitRates:
    """Over the matches whose logs are kept (the last BOT_LOG_MATCHES of an external program; a built-in
    bot's logs are its forfeits only, so its rates are over its played matches): errors and time-outs."""

    matches: int
    errors: int
    timeouts: int

    @property
    def error_rate(self) -> float | None:
        return self.errors / self.matches if self.matches else None

    @property
    def timeout_rate(self) -> float | None:
        return self.timeouts / self.matches if self.matches else None


def bot_forfeit_rates(bot: BotDefinition, *, viewer: Viewer) -> ForfeitRates:
    """How often this version's seat forfeited for an error (crashed, broke the protocol, played an illegal
    action, went over a limit) or ran out of time (two queries), over the matches `viewer` may see: a
    challenge's private matches count for its viewers and staff only."""
    counts = ProgramLog.objects.filter(seen_by(viewer, match="match"), bot=bot).aggregate(
        logged=Count("id"),
        errors=Count("id", filter=Q(forfeit__in=ERROR_REASONS)),
        timeouts=Count("id", filter=Q(forfeit="timeout")),
    )
    matches = counts["logged"]
    if not bot.is_external:
        matches = MatchSeat.objects.filter(
            seen_by(viewer, match="match"), player_id=bot.player_id, place__isnull=False
        ).count()
    return ForfeitRates(matches=matches, errors=counts["errors"], timeouts=counts["timeouts"])


def bot_matches(bot: BotDefinition, *, viewer: Viewer, limit: int = 50) -> list[MatchSeat]:
    """This version's last `limit` seats at matches `viewer` may see, newest first, with their matches."""
    return list(
        MatchSeat.objects.filter(seen_by(viewer, match="match"), player_id=bot.player_id)
        .select_related("match")
        .order_by("-match__played_at", "-match_id")[:limit]
    )


def bot_logs(bot: BotDefinition) -> QuerySet[ProgramLog]:
    """This version's logs, newest match first (for its author and staff only: `uploads.can_read_logs`)."""
    return ProgramLog.objects.filter(bot=bot).select_related("match").order_by("-match_id", "-id")


@dataclass
class MyBot:
    """One of a user's bots: its name and game, its versions newest first."""

    name: str
    game_id: str
    versions: list[BotDefinition]
    game_name: str = ""

    @property
    def latest(self) -> BotDefinition:
        return self.versions[0]

    @property
    def current(self) -> BotDefinition | None:
        """The newest ready version: the one that enters ladders, leagues and challenges."""
        return next((version for version in self.versions if version.is_ready), None)


def current_versions() -> QuerySet[BotDefinition]:
    """Every bot's current version: ready, with no newer ready version of its name (the versions that enter
    ladders, leagues and challenges; an upload still checking, or refused, replaces nothing)."""
    newer = BotDefinition.objects.filter(
        game_id=OuterRef("game_id"),
        name=OuterRef("name"),
        version__gt=OuterRef("version"),
        state=BotDefinition.State.READY,
    )
    return BotDefinition.objects.filter(state=BotDefinition.State.READY).exclude(Exists(newer))


def my_bots(user: User) -> list[MyBot]:
    """The bots `user` registered or uploaded, each with its versions (newest first), its program and its
    number of matches (two queries)."""
    rows = list(
        BotDefinition.objects.filter(created_by=user)
        .select_related("program")
        .defer("program__content")
        .annotate(match_count=Count("player__seats", distinct=True))
        .order_by("game_id", "name", "-version")
    )
    groups: dict[tuple[str, str], MyBot] = {}
    for bot in rows:
        groups.setdefault((bot.game_id, bot.name), MyBot(bot.name, bot.game_id, [])).versions.append(bot)
    return list(groups.values())


def league_schedule(league: BotLeague) -> QuerySet[WithAnnotations[Fixture, VoidReason]]:
    """A league's (or ladder's) fixtures in schedule order, with their rounds, matches, seated players and
    `void_reason`."""
    return (
        Fixture.objects.filter(league=league)
        .annotate(void_reason=void_reason())
        .select_related("round", "match")
        .prefetch_related(
            Prefetch("match__seats", queryset=MatchSeat.objects.select_related("player").order_by("seat"))
        )
        .order_by("position")
    )


@dataclass(frozen=True)
class VoidedMatch:
    """A league fixture's or challenge's match that was voided, for those to be told: where it was played
    (`owner`: the league's name or "challenge #4", `link`: its page), why, and its external seats' bots
    (labels) and their authors (user ids); `challenger_id` for a challenge's."""

    match_id: int
    reason: str
    owner: str
    link: str
    bots: tuple[str, ...]
    author_links: dict[int, str]
    challenger_id: int | None


def voided_match(match_id: int) -> VoidedMatch | None:
    """What to tell of a voided bot match (None if it is not a void match of a fixture or a challenge).
    `author_links`: each external seat's author → their bot's page."""
    fixture = Fixture.objects.filter(match_id=match_id).select_related("league").first()
    game = ChallengeMatch.objects.filter(match_id=match_id).select_related("challenge").first()
    reason = (
        ResultVersion.objects.filter(match_id=match_id, void=True, match__status=Match.Status.VOID)
        .order_by("-version")
        .values_list("reason", flat=True)
        .first()
    )
    if reason is None or (fixture is None and game is None):
        return None
    bots = list(
        BotDefinition.objects.filter(
            player__seats__match_id=match_id, kind=BotDefinition.Kind.EXTERNAL
        ).order_by("player__seats__seat")
    )
    # Not both None (see above): the challenge's match is read only where there is no fixture.
    challenge_game = cast(ChallengeMatch, game)
    owner = fixture.league if fixture else challenge_game.challenge
    return VoidedMatch(
        match_id=match_id,
        reason=reason,
        owner=fixture.league.name if fixture else f"challenge #{challenge_game.challenge_id}",
        link=owner.get_absolute_url(),
        bots=tuple(bot.label for bot in bots),
        author_links={bot.created_by_id: bot.get_absolute_url() for bot in bots[::-1] if bot.created_by_id},
        challenger_id=None if fixture else challenge_game.challenge.challenger_id,
    )
