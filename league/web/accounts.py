"""Account pages: sign up, log in and out, password change and reset (Django's auth views, subclassed), my
page, my player, my API token, claim links, and account deletion.

Thin views: a form validates, one service writes, a `UserError` shows on the page with its status (400 bad
input, 403 not allowed, 404 no such object, 409 a state that refuses it). Forms with errors answer 400.
Every page that shows an email address shows the signed-in user's own (my page, the deletion page).
"""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login, logout
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import path, reverse, reverse_lazy
from django.utils import timezone
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_POST

from league.accounts import selectors, services, throttling, zones
from league.accounts.forms import (
    ApiTokenForm,
    ClaimIssueForm,
    DeleteAccountForm,
    PlayerNameForm,
    SignUpForm,
    ThrottledPasswordResetForm,
)
from league.core.errors import Conflict, NotFound, UserError
from league.core.forms import add_user_error
from league.core.http import SignedInRequest
from league.core.throttling import client_address

MODEL_BACKEND = "django.contrib.auth.backends.ModelBackend"


class BadFormIs400:
    """A form view whose invalid form answers 400, as every page of the league does."""

    def form_invalid(self, form):
        response = super().form_invalid(form)
        response.status_code = 400
        return response


def _next_url(request: HttpRequest) -> str:
    """The `next` of the request if it is a page of this site, else ''."""
    target = request.POST.get("next") or request.GET.get("next") or ""
    if url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return target
    return ""


TOO_MANY_SIGN_UPS = "too many sign-ups from your address in the last hour: try again later"


def _too_many_sign_ups(request: HttpRequest, form: SignUpForm | None = None) -> HttpResponse:
    """429 with Retry-After: the sign-up form with the message, or (for a link) the refusal page."""
    if form is not None:
        form.add_error(None, TOO_MANY_SIGN_UPS[0].upper() + TOO_MANY_SIGN_UPS[1:] + ".")
        context = {"form": form, "next": _next_url(request)}
        response = render(request, "accounts/sign_up.html", context, status=429)
    else:
        context = {"title": "Sign-up link", "message": TOO_MANY_SIGN_UPS, "back": ""}
        response = render(request, "accounts/refused.html", context, status=429)
    response["Retry-After"] = str(throttling.WINDOW_SECONDS)
    return response


def sign_up(request: HttpRequest) -> HttpResponse:
    """The sign-up form. A valid one mails its address (the link that finishes the sign-up, or a note that the
    address has an account) and answers "check your mail" either way; failures count against the client."""
    if request.user.is_authenticated:
        return redirect("accounts:me")
    form = SignUpForm(request.POST or None)
    client = client_address(request)
    if request.method == "POST":
        if throttling.sign_up_locked(client=client):
            return _too_many_sign_ups(request, form)
        if form.is_valid():
            if not throttling.sign_up_request_allowed(client=client):
                return _too_many_sign_ups(request, form)
            try:
                services.sign_up_request(
                    username=form.cleaned_data["username"],
                    email=form.cleaned_data["email"],
                    password=form.cleaned_data["password1"],
                    site=settings.SITE_URL,
                    next_url=_next_url(request),
                )
            except UserError as exc:
                add_user_error(form, exc)
            else:
                return redirect("accounts:signup-sent")
        throttling.sign_up_failed(client=client)
    context = {"form": form, "next": _next_url(request)}
    return render(request, "accounts/sign_up.html", context, status=400 if form.errors else 200)


def sign_up_sent(request: HttpRequest) -> HttpResponse:
    hours = settings.SIGN_UP_LINK_SECONDS // 3600
    return render(request, "accounts/sign_up_sent.html", {"hours": hours})


def sign_up_confirm(request: HttpRequest, token: str) -> HttpResponse:
    """A sign-up link: who the account will be and a button that creates it (a POST, so that a mail scanner
    that fetches the link creates nothing), which logs the new account in. A broken or refused link counts as
    a failed sign-up of the client."""
    client = client_address(request)
    if throttling.sign_up_locked(client=client):
        return _too_many_sign_ups(request)
    try:
        if request.method == "POST":
            user, next_url = services.sign_up_complete(token=token)
        else:
            pending = services.check_sign_up_token(token)
    except UserError as exc:
        throttling.sign_up_failed(client=client)
        return _refused(
            request, exc, title="Sign-up link", back=reverse("accounts:signup"), back_label="← Sign up"
        )
    if request.method != "POST":
        context = {"username": pending.username, "email": pending.email}
        return render(request, "accounts/sign_up_confirm.html", context)
    login(request, user, backend=MODEL_BACKEND)
    messages.success(request, f"Welcome, {user.get_username()}: create your player or claim yours below.")
    safe = url_has_allowed_host_and_scheme(
        next_url, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    )
    return redirect(next_url if next_url and safe else reverse("accounts:me"))


class LoginView(BadFormIs400, auth_views.LoginView):
    """Log in with a username and password; failures count towards django-axes' lockout (the authentication
    backend is axes' first), exactly as on the admin's login."""

    template_name = "accounts/login.html"
    redirect_authenticated_user = True


@require_POST
def log_out(request: HttpRequest) -> HttpResponse:
    """Log out (a POST, from the header's button: a link would let any page log you out)."""
    logout(request)
    messages.success(request, "You are logged out.")
    return redirect("home")


class PasswordChangeView(BadFormIs400, auth_views.PasswordChangeView):
    template_name = "accounts/password_change.html"
    success_url = reverse_lazy("accounts:me")

    def form_valid(self, form):
        response = super().form_valid(form)
        messages.success(self.request, "Your password is changed.")
        return response


class PasswordResetView(BadFormIs400, auth_views.PasswordResetView):
    """Ask for a reset link by email; the next page reads the same whether or not a mail went out."""

    form_class = ThrottledPasswordResetForm
    template_name = "accounts/password_reset.html"
    email_template_name = "accounts/password_reset_email.txt"
    subject_template_name = "accounts/password_reset_subject.txt"
    success_url = reverse_lazy("accounts:password-reset-sent")

    @property
    def extra_email_context(self) -> dict[str, str]:  # type: ignore[override]
        """The mail's link leads to `SITE_URL`, whatever host the request came through."""
        return {"site_url": settings.SITE_URL}


class PasswordResetSentView(auth_views.PasswordResetDoneView):
    template_name = "accounts/password_reset_sent.html"


class PasswordResetConfirmView(BadFormIs400, auth_views.PasswordResetConfirmView):
    template_name = "accounts/password_reset_confirm.html"
    success_url = reverse_lazy("accounts:login")

    def form_valid(self, form):
        response = super().form_valid(form)
        messages.success(self.request, "Your password is set: log in with it.")
        return response


@login_required
def me(request: SignedInRequest) -> HttpResponse:
    return _me(request)


def _me(
    request: SignedInRequest,
    *,
    player_form: PlayerNameForm | None = None,
    token_form: ApiTokenForm | None = None,
    status: int = 200,
    zone_typed: str | None = None,
) -> HttpResponse:
    page = selectors.my_page(request.user)
    token = selectors.api_token_of(request.user)
    expires_at = selectors.token_expires_at(token) if token is not None else None
    context = {
        "page": page,
        "player_form": player_form or PlayerNameForm(),
        "token_form": token_form or ApiTokenForm(),
        "token": token,
        "token_expires_at": expires_at,
        "token_expired": expires_at is not None and expires_at <= timezone.now(),
        "my_zone": zones.reader_zone(request.user) if zone_typed is None else zone_typed,
        "site_zone": settings.TIME_ZONE,
    }
    return render(request, "accounts/me.html", context, status=status)


@login_required
@require_POST
def me_time_zone(request: SignedInRequest) -> HttpResponse:
    """Set the zone of the user's own pages (my page, the inbox, results); empty: the site's."""
    typed = request.POST.get("time_zone", "")
    try:
        zone = zones.time_zone_set(user=request.user, time_zone=typed)
    except UserError as exc:
        messages.error(request, exc.message)
        return _me(request, status=exc.status, zone_typed=typed[:64])
    messages.success(request, f"Your pages show times in {zone}.")
    return redirect("accounts:me")


@login_required
@require_POST
def me_player_create(request: SignedInRequest) -> HttpResponse:
    form = PlayerNameForm(request.POST)
    if form.is_valid():
        try:
            player = services.my_player_create(user=request.user, name=form.cleaned_data["name"])
        except Conflict as exc:
            return _refused(request, exc, title="No new player", back=reverse("accounts:me"))
        except UserError as exc:
            add_user_error(form, exc)
            return _me(request, player_form=form, status=exc.status)
        messages.success(request, f"You play as {player.name}.")
        return redirect("accounts:me")
    return _me(request, player_form=form, status=400)


@login_required
@require_POST
def api_token_create(request: SignedInRequest) -> HttpResponse:
    """A new API token that lasts the days chosen, shown on this answer only (the page is not a redirect, so
    the key is stored nowhere else)."""
    form = ApiTokenForm(request.POST)
    if not form.is_valid():
        return _me(request, token_form=form, status=400)
    issued = services.api_token_create(user=request.user, days=form.cleaned_data["days"])
    context = {"key": issued.key, "expires_at": issued.expires_at}
    return render(request, "accounts/token_created.html", context)


@login_required
@require_POST
def api_token_revoke(request: SignedInRequest) -> HttpResponse:
    revoked = services.api_token_revoke(user=request.user)
    messages.success(request, "Your API token is revoked." if revoked else "You had no API token.")
    return redirect("accounts:me")


def _refused(
    request: HttpRequest, exc: UserError, *, title: str, back: str = "", back_label: str = ""
) -> HttpResponse:
    context = {"title": title, "message": exc.message, "back": back, "back_label": back_label}
    return render(request, "accounts/refused.html", context, status=exc.status)


@login_required
@require_POST
def claim_link_issue(request: SignedInRequest) -> HttpResponse:
    """Issue a claim link for a player (staff, or an organizer of a tournament the player is in); the answer
    shows the link, once."""
    form = ClaimIssueForm(request.POST)
    if not form.is_valid():
        return _refused(request, UserError("name the player by id", field="player"), title="No claim link")
    try:
        issued = services.claim_link_issue(by=request.user, player_id=form.cleaned_data["player"])
    except UserError as exc:
        return _refused(request, exc, title="No claim link")
    url = request.build_absolute_uri(reverse("accounts:claim", kwargs={"token": issued.token}))
    context = {"link": issued.link, "player": issued.link.player, "url": url}
    return render(request, "accounts/claim_issued.html", context)


def claim(request: HttpRequest, token: str) -> HttpResponse:
    """A claim link: who it is for and, for a signed-in user without a player, a button that claims it."""
    link = selectors.claim_link_for_token(token)
    if link is None:
        return _refused(request, NotFound(services.NO_SUCH_CLAIM_LINK), title="Claim link")
    if request.method == "POST":
        if not request.user.is_authenticated:
            return redirect_to_login(request.path)
        try:
            player = services.claim_redeem(user=request.user, token=token)
        except UserError as exc:
            return _refused(request, exc, title="Claim link", back=reverse("accounts:me"))
        messages.success(request, f"You play as {player.name} now: its results and ratings are yours.")
        return redirect("accounts:me")
    try:
        services.check_claim_link(link=link, user=request.user)
    except UserError as exc:
        return _refused(request, exc, title="Claim link", back=reverse("accounts:me"))
    return render(request, "accounts/claim.html", {"player": link.player, "link": link})


@login_required
def account_delete(request: SignedInRequest) -> HttpResponse:
    """Delete my account: the confirmation page asks for the password; the player and its results stay."""
    form = DeleteAccountForm(request.POST or None, request=request)
    if request.method == "POST" and form.is_valid():
        try:
            services.account_delete(
                user=request.user,
                password=form.cleaned_data["password"],
                forget_name=form.cleaned_data["forget_name"],
            )
        except UserError as exc:
            add_user_error(form, exc)
        else:
            logout(request)
            messages.success(request, "Your account is deleted.")
            return redirect("home")
    context = {"form": form, "player": selectors.player_of(request.user)}
    return render(request, "accounts/delete.html", context, status=400 if form.errors else 200)


app_name = "accounts"

urlpatterns = [
    path("accounts/signup/", sign_up, name="signup"),
    path("accounts/signup/sent/", sign_up_sent, name="signup-sent"),
    path("accounts/signup/<str:token>/", sign_up_confirm, name="signup-confirm"),
    path("accounts/login/", LoginView.as_view(), name="login"),
    path("accounts/logout/", log_out, name="logout"),
    path("accounts/password/", PasswordChangeView.as_view(), name="password-change"),
    path("accounts/password/reset/", PasswordResetView.as_view(), name="password-reset"),
    path("accounts/password/reset/sent/", PasswordResetSentView.as_view(), name="password-reset-sent"),
    path(
        "accounts/password/reset/<uidb64>/<token>/",
        PasswordResetConfirmView.as_view(),
        name="password-reset-confirm",
    ),
    path("accounts/delete/", account_delete, name="delete"),
    path("me/", me, name="me"),
    path("me/player/", me_player_create, name="player-create"),
    path("me/token/", api_token_create, name="token-create"),
    path("me/time-zone/", me_time_zone, name="time-zone"),
    path("me/token/revoke/", api_token_revoke, name="token-revoke"),
    path("claims/new/", claim_link_issue, name="claim-issue"),
    path("claims/<str:token>/", claim, name="claim"),
]
