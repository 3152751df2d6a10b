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

from league.core.errors import UserError, VersionConflict
from league.matches.models import Match, MatchSeat
from league.results.forms import ResultForm


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
        form.add_error(None, exc.message)
        match.refresh_from_db(fields=["result_version"])
        return ResultEntry(form, exc.status, saved=False)
    except UserError as exc:
        form.add_error(None, exc.message)
        return ResultEntry(form, exc.status, saved=False)
    return ResultEntry(form, 200, saved=True)
