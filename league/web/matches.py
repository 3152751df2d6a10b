"""The match pages, under the `matches` namespace: the list of matches, a match's page
(`league.results.pages.match_page`), a new match and its result entry (staff)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.admin.views.decorators import staff_member_required
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import path

from league.core.catalogue import game_choices, game_spec
from league.core.errors import UserError
from league.core.forms import add_user_error
from league.core.http import SignedInRequest
from league.matches.forms import MatchForm
from league.matches.models import Match
from league.matches.selectors import match_list, visible_to
from league.results import pages
from league.results.entry import result_entry_form
from league.results.selectors import match_detail, owner_entry
from league.results.services import match_create, result_submit

MATCHES_PER_PAGE = 50


def match_index(request: HttpRequest) -> HttpResponse:
    game_id = request.GET.get("game", "")
    if game_id not in dict(game_choices()):
        game_id = ""
    status = request.GET.get("status", "")
    if status not in Match.Status.values:
        status = ""
    matches = visible_to(match_list(game_id=game_id, status=status), request.user)
    page = Paginator(matches, MATCHES_PER_PAGE).get_page(request.GET.get("page"))
    context = {"page": page, "game": game_id, "status": status, "statuses": Match.Status.choices}
    return render(request, "matches/list.html", context)


def _match_or_404(request: HttpRequest, pk: int) -> Match:
    match = match_detail(pk, viewer=request.user)
    if match is None:
        raise Http404("no such match")
    return match


def match_page(request: HttpRequest, pk: int) -> HttpResponse:
    page = pages.match_page(pk, request.user)
    return render(request, "matches/detail.html", dict(vars(page)))


@staff_member_required
def match_new(request: SignedInRequest) -> HttpResponse:
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
            add_user_error(form, exc)
        else:
            messages.success(request, f"Match {match.pk} created: enter the result when it is over.")
            return redirect("matches:result", pk=match.pk)
    return render(request, "matches/new.html", {"form": form}, status=400 if form.errors else 200)


@staff_member_required
def result_entry(request: SignedInRequest, pk: int) -> HttpResponse:
    match = _match_or_404(request, pk)
    try:
        spec = game_spec(match.game_id)
    except UserError as exc:
        raise Http404(exc.message) from None
    if match.owner != Match.Owner.CASUAL:  # the page says where its result goes; result_submit would refuse
        context = {"match": match, "spec": spec, "refusal": owner_entry(match)}
        return render(
            request, "matches/result.html", context, status=409 if request.method == "POST" else 200
        )
    entry = result_entry_form(
        request.POST or None,
        match=match,
        seats=list(match.seats.all()),
        submit=lambda **result: result_submit(match_id=match.pk, entered_by=request.user, **result),
    )
    if entry.saved:
        messages.success(request, "Result saved.")
        return redirect(match)
    context = {"match": match, "form": entry.form, "spec": spec}
    return render(request, "matches/result.html", context, status=entry.status)


app_name = "matches"
urlpatterns = [
    path("", match_index, name="list"),
    path("new/", match_new, name="new"),
    path("<int:pk>/", match_page, name="detail"),
    path("<int:pk>/result/", result_entry, name="result"),
]
