"""The inlined draws of `games.core.draws` (the samplers' shuffles and picks) take exactly the numbers the
generator's own methods take, so search choices and the records they played do not move."""

import random

from games.core.draws import randbelow, shuffle


class OtherRandom(random.Random):
    """A subclass: left to its own methods."""


def test_shuffle_and_randbelow_draw_what_the_generator_s_own_methods_draw():
    for cls in (random.Random, OtherRandom):
        for seed in range(40):
            ours, theirs = cls(seed), cls(seed)
            for size in (0, 1, 2, 3, 7, 38, 70, 129, 256, 257, 300):
                mine, reference = list(range(size)), list(range(size))
                shuffle(ours, mine)
                theirs.shuffle(reference)
                assert mine == reference
                if size:
                    assert randbelow(ours, size) == theirs.randrange(size)
            assert ours.random() == theirs.random()


def test_over_ten_thousand_seeds_the_inlined_draws_are_the_generator_s_own():
    """The samplers' hot path draws through `shuffle` and `randbelow`; if a Python release changed how
    `random.Random` shuffles or picks, this names the first seed where they part."""
    for seed in range(10_000):
        ours, theirs = random.Random(seed), random.Random(seed)
        size = 2 + seed % 60
        mine, reference = list(range(size)), list(range(size))
        shuffle(ours, mine)
        theirs.shuffle(reference)
        assert mine == reference, f"seed {seed}: shuffle of {size} differs from random.Random.shuffle"
        picked, expected = randbelow(ours, size + seed % 7), theirs.randrange(size + seed % 7)
        assert picked == expected, f"seed {seed}: randbelow differs from random.Random.randrange"
