"""JSON text from outside: nesting is bounded before parsing; brackets inside strings do not count."""

import json
import random
import re
import subprocess
import sys
from pathlib import Path

import pytest
from django import forms

from league.core.forms import json_object
from league.core.json_input import MAX_DEPTH, JSONTooDeep, check_depth, parse_json


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


# The earlier, quadratic check, kept here as the reference the linear check must agree with: a regular
# expression that tried a whole string literal at every quote, so an unterminated string of escaped quotes
# cost time quadratic in its length.
_OLD_STRING_OR_BRACKET = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"|[\[\]{}]', re.DOTALL)


def old_check_depth(text: str, *, limit: int) -> None:
    if text.count("[") + text.count("{") <= limit:
        return
    depth = 0
    for token in _OLD_STRING_OR_BRACKET.finditer(text):
        match token.group():
            case "[" | "{":
                depth += 1
                if depth > limit:
                    raise JSONTooDeep(limit)
            case "]" | "}":
                depth -= 1


def refuses(check, text: str, limit: int) -> bool:
    try:
        check(text, limit=limit)
    except JSONTooDeep:
        return True
    return False


def test_the_linear_check_refuses_exactly_what_the_old_scan_refused():
    """10,000 seeded texts of up to 200 characters over the characters that matter to the scan (brackets,
    quotes, backslashes) and some that do not: the same verdict at every limit, so no stored record's
    forfeit (a bot answer refused as too deep) moves on replay."""
    generator = random.Random(36)
    alphabet = '[]{}",\\ a1'
    texts = [
        "".join(generator.choice(alphabet) for _ in range(generator.randint(0, 200))) for _ in range(10_000)
    ]
    refused = {}
    for limit in (1, 2, 4, 8):
        verdicts = [refuses(check_depth, text, limit) for text in texts]
        assert verdicts == [refuses(old_check_depth, text, limit) for text in texts]
        refused[limit] = sum(verdicts)
    # Both verdicts occur at every limit, so the comparison above compares something.
    assert refused == {1: 6099, 2: 4630, 4: 2564, 8: 687}


def test_parse_json_answers_as_before_on_the_seeded_texts():
    """The whole parse (depth, then json, then the value checks) gives the same value or the same message."""
    generator = random.Random(3636)
    alphabet = '[]{}",\\ a1'
    for _ in range(2_000):
        text = "".join(generator.choice(alphabet) for _ in range(generator.randint(0, 200)))
        for limit in (2, MAX_DEPTH):
            try:  # the old parse; this alphabet has no number or escape for the value checks to refuse
                old_check_depth(text, limit=limit)
                expected = ("value", json.loads(text))
            except ValueError as error:
                expected = ("error", type(error), str(error))
            try:
                got = ("value", parse_json(text, limit=limit))
            except ValueError as error:
                got = ("error", type(error), str(error))
            assert got == expected, text


# The shape the hostile test measured: enough brackets to start the scan, then an unterminated string of
# escaped quotes; 1 MiB of it is the most an API body could carry before the body cap.
WORK_SCRIPT = """
import resource, sys
resource.setrlimit(resource.RLIMIT_CPU, (20, 20))
from league.core.json_input import parse_json
text = "[]" * 33 + '"' + '\\\\"' * ((1024 * 1024 - 67) // 2)
try:
    parse_json(text)
except ValueError as error:
    print(type(error).__name__, error)
"""


def test_a_mebibyte_of_escaped_quotes_is_refused_within_a_cpu_bound():
    """Under RLIMIT_CPU of 20 s (the old scan needed hours for this text) the child finishes its answer; a
    quadratic scan would be killed by SIGXCPU and print nothing."""
    root = Path(__file__).resolve().parents[3]
    child = subprocess.run(
        [sys.executable, "-c", WORK_SCRIPT], cwd=root, capture_output=True, text=True, timeout=600
    )
    assert child.returncode == 0, child.stderr
    assert child.stdout == "JSONDecodeError Extra data: line 1 column 3 (char 2)\n"
