"""Result entry on a page: the one setup behind a match's result page and a tournament table's.

The page gives the match, its seats and the service call that stores a result; this module fills the form
with the current places and scores, submits a posted one, and turns the service's errors into the form's
message and the page's status. The pages render `templates/results/_entry_fields.html` inside their form.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, cast

from django.http import QueryDict
from django.utils import timezone
from django.utils.timesince import timesince

from league.core.errors import UserError, VersionConflict
from league.matches.models import Match, MatchSeat
from league.results.forms import ResultForm
from league.results.models import ResultVersion


@dataclass(frozen=True)
class ResultEntry:
    form: ResultForm
    status: (
        int  # of the page that shows the form: 200, or the error's (400 bad input, 409 stale version, ...)
    )
    saved: bool  # the result was stored: the page redirects instead of showing the form


def result_entry_form(
    data: QueryDict | None, *, match: Match, seats: Sequence[MatchSeat], submit: Callable[..., Any]
) -> ResultEntry:
    """The result form of `match` and what became of posted `data` (None: nothing posted).

    A valid form goes to `submit(expected_version=, places=, scores=, reason=)`, a service call that raises
    `UserError`. On a stale version (409) the form keeps what was typed but now names the version stored, and
    `match.result_version` is reloaded, so that submitting again corrects the result someone else entered.
    """
    initial: dict[str, Any] = {"expected_version": match.result_version}
    for seat in seats:
        initial[f"place_{seat.seat}"] = seat.place
        initial[f"score_{seat.seat}"] = seat.score
    form = ResultForm(data, seats=seats, initial=initial)
    if not form.is_valid():
        return ResultEntry(form, 400 if form.is_bound else 200, saved=False)
    try:
        submit(
            expected_version=form.cleaned_data["expected_version"],
            places=form.cleaned_data["places"],
            scores=form.cleaned_data["scores"],
            reason=form.cleaned_data["reason"],
        )
    except VersionConflict as exc:
        fresh = cast(QueryDict, data).copy()  # a valid form is bound: data is set
        fresh["expected_version"] = exc.current_version  # type: ignore[assignment]  # QueryDict keeps any value
        form = ResultForm(fresh, seats=seats)
        form.is_valid()
        stored = (
            ResultVersion.objects.filter(match=match, version=exc.current_version).first()
            if exc.current_version is not None
            else None
        )
        form.stored = stored
        form.add_error(None, _meanwhile(stored, seats))
        match.refresh_from_db(fields=["result_version"])
        return ResultEntry(form, exc.status, saved=False)
    except UserError as exc:
        form.add_error(None, exc.message)
        return ResultEntry(form, exc.status, saved=False)
    return ResultEntry(form, 200, saved=True)


def _meanwhile(stored: ResultVersion | None, seats: Sequence[MatchSeat]) -> str:
    """In people's words, the result someone saved while this form was open: who, when and what."""
    if stored is None:
        return "Someone changed this result meanwhile: look at it again before saving yours."
    who = "Someone"
    if stored.entered_by is not None:
        who = stored.entered_by.get_full_name() or stored.entered_by.get_username()
    elapsed = timezone.now() - stored.entered_at
    when = "a moment ago" if elapsed.total_seconds() < 60 else f"{timesince(stored.entered_at)} ago"
    what = "the table void" if stored.void else _places_text(stored, seats)
    return (
        f"{_isolated(who)} saved this result {when}: {what}. Theirs is shown beside yours below; "
        "to replace it with yours, say why and save again."
    )


def _places_text(stored: ResultVersion, seats: Sequence[MatchSeat]) -> str:
    names = {seat.seat: seat.player.name for seat in seats}
    order = sorted(range(len(stored.places)), key=lambda seat: (stored.places[seat], seat))
    scores = stored.scores or []
    return ", ".join(
        f"{_ordinal(stored.places[seat])} {_isolated(names.get(seat, f'seat {seat + 1}'))}"
        + (f" ({scores[seat]})" if seat < len(scores) and scores[seat] is not None else "")
        for seat in order
    )


def _ordinal(number: int) -> str:
    suffix = "th" if 10 <= number % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(number % 10, "th")
    return f"{number}{suffix}"


def _isolated(name: str) -> str:
    """A person's name between Unicode isolates (FSI … PDI): a right-to-left name keeps the text around it in
    order, in a message that is plain text."""
    return f"\u2068{name}\u2069"
