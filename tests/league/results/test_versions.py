"""Result versions: entries and corrections add versions; a stale version is refused; nothing is lost."""

import pytest

from league.core.errors import NotFound, UserError, VersionConflict
from league.matches.models import Match
from league.results.models import ResultVersion
from league.results.services import result_submit, result_void


def seats_of(match):
    return list(match.seats.order_by("seat").values_list("player__name", "place", "score"))


def test_the_first_result_is_version_1_and_finishes_the_match(match_of, staff):
    match = match_of()
    version = result_submit(match_id=match.pk, expected_version=0, places=[2, 1, 3, 4], entered_by=staff)

    match.refresh_from_db()
    assert (version.version, version.places, version.entered_by, version.reason) == (
        1,
        [2, 1, 3, 4],
        staff,
        "",
    )
    assert (match.status, match.result_version) == (Match.Status.FINISHED, 1)
    assert seats_of(match) == [("Ann", 2, None), ("Bob", 1, None), ("Cat", 3, None), ("Dan", 4, None)]


def test_a_correction_adds_a_version_with_who_and_why_and_the_latest_counts(match_of, staff, submit):
    match = match_of()
    submit(match, [1, 2, 3, 4])
    correction = result_submit(
        match_id=match.pk, expected_version=1, places=[4, 3, 2, 1], entered_by=staff, reason="seats swapped"
    )

    versions = list(
        ResultVersion.objects.filter(match=match)
        .order_by("version")
        .values_list("version", "places", "reason")
    )
    assert versions == [(1, [1, 2, 3, 4], ""), (2, [4, 3, 2, 1], "seats swapped")]
    assert correction.entered_by == staff
    assert [place for _, place, _ in seats_of(match)] == [4, 3, 2, 1]


def test_a_stale_version_is_refused_with_the_current_one_and_writes_nothing(match_of, staff, submit):
    match = match_of()
    submit(match, [1, 2, 3, 4])

    with pytest.raises(VersionConflict) as conflict:
        result_submit(match_id=match.pk, expected_version=0, places=[4, 3, 2, 1], entered_by=staff)

    assert conflict.value.current_version == 1
    assert conflict.value.as_dict()["current_version"] == 1
    assert ResultVersion.objects.filter(match=match).count() == 1
    assert [place for _, place, _ in seats_of(match)] == [1, 2, 3, 4]


def test_a_version_from_the_future_is_a_conflict_too(match_of, staff):
    match = match_of()
    with pytest.raises(VersionConflict, match="at version 0, not 3"):
        result_submit(
            match_id=match.pk, expected_version=3, places=[1, 2, 3, 4], entered_by=staff, reason="x"
        )
    assert not ResultVersion.objects.exists()


def test_a_correction_needs_a_reason(match_of, staff, submit):
    match = match_of()
    submit(match, [1, 2, 3, 4])
    with pytest.raises(UserError, match="say why the result is corrected"):
        result_submit(
            match_id=match.pk, expected_version=1, places=[1, 1, 3, 4], entered_by=staff, reason="  "
        )
    assert ResultVersion.objects.count() == 1


def test_scores_alone_decide_places_in_a_lowest_wins_game(match_of, staff):
    match = match_of(game_id="chicken_foot")
    result_submit(match_id=match.pk, expected_version=0, scores=[31, 0, 12, 0], entered_by=staff)

    assert seats_of(match) == [("Ann", 4, 31), ("Bob", 1, 0), ("Cat", 3, 12), ("Dan", 1, 0)]


def test_a_system_entry_has_no_user(match_of):
    match = match_of()
    version = result_submit(match_id=match.pk, expected_version=0, places=[1, 2, 3, 4], entered_by=None)
    assert version.entered_by is None


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"expected_version": -1, "places": [1, 2, 3, 4]}, "expected_version must be a whole number"),
        ({"expected_version": "0", "places": [1, 2, 3, 4]}, "expected_version must be a whole number"),
        ({"expected_version": 0, "places": [1, 2, 3]}, "give one place per seat"),
        ({"expected_version": 0, "scores": [1, 2, 3, 4]}, "this game's scores do not decide places"),
        ({"expected_version": 0, "places": [1, 2, 3, 4], "reason": "x" * 501}, "at most 500 characters"),
    ],
)
def test_bad_submissions_are_refused_and_write_nothing(match_of, staff, kwargs, message):
    match = match_of()
    with pytest.raises(UserError, match=message):
        result_submit(match_id=match.pk, entered_by=staff, **kwargs)
    assert not ResultVersion.objects.exists()
    match.refresh_from_db()
    assert (match.status, match.result_version) == (Match.Status.SCHEDULED, 0)


def test_unknown_and_void_matches_take_no_result(match_of, staff):
    with pytest.raises(UserError, match="no match with id 999"):
        result_submit(match_id=999, expected_version=0, places=[1, 2], entered_by=staff)
    match = match_of()
    result_void(match_id=match.pk)
    with pytest.raises(UserError, match="the match is void"):
        result_submit(match_id=match.pk, expected_version=0, places=[1, 2, 3, 4], entered_by=staff)


def test_a_result_or_a_void_of_a_missing_match_is_not_found(staff, db):
    with pytest.raises(NotFound, match="no match with id 4040") as result:
        result_submit(match_id=4040, expected_version=0, places=[1, 2], entered_by=staff)
    with pytest.raises(NotFound, match="no match with id 4040") as void:
        result_void(match_id=4040)
    assert (result.value.status, void.value.status) == (404, 404)


def test_a_void_is_a_new_version_and_keeps_the_ones_before(match_of, staff, submit):
    match = match_of()
    submit(match, [1, 2, 3, 4])
    voided = result_void(match_id=match.pk, entered_by=staff, reason="  wrong players seated ")

    assert (voided.status, voided.result_version) == (Match.Status.VOID, 2)
    versions = ResultVersion.objects.filter(match=match).order_by("version")
    assert list(versions.values_list("version", "void", "places", "entered_by", "reason")) == [
        (1, False, [1, 2, 3, 4], staff.pk, ""),
        (2, True, [], staff.pk, "wrong players seated"),
    ]
    match.refresh_from_db()
    assert (match.status, match.result_version) == (Match.Status.VOID, 2)
    assert [place for _, place, _ in seats_of(match)] == [1, 2, 3, 4]  # the last places, for the record
    with pytest.raises(UserError, match="^the match is already void$"):
        result_void(match_id=match.pk)
    assert versions.count() == 2


def test_a_void_without_a_reason_or_a_result_says_voided(match_of):
    match = match_of()
    result_void(match_id=match.pk)
    assert list(
        ResultVersion.objects.filter(match=match).values_list("version", "void", "entered_by", "reason")
    ) == [(1, True, None, "voided")]
