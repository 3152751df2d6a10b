"""Match pages that show or write results: a match with its result versions, and the staff pages to
create a match and enter its result. They are served under the `matches` URL namespace (`league.results.urls`),
with the list of matches (`league.matches.views`)."""

from django.contrib import messages
from django.contrib.admin.views.decorators import staff_member_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render

from league.core.catalogue import game_name, game_spec
from league.core.errors import UserError, VersionConflict
from league.matches.forms import MatchForm
from league.matches.models import Match
from league.results.forms import ResultForm
from league.results.selectors import match_detail
from league.results.services import match_create, result_submit


def _match_or_404(pk: int) -> Match:
    match = match_detail(pk)
    if match is None:
        raise Http404("no such match")
    return match


def match_page(request: HttpRequest, pk: int) -> HttpResponse:
    match = _match_or_404(pk)
    return render(request, "matches/detail.html", {"match": match, "game_name": game_name(match.game_id)})


@staff_member_required
def match_new(request: HttpRequest) -> HttpResponse:
    form = MatchForm(request.POST or None, initial={"rated": True})
    if request.method == "POST" and form.is_valid():
        try:
            match = match_create(
                game_id=form.cleaned_data["game"],
                player_ids=form.player_ids(),
                options=form.cleaned_data["options"],
                rated=form.cleaned_data["rated"],
                created_by=request.user,
            )
        except UserError as exc:
            form.add_error(exc.field if exc.field in form.fields else None, exc.message)
        else:
            messages.success(request, f"Match {match.pk} created: enter the result when it is over.")
            return redirect("matches:result", pk=match.pk)
    return render(request, "matches/new.html", {"form": form}, status=400 if form.errors else 200)


@staff_member_required
def result_entry(request: HttpRequest, pk: int) -> HttpResponse:
    match = _match_or_404(pk)
    seats = list(match.seats.all())
    try:
        spec = game_spec(match.game_id)
    except UserError as exc:
        raise Http404(exc.message) from None
    status = 200
    form = ResultForm(request.POST or None, seats=seats, initial=_initial(match, seats))
    if request.method == "POST" and form.is_valid():
        try:
            result_submit(
                match_id=match.pk,
                expected_version=form.cleaned_data["expected_version"],
                places=form.cleaned_data["places"],
                scores=form.cleaned_data["scores"],
                reason=form.cleaned_data["reason"],
                entered_by=request.user,
            )
        except VersionConflict as exc:
            data = request.POST.copy()
            data["expected_version"] = exc.current_version
            form = ResultForm(data, seats=seats)
            form.is_valid()
            form.add_error(None, exc.message)
            match = _match_or_404(pk)
            status = 409
        except UserError as exc:
            form.add_error(None, exc.message)
            status = 400
        else:
            messages.success(request, "Result saved.")
            return redirect(match)
    if form.errors and status == 200:
        status = 400
    return render(request, "matches/result.html", {"match": match, "form": form, "spec": spec}, status=status)


def _initial(match: Match, seats) -> dict:
    initial = {"expected_version": match.result_version}
    for seat in seats:
        initial[f"place_{seat.seat}"] = seat.place
        initial[f"score_{seat.seat}"] = seat.score
    return initial
