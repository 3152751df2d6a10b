"""JSON text from outside: nesting is bounded before parsing; brackets inside strings do not count."""

import json

import pytest
from django import forms

from league.core.forms import json_object
from league.core.json_input import MAX_DEPTH, JSONTooDeep, parse_json


def nested(depth: int, inner: str = "1") -> str:
    return "[" * depth + inner + "]" * depth


def test_text_nested_to_the_bound_parses():
    assert parse_json(nested(MAX_DEPTH)) == json.loads(nested(MAX_DEPTH))
    assert parse_json('{"a": {"b": [1, {"c": []}]}}') == {"a": {"b": [1, {"c": []}]}}


@pytest.mark.parametrize("text", [nested(MAX_DEPTH + 1), nested(1000), '{"a": ' * 1000, "[{" * 20])
def test_text_nested_deeper_is_refused_before_parsing(text):
    with pytest.raises(JSONTooDeep, match=f"^arrays and objects are nested deeper than {MAX_DEPTH} levels$"):
        parse_json(text)


def test_brackets_inside_strings_do_not_count_even_after_escaped_quotes():
    text = json.dumps(["[" * 100, '\\"{{{{' * 20, '"' + "[" * 50])
    assert parse_json(text) == ["[" * 100, '\\"{{{{' * 20, '"' + "[" * 50]


def test_text_that_is_not_json_fails_as_json_does():
    with pytest.raises(json.JSONDecodeError, match="Expecting value"):
        parse_json("[1, ]")


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ('"\\ud800"', "a \\u escape stands for half a UTF-16 surrogate pair, which is not a character"),
        (
            '{"a": "\\udc00 alone"}',
            "a \\u escape stands for half a UTF-16 surrogate pair, which is not a character",
        ),
        ("[1e999]", "the number 1e999 is too large"),
        ("[-1e999]", "the number -1e999 is too large"),
    ],
)
def test_values_no_column_could_store_are_refused(text, problem):
    with pytest.raises(ValueError) as caught:
        parse_json(text)
    assert str(caught.value) == problem


def test_pairs_of_surrogates_and_large_finite_numbers_parse():
    assert parse_json('["\\ud83d\\ude00", 1e308]') == ["\U0001f600", 1e308]


def test_form_fields_refuse_what_parse_json_refuses_with_its_message():
    """The JSON text fields of pages and admin (options, points, bot parameters) all use json_object."""
    for text, problem in [
        (nested(40), f"arrays and objects are nested deeper than {MAX_DEPTH} levels"),
        ('{"a": 1e999}', "the number 1e999 is too large"),
        (
            '{"a": ' + "1" * 5000 + "}",
            "Exceeds the limit (4300 digits) for integer string conversion: value has 5000 "
            "digits; use sys.set_int_max_str_digits() to increase the limit",
        ),
    ]:
        with pytest.raises(forms.ValidationError) as caught:
            json_object(text, what="options")
        assert caught.value.messages == [f"not valid JSON: {problem}"]
