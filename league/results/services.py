"""Writes for results: every entry or correction is a new version; the latest counts.

Concurrency: a submission names the version it corrects (`expected_version`, 0 for the first). The unique
rule on (match, version) decides between two concurrent submissions of the same version: exactly one insert
succeeds; the other raises VersionConflict carrying the version now stored. On SQLite, immediate
transactions queue the second writer behind the first, which then fails the version check the same way.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import IntegrityError, transaction

from league.core.catalogue import game_spec
from league.core.errors import UserError, VersionConflict
from league.matches.models import Match, MatchSeat
from league.results.models import ResultVersion

REASON_MAX_LENGTH = 500
SCORE_LIMIT = 1_000_000


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def competition_places(keys: Sequence[float]) -> list[int]:
    """Places from sort keys (lower key = better): tied keys share a place, the next place skips
    (keys 1, 1, 2, 3 give places 1, 1, 3, 4)."""
    return [1 + sum(1 for other in keys if other < key) for key in keys]


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
        if not all(_is_int(score) for score in scores):
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
    if not all(_is_int(place) for place in places):
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


def result_submit(
    *,
    match_id: int,
    expected_version: int,
    places: Any = None,
    scores: Any = None,
    entered_by: AbstractBaseUser | None,
    reason: str = "",
) -> ResultVersion:
    """Add the next result version of a match and make it count.

    `expected_version` is the version being corrected (0 for the first result); a correction (version 2 on)
    needs a reason. Raises VersionConflict when the match has moved on, UserError on bad input; nothing is
    written in either case. Rated matches queue their pool for an update after the commit.
    """
    from league.ratings.services import pool_mark_pending
    from league.ratings.tasks import pool_update_task

    if not _is_int(expected_version) or expected_version < 0:
        raise UserError("expected_version must be a whole number, 0 for the first result", field="expected_version")
    if not isinstance(reason, str) or len(reason) > REASON_MAX_LENGTH:
        raise UserError(f"the reason is text of at most {REASON_MAX_LENGTH} characters", field="reason")
    reason = reason.strip()
    if expected_version > 0 and not reason:
        raise UserError("say why the result is corrected", field="reason")
    match = Match.objects.filter(pk=match_id).first() if _is_int(match_id) else None
    if match is None:
        raise UserError(f"no match with id {match_id}", code="not_found")
    if match.status == Match.Status.VOID:
        raise UserError("the match is void: it takes no result", field="status")
    seats = list(MatchSeat.objects.filter(match=match).order_by("seat"))
    spec = game_spec(match.game_id)
    places, scores = check_outcome(num_seats=len(seats), score_order=spec.score_order, places=places, scores=scores)

    version_number = expected_version + 1
    with transaction.atomic():
        current = Match.objects.filter(pk=match.pk).values_list("result_version", flat=True).get()
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
                )
        except IntegrityError:
            latest = ResultVersion.objects.filter(match=match).order_by("-version").values_list("version", flat=True)
            raise VersionConflict(latest.first() or 0, expected_version) from None
        updated = Match.objects.filter(pk=match.pk, result_version=expected_version).update(
            result_version=version_number, status=Match.Status.FINISHED
        )
        if updated != 1:
            raise VersionConflict(Match.objects.values_list("result_version", flat=True).get(pk=match.pk), expected_version)
        for seat in seats:
            seat.place = places[seat.seat]
            seat.score = scores[seat.seat] if scores is not None else None
        MatchSeat.objects.bulk_update(seats, ["place", "score"])
        if match.rated:
            pool_mark_pending(pool_id=match.rating_pool_id, match_id=match.pk)
            pool_id = match.rating_pool_id
            transaction.on_commit(lambda: pool_update_task.delay(pool_id))
    return version
