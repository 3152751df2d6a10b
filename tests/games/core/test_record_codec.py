"""The one record codec: canonical JSON bytes (orjson when installed, else the standard library, the same
bytes either way), zlib-compressed, and blobs of any zlib level read back."""

import subprocess
import sys
import zlib
from pathlib import Path

import orjson
import pytest

from games.core import encoding
from games.core.encoding import canonical_bytes, canonical_json
from games.core.record import compress, decompress
from games.core.runner import play_match

ROOT = Path(__file__).resolve().parents[3]

# Values where orjson's own text differs from the standard library's, or that orjson refuses.
TRICKY = [
    {"floats": [0.7, 1e-05, 1.5e-05, 0.0001, 1e-07, -2.5e-09, 1e-100, 5e-324, 1e16, 1e22, -0.0, 0.1 + 0.2]},
    {"text": '\n\t\b\f\r\x7f\x00\x1f"\\ \u2028 é ☃ \U0001f600', "é": 1, "z": 2, "\uffff": 3, "\U0001f600": 4},
    {"big": [2**63 - 1, -(2**63), 2**64 - 1, 2**64, -(2**70)]},
    {
        "nothing": None,
        "flags": [True, False],
        "tuple": (1, "a"),
        "nested": {"b": [{"d": 1, "c": 2}], "a": []},
    },
    {"1": "key that looks like a number", "e-": "0.00001 inside a string"},
]


@pytest.mark.parametrize("value", TRICKY)
def test_canonical_bytes_are_the_canonical_json_with_and_without_orjson(value, monkeypatch):
    expected = canonical_json(value).encode()

    assert canonical_bytes(value) == expected
    monkeypatch.setattr(encoding, "orjson", None)
    assert canonical_bytes(value) == expected


def test_a_record_is_written_by_orjson_and_its_bytes_are_the_canonical_json():
    record = play_match("nacho_pile", 4, ["heuristic", "random", "heuristic", "random"], seed=7)

    assert orjson.dumps(record, option=orjson.OPT_SORT_KEYS) == canonical_json(record).encode()
    assert zlib.decompress(compress(record)) == canonical_json(record).encode()


@pytest.mark.parametrize("orjson_installed", [True, False])
def test_values_outside_json_are_refused_as_the_standard_library_refuses_them(orjson_installed, monkeypatch):
    if not orjson_installed:
        monkeypatch.setattr(encoding, "orjson", None)
    for value in (float("inf"), [float("-inf")], {"x": float("nan")}):
        with pytest.raises(ValueError, match="Out of range float values are not JSON compliant"):
            canonical_bytes(value)
    with pytest.raises(TypeError, match="is not JSON serializable"):
        canonical_bytes({"x": {1, 2}})


def test_blobs_of_every_zlib_level_and_either_writer_decompress_the_same():
    record = play_match(
        "chicken_foot", 3, ["heuristic", "greedy", "random"], seed=4, options={"set": "double_six"}
    )
    text = canonical_json(record).encode()
    blobs = [zlib.compress(text, level) for level in (1, 6, 9)]
    blobs.append(
        zlib.compress(orjson.dumps(record, option=orjson.OPT_SORT_KEYS), 6)
    )  # the league's old writer

    assert [decompress(blob) for blob in blobs] == [record] * 4
    assert decompress(memoryview(compress(record))) == record  # PostgreSQL hands bytea back as a memoryview
    assert decompress(zlib.compress(b'{"seed":1180591620717411303424}')) == {"seed": 2**70}


def test_the_engines_play_and_store_a_record_without_orjson():
    script = (
        "import sys, zlib\n"
        "sys.modules['orjson'] = None\n"  # any `import orjson` now raises ImportError
        "from games.core.record import canonical_json, compress, decompress\n"
        "from games.core.runner import play_match\n"
        "record = play_match('chickie_nuggs', 3, ['heuristic', 'random', 'random'], seed=5)\n"
        "assert zlib.decompress(compress(record)) == canonical_json(record).encode()\n"
        "assert decompress(compress(record)) == record\n"
        "print(len(record['events']))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=60
    )

    assert done.returncode == 0, done.stderr
    expected = play_match("chickie_nuggs", 3, ["heuristic", "random", "random"], seed=5)
    assert int(done.stdout) == len(expected["events"])
