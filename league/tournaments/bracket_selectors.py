"""The bracket as a page shows it: every match with who plays it as far as results tell."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import cast

from league.pairing import table_order
from league.tournaments import seam
from league.tournaments.bracket_reading import bracket_of
from league.tournaments.history import History

UNKNOWN = object()


@dataclass(frozen=True)
class BracketSlot:
    """One side of a bracket match: a player (or a bye, or a match still to be decided)."""

    text: str
    player_id: int | None = None
    won: bool = False


@dataclass(frozen=True)
class BracketMatchView:
    label: str
    slots: tuple[BracketSlot, ...]
    decided: bool
    skipped: bool = False


def bracket_matches(history: History, names: Mapping[int, str]) -> list[BracketMatchView] | None:
    """Every match of the 2-seat bracket in playing order with who plays it as far as results tell:
    seeds, walkovers (a bye), and winners and losers of decided matches; None without a bracket.
    A tie is decided by the result's decider, else (a table closed as a forfeit) by the better-ranked
    player, as in the pairing layer."""
    drawn = bracket_of(history)
    if drawn is None:
        return None
    ordered = sorted(drawn.entrants, key=lambda entrant: entrant.seed)
    by_seed = {position: entrant.id for position, entrant in enumerate(ordered, start=1)}
    rank = {entrant.id: entrant.rank_key() for entrant in drawn.entrants}
    results = {result.label: result for result in drawn.results}
    winner: dict[str, object] = {}
    loser: dict[str, object] = {}
    views = []
    for match in drawn.bracket.matches:
        players: list[object] = []
        texts: list[str] = []
        for source in match.sources:
            if source.kind == "seed":
                player = by_seed.get(source.ref)
                players.append(player)
                texts.append(seam.keyed(names).get(player, "") if player is not None else "bye")
                continue
            decided = winner if source.kind == "winner" else loser
            player = decided.get(source.ref, UNKNOWN)
            players.append(player)
            if player is UNKNOWN:
                texts.append(f"{source.kind.title()} of {source.ref}")
            else:
                texts.append(seam.keyed(names).get(player, "") if player is not None else "bye")
        skipped = False
        if match.reset and winner.get("GF", UNKNOWN) not in (UNKNOWN, players[1]):
            skipped = True
        present = [player for player in players if player not in (None, UNKNOWN)]
        if skipped:
            pass
        elif UNKNOWN not in players and len(present) < 2:
            winner[match.label] = present[0] if present else None
            loser[match.label] = None
        elif match.label in results and UNKNOWN not in players:
            first, second = table_order(results[match.label], rank)
            winner[match.label], loser[match.label] = first, second
        won = winner.get(match.label, UNKNOWN)
        views.append(
            BracketMatchView(
                label=match.label,
                slots=tuple(
                    BracketSlot(
                        text,
                        cast(int | None, player if player not in (None, UNKNOWN) else None),  # an id
                        won not in (None, UNKNOWN) and player == won,
                    )
                    for text, player in zip(texts, players, strict=True)
                ),
                decided=match.label in winner,
                skipped=skipped,
            )
        )
    return views
