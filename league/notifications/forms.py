"""Forms of the inbox and the webhook pages; the services check everything again."""

from __future__ import annotations

from typing import cast

from django import forms
from django.contrib.auth.models import User
from django.db.models import Q

from league.bots.models import BotLeague
from league.notifications.models import Event, Kind
from league.tournaments.models import Tournament

SCOPE_CHOICES_LIMIT = 200


class MailForm(forms.Form):
    email_enabled = forms.BooleanField(required=False, label="Mail me my notifications")
    kinds = forms.MultipleChoiceField(
        choices=Kind.choices, required=False, widget=forms.CheckboxSelectMultiple, label="Mail me when"
    )


def scope_choices(user: User) -> list[tuple[str, str]]:
    """The tournaments the user organizes (newest first) and, for site staff, the bot leagues."""
    tournaments = Tournament.objects.exclude(status=Tournament.Status.FINISHED)
    if not user.is_staff:
        tournaments = Tournament.objects.filter(Q(organizers=user) | Q(created_by=user)).distinct()
    choices = [
        (f"t:{pk}", f"Tournament: {name}")
        for pk, name in tournaments.order_by("-id").values_list("pk", "name")[:SCOPE_CHOICES_LIMIT]
    ]
    if user.is_staff:
        leagues = BotLeague.objects.order_by("-id").values_list("pk", "name")[:SCOPE_CHOICES_LIMIT]
        choices += [(f"l:{pk}", f"Bot league: {name}") for pk, name in leagues]
    return choices


class WebhookForm(forms.Form):
    scope = forms.CharField(max_length=40, label="For")
    url = forms.CharField(
        max_length=500, label="URL", widget=forms.URLInput(attrs={"placeholder": "https://"})
    )
    events = forms.MultipleChoiceField(
        choices=Event.choices, widget=forms.CheckboxSelectMultiple, label="Events"
    )

    def __init__(self, *args, user: User, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["scope"].widget = forms.Select(choices=scope_choices(user))
        cast(forms.CharField, self.fields["url"]).strip = True  # the url field is a CharField

    def clean_scope(self) -> tuple[str, int]:
        kind, _, pk = self.cleaned_data["scope"].partition(":")
        if kind not in ("t", "l") or not pk.isdigit() or len(pk) > 18:
            raise forms.ValidationError("choose a tournament or a bot league")
        return kind, int(pk)
