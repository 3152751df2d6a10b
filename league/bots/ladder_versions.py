"""Which versions of an author's bots are active in each ladder (read from the ladders' entry logs), for the
author's "my bots" page, a bot's page and the API (`/api/bots/{id}/ladder-versions/`); the writes are
`league.bots.services.ladders.ladder_version_activate` and `ladder_version_deactivate`.

A bot (a line: its author, game and name) is shown in every ladder one of its versions ever entered, with each
of its versions and whether it is active there now: in the ladder by its log (every event applies to the next
round at the latest, so the whole log gives who plays from the next round on). Two queries, whatever the
number of bots, versions or ladders.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from league.bots.models import BotDefinition, BotLeague, LadderEvent, LeagueEntry

Line = tuple[int | None, str, str]  # a bot: its author's id, its game, its name


def line_of(bot: BotDefinition) -> Line:
    return (bot.created_by_id, bot.game_id, bot.name)


@dataclass(frozen=True)
class VersionState:
    bot: BotDefinition
    active: bool


@dataclass(frozen=True)
class LadderVersions:
    """One ladder of a bot: every version of the bot (newest first), active there or not."""

    ladder: BotLeague
    versions: list[VersionState]

    @property
    def active_count(self) -> int:
        return sum(1 for state in self.versions if state.active)


def ladder_versions(versions: Sequence[BotDefinition]) -> dict[Line, list[LadderVersions]]:
    """For each bot among `versions` (every version of each bot, as `selectors.my_bots` or
    `selectors.bot_versions` read them), the ladders any of its versions entered (newest ladder first), each
    with every version and whether it is active there now."""
    ids = [bot.pk for bot in versions]
    entries = list(
        LeagueEntry.objects.filter(bot_id__in=ids, league__kind=BotLeague.Kind.LADDER)
        .select_related("league")
        .order_by("-league__created_at", "-league_id")
    )
    ladders = {entry.league_id: entry.league for entry in entries}
    active: set[tuple[int, int]] = set()
    for league_id, bot_id, action in (
        LadderEvent.objects.filter(league_id__in=ladders, bot_id__in=ids)
        .order_by("league_id", "seq")
        .values_list("league_id", "bot_id", "action")
    ):
        if action == LadderEvent.Action.ENTER:
            active.add((league_id, bot_id))
        else:
            active.discard((league_id, bot_id))
    by_line: dict[Line, list[BotDefinition]] = {}
    for bot in sorted(versions, key=lambda bot: -bot.version):
        by_line.setdefault(line_of(bot), []).append(bot)
    lines = {bot.pk: line_of(bot) for bot in versions}
    entered: dict[Line, list[int]] = {}
    for entry in entries:
        in_line = entered.setdefault(lines[entry.bot_id], [])
        if entry.league_id not in in_line:
            in_line.append(entry.league_id)
    return {
        line: [
            LadderVersions(
                ladder=ladders[league_id],
                versions=[VersionState(bot, (league_id, bot.pk) in active) for bot in bots],
            )
            for league_id in entered.get(line, [])
        ]
        for line, bots in by_line.items()
    }
