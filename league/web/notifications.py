"""The inbox and my webhooks: pages of signed-in users about their own things only."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import path
from django.views.decorators.http import require_POST

from league.bots.models import BotLeague
from league.core.errors import UserError
from league.notifications import selectors, services, webhooks
from league.notifications.forms import MailForm, WebhookForm
from league.notifications.models import Kind
from league.tournaments.models import Tournament

PER_PAGE = 30


DELIVERIES_PER_PAGE = 20


class SignedInRequest(HttpRequest):
    """The request of a view behind `login_required`: its user is signed in."""

    user: User


def _mail_form(user: User) -> MailForm:
    preference = services.preference_of(user)
    muted = set(preference.muted_kinds)
    return MailForm(
        initial={
            "email_enabled": preference.email_enabled,
            "kinds": [k for k in Kind.values if k not in muted],
        }
    )


@login_required
def inbox(request: SignedInRequest) -> HttpResponse:
    page = Paginator(selectors.inbox(request.user), PER_PAGE).get_page(request.GET.get("page"))
    context = {"page": page, "mail_form": _mail_form(request.user), "has_email": bool(request.user.email)}
    return render(request, "notifications/inbox.html", context)


def _ids(request: HttpRequest) -> list[int]:
    values = request.POST.getlist("id")
    if not values or not all(value.isdigit() and len(value) < 19 for value in values):
        raise UserError("choose the notifications to mark read", field="ids")
    return [int(value) for value in values]


@login_required
@require_POST
def mark_read(request: SignedInRequest) -> HttpResponse:
    try:
        count = services.notifications_mark_read(user=request.user, ids=_ids(request))
    except UserError as exc:
        messages.error(request, exc.message)
        return redirect("notifications:inbox")
    messages.success(request, f"Marked {count} notification{'s' if count != 1 else ''} read.")
    return redirect("notifications:inbox")


@login_required
@require_POST
def mark_all_read(request: SignedInRequest) -> HttpResponse:
    count = services.notifications_mark_read(user=request.user, every=True)
    messages.success(request, f"Marked {count} notification{'s' if count != 1 else ''} read.")
    return redirect("notifications:inbox")


@login_required
@require_POST
def mail_settings(request: SignedInRequest) -> HttpResponse:
    form = MailForm(request.POST)
    if not form.is_valid():
        messages.error(request, "choose among the kinds of notification shown")
        return redirect("notifications:inbox")
    wanted = set(form.cleaned_data["kinds"])
    services.mail_preference_set(
        user=request.user,
        email_enabled=form.cleaned_data["email_enabled"],
        muted_kinds=[kind for kind in Kind.values if kind not in wanted],
    )
    messages.success(request, "Your mail settings are saved.")
    return redirect("notifications:inbox")


def _webhook_list(request: SignedInRequest, form: WebhookForm, status: int = 200) -> HttpResponse:
    context = {"webhooks": selectors.webhooks_of(request.user), "form": form}
    return render(request, "notifications/webhooks.html", context, status=status)


@login_required
def webhook_list(request: SignedInRequest) -> HttpResponse:
    """My webhooks, and the form that registers one (POST)."""
    if request.method != "POST":
        return _webhook_list(request, WebhookForm(user=request.user))
    form = WebhookForm(request.POST, user=request.user)
    if not form.is_valid():
        return _webhook_list(request, form, status=400)
    kind, pk = form.cleaned_data["scope"]
    tournament = Tournament.objects.filter(pk=pk).first() if kind == "t" else None
    league = BotLeague.objects.filter(pk=pk).first() if kind == "l" else None
    if tournament is None and league is None:
        form.add_error("scope", "no such tournament or bot league")
        return _webhook_list(request, form, status=400)
    try:
        webhook = webhooks.webhook_create(
            by=request.user,
            url=form.cleaned_data["url"],
            events=form.cleaned_data["events"],
            tournament=tournament,
            league=league,
        )
    except UserError as exc:
        field = exc.field if exc.field in form.fields else None
        form.add_error(field, exc.message)
        return _webhook_list(request, form, status=exc.status)
    messages.success(
        request, "The webhook is registered. Its secret is below: verify every delivery with it."
    )
    return redirect("notifications:webhook", pk=webhook.pk)


@login_required
def webhook_detail(request: SignedInRequest, pk: int) -> HttpResponse:
    """One of my webhooks: its secret, its deliveries and every attempt (404 for another owner's)."""
    webhook = webhooks.owned_webhook(by=request.user, webhook_id=pk)
    page = Paginator(selectors.deliveries_of(webhook), DELIVERIES_PER_PAGE).get_page(request.GET.get("page"))
    return render(request, "notifications/webhook.html", {"webhook": webhook, "page": page})


@login_required
@require_POST
def webhook_delete(request: SignedInRequest, pk: int) -> HttpResponse:
    webhooks.webhook_delete(by=request.user, webhook_id=pk)
    messages.success(request, "The webhook is deleted: nothing more is sent to it.")
    return redirect("notifications:webhooks")


app_name = "notifications"

urlpatterns = [
    path("notifications/", inbox, name="inbox"),
    path("notifications/read/", mark_read, name="read"),
    path("notifications/read-all/", mark_all_read, name="read-all"),
    path("notifications/mail/", mail_settings, name="mail"),
    path("webhooks/", webhook_list, name="webhooks"),
    path("webhooks/<int:pk>/", webhook_detail, name="webhook"),
    path("webhooks/<int:pk>/delete/", webhook_delete, name="webhook-delete"),
]
