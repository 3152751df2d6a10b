"""The account forms: Django's own auth forms, extended. They validate; the services write."""

from __future__ import annotations

from django import forms
from django.conf import settings
from django.contrib.auth import authenticate, get_user_model
from django.contrib.auth.forms import PasswordResetForm, UserCreationForm

from league.accounts import throttling
from league.core.throttling import client_address


class SignUpForm(UserCreationForm):
    """Username (Django's rule, unique ignoring case), an email address and a password that Django's
    validators accept, typed twice. Every field at fault shows its own error. Whether the address has an
    account is no error: the mail sent to it says so (`league.accounts.services.sign_up_request`)."""

    email = forms.EmailField(
        max_length=254,
        help_text="Only you and site staff see it; we mail a link there that finishes your sign-up.",
        widget=forms.EmailInput(attrs={"autocomplete": "email"}),
    )

    class Meta(UserCreationForm.Meta):
        model = get_user_model()
        fields = ("username", "email")

    def clean_email(self) -> str:
        return get_user_model().objects.normalize_email(self.cleaned_data["email"].strip())


class ThrottledPasswordResetForm(PasswordResetForm):
    """Django's reset form, sending at most PASSWORD_RESET_MAILS_PER_HOUR mails an hour to one address and
    to one account (and answering a client's flood with silence); the page after it always reads the same
    (`league.accounts.throttling`)."""

    def save(self, *args, request=None, **kwargs) -> None:
        email = self.cleaned_data["email"]
        if throttling.reset_request_allowed(email=email, client=client_address(request) if request else None):
            super().save(*args, request=request, **kwargs)  # type: ignore[misc]  # Django passes keywords only

    def get_users(self, email):
        return (user for user in super().get_users(email) if throttling.reset_mail_allowed(user_id=user.pk))


class PlayerNameForm(forms.Form):
    name = forms.CharField(max_length=200, strip=False, help_text="How you appear in tables and standings.")


def token_days_choices() -> list[tuple[int, str]]:
    return [(days, f"{days} days") for days in settings.API_TOKEN_DAYS]


class ApiTokenForm(forms.Form):
    """How long a new API token lasts: one of API_TOKEN_DAYS, API_TOKEN_DEFAULT_DAYS when absent (the services
    check it again)."""

    days = forms.TypedChoiceField(
        label="Expires after",
        choices=token_days_choices,
        coerce=int,
        required=False,
        empty_value=None,
        initial=settings.API_TOKEN_DEFAULT_DAYS,
    )


class ClaimIssueForm(forms.Form):
    player = forms.IntegerField(min_value=1, max_value=2**62)


class DeleteAccountForm(forms.Form):
    """Your password (counted by the log-in lockout like any log-in), and whether your player keeps its
    name."""

    password = forms.CharField(
        strip=False, widget=forms.PasswordInput(attrs={"autocomplete": "current-password"})
    )
    forget_name = forms.BooleanField(
        required=False,
        label='Rename my player to "former player N"',
        help_text=(
            "Your player's results stay in the league either way; unticked, they keep your player's name."
        ),
    )

    def __init__(self, *args, request, **kwargs):
        super().__init__(*args, **kwargs)
        self.request = request

    def clean_password(self) -> str:
        password = self.cleaned_data["password"]
        user = self.request.user
        if authenticate(self.request, username=user.get_username(), password=password) is None:
            raise forms.ValidationError("that is not your password")
        return password
