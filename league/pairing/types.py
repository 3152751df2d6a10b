"""The plain data that goes into and comes out of the pairing algorithms.

Nothing here knows about the database: the ORM seam builds `Entrant`s from rows, calls a generator, and saves
the `RoundDraft` it gets back. Player ids are whatever the seam uses (ints or strings); they only need to be
hashable and comparable with each other.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from dataclasses import dataclass, field

PlayerId = Hashable


class PairingError(ValueError):
    """Bad input to a pairing algorithm (a user error with a message the organizer can act on)."""


@dataclass(frozen=True)
class Entrant:
    """One player as the pairing algorithms see them before a round.

    `seed` is 1 for the top seed; seeds must be distinct. `score` is the tournament points so far.
    `standing` is the position in the current standings (1 = leader, from `compute_standings`); 0 means
    "not known", and then score and seed alone rank the player. `opponents` lists every player met, once per
    table shared (a rematch appears twice). `seat_history` lists the seat taken in each played round, seat 0
    being the one that starts. `byes` counts the byes received so far.
    """

    id: PlayerId
    seed: int
    score: float = 0.0
    standing: int = 0
    opponents: tuple[PlayerId, ...] = ()
    seat_history: tuple[int, ...] = ()
    byes: int = 0

    def rank_key(self) -> tuple[float, int, int]:
        """Sort key of the current ranking: higher score first, then standings position, then seed."""
        return (-self.score, self.standing, self.seed)

    def meetings_with(self, other: PlayerId) -> int:
        """How many tables this player has already shared with `other`."""
        return self.opponents.count(other)

    def seat_count(self, seat: int) -> int:
        """How many times this player has sat in `seat`."""
        return self.seat_history.count(seat)


@dataclass(frozen=True)
class TableSpec:
    """Table size rule: tables of `preferred` seats, never fewer than `minimum` nor more than `maximum`.

    The leftover rule is documented in `tables.table_sizes`: short tables first (e.g. 4, 3, 3, 3), then
    long tables if the game allows them, and byes only when no arrangement seats everyone.
    """

    preferred: int = 2
    minimum: int = 2
    maximum: int = 2

    def __post_init__(self) -> None:
        if self.minimum < 2:
            raise PairingError("a table needs at least 2 seats")
        if not self.minimum <= self.preferred <= self.maximum:
            raise PairingError(
                f"table sizes must satisfy minimum <= preferred <= maximum, got "
                f"{self.minimum} <= {self.preferred} <= {self.maximum}"
            )


@dataclass(frozen=True)
class DrawTable:
    """One table of a round: `seats[0]` starts. `label` names bracket matches ("W2-1", "GF"); else empty."""

    seats: tuple[PlayerId, ...]
    label: str = ""


@dataclass(frozen=True)
class TableQuality:
    """Quality figures of one table: pairs who met before, score range, extra uses of the seats given."""

    repeat_pairs: int
    score_spread: float
    seat_excess: int


@dataclass(frozen=True)
class ScheduleBalance:
    """How evenly a multi-seat round-robin schedule spreads opponents, counted over every pair of players."""

    min_meetings: int
    max_meetings: int
    pairs_never_met: int


@dataclass(frozen=True)
class RoundQuality:
    """The quality report kept with every generated round.

    `repeat_pairs`: pairs of players seated together who had already met (a table of four where two pairs
    met before counts 2). `max_score_spread`/`total_score_spread`: the largest and the summed difference
    between the best and worst score at a table. `seat_excess`: summed over players, how many more times
    they have used the seat given to them than their least-used seat of that table. `max_seat_imbalance`:
    after this round, the largest difference between a player's most- and least-used seat (over the seats of
    the tables they sat at).
    `byes`: players without a table. `cost`: the optimiser's cost terms, in priority order.
    """

    tables: int
    repeat_pairs: int
    max_score_spread: float
    total_score_spread: float
    seat_excess: int
    max_seat_imbalance: int
    byes: int
    per_table: tuple[TableQuality, ...]
    cost: tuple[float, ...] = ()
    schedule_balance: ScheduleBalance | None = None


@dataclass(frozen=True)
class RoundDraft:
    """A generated round: tables (top table first), players with a bye, and the quality report.

    `advanced` lists players who move on without playing (an elimination bye or walkover); they do not
    score a bye's points. `byes` are Swiss/round-robin byes, which score as a win.
    """

    tables: tuple[DrawTable, ...]
    byes: tuple[PlayerId, ...]
    quality: RoundQuality
    advanced: tuple[PlayerId, ...] = ()
    final: bool = False


@dataclass(frozen=True)
class TableResult:
    """The result of one played table: `places` maps each seated player to a place, 1 best; ties share.

    Only the order of the numbers matters: {a: 1, b: 2, c: 2, d: 4} and {a: 1, b: 2, c: 2, d: 3} both mean
    a first, b and c sharing second and third, d fourth. `advancing` names who goes through at an
    elimination table whose places leave the cut undecided (the decider of a tie); empty otherwise. A `void`
    result is a bracket match where every player was absent (places empty): nobody goes through.
    """

    seats: tuple[PlayerId, ...]
    places: Mapping[PlayerId, int]
    label: str = ""
    advancing: tuple[PlayerId, ...] = ()
    void: bool = False


@dataclass(frozen=True)
class PlayedRound:
    """A completed round: its table results, the players who had a (Swiss or round-robin) bye, and the
    players who had asked for a bye, each with how it scores ("win", "half" or "zero"; see
    `scoring.REQUESTED_BYE_SCORES`). A player who sat the round out unscored is in none of them."""

    tables: tuple[TableResult, ...]
    byes: tuple[PlayerId, ...] = field(default=())
    requested_byes: tuple[tuple[PlayerId, str], ...] = field(default=())
