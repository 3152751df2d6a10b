"""`random.Random`'s own draws with the calls inlined: the same numbers from the same generator, so records
and search choices do not move.

`rng.randrange(n)` and `rng.shuffle(cards)` draw with `getrandbits(k)`, k the bit length of the bound,
retrying a number at or above the bound (`Random._randbelow_with_getrandbits`). A generator of another class
(a subclass may draw otherwise) is left to its own methods. `tests/games/core/test_draws.py` compares both
with the generator's own methods.
"""

from __future__ import annotations

import random
from typing import Any

BIT_LENGTH = tuple(n.bit_length() for n in range(257))  # the bounds a shuffle of a deck or a bone yard meets


def randbelow(rng: random.Random, n: int) -> int:
    """`rng.randrange(n)` (which refuses n <= 0 as this does)."""
    if type(rng) is not random.Random or n <= 0:
        return rng.randrange(n)
    getrandbits = rng.getrandbits
    k = n.bit_length()
    r = getrandbits(k)
    while r >= n:
        r = getrandbits(k)
    return r


def shuffle(rng: random.Random, cards: list[Any]) -> None:
    """`rng.shuffle(cards)`."""
    if type(rng) is not random.Random or len(cards) >= len(BIT_LENGTH):
        rng.shuffle(cards)
        return
    getrandbits = rng.getrandbits
    bit_length = BIT_LENGTH
    for i in range(len(cards) - 1, 0, -1):
        k = bit_length[i + 1]
        j = getrandbits(k)
        while j > i:
            j = getrandbits(k)
        cards[i], cards[j] = cards[j], cards[i]
