"""Drawing 2-seat elimination brackets, single and double; playing them is `elimination`.

Brackets are fixed when drawn, so a page can draw them before anyone plays:
- The bracket has the next power of two of slots; seeds are placed in the standard order (1 v 16, 8 v 9,
  4 v 13, 5 v 12, 2 v 15, 7 v 10, 3 v 14, 6 v 11), so seeds 1 and 2 can meet only in the final; slots
  beyond the field are byes, which therefore go to the top seeds.
- Single elimination labels: R1-1, R1-2, ..., the final F and, optionally, the third-place match 3P between
  the semi-final losers.
- Double elimination: winners' bracket W<round>-<i>; losers' bracket L<round>-<i>; grand final GF between
  the two bracket winners and, with the reset option, GF2, played only if the losers' bracket winner wins
  GF (so everyone is out after two defeats). Losers' round 1 pairs the losers of neighbouring winners'
  round-1 matches; later losers' rounds alternate a "drop" round, where the losers of the next winners'
  round come in, and a round among the survivors. Drops are crossed (`crossed_drop_masks`): the losers of a
  winners' round come in permuted so as to meet, in that round and the next, players from other parts of
  the winners' bracket, which makes rematches of winners' bracket games rare (simulated with coin-toss
  results: about 0.7 per 64-player bracket, against 1.5 for the usual reverse/swap-halves alternation).
  At most 256 players.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import cast

from league.pairing.types import PairingError

DOUBLE_ELIMINATION_PLAYERS = 256
SEED = "seed"
WINNER = "winner"
LOSER = "loser"


@dataclass(frozen=True)
class Source:
    """Where a bracket slot's player comes from: a seed number, or the winner or loser of a match."""

    kind: str
    ref: int | str


@dataclass(frozen=True)
class BracketMatch:
    """One match of a bracket; `reset` marks a grand-final reset, played only if the second slot wins GF."""

    label: str
    sources: tuple[Source, Source]
    reset: bool = False


@dataclass(frozen=True)
class Bracket:
    """A drawn 2-seat bracket: matches in playing order, for `players` entrants in `size` slots."""

    matches: tuple[BracketMatch, ...]
    players: int
    size: int
    deciding: tuple[str, ...]

    def __hash__(self) -> int:  # hashed once: the plans and feeds of a drawn bracket are cached by it
        cached = self.__dict__.get("_hash")
        if cached is None:
            cached = hash((self.matches, self.players, self.size, self.deciding))
            object.__setattr__(self, "_hash", cached)
        return cached


def standard_seed_order(size: int) -> list[int]:
    """Seeds in bracket slot order for a bracket of `size` slots (a power of two): 1, 16, 8, 9, ... for 16."""
    if size < 1 or size & (size - 1):
        raise PairingError(f"a bracket has a power of two of slots, not {size}")
    order = [1]
    while len(order) < size:
        total = 2 * len(order) + 1
        order = [seed for top in order for seed in (top, total - top)]
    return order


def bracket_size(players: int) -> int:
    """The smallest power of two that holds `players` (at least 2)."""
    if players < 2:
        raise PairingError("an elimination bracket needs at least 2 players")
    size = 2
    while size < players:
        size *= 2
    return size


def _winners_rounds(size: int, prefix: str) -> list[list[BracketMatch]]:
    order = standard_seed_order(size)
    rounds = [
        [
            BracketMatch(
                f"{prefix}1-{index + 1}", (Source(SEED, order[2 * index]), Source(SEED, order[2 * index + 1]))
            )
            for index in range(size // 2)
        ]
    ]
    while len(rounds[-1]) > 1:
        previous = rounds[-1]
        number = len(rounds) + 1
        rounds.append(
            [
                BracketMatch(
                    f"{prefix}{number}-{index + 1}",
                    (
                        Source(WINNER, previous[2 * index].label),
                        Source(WINNER, previous[2 * index + 1].label),
                    ),
                )
                for index in range(len(previous) // 2)
            ]
        )
    return rounds


@lru_cache(maxsize=64)  # a drawn bracket is frozen: the same one serves every result of an event
def single_elimination_bracket(players: int, third_place: bool = False) -> Bracket:
    """Draw a single-elimination bracket for `players` seeds, with an optional third-place match."""
    size = bracket_size(players)
    rounds = _winners_rounds(size, "R")
    final = rounds[-1][0]
    rounds[-1] = [BracketMatch("F", final.sources)]
    matches = [match for round_matches in rounds for match in round_matches]
    if third_place and len(rounds) >= 2:
        semis = rounds[-2]
        matches.append(BracketMatch("3P", (Source(LOSER, semis[0].label), Source(LOSER, semis[1].label))))
    return Bracket(matches=tuple(matches), players=players, size=size, deciding=("F",))


@lru_cache(maxsize=16)
def crossed_drop_masks(size: int) -> dict[int, int]:
    """For each winners' round k >= 2, the mask m such that losers' drop match i takes the loser of
    W<k>-(i^m).

    Two players can only meet twice if they met in the winners' bracket (a losers' bracket match eliminates
    its loser), and two players who started in first-round matches m1 and m2 met there with a chance that
    halves with every round their parts of the bracket stay apart. Assuming every match is a coin toss, the
    builder follows, for every losers' bracket match, the chance that each side started in each first-round
    match, and for each drop round picks the mask (among all i -> i XOR m, which include reversing and
    swapping halves) that minimises the expected number of such rematches over that drop round and the round
    after it; the smallest mask wins ties.
    """
    first_matches = size // 2
    rounds = first_matches.bit_length()
    masks: dict[int, int] = {}
    # origin[i][m]: chance that the survivor of losers' match i started in winners' first-round match m
    origin = [
        [0.5 if m in (2 * index, 2 * index + 1) else 0.0 for m in range(first_matches)]
        for index in range(first_matches // 2)
    ]
    for winners_round in range(2, rounds + 1):
        width = 1 << (winners_round - 1)
        drop_count = size >> winners_round
        best = None
        for mask in range(drop_count):
            dropped = [_uniform(first_matches, (index ^ mask) * width, width) for index in range(drop_count)]
            risk = sum(_meeting_risk(origin[index], dropped[index]) for index in range(drop_count))
            merged = [_mix(origin[index], dropped[index]) for index in range(drop_count)]
            if drop_count > 1:
                risk += sum(
                    _meeting_risk(merged[2 * index], merged[2 * index + 1])
                    for index in range(drop_count // 2)
                )
                merged = [_mix(merged[2 * index], merged[2 * index + 1]) for index in range(drop_count // 2)]
            if best is None or risk < best[0] - 1e-12:
                best = (risk, mask, merged)
        chosen = cast("tuple[float, int, list[list[float]]]", best)  # drop_count >= 1: the loop set it
        masks[winners_round] = chosen[1]
        origin = chosen[2]
    return masks


def _uniform(length: int, start: int, width: int) -> list[float]:
    return [1.0 / width if start <= m < start + width else 0.0 for m in range(length)]


def _mix(first: list[float], second: list[float]) -> list[float]:
    return [(a + b) / 2 for a, b in zip(first, second, strict=True)]


def _meeting_risk(first: list[float], second: list[float]) -> float:
    """Chance that players drawn from two origin distributions met in the winners' bracket (see above)."""
    risk = 0.0
    block = 1
    previous = sum(a * b for a, b in zip(first, second, strict=True))
    risk += previous
    chance = 0.5
    while block < len(first):
        block *= 2
        together = sum(
            sum(first[start : start + block]) * sum(second[start : start + block])
            for start in range(0, len(first), block)
        )
        risk += (together - previous) * chance
        previous = together
        chance /= 2
    return risk


@lru_cache(maxsize=64)
def double_elimination_bracket(players: int, reset: bool = True) -> Bracket:
    """Draw a double-elimination bracket: winners' and losers' brackets, grand final, optional reset."""
    if players > DOUBLE_ELIMINATION_PLAYERS:
        raise PairingError(
            f"double elimination takes at most {DOUBLE_ELIMINATION_PLAYERS} players; "
            "for more, play a Swiss stage with a top cut"
        )
    size = bracket_size(players)
    winners = _winners_rounds(size, "W")
    matches = [match for round_matches in winners for match in round_matches]
    losers: list[list[BracketMatch]] = []
    if len(winners) >= 2:
        masks = crossed_drop_masks(size)
        first = winners[0]
        losers.append(
            [
                BracketMatch(
                    f"L1-{index + 1}",
                    (Source(LOSER, first[2 * index].label), Source(LOSER, first[2 * index + 1].label)),
                )
                for index in range(len(first) // 2)
            ]
        )
        for winners_round in range(2, len(winners) + 1):
            dropping = winners[winners_round - 1]
            survivors = losers[-1]
            number = len(losers) + 1
            losers.append(
                [
                    BracketMatch(
                        f"L{number}-{index + 1}",
                        (
                            Source(WINNER, survivors[index].label),
                            Source(LOSER, dropping[index ^ masks[winners_round]].label),
                        ),
                    )
                    for index in range(len(dropping))
                ]
            )
            if winners_round < len(winners):
                survivors = losers[-1]
                number = len(losers) + 1
                losers.append(
                    [
                        BracketMatch(
                            f"L{number}-{index + 1}",
                            (
                                Source(WINNER, survivors[2 * index].label),
                                Source(WINNER, survivors[2 * index + 1].label),
                            ),
                        )
                        for index in range(len(survivors) // 2)
                    ]
                )
        losers_champion = Source(WINNER, losers[-1][0].label)
    else:
        losers_champion = Source(LOSER, winners[0][0].label)
    matches.extend(match for round_matches in losers for match in round_matches)
    grand_final = (Source(WINNER, winners[-1][0].label), losers_champion)
    matches.append(BracketMatch("GF", grand_final))
    deciding: tuple[str, ...] = ("GF",)
    if reset:
        matches.append(BracketMatch("GF2", grand_final, reset=True))
        deciding = ("GF", "GF2")
    return Bracket(matches=tuple(matches), players=players, size=size, deciding=deciding)
