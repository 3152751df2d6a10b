"""What a tournament's format says about its rounds, read from its settings alone: whether a round is paired
Swiss, whether it belongs to a bracket played match by match, how many go through from a table, whether the
tournament draws a bracket."""

from __future__ import annotations

from league.tournaments.models import Tournament


def is_swiss_round(tournament: Tournament, number: int) -> bool:
    """Whether round `number` is paired Swiss (a Swiss tournament, or a stage sequence's Swiss stage): the
    rounds players may ask to miss."""
    if tournament.format == Tournament.Format.SWISS:
        return True
    return (
        tournament.format == Tournament.Format.STAGES
        and tournament.first_stage == "swiss"
        and number <= (tournament.rounds or 0)
    )


def flows(tournament: Tournament, round_number: int) -> bool:
    """Whether round `round_number` belongs to a 2-seat bracket played match by match (single or double
    elimination, or a stage sequence's 2-seat top cut): its matches open as soon as their players are
    known."""
    if tournament.table_size != 2:
        return False
    if tournament.format == Tournament.Format.STAGES:
        return round_number > (tournament.rounds or 0)
    return tournament.is_elimination


def is_elimination_round(tournament: Tournament, number: int) -> bool:
    """Whether round `number` is an elimination round (an elimination, or a stage sequence's top cut)."""
    return tournament.is_elimination or (
        tournament.format == Tournament.Format.STAGES and number > (tournament.rounds or 0)
    )


def table_cut(tournament: Tournament, round_number: int, label: str) -> int | None:
    """How many go through from a table of round `round_number`: 1 at every 2-seat bracket match (the
    final, a third-place match and a grand final decide a place the same way), the tournament's `advance`
    at a multi-seat elimination table; None where nobody goes through (Swiss, round robin, the final table
    of a multi-seat elimination, whose places stand as they are)."""
    if not is_elimination_round(tournament, round_number):
        return None
    if tournament.table_size == 2:
        return 1
    return None if label == "Final" else tournament.advance


def has_bracket(tournament: Tournament) -> bool:
    """Whether the tournament draws a bracket: an elimination, or a stage sequence once its top cut has a
    round (a draft counts)."""
    if tournament.is_elimination:
        return True
    return (
        tournament.format == Tournament.Format.STAGES
        and tournament.round_set.filter(number__gt=tournament.rounds or 0).exists()
    )
