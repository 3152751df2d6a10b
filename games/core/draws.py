"""`random.Random`'s own draws with the calls inlined: the same numbers from the same generator, so records
and search choices do not move.

`rng.randrange(n)` and `rng.shuffle(cards)` draw with `getrandbits(k)`, k the bit length of the bound,
retrying a number at or above the bound (`Random._randbelow_with_getrandbits`). A generator of another class
(a subclass may draw otherwise) is left to its own methods. `tests/games/core/test_draws.py` compares both
with the generator's own methods.
"""

from __future__ import annotations

import random
from _random import Random as _CRandom
from hashlib import sha512
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


def seeded(seed: int | str) -> random.Random:
    """`random.Random(seed)` for an int or a str seed: the same generator state, seeded once in C.

    `random.Random(seed)` runs the Python-level `__init__` and `seed` around the C seeding; a str seed is
    turned into an int as `Random.seed` does (version 2: the UTF-8 bytes followed by their SHA-512, read
    big-endian). Any other seed goes to `random.Random` itself. tests/games/core/test_draws.py compares the
    states."""
    if type(seed) is str:
        raw = seed.encode()
        seed = int.from_bytes(raw + sha512(raw).digest())
    elif type(seed) is not int:
        return random.Random(seed)
    rng = _NEW(random.Random)
    _SEED(rng, seed)
    rng.gauss_next = None  # type: ignore[attr-defined]  # set by Random.seed too; typeshed leaves it out
    return rng


_NEW = random.Random.__new__  # allocates a generator without seeding it (`Random.__init__` seeds it)
_SEED = _CRandom.seed  # the C seeding `Random.seed` ends in
