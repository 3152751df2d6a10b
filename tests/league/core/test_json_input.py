"""JSON text from outside: nesting is bounded before parsing; brackets inside strings do not count."""

import json

import pytest

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
