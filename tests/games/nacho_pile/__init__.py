def short_of_the_end():
    """Three seats, four chips in the bag (a 3, two 5s, a Wild), seat 2 to move: seat 0 leads the 3s (2 on its
    plate and a Wild given 3 in front), seat 1 the 5s and chips in total (tests of the last-chip mix)."""
    from games.nacho_pile import NachoPileState

    return NachoPileState.position(
        3,
        current=2,
        plates={0: {3: 2}, 1: {5: 3, "steal": 1}},
        front_wilds={0: {3: 1}},
        bag={3: 1, 5: 2, "W": 1},
    )
