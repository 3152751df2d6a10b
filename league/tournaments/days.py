"""A tournament's days (big days): a Swiss with a Day 2 plays Day 1 with everyone and Day 2 with the players
who reached `day2_points` after round `day2_after_round` (`seam.day2_field`, the pure
`pairing.threshold_cut`). The tournament's page shows each day with its rounds and, once Day 1 has
results, who qualified; the API gives the same (`days`)."""

from __future__ import annotations

from dataclasses import dataclass

from league.tournaments import seam
from league.tournaments.history import History, load_history
from league.tournaments.models import Tournament


@dataclass(frozen=True)
class Qualifier:
    player_id: int
    name: str
    points: float


@dataclass(frozen=True)
class DayView:
    """One day: its number, its rounds (`first_round` to `last_round`), its stage and field in words, and
    (Day 2, once Day 1 has its results) who qualified, in the ranking order of the end of Day 1."""

    number: int
    first_round: int
    last_round: int
    stage: str
    field: str
    qualified: list[Qualifier] | None = None


def _points(value: float) -> str:
    return f"{value:g} point{'' if value == 1 else 's'}"


def tournament_days(tournament: Tournament, history: History | None = None) -> list[DayView]:
    """The days of `tournament`; [] for a one-day event (no Day 2)."""
    after, points = tournament.day2_after_round, tournament.day2_points
    if after is None or points is None or tournament.format != Tournament.Format.SWISS:
        return []
    last = tournament.rounds or after + 1
    qualified = None
    if tournament.round_set.filter(number=after, status="complete").exists():
        history = history or load_history(tournament)
        field = seam.day2_field(history)
        if field is not None:
            names = {reg.player_id: reg.player.name for reg in history.registrations if reg.player}
            day1 = {
                entrant.id: entrant.score
                for entrant in seam.entrants_of(history, set(field), last_round=after)
            }
            qualified = [Qualifier(pid, names.get(pid, str(pid)), day1[pid]) for pid in field]
    return [
        DayView(1, 1, after, "Swiss", "everyone"),
        DayView(
            2,
            after + 1,
            last,
            "Swiss",
            f"the players with at least {_points(points)} after round {after}",
            qualified,
        ),
    ]
