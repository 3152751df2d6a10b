"""The ground floor the apps share: the two kinds of errors, value checks, slugs, form helpers."""

import pytest
from django import forms
from django.http import Http404

from league.core import bulk
from league.core.checks import is_int, is_number
from league.core.errors import ErrorCode, Forbidden, InvariantViolation, NotFound, UserError, VersionConflict
from league.core.forms import add_user_error, json_object
from league.core.slugs import free_slug
from league.players.models import Player
from league.tournaments.errors import NotOrganizer, StateConflict
from tests.factories import PlayerFactory


def test_every_user_error_carries_a_code_of_the_enum_and_its_status():
    errors = [
        UserError("bad"),
        UserError("taken", field="name", code=ErrorCode.DUPLICATE),
        NotFound("no match with id 7"),
        Forbidden("only staff"),
        NotOrganizer(),
        StateConflict("round 1 is open"),
        VersionConflict(2, 1),
    ]
    assert [(error.status, error.code) for error in errors] == [
        (400, ErrorCode.INVALID),
        (400, ErrorCode.DUPLICATE),
        (404, ErrorCode.NOT_FOUND),
        (403, ErrorCode.FORBIDDEN),
        (403, ErrorCode.FORBIDDEN),
        (409, ErrorCode.CONFLICT),
        (409, ErrorCode.VERSION_CONFLICT),
    ]
    assert UserError("taken", field="name", code=ErrorCode.DUPLICATE).as_dict() == {
        "code": "duplicate",
        "detail": "taken",
        "field": "name",
    }
    with pytest.raises(ValueError):
        UserError("bad", code="no_such_code")


def test_the_codes_are_the_stable_strings_clients_branch_on():
    assert [code.value for code in ErrorCode] == [
        "invalid",
        "unknown_game",
        "duplicate",
        "pairing",
        "not_found",
        "not_played",
        "forbidden",
        "conflict",
        "version_conflict",
        "throttled",
        "required",
        "parse_error",
        "too_many_fields",
        "not_authenticated",
        "authentication_failed",
        "token_expired",
        "method_not_allowed",
        "not_acceptable",
        "payload_too_large",
        "unsupported_media_type",
        "server_error",
    ]


def test_not_found_is_also_djangos_404_and_an_invariant_violation_is_no_user_error():
    assert isinstance(NotFound("gone"), Http404) and isinstance(NotFound("gone"), UserError)
    assert not isinstance(InvariantViolation("bug"), UserError)


def test_bulk_naming_a_column_that_does_not_exist_is_an_invariant_violation(db):
    with pytest.raises(InvariantViolation, match="Player has no column 'colour'"):
        bulk.update(Player, ("colour",), [(1, "red")])


def test_whole_numbers_and_numbers_exclude_booleans():
    assert [is_int(value) for value in (0, -3, 2**70, True, False, 1.0, "1", None)] == [
        True,
        True,
        True,
        False,
        False,
        False,
        False,
        False,
    ]
    assert [is_number(value) for value in (0, 1.5, float("inf"), True, "1.5", None)] == [
        True,
        True,
        True,
        False,
        False,
        False,
    ]


def test_a_free_slug_skips_taken_and_reserved_ones_and_ignores_the_row_itself(db):
    ann = PlayerFactory(name="Ann", slug="ann")
    PlayerFactory(name="Ann 2", slug="ann-2")
    rows = Player.objects.all()
    assert free_slug("Ann", rows=rows, length=80) == "ann-3"
    assert free_slug("Ann", rows=rows, length=80, exclude_id=ann.pk) == "ann"
    assert free_slug("New", rows=rows, length=80, reserved={"new"}) == "new-2"
    assert free_slug("Élodie Ünal-Smith", rows=rows, length=9) == "élodie-ün"
    assert free_slug("Юлия", rows=rows, length=80) == "юлия"
    assert free_slug("!!!", rows=rows, length=80, fallback="player") == "player"


def test_json_typed_into_a_field_is_an_object_or_a_clear_message():
    assert json_object("  ", what="options") == {}
    assert json_object(None, what="options") == {}
    assert json_object('{"set": "double_six"}', what="options") == {"set": "double_six"}
    with pytest.raises(forms.ValidationError) as not_json:
        json_object("{set", what="options")
    with pytest.raises(forms.ValidationError) as not_object:
        json_object("[1, 2]", what="parameters", example='{"caution": 1.5}')
    assert not_json.value.messages == ["not valid JSON: Expecting property name enclosed in double quotes"]
    assert not_object.value.messages == ['parameters are a JSON object, e.g. {"caution": 1.5}']


class NameForm(forms.Form):
    name = forms.CharField()


def test_a_service_error_shows_next_to_its_field_or_on_top():
    form = NameForm({"name": "Ann"})
    form.is_valid()
    add_user_error(form, UserError("there is already a player called 'Ann'", field="name"))
    add_user_error(form, UserError("the season is over", field="season"))
    assert form.errors == {
        "name": ["there is already a player called 'Ann'"],
        "__all__": ["the season is over"],
    }
