"""The validation of a new uploaded version: the second step of its lifecycle, after the check of its modules.

`checking` (`league.bots.uploads.bot_check`: every module compiled, the imports the bots' Python lacks named)
→ `validating` (here) → `ready` | `failing`; a check that fails makes it `refused` instead.

Validating, the version plays one unrated, private match in each seat of the smallest and of the largest table
of the ladders it would enter (those its earlier versions are in; for a first version, the game's smallest and
largest tables), against the league's random bots (`Validator 1`, `Validator 2`, ...: built-in `random` bots
nobody owns, made here when first needed). Each match's seed comes from the version's id and the match's
index, so a validation replays. The matches are leased work of kind "validation"
(`league.bots.services.leases`), played by the same workers as challenges; a match is owned by its
`ValidationMatch` (`Match.Owner.VALIDATION`) and seen by the version's author and staff.

Once the last match is stored (`validations_judge`, in that transaction), the version is judged from the
records: any crash, protocol error, illegal action or limit exceeded in its seat makes it `failing`, with the
match, the seat and the program's words; a time-out has its match played once more (same seat, same seed), and
a second time-out counts; a match voided because its workers were lost counts as a failure. Otherwise it is
`ready`, and it follows its predecessor into the ladders. Its author hears the verdict (`events.bot_checked`).
"""

from __future__ import annotations

import hashlib
from collections.abc import Collection, Sequence
from datetime import timedelta

from django.utils import timezone

from league.bots.models import BotDefinition, BotLeague, LeagueEntry, ValidationMatch
from league.bots.services.challenges import queue_challenge_work
from league.bots.services.definitions import bot_register
from league.bots.services.ladders import ladders_follow_new_version
from league.core import bulk, events
from league.core.catalogue import game_spec
from league.matches.models import Match
from league.matches.services import ScheduledMatch, check_owned, matches_schedule
from league.programs.models import ProgramLog

VALIDATOR_NAME = "Validator {}"
ERRORS = ("crashed", "protocol_error", "illegal_action", "limit_exceeded")
ERROR_WORDS = {
    "crashed": "crashed",
    "protocol_error": "broke the bot protocol",
    "illegal_action": "played an illegal action",
    "limit_exceeded": "went over a limit",
    "timeout": "ran out of time twice",
}


def validation_tables(bot: BotDefinition) -> list[int]:
    """The table sizes a version is validated at: the smallest and largest of the ladders its earlier versions
    are in, or the game's smallest and largest for a bot in none."""
    older = BotDefinition.objects.filter(**bot.line, version__lt=bot.version)
    sizes = set(
        LeagueEntry.objects.filter(bot__in=older, league__kind=BotLeague.Kind.LADDER).values_list(
            "league__table_size", flat=True
        )
    )
    if not sizes:
        spec = game_spec(bot.game_id)
        sizes = {spec.min_players, spec.max_players}
    return sorted({min(sizes), max(sizes)})


def validators(game_id: str, count: int) -> list[BotDefinition]:
    """`count` random bots of the game that nobody owns, to sit beside a version being validated."""
    found = {
        bot.name: bot
        for bot in BotDefinition.objects.filter(
            created_by__isnull=True, game_id=game_id, strategy="random", name__startswith="Validator "
        )
    }
    bots = []
    for number in range(1, count + 1):
        name = VALIDATOR_NAME.format(number)
        bots.append(
            found.get(name)
            or bot_register(name=name, game_id=game_id, kind="builtin", strategy="random", by=None)
        )
    return bots


def validation_seed(bot_id: int, index: int) -> int:
    """The seed of a validation match: 63 bits of SHA-256 over (version id, index)."""
    digest = hashlib.sha256(f"bot-validation:{bot_id}:{index}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def _schedule(bot: BotDefinition, plays: Sequence[tuple[int, int, int, ValidationMatch | None]]) -> None:
    """Schedule the matches (index, table size, seat, the match it plays again) and link them."""
    now = timezone.now()
    viewers = [bot.created_by_id] if bot.created_by_id is not None else []
    for size in sorted({size for _, size, _, _ in plays}):
        group = [play for play in plays if play[1] == size]
        others = validators(bot.game_id, size - 1)
        tables = []
        for index, _, seat, _ in group:
            seats = [other.player_id for other in others]
            seats.insert(seat, bot.player_id)
            tables.append(ScheduledMatch(now + timedelta(microseconds=index), seats))
        ids = matches_schedule(
            owner=Match.Owner.VALIDATION,
            game_id=bot.game_id,
            options=game_spec(bot.game_id).validate_options({}, num_players=size),
            rating_pool_id=None,
            rated=False,
            viewer_ids=viewers,
            tables=tables,
        )
        check_owned(match_ids=ids, owner=Match.Owner.VALIDATION)
        bulk.insert(
            ValidationMatch,
            ("index", "seat", "replay_of_id", "match_id", "seed"),
            [
                (
                    index,
                    seat,
                    again.pk if again else None,
                    match_id,
                    again.seed if again else validation_seed(bot.pk, index),
                )
                for (index, _, seat, again), match_id in zip(group, ids, strict=True)
            ],
            bot_id=bot.pk,
            done=False,
            lease_token="",
            attempts=0,
            leases_lost=0,
            played_by="",
        )
    queue_challenge_work(1)


def validation_start(*, bot: BotDefinition) -> None:
    """Put a version that passed its check into `validating` and schedule its matches. Call inside the
    transaction that holds the version's row lock."""
    plays: list[tuple[int, int, int, ValidationMatch | None]] = []
    for size in validation_tables(bot):
        plays.extend((len(plays), size, seat, None) for seat in range(size))
    bot.state = BotDefinition.State.VALIDATING
    bot.save(update_fields=["state"])
    _schedule(bot, plays)


def validations_judge(bot_ids: Collection[int]) -> list[int]:
    """Judge the versions among these that are validating and have no match left to play (see the module's
    docstring); the ids of those judged. In the transaction that stored (or voided) their last matches."""
    judged = []
    for bot in BotDefinition.objects.select_for_update().filter(
        pk__in=bot_ids, state=BotDefinition.State.VALIDATING
    ):
        rows = list(ValidationMatch.objects.filter(bot=bot).select_related("match").order_by("index"))
        if any(not row.done for row in rows):
            continue
        failure, again = _verdict(bot, rows)
        if again:
            _schedule(bot, again)
            continue
        bot.state = BotDefinition.State.FAILING if failure else BotDefinition.State.READY
        bot.refusal = failure
        bot.checked_at = timezone.now()
        bot.save(update_fields=["state", "refusal", "checked_at"])
        if bot.is_ready:
            ladders_follow_new_version(bot=bot)
        events.emit(events.bot_checked, bot_id=bot.pk)
        judged.append(bot.pk)
    return judged


def _verdict(
    bot: BotDefinition, rows: Sequence[ValidationMatch]
) -> tuple[str, list[tuple[int, int, int, ValidationMatch]]]:
    """Why the version fails (empty: it passes), and the timed-out matches to play once more."""
    replayed = {row.replay_of_id for row in rows if row.replay_of_id is not None}
    details = dict(
        ProgramLog.objects.filter(bot=bot, match_id__in=[row.match_id for row in rows]).values_list(
            "match_id", "detail"
        )
    )
    sizes = {row.match_id: row.match.seats.count() for row in rows}
    again: list[tuple[int, int, int, ValidationMatch]] = []
    next_index = max(row.index for row in rows) + 1
    for row in rows:
        where = (
            f"validation match {row.match_id} (seat {row.seat + 1} (protocol seat {row.seat}) of "
            f"{sizes[row.match_id]})"
        )
        if row.match.status == Match.Status.VOID:
            return f"{where} was voided: its workers were lost playing it", []
        record = row.match.record_json() or {"end": {"forfeits": []}}
        reasons = [f["reason"] for f in record["end"]["forfeits"] if f["seat"] == row.seat]
        if not reasons:
            continue
        reason = reasons[0]
        words = details.get(row.match_id) or ERROR_WORDS.get(reason, reason)
        if reason in ERRORS or row.replay_of_id is not None:
            return f"{where}: {words}", []
        if row.pk not in replayed:  # a first time-out: played once more before it counts
            again.append((next_index + len(again), sizes[row.match_id], row.seat, row))
    return "", again
