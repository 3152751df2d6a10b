"""Writes for results: every outcome decision of the league, and the only code that writes `ResultVersion`.

- `result_submit`: an entry or a correction (a new version; the latest counts); `result_void`: a match that
  no longer counts (a void version); `results_record_played`: the system's results of played bot matches, in
  bulk;
- `report_open`, `report_confirm`, `dispute_open`: players' reports of a result, their confirmations and
  disputes (the tournament decides who may, and stores a fully confirmed report through `result_submit`);
- `match_create`: a match of people, rated in its game's people pool (the pool is chosen here, above
  ratings, so that `league.matches` needs neither); `matches_create`: many at once (a tournament round).

Each validates, stores its version (a void's has no places), writes the outcome onto the match and its seats
through the one outcome service of `league.matches` (`matches_set_outcomes`), then tells ratings through one
call (`pools_changed`), which marks the pool and, for a people's pool, queues its update after the commit.

Concurrency: a submission names the version it corrects (`expected_version`, 0 for the first). The unique
rule on (match, version) decides between two concurrent submissions of the same version: exactly one insert
succeeds; the other raises VersionConflict carrying the version now stored. On SQLite, immediate
transactions queue the second writer behind the first, which then fails the version check the same way.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime, timedelta
from typing import Any, NamedTuple, cast

from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.utils import timezone

from games.core.state import places_from_keys
from league.core import bulk
from league.core.catalogue import game_spec
from league.core.checks import is_int
from league.core.errors import Conflict, Forbidden, NotFound, UserError, VersionConflict
from league.core.events import dispute_settled, emit
from league.core.names import check_text
from league.matches.models import Match
from league.matches.services import (
    MatchOutcome,
    ScheduledMatch,
    check_match,
    check_seats_of_many,
    match_schedule,
    matches_clear_places,
    matches_schedule,
    matches_set_outcomes,
)
from league.ratings.services import (
    PoolChange,
    PredictedTable,
    people_pool_for_game,
    pools_changed,
    prediction_for_match,
    predictions_store,
)
from league.results.models import ReportConfirmation, ResultDispute, ResultReport, ResultVersion
from league.results.selectors import owner_entry

REASON_MAX_LENGTH = 500
SCORE_LIMIT = 1_000_000
SYSTEM_RESULT_REASON = "played by the bot league"
VOID_REASON = "voided"
RESULT_COLUMNS = ("match_id", "places", "scores")
NOTE_MAX_LENGTH = 500


def competition_places(keys: Sequence[float]) -> list[int]:
    """Places from sort keys (lower key = better): tied keys share a place, the next place skips
    (keys 1, 1, 2, 3 give places 1, 1, 3, 4); the engines' rule (`games.core.state.places_from_keys`)."""
    return list(places_from_keys(keys, higher_is_better=False))


def check_outcome(
    *, num_seats: int, score_order: str | None, places: Any = None, scores: Any = None
) -> tuple[list[int], list[int] | None]:
    """Validate places and scores of one result; return (places, scores) with places in competition form.

    Places are positive whole numbers, one per seat, ties allowed (1, 1, 2, 3 and 1, 1, 3, 4 mean the same).
    Scores are whole numbers, one per seat. Without places, the scores decide places where the game's single
    score does (`score_order` "high" or "low"); with both, they must agree.
    """
    if scores is not None:
        if not isinstance(scores, list | tuple) or len(scores) != num_seats:
            raise UserError(f"give one score per seat ({num_seats} seats)", field="scores")
        if not all(is_int(score) for score in scores):
            raise UserError("scores must be whole numbers", field="scores")
        if not all(-SCORE_LIMIT <= score <= SCORE_LIMIT for score in scores):
            raise UserError(f"scores run from -{SCORE_LIMIT:,} to {SCORE_LIMIT:,}", field="scores")
        scores = list(scores)
    if places is None:
        if scores is None:
            raise UserError("enter places, or scores where the game's score decides places", field="places")
        if score_order is None:
            raise UserError("this game's scores do not decide places: enter the places", field="places")
        keys = [-score for score in scores] if score_order == "high" else list(scores)
        return competition_places(keys), scores
    if not isinstance(places, list | tuple) or len(places) != num_seats:
        raise UserError(f"give one place per seat ({num_seats} seats)", field="places")
    if not all(is_int(place) for place in places):
        raise UserError("places must be whole numbers", field="places")
    if not all(1 <= place <= num_seats for place in places):
        raise UserError(f"places run from 1 to {num_seats}", field="places")
    normalized = competition_places(list(places))
    if scores is not None and score_order is not None:
        keys = [-score for score in scores] if score_order == "high" else scores
        if competition_places(keys) != normalized:
            direction = "highest" if score_order == "high" else "lowest"
            raise UserError(
                f"the places do not match the scores ({direction} score wins in this game)", field="places"
            )
    return normalized, scores


def check_owner(match: Match, owner: str) -> None:
    """Refuse (409) a result of `match` from a caller applying another owner's rules than the match's: the
    message says where its results go (`selectors.owner_entry`)."""
    if match.owner != owner:
        raise Conflict(owner_entry(match))


def match_create(
    *,
    game_id: str,
    player_ids: Sequence[int],
    options: Mapping[str, Any] | None = None,
    rated: bool = True,
    played_at: datetime | None = None,
    created_by: User | None = None,
) -> Match:
    """Create a scheduled match of `game_id` with one seat per player, in the order given (seat 0 first).

    Options are validated and completed by the game's spec, which also checks the number of seats. A rated
    match of people counts in the game's people pool (created on first use).
    """
    plan = check_match(
        game_id=game_id, player_ids=player_ids, options=options, rated=rated, played_at=played_at
    )
    with transaction.atomic():
        pool_id = people_pool_for_game(plan.spec.id).pk if plan.rated else None
        match = match_schedule(plan=plan, rating_pool_id=pool_id, created_by=created_by)
        if pool_id is not None:  # the pre-match chances, from the ratings now (league.ratings.forecast)
            predictions_store(pool_id=pool_id, tables=[PredictedTable(match.pk, list(player_ids))])
        return match


def matches_create(
    *,
    game_id: str,
    options: Mapping[str, Any],
    rated: bool,
    tables: Sequence[Sequence[int]],
    played_at: datetime,
    created_by: User | None = None,
) -> list[int]:
    """Create the scheduled matches of people at many tables at once (a tournament round); their ids, in the
    order of `tables`. The bulk form of `match_create`: the players and the options (for each table size) are
    checked once, then one statement per table kind writes the matches and their seats
    (`matches.services.matches_schedule`). The tables get times a microsecond apart from `played_at`, in
    order, so their pool applies them in table order. Their owner is a tournament table (`Match.Owner`).
    """
    sizes = sorted({len(seats) for seats in tables})
    plans = {
        size: check_match(
            game_id=game_id, player_ids=seats, options=options, rated=rated, played_at=played_at
        )
        for size, seats in ((size, next(seats for seats in tables if len(seats) == size)) for size in sizes)
    }
    everyone = [pid for seats in tables for pid in seats]
    if len(set(everyone)) != len(everyone):
        raise UserError("a player can take only one seat in a round", field="players")
    check_seats_of_many(everyone, rated=rated)
    pool_id = people_pool_for_game(game_id).pk if rated else None
    ids: dict[int, int] = {}
    for size, plan in plans.items():
        indexes = [index for index, seats in enumerate(tables) if len(seats) == size]
        created = matches_schedule(
            owner=Match.Owner.TABLE,
            game_id=plan.spec.id,
            options=plan.options,
            rating_pool_id=pool_id,
            rated=rated,
            created_by_id=created_by.pk if created_by is not None else None,
            tables=[
                ScheduledMatch(played_at + timedelta(microseconds=index), tables[index]) for index in indexes
            ],
        )
        ids.update(zip(indexes, created, strict=True))
    match_ids = [ids[index] for index in range(len(tables))]
    if pool_id is not None:  # each table's pre-match chances, from the ratings at publication
        predictions_store(
            pool_id=pool_id,
            tables=[PredictedTable(m, seats) for m, seats in zip(match_ids, tables, strict=True)],
        )
    return match_ids


def result_submit(
    *,
    match_id: int,
    expected_version: int,
    places: Any = None,
    scores: Any = None,
    entered_by: User | None,
    reason: str = "",
    advancing: Any = None,
    report_id: int | None = None,
    owner: str = Match.Owner.CASUAL,
) -> ResultVersion:
    """Add the next result version of a match and make it count.

    `report_id` names the players' report this version stores (a report confirmed by everyone it awaited;
    the version is attributed to it). Any other open report of the match is superseded by the new version,
    and an entry that stores no report (an organizer's) settles the match's open dispute.

    `expected_version` is the version being corrected (0 for the first result); a correction (version 2 on)
    needs a reason. `advancing` (player ids of the match, each once) is stored with the version: the decider
    of a tie at an elimination table, which the caller (a tournament) checks against its cut. Raises
    VersionConflict when the match has moved on, UserError on bad input; nothing is written in either case. A
    rated match of people queues its pool's update after the commit.

    `owner` is whose rules the caller applies (`Match.Owner`): the generic entry (page, API, admin) is casual,
    and a match owned by a tournament table, a bot league or a challenge is refused with a 409 that names
    where its result goes (`check_owner`); the tournament's services pass "table".
    """
    if not is_int(expected_version) or expected_version < 0:
        raise UserError(
            "expected_version must be a whole number, 0 for the first result", field="expected_version"
        )
    if not isinstance(reason, str) or len(reason) > REASON_MAX_LENGTH:
        raise UserError(f"the reason is text of at most {REASON_MAX_LENGTH} characters", field="reason")
    reason = check_text(reason, field="reason", max_length=REASON_MAX_LENGTH)
    match = Match.objects.filter(pk=match_id).first() if is_int(match_id) else None
    if match is None:
        raise NotFound(f"no match with id {match_id}")
    check_owner(match, owner)
    # a match waiting again (`result_reopen`) takes its next result as a first one: no correction
    if expected_version > 0 and not reason and match.status != Match.Status.SCHEDULED:
        raise UserError("say why the result is corrected", field="reason")
    if match.status == Match.Status.VOID:
        raise UserError("the match is void: it takes no result", field="status")
    spec = game_spec(match.game_id)
    seated = list(match.seats.order_by("seat").values_list("player_id", flat=True))
    places, scores = check_outcome(
        num_seats=len(seated), score_order=spec.score_order, places=places, scores=scores
    )
    if advancing is not None and (
        not isinstance(advancing, list | tuple)
        or not all(is_int(pid) and pid in seated for pid in advancing)
        or len(set(advancing)) != len(advancing)
    ):
        raise UserError("advancing lists players of this match, each once", field="advancing")

    version_number = expected_version + 1
    with transaction.atomic():
        current = _match_locked(match.pk)
        if current != expected_version:
            raise VersionConflict(current, expected_version)
        try:
            with transaction.atomic():
                version = ResultVersion.objects.create(
                    match=match,
                    version=version_number,
                    places=places,
                    scores=scores,
                    entered_by=entered_by,
                    reason=reason,
                    advancing=list(advancing) if advancing else None,
                    report_id=report_id,
                )
        except IntegrityError:
            latest = (
                ResultVersion.objects.filter(match=match)
                .order_by("-version")
                .values_list("version", flat=True)
            )
            raise VersionConflict(latest.first() or 0, expected_version) from None
        # The insert above won version `version_number` (the unique rule), so the match is ours to move on.
        outcome = MatchOutcome(match.pk, version_number, places, scores)
        matches_set_outcomes(status=Match.Status.FINISHED, outcomes=[outcome])
        if match.rated:
            if version_number == 1:  # a match entered with its result: predicted now if it was not before
                prediction_for_match(match_id=match.pk)
            # A rated match has a pool (the match's rated-has-pool constraint).
            pools_changed(changes=[PoolChange(cast(int, match.rating_pool_id), match.pk)])
        _reports_closed(match.pk, version, stored_report_id=report_id)
    return version


def _reports_closed(match_id: int, version: ResultVersion, *, stored_report_id: int | None) -> None:
    """After `version` is stored: its report marked stored, other open reports superseded, and (for an
    entry that stores no report) the open dispute settled by it."""
    now = timezone.now()
    if stored_report_id is not None:
        ResultReport.objects.filter(pk=stored_report_id).update(
            status=ResultReport.Status.STORED, closed_at=now
        )
    ResultReport.objects.filter(match_id=match_id, status=ResultReport.Status.OPEN).exclude(
        pk=stored_report_id  # type: ignore[misc]  # pk=None is a lookup (IS NULL): excludes nothing
    ).update(status=ResultReport.Status.SUPERSEDED, closed_at=now)
    if stored_report_id is None:
        settled = list(
            ResultDispute.objects.filter(match_id=match_id, status=ResultDispute.Status.OPEN).values_list(
                "pk", flat=True
            )
        )
        if settled:
            ResultDispute.objects.filter(pk__in=settled).update(
                status=ResultDispute.Status.SETTLED, settled_by=version
            )
            emit(dispute_settled, dispute_ids=settled)


class ReportConflict(Conflict):
    """A report of a table that has an open one already (409); the body carries the open report."""

    def __init__(self, open_report: ResultReport):
        super().__init__(
            "a report of this table is already waiting for confirmation: confirm or dispute it instead"
        )
        self.open_report = report_describe(open_report)

    def as_dict(self) -> dict:
        return {**super().as_dict(), "open_report": self.open_report}


def report_describe(report: ResultReport) -> dict[str, Any]:
    """A report as plain values (the API's answer and the body of a ReportConflict)."""
    confirmed = [row.player_id for row in report.confirmations.order_by("at", "id")]
    return {
        "id": report.pk,
        "match": report.match_id,
        "expected_version": report.expected_version,
        "reporter": report.reporter_id,
        "places": report.places,
        "scores": report.scores,
        "advancing": report.advancing,
        "awaiting": [pid for pid in report.awaiting if pid not in confirmed],
        "confirmed": confirmed,
        "status": report.status,
        "created_at": report.created_at.isoformat(),
    }


def report_open(
    *,
    match_id: int,
    expected_version: Any,
    reporter_id: int,
    reported_by: User | None,
    places: Any = None,
    scores: Any = None,
    advancing: list[int] | None = None,
    awaiting: Sequence[int],
) -> ResultReport:
    """Open a player's report of a match's result, pinned to `expected_version` (the match's current
    version: 0, since players report only a result not yet stored), awaiting confirmation by `awaiting`.

    Refused (409) when a result is stored already (dispute it instead), when the version moved on
    (VersionConflict), when the match is disputed, or when a report is open already (ReportConflict,
    carrying it): the partial unique rule on open reports decides between two players reporting at once.
    The caller (a tournament) has checked who reports, who confirms and the decider."""
    if not is_int(expected_version) or expected_version < 0:
        raise UserError(
            "expected_version must be a whole number, 0 for the first result", field="expected_version"
        )
    match = Match.objects.filter(pk=match_id).first() if is_int(match_id) else None
    if match is None:
        raise NotFound(f"no match with id {match_id}")
    if match.status == Match.Status.VOID:
        raise Conflict("the match is void: it takes no result")
    spec = game_spec(match.game_id)
    seated = list(match.seats.order_by("seat").values_list("player_id", flat=True))
    places, scores = check_outcome(
        num_seats=len(seated), score_order=spec.score_order, places=places, scores=scores
    )
    with transaction.atomic():
        current = _match_locked(match.pk)
        if current and current == expected_version:
            raise Conflict(
                f"the result of this table is stored already (version {current}): dispute it, or ask an "
                "organizer"
            )
        if current != expected_version:
            raise VersionConflict(current, expected_version)
        if ResultDispute.objects.filter(match=match, status=ResultDispute.Status.OPEN).exists():
            raise Conflict("this table is disputed: an organizer settles it by entering the result")
        existing = ResultReport.objects.filter(match=match, status=ResultReport.Status.OPEN).first()
        if existing is not None:
            raise ReportConflict(existing)
        try:
            with transaction.atomic():
                return ResultReport.objects.create(
                    match=match,
                    expected_version=expected_version,
                    reporter_id=reporter_id,
                    reported_by=reported_by,
                    places=places,
                    scores=scores,
                    advancing=list(advancing) if advancing else None,
                    awaiting=list(awaiting),
                )
        except IntegrityError:
            existing = ResultReport.objects.filter(match=match, status=ResultReport.Status.OPEN).first()
            if existing is None:  # it was stored or disputed meanwhile
                raise Conflict("another player reported this table meanwhile: reload it") from None
            raise ReportConflict(existing) from None


def _match_locked(match_id: int) -> int | None:
    """Lock the match row until the end of the transaction (call inside one); its current result version
    (None: no such match).

    Every path that stores a result or changes a report takes this lock before any report row (entry:
    `result_submit`; players: `report_open`, `report_locked`), so an organizer's entry and the last
    confirmation of a report queue up on the match instead of each holding the row the other needs (a
    deadlock on PostgreSQL); the second then sees the first's result and gets its 409. NO KEY UPDATE: rows
    that only refer to the match (seats, versions) stay free to insert."""
    return (
        Match.objects.select_for_update(no_key=True)
        .filter(pk=match_id)
        .values_list("result_version", flat=True)
        .first()
    )


def report_locked(report_id: Any, match_id: int) -> ResultReport:
    """The report `report_id` of match `match_id`, its row locked after the match's (call inside a
    transaction; see `_match_locked`); 404 for a report of another match."""
    if is_int(match_id):
        _match_locked(match_id)
    report = (
        ResultReport.objects.select_for_update().filter(pk=report_id, match_id=match_id).first()
        if is_int(report_id)
        else None
    )
    if report is None:
        raise NotFound(f"no report {report_id} of this table")
    return report


def _check_open(report: ResultReport) -> None:
    if report.status == ResultReport.Status.SUPERSEDED or (
        report.status == ResultReport.Status.OPEN
        and Match.objects.filter(pk=report.match_id).values_list("result_version", flat=True).get()
        != report.expected_version
    ):
        raise Conflict("an organizer entered this table's result meanwhile: the report no longer counts")
    if report.status == ResultReport.Status.STORED:
        raise Conflict("this report is confirmed and stored already")
    if report.status == ResultReport.Status.DISPUTED:
        raise Conflict("this report is disputed: an organizer settles it by entering the result")
    if report.status == ResultReport.Status.WITHDRAWN:
        raise Conflict("its reporter took this report back: it counts no more")


def report_confirm(*, report: ResultReport, player_id: int, user: User | None) -> list[int]:
    """Record `player_id`'s confirmation of an open report (`report_locked`); who is still awaited.

    409 when the report is no longer open (an organizer's entry overtook it: confirming it then would
    store a stale result), 403 for a player it does not await (its reporter included), 409 twice."""
    _check_open(report)
    if player_id == report.reporter_id:
        raise Forbidden("you made this report: the others at the table confirm it")
    if player_id not in report.awaiting:
        raise Forbidden("this report does not wait for your confirmation")
    try:
        with transaction.atomic():
            ReportConfirmation.objects.create(report=report, player_id=player_id, user=user)
    except IntegrityError:
        raise Conflict("you confirmed this report already") from None
    confirmed = set(report.confirmations.values_list("player_id", flat=True))
    return [pid for pid in report.awaiting if pid not in confirmed]


def report_withdraw(*, report: ResultReport, player_id: int) -> None:
    """Take back an open report (`report_locked`) as its reporter, before the last confirmation stores it:
    it counts no more, its confirmations with it, and the table may be reported again. 403 for anyone but
    the reporter, 409 once it is stored, disputed or overtaken."""
    _check_open(report)
    if player_id != report.reporter_id:
        raise Forbidden("only the player who made this report takes it back; dispute it instead")
    report.status = ResultReport.Status.WITHDRAWN
    report.closed_at = timezone.now()
    report.save(update_fields=["status", "closed_at"])


def dispute_open(
    *,
    report: ResultReport,
    player_id: int,
    user: User | None,
    window: timedelta,
    places: Any = None,
    scores: Any = None,
    note: Any = "",
) -> ResultDispute:
    """A seated player disputes a report (`report_locked`): an open one (it no longer waits: the table goes
    to the organizers) or a stored one whose version still counts, within `window` of its storing. The
    dispute carries the player's claim (places and scores, optional) and a note; one of the two is needed.
    409 once the window closed, for a report overtaken by an organizer's entry, or when the table is
    disputed already."""
    if not isinstance(note, str) or len(note) > NOTE_MAX_LENGTH:
        raise UserError(f"the note is text of at most {NOTE_MAX_LENGTH} characters", field="note")
    note = check_text(note, field="note", max_length=NOTE_MAX_LENGTH)
    if places is not None or scores is not None:
        match = Match.objects.get(pk=report.match_id)
        places, scores = check_outcome(
            num_seats=len(report.places),
            score_order=game_spec(match.game_id).score_order,
            places=places,
            scores=scores,
        )
    elif not note:
        raise UserError("give the places you claim, or say what happened", field="places")
    if report.status == ResultReport.Status.STORED:
        stored = ResultVersion.objects.filter(report=report).first()
        current = Match.objects.filter(pk=report.match_id).values_list("result_version", flat=True).get()
        if stored is None or stored.version != current:
            raise Conflict("an organizer entered a newer result of this table: it stands")
        closes = stored.entered_at + window
        if timezone.now() > closes:
            raise Conflict(
                f"the dispute window closed at {closes:%H:%M} UTC ({int(window.total_seconds() // 60)} "
                "minutes "
                "after the result was stored): ask an organizer to correct it"
            )
    else:
        _check_open(report)
        if player_id == report.reporter_id:
            raise Forbidden(
                "you made this report: wait for the others, or ask an organizer to enter the result"
            )
    try:
        with transaction.atomic():
            dispute = ResultDispute.objects.create(
                match_id=report.match_id,
                report=report,
                player_id=player_id,
                user=user,
                places=places,
                scores=scores,
                note=note,
            )
    except IntegrityError:
        raise Conflict("this table is disputed already: an organizer settles it") from None
    if report.status == ResultReport.Status.OPEN:
        report.status = ResultReport.Status.DISPUTED
        report.closed_at = timezone.now()
        report.save(update_fields=["status", "closed_at"])
    return dispute


def result_void(
    *,
    match_id: int,
    entered_by: User | None = None,
    reason: str = "",
    owner: str = Match.Owner.CASUAL,
) -> Match:
    """Void a match: it no longer counts, and a rated one that counted is replayed out of its pool (a people's
    pool at once, after the commit). The void is a new result version (`void`, no places; never a deletion of
    the versions before it), entered by `entered_by` with `reason` ("voided" without one). Its seats keep
    their last places, for the record.

    A tournament table's match is voided only by the tournament (`owner` "table": a reset, a table closed as
    a no-show); staff may void a bot league's or a challenge's match from anywhere (its workers then skip it).
    """
    if not isinstance(reason, str) or len(reason) > REASON_MAX_LENGTH:
        raise UserError(f"the reason is text of at most {REASON_MAX_LENGTH} characters", field="reason")
    reason = check_text(reason, field="reason", max_length=REASON_MAX_LENGTH)
    with transaction.atomic():
        match = Match.objects.select_for_update().filter(pk=match_id).first() if is_int(match_id) else None
        if match is None:
            raise NotFound(f"no match with id {match_id}")
        if Match.Owner.TABLE in (match.owner, owner):
            check_owner(match, owner)
        if match.status == Match.Status.VOID:
            raise UserError("the match is already void", field="status")
        counted = match.rated and match.status == Match.Status.FINISHED
        version_number = match.result_version + 1
        ResultVersion.objects.create(
            match=match,
            version=version_number,
            places=[],
            void=True,
            entered_by=entered_by,
            reason=reason or VOID_REASON,
        )
        outcome = MatchOutcome(match.pk, version_number, places=None)
        matches_set_outcomes(status=Match.Status.VOID, outcomes=[outcome])
        ResultReport.objects.filter(match=match, status=ResultReport.Status.OPEN).update(
            status=ResultReport.Status.SUPERSEDED, closed_at=timezone.now()
        )
        match.status = Match.Status.VOID
        match.result_version = version_number
        if counted:
            # A rated match has a pool (the match's rated-has-pool constraint).
            pools_changed(changes=[PoolChange(cast(int, match.rating_pool_id), match.pk)])
    return match


def result_reopen(
    *, match_id: int, expected_version: int, entered_by: User | None, reason: str, owner: str
) -> Match:
    """Make a finished or void match wait for its result again (an undo of what stored or voided it): a new
    version, marked `void` (what came before no longer counts) with `reason`, the match scheduled, its seats'
    places and scores cleared; a rated match that counted is replayed out of its pool. Refused (409) when the
    match moved on from `expected_version`."""
    reason = check_text(reason, field="reason", max_length=REASON_MAX_LENGTH)
    with transaction.atomic():
        match = Match.objects.select_for_update().filter(pk=match_id).first()
        if match is None:
            raise NotFound(f"no match with id {match_id}")
        check_owner(match, owner)
        if match.result_version != expected_version:
            raise VersionConflict(match.result_version, expected_version)
        if match.status not in (Match.Status.FINISHED, Match.Status.VOID):
            raise Conflict("the match is waiting for its result already")
        counted = match.rated and match.status == Match.Status.FINISHED
        version_number = match.result_version + 1
        ResultVersion.objects.create(
            match=match, version=version_number, places=[], void=True, entered_by=entered_by, reason=reason
        )
        matches_set_outcomes(
            status=Match.Status.SCHEDULED, outcomes=[MatchOutcome(match.pk, version_number, places=None)]
        )
        matches_clear_places(match_ids=[match.pk])
        match.status = Match.Status.SCHEDULED
        match.result_version = version_number
        if counted:
            pools_changed(changes=[PoolChange(cast(int, match.rating_pool_id), match.pk)])
    return match


class PlayedMatch(NamedTuple):
    """A bot match played to its end: its pool and its match record (whose outcome counts)."""

    match_id: int
    rating_pool_id: int | None  # None: an unrated match (a challenge's), which marks no pool
    record: Mapping[str, Any]


def results_record_played(*, played: Sequence[PlayedMatch], verify: bool = True) -> None:
    """Store the system's result of played bot matches: version 1, entered by nobody, from each record's
    outcome; the record, places and scores onto the matches; each pool marked from its earliest match.

    One statement per table however many matches. Call in the transaction that holds the matches (a bot
    league's lease); a match stored twice fails on the (match, version) rule, so a match counts once. A bot
    league's matches are numbered in its pool's order, so a pool's earliest match is its lowest id. Without
    `verify`, the records are not queued for strict verification (the caller leases it).
    """
    if not played:
        return
    versions, outcomes = [], []
    earliest: dict[int, int] = {}
    for item in played:
        outcome = item.record["outcome"]
        places, _ = check_outcome(
            num_seats=len(item.record["seats"]), score_order=None, places=outcome["places"]
        )
        scores = outcome.get("scores")
        versions.append((item.match_id, places, scores))
        outcomes.append(MatchOutcome(item.match_id, 1, places, scores, item.record))
        if item.rating_pool_id is not None:
            earliest[item.rating_pool_id] = min(
                item.match_id, earliest.get(item.rating_pool_id, item.match_id)
            )
    bulk.insert(
        ResultVersion,
        RESULT_COLUMNS,
        versions,
        version=1,
        reason=SYSTEM_RESULT_REASON,
        entered_at=timezone.now(),
    )
    matches_set_outcomes(status=Match.Status.FINISHED, outcomes=outcomes, verify=verify)
    pools_changed(changes=[PoolChange(pool_id, match_id) for pool_id, match_id in earliest.items()])
