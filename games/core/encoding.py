"""The one canonical JSON encoding of actions, observations and records.

`canonical_json(value)` is the encoding (sorted keys, no spaces, no NaN or infinity). `canonical_bytes(value)`
is the same text as UTF-8 bytes, written by orjson where it is installed (several times faster, which a bot
league storing hundreds of records a second needs) and by the standard library otherwise: the bytes are the
same either way, so the engines need no third-party package. The standard library reads the text back
(`json.loads`: as fast as orjson on records, and it takes integers beyond 64 bits).
"""

from __future__ import annotations

import json
from typing import Any

try:
    import orjson
except ImportError:  # the engines run on the standard library alone
    orjson = None  # type: ignore[assignment]  # None stands for "not installed"; every use checks it


def canonical_json(value: Any) -> str:
    """Sorted keys, no spaces, no NaN: the same value always gives the same text."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False)


def canonical_bytes(value: Any) -> bytes:
    """`canonical_json(value).encode()`, byte for byte and with the same errors; faster where orjson is
    installed."""
    if orjson is not None:
        try:
            data = orjson.dumps(value, option=orjson.OPT_SORT_KEYS)
        except orjson.JSONEncodeError:  # an integer beyond 64 bits, a key that is not a string, ...
            pass
        else:
            # orjson's text differs from the standard library's only for floats below 1e-4 (orjson writes
            # 1e-05 as 0.00001 and 1e-07 as 1e-7) and for NaN and infinities (orjson writes null where
            # canonical_json refuses them). Text that may hold one (rare in a record; a string holding these
            # letters costs only the slower path) is written again by the standard library. Looking for the
            # single byte first is a fast pass that settles most records, which hold no "-" or no ".".
            tiny = (b"-" in data and b"e-" in data) or (b"." in data and b"0.0000" in data)
            if not tiny and b"null" not in data:
                return data
    return canonical_json(value).encode()
