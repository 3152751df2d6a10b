"""A fitted guess at each seat's chance to win a Nacho Pile position short of the end (issue 19).

The game is decided by the last chip: a number's chips decide by that number's count, then chips in total; a
Wild or a Special by chips in total. `win_chances` mixes over the chips still in the bag as the engine's
`evaluation_mix` does, but within each possible last chip it does not crown the seat that would win if the game
ended now: it gives every seat a chance by a conditional logit (a softmax over the seats) of its counts, where
chips on a plate are safe, chips in front of a seat count by how many of the others' turns they must survive
before the seat claims them, and every weight slides with the share of the chips still in the bag (far from
the end the counts say less). The weights were fitted on positions from games between heuristic bots at 4
seats by `bench/np_value_fit.py` (see its docstring to make them again).
"""

from __future__ import annotations

import math

from games.nacho_pile.rules import FRONT_STRIDE, PLATE_STRIDE, WILD

# Features of a seat in a number's term: its plate's count of the number; its front's count of it by the
# others' turns before the seat claims it (1, 2, 3 or more); chips on its plate in total; chips in front of it in
# total, by the same turns; the plate's and the front's counts of the number times that number's chips left in
# the bag (over 6); and H, the seat's share of the win if the game ended now with that last chip (the engine's
# hard mix: 1/k for k seats level first by the count, then chips in total). Each feature comes once as it is
# and once times the stage s (chips in the bag / 54).
NUMBER_FEATURES = (
    "P", "F1", "F2", "F3", "T", "TF1", "TF2", "TF3", "Pb", "Fb", "H",
)
# A Wild's or a Special's term: chips on the plate in total, chips in front by turns, the share of the win now.
OTHER_FEATURES = ("T", "TF1", "TF2", "TF3", "H")
FULL_BAG = 54


def seat_features(
    plates: list[list[int]], fronts: list[list[int]], specials: list[int], current: int, bag: list[int]
) -> tuple[list[list[list[float]]], list[list[float]], float]:
    """Per value 0-6 per seat the raw number-term features (before the stage products), per seat the other
    term's, and the stage. `plates[seat][value]` and `fronts[seat][value]` count numbers and Wilds together."""
    n = len(plates)
    stage = sum(bag) / FULL_BAG
    totals = [sum(plates[seat]) + specials[seat] for seat in range(n)]
    front_totals = [sum(fronts[seat]) for seat in range(n)]
    turns = [min(3, (seat - current) % n or n - 1) for seat in range(n)]
    grand = [totals[seat] + front_totals[seat] for seat in range(n)]
    number_rows = []
    for value in range(7):
        b = bag[value] / 6
        shares = hard_shares([plates[seat][value] + fronts[seat][value] for seat in range(n)], grand)
        rows = []
        for seat in range(n):
            p, f, e = plates[seat][value], fronts[seat][value], turns[seat]
            tf = front_totals[seat]
            rows.append([
                p, f if e == 1 else 0, f if e == 2 else 0, f if e == 3 else 0, totals[seat],
                tf if e == 1 else 0, tf if e == 2 else 0, tf if e == 3 else 0, p * b, f * b, shares[seat],
            ])
        number_rows.append(rows)
    other_rows = []
    shares = hard_shares(grand, grand)
    for seat in range(n):
        e, tf = turns[seat], front_totals[seat]
        other_rows.append([totals[seat], tf if e == 1 else 0, tf if e == 2 else 0, tf if e == 3 else 0, shares[seat]])
    return number_rows, other_rows, stage


def hard_shares(counts: list[int], totals: list[int]) -> list[float]:
    """Each seat's share of the win by `counts`, then `totals` (1/k for the k seats level first)."""
    top = max(counts)
    best = max(t for c, t in zip(counts, totals) if c == top)
    firsts = [1 if c == top and t == best else 0 for c, t in zip(counts, totals)]
    k = sum(firsts)
    return [x / k for x in firsts]


def with_stage(row: list[float], stage: float) -> list[float]:
    """A feature row and its products with the stage, as the weights are laid out."""
    return row + [x * stage for x in row]


def softmax(scores: list[float]) -> list[float]:
    top = max(scores)
    exps = [math.exp(z - top) for z in scores]
    total = sum(exps)
    return [x / total for x in exps]


# Fitted by bench/np_value_fit.py (the command in its docstring, 150 epochs, every 3rd training position):
# NUMBER_FEATURES then the same times the stage; OTHER_FEATURES likewise.
NUMBER_WEIGHTS = (
    0.87640, 0.33759, 0.19089, 0.10528, 0.01100, 0.01054, -0.02340, -0.02015, -1.10684, -0.57535, 1.01539,
    1.50187, -0.01977, -0.11895, -0.11921, -0.01184, -0.00806, 0.05056, 0.02826, -1.24812, 0.95942, -1.30456,
)
OTHER_WEIGHTS = (
    0.23123, 0.13653, 0.07746, 0.02388, 0.30379, -0.14249, -0.03448, -0.07498, -0.05029, -0.15745,
)


def win_chances(state) -> list[float] | None:
    """Each seat's fitted chance to win a `NachoPileState` short of the end (None at the end or with an empty
    bag): the same arithmetic as `bench/np_value_fit.py`'s `model_chances` on `seat_features`, straight from the
    state's flat counts. This turn's drawn chips count nowhere (as in `evaluation_mix`)."""
    bag = state.bag
    in_bag = sum(bag)
    if state.phase == 4 or not in_bag:  # PHASE_OVER
        return None
    n = state.num_players
    stage = in_bag / FULL_BAG
    nw, ow = NUMBER_WEIGHTS, OTHER_WEIGHTS
    k = len(NUMBER_FEATURES)
    ko = len(OTHER_FEATURES)
    w = [nw[j] + nw[k + j] * stage for j in range(k)]
    wo = [ow[j] + ow[ko + j] * stage for j in range(ko)]
    w_p, w_f, w_t, w_tf, w_pb, w_fb = w[0], (0.0, w[1], w[2], w[3]), w[4], (0.0, w[5], w[6], w[7]), w[8], w[9]
    w_h = w[10]
    wo_t, wo_tf, wo_h = wo[0], (0.0, wo[1], wo[2], wo[3]), wo[4]
    plate, front = state.plate, state.front
    current = state.current
    plates, fronts, bases, other_z, grand = [], [], [], [], []
    for seat in range(n):
        at, base = seat * PLATE_STRIDE, seat * FRONT_STRIDE
        p = [plate[at + v] + plate[at + 7 + v] for v in range(7)]
        f = [front[base + v] + front[base + 7 + v] for v in range(7)]
        total = sum(p) + plate[at + 14] + plate[at + 15] + plate[at + 16]
        tf = sum(f)
        e = min(3, (seat - current) % n or n - 1)
        plates.append(p)
        fronts.append((f, w_f[e]))
        bases.append(w_t * total + w_tf[e] * tf)
        grand.append(total + tf)
        other_z.append(wo_t * total + wo_tf[e] * tf)
    exp = math.exp
    chances = [0.0] * n
    for value in range(7):
        count = bag[value]
        if not count:
            continue
        b = count / 6
        wpv = w_p + w_pb * b
        wfb = w_fb * b
        z = [
            bases[seat] + wpv * plates[seat][value] + (fronts[seat][1] + wfb) * fronts[seat][0][value]
            for seat in range(n)
        ]
        shares = hard_shares([plates[seat][value] + fronts[seat][0][value] for seat in range(n)], grand)
        z = [x + w_h * h for x, h in zip(z, shares)]
        top = max(z)
        exps = [exp(x - top) for x in z]
        scale = count / in_bag / sum(exps)
        for seat in range(n):
            chances[seat] += exps[seat] * scale
    others = in_bag - sum(bag[:WILD])
    if others:
        other_z = [x + wo_h * h for x, h in zip(other_z, hard_shares(grand, grand))]
        top = max(other_z)
        exps = [exp(x - top) for x in other_z]
        scale = others / in_bag / sum(exps)
        for seat in range(n):
            chances[seat] += exps[seat] * scale
    return chances
