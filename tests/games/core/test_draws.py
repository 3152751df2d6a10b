"""The inlined draws of `games.core.draws` (the samplers' shuffles and picks) take exactly the numbers the
generator's own methods take, so search choices and the records they played do not move."""

import random

from games.core.draws import randbelow, seeded, shuffle


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


def test_seeded_makes_the_generator_random_random_makes():
    for seed in (0, 1, 7, -3, 2**70 + 5, "bot:7:0", "forfeit:12:3", "", "été", 2.5, None, b"x"):
        rng = seeded(seed)
        assert type(rng) is random.Random
        if seed is not None:
            assert rng.getstate() == random.Random(seed).getstate()
            assert rng.random() == random.Random(seed).random()
