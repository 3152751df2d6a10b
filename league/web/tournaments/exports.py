"""A player's path through the tournament, and the CSV downloads of the standings and the results."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render

from league.core.exports import SafeWriter, csv_download
from league.tournaments import pages, round_selectors, seam, selectors, snapshots
from league.tournaments.history import load_history
from league.tournaments.models import Registration
from league.tournaments.services.common import names_version
from league.web.tournaments.common import tournament_or_404
from league.web.tournaments.shared import shared_page


@shared_page
def player_path(request: HttpRequest, slug: str, player_slug: str) -> HttpResponse:
    tournament = tournament_or_404(request, slug)
    inputs = pages.path_inputs(tournament, names_version())  # read once per state for every player's path
    history, views, ordered = inputs.history, inputs.views, inputs.standings
    reg = next((reg for reg in history.registrations if reg.player and reg.player.slug == player_slug), None)
    if reg is None or reg.status in (Registration.Status.WITHDRAWN, Registration.Status.INVITED):
        raise Http404("this player is not in the tournament")
    standing = next(
        (
            selectors.standing_rows([row], {reg.player_id: reg})[0]
            for row in ordered
            if row.id == reg.player_id
        ),
        None,
    )
    context = {
        "tournament": tournament,
        "player": reg.player,
        "registration": reg,
        "standing": standing,
        "steps": round_selectors.player_path(history, views, reg.player_id),
    }
    return render(request, "tournaments/path.html", context)


def _csv(filename: str) -> tuple[HttpResponse, SafeWriter]:
    """A CSV download (`league.core.exports`: UTF-8 with a BOM, formula-looking text cells prefixed
    with ')."""
    return csv_download(filename)


def _number(value: float) -> str:
    return f"{value:g}"


def standings_csv(request: HttpRequest, slug: str) -> HttpResponse:
    """The standings with every tie-break column, one row per player, and the bracket's group
    (elimination)."""
    tournament = tournament_or_404(request, slug)
    response, writer = _csv(f"{tournament.slug}-standings.csv")
    writer.writerow(
        [
            "rank",
            "player",
            "seed",
            "status",
            "points",
            "opponents_points",
            "wins",
            "head_to_head",
            "played",
            "byes",
            *selectors.NEW_TIEBREAK_COLUMNS,
            "group",
        ]
    )
    for row in snapshots.standings_list(tournament):
        writer.writerow(
            [
                row.rank,
                row.name,
                row.seed,
                row.status,
                _number(row.points),
                _number(row.opponents_points),
                row.wins,
                row.head_to_head,
                row.played,
                row.byes,
                *(_number(getattr(row, name)) for name in selectors.NEW_TIEBREAK_COLUMNS),
                row.group,
            ]
        )
    return response


def results_csv(request: HttpRequest, slug: str) -> HttpResponse:
    """Every seat of every published table: round, table, bracket label, seat, player, place, score,
    points."""
    tournament = tournament_or_404(request, slug)
    response, writer = _csv(f"{tournament.slug}-results.csv")
    writer.writerow(["round", "table", "label", "seat", "player", "place", "score", "points", "closed_as"])
    history = load_history(tournament)
    for view in round_selectors.rounds(history, include_drafts=False):
        for table in view.tables:
            for seat in table.seats:
                writer.writerow(
                    [
                        view.number,
                        table.number,
                        table.label,
                        seat.seat + 1,
                        seat.name,
                        seat.place if seat.place is not None else "",
                        seat.score if seat.score is not None else "",
                        _number(seat.points) if seat.points is not None else "",
                        table.closed_as,
                    ]
                )
        for _, name in view.byes:
            writer.writerow(
                [view.number, "", "bye", "", name, "", "", _number(seam.bye_points(tournament)), ""]
            )
        for _, name, score in view.requested_byes:
            points = _number(seam.requested_bye_points(tournament, score))
            writer.writerow([view.number, "", "bye asked for", "", name, "", "", points, ""])
    return response
