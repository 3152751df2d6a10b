"""The checks of what an organizer sets or enters that the pure rules decide: points per place
(`check_points`), a top cut that can be played (`top_cut_problem`, `largest_top_cut`) and filled
(`check_cut_fits`) and what it becomes in words (`top_cut_plan`), and who goes through at a tie across an
elimination's cut (`check_advancing`)."""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from typing import Any

from league.core.checks import is_int, is_number
from league.core.errors import UserError
from league.pairing import PairingError, Scoring, cut_problem, largest_cut, open_cut, ordinal
from league.tournaments import seam
from league.tournaments.formats import table_cut
from league.tournaments.models import Tournament


def top_cut_problem(tournament: Tournament) -> str | None:
    """Why a stage sequence's top cut (its size, the table rule and the advance) can never be played, or None
    (`pairing.cut_problem`; the rule is in docs/tournaments.md). `tournament` may be unsaved settings."""
    return cut_problem(
        tournament.cut_size or 0, seam.table_spec(tournament), tournament.advance, tournament.cut_format
    )


def top_cut_plan(tournament: Tournament) -> str:
    """What a stage sequence's top cut becomes, in words, or why it cannot be played; "" for other formats
    or without a cut size. "Top 8 at tables of 4, 2 through from each: 2 tables of 4, then a final table of
    4." `tournament` may be unsaved settings."""
    cut = tournament.cut_size
    if tournament.format != Tournament.Format.STAGES or not cut:
        return ""
    problem = top_cut_problem(tournament)
    if problem is not None:
        return f"Top {cut} cannot be played: {problem}."
    size = seam.table_spec(tournament).preferred
    if size == 2:
        rounds = max(1, (cut - 1).bit_length())
        byes = 2**rounds - cut
        kind = "double-elimination" if tournament.cut_format == "double_elimination" else "single-elimination"
        return (
            f"Top {cut}: a {kind} bracket of {rounds} round{'s' if rounds > 1 else ''}"
            + (f", {byes} top seed{'s' if byes > 1 else ''} with a bye" if byes else "")
            + "."
        )
    steps, remaining = [], cut
    while remaining > size:
        tables = remaining // size
        steps.append(f"{tables} table{'s' if tables > 1 else ''} of {size}")
        remaining = tables * tournament.advance
    steps.append(f"a final table of {remaining}")
    return f"Top {cut} at tables of {size}, {tournament.advance} through from each: {', then '.join(steps)}."


def largest_top_cut(tournament: Tournament, players: int) -> int | None:
    """The largest top cut `players` can fill with the tournament's tables and advance, or None."""
    return largest_cut(players, seam.table_spec(tournament), tournament.advance, tournament.cut_format)


def check_cut_fits(tournament: Tournament, cut: int, *, players: int, advance: int, who: str) -> None:
    """Refuse a top cut larger than the `players` there are, naming the largest one they can fill."""
    if cut <= players:
        return
    settings = Tournament(
        game_id=tournament.game_id,
        options=tournament.options,
        table_size=tournament.table_size,
        leftovers=tournament.leftovers,
        advance=advance,
        cut_format=tournament.cut_format,
    )
    largest = largest_top_cut(settings, players)
    raise UserError(
        f"a top cut of {cut} needs at least {cut} players and {players} are {who}: "
        + (f"the largest possible cut is {largest}" if largest else "no top cut is possible with so few")
        + "; change the cut's size in the settings",
        field="cut_size",
    )


def check_points(points: Any) -> dict[str, list[float]]:
    """Validate points per place by table size ({"4": [3, 2, 1, 0]}); return them with string keys."""
    if points in (None, ""):
        return {}
    if not isinstance(points, Mapping):
        raise UserError(
            'points are an object of table size to points per place, e.g. {"4": [3, 2, 1, 0]}', field="points"
        )
    cleaned: dict[str, list[float]] = {}
    for size, values in points.items():
        try:
            size_number = int(size)
        except (TypeError, ValueError):
            raise UserError(f"table size {size!r} is not a whole number", field="points") from None
        if not 2 <= size_number <= 7:
            raise UserError(f"table sizes run from 2 to 7, not {size_number}", field="points")
        if not isinstance(values, list | tuple) or not all(is_number(value) for value in values):
            raise UserError(
                f"the points for a table of {size_number} must be a list of numbers", field="points"
            )
        cleaned[str(size_number)] = [float(value) for value in values]
    try:
        Scoring({int(size): tuple(values) for size, values in cleaned.items()})
    except PairingError as exc:
        raise UserError(str(exc), field="points") from None
    return cleaned


def _names(players: Sequence[Hashable], names: Mapping[int, str], last: str = "and") -> str:
    words = [names[player] for player in seam.ids(players)]
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} {last} {words[-1]}"


def check_advancing(
    tournament: Tournament,
    round_number: int,
    label: str,
    seats: Sequence[int],
    places: Sequence[int],
    advancing: Any,
    names: Mapping[int, str],
) -> list[int] | None:
    """The decider to store with a result at this table (player ids who go through, in seat order), or None
    where the places decide who goes through (or nobody does). A tie across the cut without a decider, or a
    decider that contradicts the places, is refused with a message naming the players (`advancing`)."""
    given = list(advancing) if isinstance(advancing, list | tuple) else advancing
    if given is not None and (
        not isinstance(given, list)
        or not all(is_int(pid) and pid in seats for pid in given)
        or len(set(given)) != len(given)
    ):
        raise UserError("advancing lists players of this table, each once", field="advancing")
    cut = table_cut(tournament, round_number, label)
    if cut is None:
        if given:
            raise UserError("nobody goes through from this table: leave advancing empty", field="advancing")
        return None
    by_player = dict(zip(seats, places, strict=True))
    opened = open_cut(seats, seam.keyed(by_player), cut)
    if opened is None:
        decided = sorted(seats, key=by_player.__getitem__)[:cut]
        if given and set(given) != set(decided):
            raise UserError(
                f"the places already decide who goes through: {_names(decided, names)}", field="advancing"
            )
        return None
    one = opened.needed == 1
    if not given:
        raise UserError(
            f"{_names(opened.tied, names)} share {ordinal(opened.place)} place and only "
            f"{'one' if one else opened.needed} of them go{'es' if one else ''} through: say who",
            field="advancing",
        )
    chosen = set(given)
    if (
        len(chosen) != len(given)
        or len(chosen) != cut
        or not set(opened.through) <= chosen <= set(opened.through + opened.tied)
    ):
        ahead = f"{_names(opened.through, names)} by place, then " if opened.through else ""
        raise UserError(
            f"who goes through must follow the places: {ahead}{'one' if one else opened.needed} of "
            f"{_names(opened.tied, names, 'or')}",
            field="advancing",
        )
    return [player for player in seats if player in chosen]
