"""The staff form for a new match: game, seats in order, options, rated flag."""

from django import forms

from league.core.catalogue import game_choices
from league.core.forms import json_object
from league.matches.services import MAX_SEATS, MIN_SEATS
from league.players.models import Player


class MatchForm(forms.Form):
    game = forms.ChoiceField(choices=())
    rated = forms.BooleanField(required=False, initial=True)
    options = forms.CharField(
        required=False,
        widget=forms.Textarea(attrs={"rows": 2}),
        help_text='Variant options as JSON, e.g. {"allow_two_players": true}; empty for the defaults.',
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["game"].choices = game_choices()
        players = [("", "—")] + list(
            Player.objects.filter(active=True).order_by("name").values_list("id", "name")
        )
        for seat in range(MAX_SEATS):
            self.fields[f"seat_{seat}"] = forms.TypedChoiceField(
                label=f"Seat {seat + 1}" + (" (starts)" if seat == 0 else ""),
                choices=players,
                coerce=int,
                required=seat < MIN_SEATS,
                empty_value=None,
            )

    def seat_fields(self):
        return [self[f"seat_{seat}"] for seat in range(MAX_SEATS)]

    def clean_options(self) -> dict:
        return json_object(self.cleaned_data["options"], what="options")

    def player_ids(self) -> list[int]:
        ids = [self.cleaned_data.get(f"seat_{seat}") for seat in range(MAX_SEATS)]
        return [pid for pid in ids if pid is not None]
