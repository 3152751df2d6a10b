"""Helpers for the pairing tests: seeded fields and results decided by seed
(the better seed finishes ahead)."""

from __future__ import annotations

from league.pairing import Entrant, PlayedRound, RoundDraft, TableResult


def field(count: int, prefix: str = "p") -> list[Entrant]:
    """`count` fresh entrants p1..pN with seeds 1..N."""
    return [Entrant(id=f"{prefix}{number}", seed=number) for number in range(1, count + 1)]


def seeds_of(count: int, prefix: str = "p") -> dict[str, int]:
    return {f"{prefix}{number}": number for number in range(1, count + 1)}


def seed_number(player: str) -> int:
    return int(player.lstrip("abcdefghijklmnopqrstuvwxyz"))


def by_seed_results(draft: RoundDraft) -> PlayedRound:
    """Every table finishes in seed order (seed 1 best); byes as drafted."""
    return PlayedRound(
        tables=tuple(
            TableResult(
                seats=table.seats,
                places={
                    player: place
                    for place, player in enumerate(sorted(table.seats, key=seed_number), start=1)
                },
                label=table.label,
            )
            for table in draft.tables
        ),
        byes=draft.byes,
    )


def pairs(draft: RoundDraft) -> list[tuple]:
    """The tables of a draft as tuples of player ids, seat order kept."""
    return [table.seats for table in draft.tables]
