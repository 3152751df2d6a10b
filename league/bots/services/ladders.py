"""Writes for ladders: leagues that never end, whose bots enter and leave over time.

A ladder is a `BotLeague` of kind "ladder": one game and table size, a seed, a rating pool, and an entry log
(`LadderEvent`: who entered or left, at which schedule position). Its rounds are drawn by the league
machinery (`league.bots.services.leagues._draw_ladder_round`) from the seed and the log alone, so the whole
schedule replays (`league.bots.matchmaking.ladder_schedule`); it is played by the same workers (its fixtures
are the leased work of kind "ladder"), rated through its pool.

- `ladder_create` (staff): a ladder in draft, with its own pool; `league_start` starts it.
- `ladder_enter` (the bot's owner or staff): the bot enters at the next round's position. An earlier version
  of the same bot still in the ladder leaves at that same position: the new version is a new player at the
  initial rating, drawn first until it has `newcomer_matches` matches; the old one's history stays.
- `ladder_leave` (the bot's owner or staff): the bot leaves at the next round's position.
- `ladder_version_activate`, `ladder_version_deactivate` (the bot's owner or staff): the author chooses which
  of their versions stay active in the ladder, several at once or only the newest. Activating a version enters
  it at the next round's position without retiring the others (an older version, or one that left, comes
  back with its rating and history); deactivating it leaves there. Each is an entry-log event ("activated by
  its author", "deactivated by its author"), so the schedule still replays.
- `ladders_follow_new_version`: a new version of a bot (a revision, an upload once its check passed) takes
  the place of its earlier versions in every ladder one of them is in.
- `entries_count_forfeits`: as rated matches are stored, each entry counts its seat's forfeits in a row; the
  first of a run is told to the bot's author, and a ladder withdraws a bot at its `withdraw_after_forfeits`th
  in a row (an entry-log event, so the schedule still replays), telling its author.

Only a ready version enters (an upload is `checking` until its modules compiled, or `refused`).

Fixtures drawn before an event are played as drawn: a bot that left still plays those.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, cast

from django.contrib.auth.models import AnonymousUser, User
from django.db import transaction
from django.db.models import Max

from games.core.errors import OptionError
from league.bots.budget import check_table_memory
from league.bots.matchmaking import ladder_members
from league.bots.models import BotDefinition, BotLeague, LadderEvent, LeagueEntry
from league.bots.services.leagues import (
    SETTING_BOUNDS,
    _locked_league,
    ladder_log,
    league_advance,
    next_position,
    not_ready_message,
    queue_work,
    retired,
)
from league.core import bulk, events
from league.core.bounds import Bounds
from league.core.catalogue import game_spec
from league.core.errors import ErrorCode, Forbidden, NotFound, UserError
from league.core.names import check_name
from league.ratings.models import RatingPool
from league.ratings.services import pool_create

NEWCOMER_MATCHES = Bounds(0, 1000)
WITHDRAW_AFTER_FORFEITS = Bounds(0, 1000)


def ladder_create(
    *,
    name: str,
    game_id: str,
    table_size: int,
    seed: int = 1,
    options: Mapping[str, Any] | None = None,
    sittings_per_round: int = 2,
    newcomer_matches: int = 20,
    withdraw_after_forfeits: int = 5,
    batch_size: int = 50,
    commit_every: int = 10,
    pace: str = BotLeague.Pace.FAST,
    interval_seconds: int = 60,
    by: User | None,
) -> BotLeague:
    """Create a ladder in draft (no bots yet: they enter with `ladder_enter`), with its own rating pool."""
    if by is not None and not by.is_staff:
        raise Forbidden("only staff create ladders")
    # A CharField, so its max_length is set.
    name = check_name(
        name, what="a ladder", max_length=cast(int, BotLeague._meta.get_field("name").max_length)
    )
    if BotLeague.objects.filter(name__iexact=name).exists():
        raise UserError(f"there is already a league called {name!r}", field="name", code=ErrorCode.DUPLICATE)
    spec = game_spec(game_id, field="game")
    numbers = {
        "table_size": table_size,
        "seed": seed,
        "sittings_per_round": sittings_per_round,
        "batch_size": batch_size,
        "commit_every": commit_every,
        "interval_seconds": interval_seconds,
    }
    for field, value in numbers.items():
        SETTING_BOUNDS[field].check(value, field)
    NEWCOMER_MATCHES.check(newcomer_matches, "newcomer_matches")
    WITHDRAW_AFTER_FORFEITS.check(withdraw_after_forfeits, "withdraw_after_forfeits")
    if pace not in BotLeague.Pace.values:
        raise UserError(f"pace must be one of {', '.join(BotLeague.Pace.values)}", field="pace")
    if options is not None and not isinstance(options, Mapping):
        raise UserError("options must be an object of option names and values", field="options")
    try:
        valid_options = spec.validate_options(options or {}, num_players=table_size)
    except OptionError as exc:
        raise UserError(str(exc), field="table_size" if "players" in str(exc) else "options") from None
    with transaction.atomic():
        pool = pool_create(name=f"Bot ladder: {name}", kind=RatingPool.Kind.BOT_LEAGUE, game_id=spec.id)
        return BotLeague.objects.create(
            name=name,
            kind=BotLeague.Kind.LADDER,
            game_id=spec.id,
            options=valid_options,
            table_size=table_size,
            seed=seed,
            target_kind=BotLeague.Target.ROUNDS,
            target_value=1,  # unused: a ladder never ends
            sittings_per_round=sittings_per_round,
            newcomer_matches=newcomer_matches,
            withdraw_after_forfeits=withdraw_after_forfeits,
            batch_size=batch_size,
            commit_every=commit_every,
            pace=pace,
            interval_seconds=interval_seconds,
            rating_pool=pool,
            created_by=by,
        )


def _locked_ladder(ladder_id: int) -> BotLeague:
    ladder = _locked_league(ladder_id)
    if not ladder.is_ladder:
        raise NotFound(f"no ladder with id {ladder_id}")
    return ladder


def _may_act_for(bot: BotDefinition, by: User | AnonymousUser | None) -> None:
    if by is None:
        return  # the system (a new version taking its predecessor's place, the demo)
    if not by.is_authenticated:
        raise Forbidden("sign in to enter a bot in a ladder")
    if not by.is_staff and bot.created_by_id != by.pk:
        raise Forbidden(f"only the owner of {bot.label} (or staff) may enter or withdraw it")


def _version_chain(bot: BotDefinition) -> set[int]:
    """The ids of every version of `bot`'s line (its author, game and name)."""
    return set(BotDefinition.objects.filter(**bot.line).values_list("pk", flat=True))


def _log(
    ladder: BotLeague, position: int, action: str, bot_id: int, reason: str = "", author: int | None = None
) -> None:
    seq = LadderEvent.objects.filter(league=ladder).aggregate(s=Max("seq"))["s"]
    LadderEvent.objects.create(
        league=ladder,
        seq=0 if seq is None else seq + 1,
        position=position,
        action=action,
        bot_id=bot_id,
        reason=reason,
        author=author,
    )


def ladder_enter(*, ladder_id: int, bot_id: int, by: User | AnonymousUser | None) -> LadderEvent:
    """Enter a bot in a ladder at the next round's position; an earlier version of it there retires."""
    bot = BotDefinition.objects.filter(pk=bot_id).first() if isinstance(bot_id, int) else None
    if bot is None:
        raise UserError("no bot with this id", field="bot")
    _may_act_for(bot, by)
    if not bot.is_ready:
        raise UserError(not_ready_message([bot]), field="bot")
    with transaction.atomic():
        ladder = _locked_ladder(ladder_id)
        if ladder.status == BotLeague.Status.FINISHED:
            raise UserError("this ladder is closed", field="status")
        if bot.game_id != ladder.game_id:
            raise UserError(f"{bot.label} plays another game than this ladder", field="bot")
        if retired(bot):
            raise UserError(f"{bot.label} has a newer version: enter that one", field="bot")
        if LeagueEntry.objects.filter(league=ladder, bot=bot).exists():
            raise UserError(
                f"{bot.label} has entered this ladder already (a bot that left comes back as a new version)",
                field="bot",
                code=ErrorCode.DUPLICATE,
            )
        position = next_position(ladder)
        members = set(ladder_members(ladder_log(ladder), position))
        staying = BotDefinition.objects.filter(pk__in=members - _version_chain(bot))
        check_table_memory(bots=[*staying, bot], table_size=ladder.table_size, field="bot")
        for older in sorted(members & (_version_chain(bot) - {bot.pk})):
            _log(ladder, position, LadderEvent.Action.LEAVE, older, f"replaced by {bot.label}")
        LeagueEntry.objects.create(league=ladder, bot=bot)
        _log(ladder, position, LadderEvent.Action.ENTER, bot.pk, author=bot.seating_author)
        if ladder.status == BotLeague.Status.RUNNING:
            _draw_if_waiting(ladder)
        # `_log` has just stored one, so there is a first.
        return cast(LadderEvent, LadderEvent.objects.filter(league=ladder).order_by("-seq").first())


def _draw_if_waiting(ladder: BotLeague) -> None:
    """After the commit: a running ladder of the fast pace that was waiting for members draws its round now
    (`league_advance` draws nothing while a round is open, so this is safe at any time), and a worker is
    woken to play it. A scheduled ladder draws on its tick, as before."""
    ladder_id = ladder.pk
    if ladder.pace == BotLeague.Pace.FAST:
        transaction.on_commit(lambda: league_advance(league_id=ladder_id))
    queue_work(ladder_id, 1)


def ladder_leave(
    *, ladder_id: int, bot_id: int, by: User | AnonymousUser | None, reason: str = "withdrawn"
) -> LadderEvent:
    """Withdraw a bot from a ladder at the next round's position (its history stays)."""
    bot = BotDefinition.objects.filter(pk=bot_id).first() if isinstance(bot_id, int) else None
    if bot is None:
        raise NotFound("no bot with this id")
    _may_act_for(bot, by)
    with transaction.atomic():
        ladder = _locked_ladder(ladder_id)
        position = next_position(ladder)
        if bot.pk not in ladder_members(ladder_log(ladder), position):
            raise UserError(f"{bot.label} is not in this ladder", field="bot")
        _log(ladder, position, LadderEvent.Action.LEAVE, bot.pk, reason)
        # `_log` has just stored one, so there is a first.
        return cast(LadderEvent, LadderEvent.objects.filter(league=ladder).order_by("-seq").first())


ACTIVATED = "activated by its author"
DEACTIVATED = "deactivated by its author"


def ladder_version_activate(*, ladder_id: int, bot_id: int, by: User | AnonymousUser | None) -> LadderEvent:
    """Make one version of a bot active in a ladder from the next round's position, beside the versions of it
    active there (none retires); a version that left comes back with its history, its forfeits in a row
    forgiven. The entry-log event."""
    bot = BotDefinition.objects.filter(pk=bot_id).first() if isinstance(bot_id, int) else None
    if bot is None:
        raise UserError("no bot with this id", field="bot")
    _may_act_for(bot, by)
    if not bot.is_ready:
        raise UserError(not_ready_message([bot]), field="bot")
    with transaction.atomic():
        ladder = _locked_ladder(ladder_id)
        if ladder.status == BotLeague.Status.FINISHED:
            raise UserError("this ladder is closed", field="status")
        if bot.game_id != ladder.game_id:
            raise UserError(f"{bot.label} plays another game than this ladder", field="bot")
        position = next_position(ladder)
        members = set(ladder_members(ladder_log(ladder), position))
        if bot.pk in members:
            raise UserError(
                f"{bot.label} is active in this ladder already", field="bot", code=ErrorCode.DUPLICATE
            )
        staying = BotDefinition.objects.filter(pk__in=members)
        check_table_memory(bots=[*staying, bot], table_size=ladder.table_size, field="bot")
        entry, created = LeagueEntry.objects.get_or_create(league=ladder, bot=bot)
        if not created and entry.forfeit_streak:
            entry.forfeit_streak = 0
            entry.save(update_fields=["forfeit_streak"])
        _log(ladder, position, LadderEvent.Action.ENTER, bot.pk, ACTIVATED, author=bot.seating_author)
        if ladder.status == BotLeague.Status.RUNNING:
            _draw_if_waiting(ladder)
        # `_log` has just stored one, so there is a first.
        return cast(LadderEvent, LadderEvent.objects.filter(league=ladder).order_by("-seq").first())


def ladder_version_deactivate(*, ladder_id: int, bot_id: int, by: User | AnonymousUser | None) -> LadderEvent:
    """Make one version of a bot inactive in a ladder from the next round's position (its history stays; the
    other versions stay as they are). The entry-log event."""
    return ladder_leave(ladder_id=ladder_id, bot_id=bot_id, by=by, reason=DEACTIVATED)


def ladders_follow_new_version(*, bot: BotDefinition) -> list[int]:
    """Enter a new ready version of a bot in every ladder where one of its earlier versions is (which it
    replaces there); the ladders' ids. Call after the version is stored ready (at the end of a revision, or
    of an upload's check). A version that is not ready, or that a newer ready version retired, enters none."""
    if not bot.is_ready or retired(bot):
        return []
    older = set(
        BotDefinition.objects.filter(**bot.line, version__lt=bot.version).values_list("pk", flat=True)
    )
    ladder_ids = LeagueEntry.objects.filter(bot_id__in=older, league__kind=BotLeague.Kind.LADDER).values_list(
        "league_id", flat=True
    )
    entered = []
    for ladder_id in sorted(set(ladder_ids)):
        ladder = BotLeague.objects.get(pk=ladder_id)
        if older & set(ladder_members(ladder_log(ladder), next_position(ladder))):
            ladder_enter(ladder_id=ladder_id, bot_id=bot.pk, by=None)
            entered.append(ladder_id)
    return entered


def withdrawn_reason(count: int) -> str:
    return f"withdrawn: forfeited {count} rated matches in a row"


def entries_count_forfeits(*, seats: Sequence[tuple[int, int, int, bool]]) -> list[int]:
    """Count forfeits in a row per league entry from stored rated matches' seats: (league id, match id, bot
    id, whether its seat forfeited), in the order stored. The first forfeit of a run is told to the bot's
    author (`events.bot_forfeited`); a ladder's bot still in it whose run reaches the ladder's
    `withdraw_after_forfeits` leaves at the next round's position ("withdrawn: ..."), and its author is told.
    The ids of the bots withdrawn. Call inside the transaction that stores the matches."""
    if not seats:
        return []
    league_ids = sorted({league_id for league_id, _, _, _ in seats})
    entries = {
        (entry.league_id, entry.bot_id): entry
        for entry in LeagueEntry.objects.select_for_update()
        .filter(league_id__in=league_ids, bot_id__in={bot_id for _, _, bot_id, _ in seats})
        .select_related("league")
    }
    before = {key: entry.forfeit_streak for key, entry in entries.items()}
    withdrawn = []
    for league_id, match_id, bot_id, forfeited in seats:
        entry = entries.get((league_id, bot_id))
        if entry is None:
            continue
        if not forfeited:
            entry.forfeit_streak = 0
            continue
        entry.forfeit_streak += 1
        if entry.forfeit_streak == 1:
            events.emit(
                events.bot_forfeited,
                bot_id=bot_id,
                league_id=league_id,
                match_id=match_id,
                streak=1,
                withdrawn=False,
            )
        limit = entry.league.withdraw_after_forfeits
        if entry.league.is_ladder and limit and entry.forfeit_streak == limit:
            ladder = _locked_ladder(league_id)
            position = next_position(ladder)
            if bot_id in ladder_members(ladder_log(ladder), position):
                _log(ladder, position, LadderEvent.Action.LEAVE, bot_id, withdrawn_reason(limit))
                withdrawn.append(bot_id)
                events.emit(
                    events.bot_forfeited,
                    bot_id=bot_id,
                    league_id=league_id,
                    match_id=match_id,
                    streak=limit,
                    withdrawn=True,
                )
    changed = [
        (entry.pk, entry.forfeit_streak)
        for key, entry in entries.items()
        if entry.forfeit_streak != before[key]
    ]
    if changed:
        bulk.update(LeagueEntry, ("forfeit_streak",), changed)
    return withdrawn
