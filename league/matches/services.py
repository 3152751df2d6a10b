"""Writes for matches: the only code that writes `Match` and `MatchSeat` rows.

- `match_schedule`: one match of people, validated by `check_match` (the people's pages and API reach it
  through `league.results.services.match_create`, which picks the game's rating pool);
- `matches_schedule`, `matches_set_running`, `matches_hand_back`: a bot league's drawn round (or a
  tournament round's tables, through `league.results.services.matches_create`, or a challenge's private
  matches with their viewers), its workers' claims and the reaper's hand-backs, set-based
  (`league.core.bulk`: one statement per table however many rows, which a worker storing hundreds of
  matches a second needs);
- `matches_set_outcomes`: the counted outcome of matches (status, result version, record; each seat's
  place and score), for `league.results`, which decides every outcome and stores its versions; matches stored
  with a record are queued for strict verification after the commit;
- `matches_verify`: the strict verification of stored records (`games.core.verify`), one `Verification` row
  per match, for `league.matches.tasks.verify_matches_task` (once per stored match) and its sweep;
  `verifications_make` and `verifications_store`, its two halves, for the bots' leased verification (a bot
  match's record is verified by the worker that leases it, as the bots' matches are played).

A match's rating pool is chosen by its caller: this app imports neither results nor ratings. So is its owner
(`Match.owner`): casual for `match_schedule`, the linking kind for `matches_schedule`; it is never changed,
and `check_owned` is the check every service that links a match calls (docs/league.md).
"""

from __future__ import annotations

import logging
import zlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, NamedTuple, cast

from celery import signature
from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from games.core.errors import OptionError
from games.core.record import decompress
from games.core.spec import GameSpec
from games.core.verify import BadRecord, verify
from league.core import bulk
from league.core.catalogue import game_spec
from league.core.checks import is_int
from league.core.errors import InvariantViolation, UserError
from league.core.names import storable_text
from league.matches.models import Match, MatchSeat, MatchViewer, Verification
from league.players.models import Player

logger = logging.getLogger(__name__)

# Queued by name (the tasks module imports this one); see league.matches.tasks.
VERIFY_TASK = "league.matches.tasks.verify_matches_task"

# The owners whose stored matches the bots app verifies as leased work (`verify=False` when stored).
LEASED_VERIFICATION_OWNERS = (
    Match.Owner.FIXTURE,
    Match.Owner.CHALLENGE,
    Match.Owner.VALIDATION,
    Match.Owner.VERSION_TEST,
)

MIN_SEATS = 2
MAX_SEATS = 7


def check_seats(player_ids: Any) -> list[Player]:
    """The players of the seats in seat order; each must exist, be active and sit once."""
    if not isinstance(player_ids, list | tuple) or not all(is_int(pid) for pid in player_ids):
        raise UserError("seats must be a list of player ids", field="players")
    if not MIN_SEATS <= len(player_ids) <= MAX_SEATS:
        raise UserError(
            f"a match has {MIN_SEATS} to {MAX_SEATS} seats, not {len(player_ids)}", field="players"
        )
    if len(set(player_ids)) != len(player_ids):
        raise UserError("a player can take only one seat at a match", field="players")
    found = Player.objects.in_bulk(player_ids)
    missing = [str(pid) for pid in player_ids if pid not in found]
    if missing:
        raise UserError(f"no player with id {', '.join(missing)}", field="players")
    inactive = [found[pid].name for pid in player_ids if not found[pid].active]
    if inactive:
        raise UserError(f"inactive players cannot take a seat: {', '.join(inactive)}", field="players")
    return [found[pid] for pid in player_ids]


def check_seats_of_many(player_ids: Sequence[int], *, rated: bool) -> None:
    """The players of many tables (checked once, in one query): each must exist and be active, and a rated
    match seats people only."""
    wanted = set(player_ids)
    players = Player.objects.all()
    if wanted and max(wanted) - min(wanted) < 2 * len(wanted):
        # A dense field (a tournament's thousands of players) is read by its id range: one small statement,
        # where an IN list of thousands of ids costs more to send than to answer.
        players = players.filter(pk__gte=min(wanted), pk__lte=max(wanted))
    else:
        players = players.filter(pk__in=wanted)
    # Plain values: model instances of 10,000 players would cost more than the check.
    found = {
        pk: (name, active, kind)
        for pk, name, active, kind in players.values_list("pk", "name", "active", "kind")
        if pk in wanted
    }
    missing = sorted({pid for pid in player_ids if pid not in found})
    if missing:
        raise UserError(f"no player with id {', '.join(map(str, missing))}", field="players")
    inactive = sorted({found[pid][0] for pid in player_ids if not found[pid][1]})
    if inactive:
        raise UserError(f"inactive players cannot take a seat: {', '.join(inactive)}", field="players")
    if rated and any(found[pid][2] != Player.Kind.PERSON for pid in player_ids):
        raise UserError("bots play rated matches only in bot leagues", field="players")


@dataclass(frozen=True)
class MatchPlan:
    """A validated match, ready to be written."""

    spec: GameSpec
    players: list[Player]
    options: dict[str, Any]
    rated: bool
    played_at: datetime | None


def check_match(
    *,
    game_id: str,
    player_ids: Sequence[int],
    options: Mapping[str, Any] | None = None,
    rated: bool = True,
    played_at: datetime | None = None,
) -> MatchPlan:
    """Validate a new match; raise UserError naming the field at fault."""
    spec = game_spec(game_id, field="game")
    if options is not None and not isinstance(options, Mapping):
        raise UserError("options must be an object of option names and values", field="options")
    if not isinstance(rated, bool):
        raise UserError("rated must be true or false", field="rated")
    players = check_seats(player_ids)
    try:
        valid_options = spec.validate_options(options or {}, num_players=len(players))
    except OptionError as exc:
        field = "players" if "players" in str(exc) else "options"
        raise UserError(str(exc), field=field) from None
    if played_at is not None and (not isinstance(played_at, datetime) or timezone.is_naive(played_at)):
        raise UserError("played_at must be a date and time with a time zone", field="played_at")
    if rated and any(player.kind != Player.Kind.PERSON for player in players):
        raise UserError("bots play rated matches only in bot leagues", field="players")
    return MatchPlan(spec, players, valid_options, rated, played_at)


def match_schedule(*, plan: MatchPlan, rating_pool_id: int | None, created_by: User | None = None) -> Match:
    """Create a scheduled match from a validated plan, one seat per player in the plan's order (seat 0 first).

    A rated plan needs the pool it counts in (`rating_pool_id`), an unrated one none.
    """
    if plan.rated != (rating_pool_id is not None):
        raise InvariantViolation("a rated match needs its rating pool, and an unrated one has none")
    with transaction.atomic():
        match = Match.objects.create(
            game_id=plan.spec.id,
            game_version=plan.spec.version,
            options=plan.options,
            rated=plan.rated,
            rating_pool_id=rating_pool_id,
            played_at=plan.played_at or timezone.now(),
            owner=Match.Owner.CASUAL,
            created_by=created_by,
        )
        MatchSeat.objects.bulk_create(
            MatchSeat(match=match, seat=seat, player=player) for seat, player in enumerate(plan.players)
        )
    return match


class ScheduledMatch(NamedTuple):
    """One table of a bot league's drawn round: its place in the pool's order, and its players by seat."""

    played_at: datetime
    player_ids: Sequence[int]


def matches_schedule(
    *,
    owner: str,
    game_id: str,
    options: Mapping[str, Any],
    rating_pool_id: int | None,
    tables: Sequence[ScheduledMatch],
    rated: bool = True,
    created_by_id: int | None = None,
    viewer_ids: Sequence[int] = (),
) -> list[int]:
    """Insert the scheduled matches of a drawn round and their seats; their ids, in the order of `tables`.

    Two statements whatever the number of tables (three with viewers). `options` are already validated by
    the game's spec (when the league or tournament was created) and the tables' times are distinct: the pool
    applies matches by (played_at, id). A rated round needs its pool, an unrated one none. With `viewer_ids`
    (user ids) the matches are private: those users and staff alone see them (a challenge's). `owner` is the
    kind of row that will link each match (`Match.Owner`: a tournament table, a league's fixture, a challenge
    match); the caller links them through `check_owned` in the same transaction.
    """
    if rated != (rating_pool_id is not None):
        raise InvariantViolation("rated matches need their rating pool, and unrated ones have none")
    if owner not in Match.Owner.values or owner == Match.Owner.CASUAL:
        raise InvariantViolation(
            f"a round's matches are owned by a table, a fixture or a challenge, not {owner!r}"
        )
    spec = game_spec(game_id)
    ids_by_time = dict(
        bulk.insert(
            Match,
            ("played_at",),
            [(table.played_at,) for table in tables],
            returning=("played_at", "id"),
            game_id=spec.id,
            game_version=spec.version,
            options=options,
            status=Match.Status.SCHEDULED,
            owner=owner,
            rated=rated,
            rating_pool_id=rating_pool_id,
            result_version=0,
            created_by_id=created_by_id,
            created_at=timezone.now(),
            visibility=Match.Visibility.PRIVATE if viewer_ids else Match.Visibility.PUBLIC,
        )
    )
    if len(ids_by_time) != len(tables):
        raise InvariantViolation("two tables of a round were given the same time")
    ids = [ids_by_time[table.played_at] for table in tables]
    bulk.insert(
        MatchSeat,
        ("match_id", "seat", "player_id"),
        [
            (match_id, seat, player_id)
            for match_id, table in zip(ids, tables, strict=True)
            for seat, player_id in enumerate(table.player_ids)
        ],
    )
    bulk.insert(
        MatchViewer,
        ("match_id", "user_id"),
        [(match_id, user_id) for match_id in ids for user_id in sorted(set(viewer_ids))],
    )
    return ids


def check_owned(*, match_ids: Sequence[int], owner: str) -> None:
    """Before a row of kind `owner` (a table, a fixture, a challenge match) links these matches: each was
    scheduled for that kind. On PostgreSQL the link tables' composite foreign key (match_id, owner) guards the
    same in the database; on SQLite this one query is the guard, and every linking service calls it."""
    wanted = set(match_ids)
    if Match.objects.filter(pk__in=wanted, owner=owner).count() != len(wanted):
        raise InvariantViolation(f"a match linked as a {owner} was not scheduled for one")


def matches_set_running(*, match_ids: Sequence[int]) -> None:
    """Mark scheduled matches running: a bot league's worker claimed them."""
    Match.objects.filter(pk__in=match_ids).update(status=Match.Status.RUNNING)


def matches_hand_back(*, match_ids: Sequence[int]) -> None:
    """Mark running matches scheduled again: their worker's lease expired, and they are played again."""
    Match.objects.filter(pk__in=match_ids).update(status=Match.Status.SCHEDULED)


def matches_clear_places(*, match_ids: Sequence[int]) -> None:
    """Clear the places and scores of these matches' seats: their result was undone, and they wait for one.

    For `league.results` only, which stores the version that undoes the result in the same transaction.
    """
    MatchSeat.objects.filter(match_id__in=list(match_ids)).update(place=None, score=None)


class MatchOutcome(NamedTuple):
    """What counts of one match: the result version it comes from, each seat's place and score (None: the
    seats keep theirs, as a voided match's do), and the record of a played bot match."""

    match_id: int
    result_version: int
    places: Sequence[int] | None
    scores: Sequence[int] | None = None
    record: Mapping[str, Any] | None = None


def matches_set_outcomes(*, status: str, outcomes: Sequence[MatchOutcome], verify: bool = True) -> None:
    """Write the counted outcome of matches: status, result version and record of each match, place and score
    of each seat. One statement per table however many matches (the outcomes all carry a record or none do).

    For `league.results` only, which validates the outcome and stores its version in the same transaction.
    Without `verify`, the records are not queued for verification (their caller leases it).
    """
    with_record = [outcome.record is not None for outcome in outcomes]
    if any(with_record) and not all(with_record):
        raise InvariantViolation("the outcomes of one call all carry a record or none do")
    if all(with_record):
        rows: list[tuple[Any, ...]] = [
            # all(with_record): each outcome has a record
            (
                outcome.match_id,
                outcome.result_version,
                Match.compress_record(cast(Mapping[str, Any], outcome.record)),
            )
            for outcome in outcomes
        ]
        bulk.update(Match, ("result_version", "record"), rows, status=status)
        if verify:
            _queue_verification([outcome.match_id for outcome in outcomes])
    else:
        rows = [(outcome.match_id, outcome.result_version) for outcome in outcomes]
        bulk.update(Match, ("result_version",), rows, status=status)
    seats = [
        (outcome.match_id, seat, place, outcome.scores[seat] if outcome.scores is not None else None)
        for outcome in outcomes
        if outcome.places is not None
        for seat, place in enumerate(outcome.places)
    ]
    bulk.update(MatchSeat, ("place", "score"), seats, key=("match_id", "seat"))


def _queue_verification(match_ids: list[int]) -> None:
    """Verify these matches' records in a task once the transaction that stores them commits."""
    transaction.on_commit(lambda: signature(VERIFY_TASK, args=(sorted(match_ids),)).delay())


def verifications_make(*, match_ids: Sequence[int]) -> list[Verification]:
    """Strictly verify the stored records of these matches (those without a record are skipped): the unsaved
    verdicts, one per match, writing nothing (`verifications_store` stores them)."""
    verdicts = []
    rows = Match.objects.filter(pk__in=list(match_ids), record__isnull=False).values_list("pk", "record")
    for match_id, blob in rows.iterator():
        try:
            verdict = verify(decompress(cast(bytes | memoryview, blob)))  # record__isnull=False
        except (BadRecord, zlib.error, ValueError) as exc:  # not a readable record: nothing to re-make
            verdicts.append(
                Verification(
                    match_id=match_id,
                    status=Verification.Status.NOT_VERIFIABLE,
                    reason=storable_text(f"the stored record is not readable: {exc}"),
                )
            )
            continue
        except Exception:  # an engine's bug must not stop the other matches' verdicts
            logger.exception("strict verification of match %s failed", match_id)
            continue
        verdicts.append(
            Verification(
                match_id=match_id,
                status=verdict.status,
                reason=storable_text(verdict.reason),  # it may quote a bot program's answer
                event=verdict.event,
                seat=verdict.seat,
                detail=storable_text(verdict.detail),
                not_remade=verdict.not_remade,
                notes=verdict.notes,
            )
        )
    return verdicts


def verifications_store(*, verdicts: Sequence[Verification]) -> int:
    """Store verdicts, each replacing an earlier one of its match; how many."""
    Verification.objects.bulk_create(
        list(verdicts),
        update_conflicts=True,
        unique_fields=["match"],
        update_fields=["status", "reason", "event", "seat", "detail", "not_remade", "notes", "checked_at"],
    )
    return len(verdicts)


def matches_verify(*, match_ids: Sequence[int]) -> int:
    """Strictly verify the stored records of these matches (those without a record are skipped) and store each
    verdict, replacing an earlier one; how many were stored. Idempotent: a task may run it twice."""
    return verifications_store(verdicts=verifications_make(match_ids=match_ids))


def matches_unverified(*, limit: int = 1000) -> list[int]:
    """Ids of matches with a record and no verdict yet (a lost task's), oldest first; not the bot leagues',
    challenges' and validations' matches, whose verification is leased work of their own (`league.bots`)."""
    unverified = (
        Match.objects.filter(record__isnull=False, verification__isnull=True)
        .exclude(owner__in=LEASED_VERIFICATION_OWNERS)
        .order_by("id")
    )
    return list(unverified.values_list("id", flat=True)[:limit])
