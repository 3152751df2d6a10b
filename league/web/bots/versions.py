"""The author's choice of which versions of their bot stay active in a ladder: the post of the buttons on
"my bots" and on a bot's page (`services.ladders`: `ladder_version_activate`, `ladder_version_deactivate`)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import redirect
from django.views.decorators.http import require_POST

from league.bots.services.ladders import ladder_version_activate, ladder_version_deactivate
from league.core.bounds import ROW_IDS, whole_number
from league.core.errors import NotFound, UserError
from league.core.http import SignedInRequest

SERVICES = {"activate": ladder_version_activate, "deactivate": ladder_version_deactivate}


@login_required
@require_POST
def ladder_version(request: SignedInRequest, pk: int, action: str) -> HttpResponse:
    """Activate or deactivate the form's `bot` (a version of one of your bots) in ladder `pk`; back to "my
    bots" (`back=mine`) or to the version's page, with what changed or why it was refused."""
    service = SERVICES.get(action)
    if service is None:
        raise Http404("no such action")
    bot_id = whole_number(request.POST.get("bot", ""))
    back = redirect("bots:mine") if request.POST.get("back") == "mine" else None
    if bot_id is None or not ROW_IDS.contains(bot_id):
        messages.error(request, "choose a version of one of your bots")
        return back or redirect("bots:mine")
    back = back or redirect("bots:bot", pk=bot_id)
    try:
        event = service(ladder_id=pk, bot_id=bot_id, by=request.user)
    except NotFound:
        raise
    except UserError as exc:
        messages.error(request, exc.message)
        return back
    state = "active" if action == "activate" else "inactive"
    messages.success(
        request, f"{event.bot.label} is {state} in {event.league.name} from match {event.position + 1}."
    )
    return back
