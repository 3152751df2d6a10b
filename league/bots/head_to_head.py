"""A bot version's head-to-head record: for each bot it shared a rated table with, how often each finished
ahead of the other, from the stored results (one aggregate query).

Only rated matches with a counted result count (a league's or ladder's, or any rated match): challenges and
validation matches are unrated, and a void match has no result. Each version is its own bot (its own player),
as everywhere else: a bot's v1 and v2 have separate records. A tie (a shared place) counts half to each, as
ratings count it. The bot page (`league.bots.pages.bot_page`) and the API (`/api/bots/{id}/head-to-head/`)
read the same rows.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Count, F, Q

from league.bots.models import BotDefinition
from league.matches.models import Match, MatchSeat
from league.matches.selectors import Viewer, seen_by


@dataclass(frozen=True)
class HeadToHead:
    """One opponent of a bot version: the rated matches they both finished (`games`), and how many of them
    the bot finished ahead of the opponent, behind it, or level with it (a shared place)."""

    player_id: int
    bot_id: int | None  # None for a person (a bot seated at a people's match)
    name: str
    games: int
    ahead: int
    behind: int
    ties: int

    @property
    def score(self) -> float:
        """The bot's share against this opponent: (ahead + ties / 2) / games, from 0 to 1."""
        return (self.ahead + self.ties / 2) / self.games

    @property
    def score_percent(self) -> float:
        return 100 * self.score


def bot_head_to_head(bot: BotDefinition, *, viewer: Viewer = None) -> list[HeadToHead]:
    """`bot`'s head-to-head rows (most games together first, then by name), over the rated finished matches
    `viewer` may see. One query, whatever the number of matches or opponents: the bot's seats, each joined to
    the other seats of its match and grouped by their player."""
    rows = (
        MatchSeat.objects.filter(
            seen_by(viewer, match="match"),
            player_id=bot.player_id,
            place__isnull=False,
            match__rated=True,
            match__status=Match.Status.FINISHED,
            match__seats__place__isnull=False,
        )
        # One join to the match's seats: the filter above, the grouping and the counts below share it.
        .values(
            "match__seats__player_id", "match__seats__player__name", "match__seats__player__bot_definition"
        )
        .annotate(
            games=Count("id"),
            ahead=Count("id", filter=Q(place__lt=F("match__seats__place"))),
            behind=Count("id", filter=Q(place__gt=F("match__seats__place"))),
            ties=Count("id", filter=Q(place=F("match__seats__place"))),
        )
        .order_by()
    )
    lines = [
        HeadToHead(
            player_id=row["match__seats__player_id"],
            bot_id=row["match__seats__player__bot_definition"],
            name=row["match__seats__player__name"],
            games=row["games"],
            ahead=row["ahead"],
            behind=row["behind"],
            ties=row["ties"],
        )
        for row in rows
        if row["match__seats__player_id"] != bot.player_id
    ]
    return sorted(lines, key=lambda line: (-line.games, line.name, line.player_id))
