"""Forms of the tournament pages. They only parse input; every rule is checked by the services."""

import csv
import io
import json

from django import forms

from league.core.catalogue import game_choices
from league.core.forms import json_object
from league.tournaments import clock
from league.tournaments.models import Tournament
from league.tournaments.services import CAPACITY_BOUNDS, ROLES, SETTING_BOUNDS, BatchEntry

TIEBREAK_HELP = "In order, comma-separated, from: points, opponents_points, wins, head_to_head, seed."


class TournamentForm(forms.Form):
    name = forms.CharField(max_length=120)
    game_id = forms.ChoiceField(label="Game", choices=())
    options = forms.CharField(
        required=False,
        widget=forms.Textarea(attrs={"rows": 2}),
        help_text='Variant options as JSON, e.g. {"allow_two_players": true}; empty for the defaults.',
    )
    format = forms.ChoiceField(choices=Tournament.Format.choices, initial=Tournament.Format.SWISS)
    table_size = forms.IntegerField(initial=4, label="Seats per table", **SETTING_BOUNDS["table_size"].limits)
    leftovers = forms.ChoiceField(choices=Tournament.Leftovers.choices, label="Players who do not fill a table")
    rounds = forms.IntegerField(
        required=False, initial=4, **SETTING_BOUNDS["rounds"].limits,
        help_text="Swiss: rounds to play. Round robin: empty for one full cycle. Stages: rounds of the first stage.",
    )  # fmt: skip
    first_stage = forms.ChoiceField(
        choices=[("swiss", "Swiss"), ("round_robin", "Round robin")], required=False, label="Stages: first stage"
    )
    cut_size = forms.IntegerField(
        required=False, label="Stages: players in the top cut", **SETTING_BOUNDS["cut_size"].limits
    )
    cut_format = forms.ChoiceField(
        choices=[("single_elimination", "Single elimination"), ("double_elimination", "Double elimination")],
        required=False,
        label="Stages: top cut format",
    )
    advance = forms.IntegerField(
        initial=1, label="Multi-seat elimination: advancing per table", **SETTING_BOUNDS["advance"].limits
    )
    third_place = forms.BooleanField(required=False, label="Single elimination: third-place match")
    grand_final_reset = forms.BooleanField(required=False, initial=True, label="Double elimination: grand final reset")
    points = forms.CharField(
        required=False,
        widget=forms.Textarea(attrs={"rows": 2}),
        help_text='Points per place by table size as JSON, e.g. {"4": [4, 2, 1, 0]}; empty: k − place at a table of k.',
    )
    tiebreaks = forms.CharField(
        required=False,
        label="Tie-breaks",
        initial="points, opponents_points, wins, head_to_head, seed",
        help_text=TIEBREAK_HELP,
        widget=forms.TextInput(attrs={"style": "width: 100%"}),
    )
    rated = forms.BooleanField(required=False, initial=True, help_text="Rated tournaments count in the game's ratings.")

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["game_id"].choices = game_choices()

    def clean_options(self) -> dict:
        return json_object(self.cleaned_data["options"], what="options")

    def clean_points(self) -> dict:
        return json_object(self.cleaned_data["points"], what="points")

    def clean_tiebreaks(self) -> list[str]:
        return [name.strip() for name in self.cleaned_data["tiebreaks"].split(",") if name.strip()]

    def settings(self) -> dict:
        data = dict(self.cleaned_data)
        data["first_stage"] = data["first_stage"] or "swiss"
        data["cut_format"] = data["cut_format"] or "single_elimination"
        return data


class RegisterForm(forms.Form):
    names = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 4}),
        help_text="One player per line; a name nobody has yet makes a new player.",
    )

    def clean_names(self) -> list[str]:
        names = [line.strip() for line in self.cleaned_data["names"].splitlines()]
        names = [name for name in names if name]  # the service checks each (a tab inside is refused)
        if not names:
            raise forms.ValidationError("name at least one player")
        return names


MAX_BATCH_JSON = 400_000
MAX_CSV_BYTES = 1_000_000


class ParticipantsForm(forms.Form):
    """A batch of players to register: names typed one per line, or a CSV file of participants (a name and,
    optionally, a seed per row; a first row "name, seed" is a header). After a first look that found new
    names, the batch comes back as `entries` (JSON) with `confirm_new`. The service checks every line."""

    names = forms.CharField(
        required=False,
        widget=forms.Textarea(attrs={"rows": 4}),
        help_text="One player per line; a name nobody has yet makes a new player (you confirm it first).",
    )
    participants = forms.FileField(
        required=False, label="Or a CSV of participants", help_text="One row per player: name, and optionally a seed."
    )
    entries = forms.CharField(required=False, widget=forms.HiddenInput, max_length=MAX_BATCH_JSON)
    confirm_new = forms.BooleanField(required=False, widget=forms.HiddenInput)

    def clean(self) -> dict:
        data = super().clean()
        if self.errors:
            return data
        if data.get("entries"):
            data["batch"] = _entries_from_json(data["entries"])
        elif data.get("participants"):
            data["batch"] = _entries_from_csv(data["participants"])
        else:
            lines = (data.get("names") or "").splitlines()
            data["batch"] = [BatchEntry(line.strip(), None, number) for number, line in enumerate(lines, 1) if line.strip()]
        if not data["batch"]:
            raise forms.ValidationError("name at least one player")
        return data


def _entries_from_json(text: str) -> list[BatchEntry]:
    try:
        rows = json.loads(text)
        return [BatchEntry(str(row["name"]), row.get("seed"), int(row["line"])) for row in rows]
    except (ValueError, TypeError, KeyError):
        raise forms.ValidationError("the batch came back damaged: type the names again") from None


def _entries_from_csv(upload) -> list[BatchEntry]:
    """Rows of (name[, seed]); a first row whose first cell is "name" is a header. Bad seeds are errors of
    their line, told by the service (the seed stays as typed)."""
    if upload.size > MAX_CSV_BYTES:
        raise forms.ValidationError(f"the CSV file is larger than {MAX_CSV_BYTES // 1_000_000} MB")
    try:
        text = upload.read().decode("utf-8-sig")
    except UnicodeDecodeError:
        raise forms.ValidationError("the CSV file is not UTF-8 text") from None
    entries = []
    for number, row in enumerate(csv.reader(io.StringIO(text)), 1):
        cells = [cell.strip() for cell in row]
        if not any(cells):
            continue
        if number == 1 and cells[0].casefold() == "name":
            continue
        seed_text = cells[1] if len(cells) > 1 else ""
        seed: int | str | None = None
        if seed_text:
            seed = int(seed_text) if seed_text.isdigit() else seed_text
        entries.append(BatchEntry(cells[0], seed, number))
    return entries


class SwapForm(forms.Form):
    first_table = forms.IntegerField(min_value=1)
    first_seat = forms.IntegerField(min_value=1)
    second_table = forms.IntegerField(min_value=1)
    second_seat = forms.IntegerField(min_value=1)


class MoveForm(forms.Form):
    player = forms.TypedChoiceField(coerce=int, choices=())
    to_table = forms.IntegerField(min_value=1)

    def __init__(self, *args, players=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["player"].choices = list(players)


class CloseForm(forms.Form):
    kind = forms.ChoiceField(choices=[("no_show", "No-show"), ("forfeit", "Forfeit")])
    absent = forms.TypedMultipleChoiceField(coerce=int, choices=(), widget=forms.CheckboxSelectMultiple)

    def __init__(self, *args, seats=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["absent"].choices = [(seat.player_id, seat.player.name) for seat in seats]


class SignupForm(forms.Form):
    """How players sign up; the service checks the rest (and the state)."""

    self_signup = forms.BooleanField(required=False, label="Players join and leave themselves")
    capacity = forms.IntegerField(
        required=False, label="Places (empty: no cap)", **CAPACITY_BOUNDS.limits,
        widget=forms.NumberInput(attrs={"style": "width: 6rem"}),
    )  # fmt: skip
    waitlist = forms.BooleanField(required=False, label="When full, joiners go to a waitlist")
    approval = forms.BooleanField(required=False, label="Organizers approve each entry")

    @classmethod
    def of(cls, tournament: Tournament) -> "SignupForm":
        return cls(initial={name: getattr(tournament, name) for name in cls.base_fields})


class LocalTimeInput(forms.DateTimeInput):
    input_type = "datetime-local"


class ScheduleForm(forms.Form):
    """The event's clock, in its own zone. Times stay text here: the service reads them in the zone given."""

    time_zone = forms.CharField(
        max_length=64, help_text="An IANA name, e.g. Europe/Berlin or America/New_York.",
        widget=forms.TextInput(attrs={"list": "zones", "autocomplete": "off", "spellcheck": "false"}),
    )  # fmt: skip
    starts_at = forms.CharField(required=False, max_length=40, label="Start", widget=LocalTimeInput())
    checkin_opens_at = forms.CharField(
        required=False, max_length=40, label="Check-in opens (empty: no check-in)", widget=LocalTimeInput()
    )
    round_times = forms.CharField(
        required=False,
        label="Round times",
        widget=forms.Textarea(attrs={"rows": 4, "placeholder": "2026-12-05 10:00"}),
        help_text="One planned start per line, round 1 first, as 2026-12-05 10:00; an empty line skips a round.",
    )

    @classmethod
    def of(cls, tournament: Tournament, round_times) -> "ScheduleForm":
        zone = tournament.time_zone
        by_number = {row.number: row.starts_at for row in round_times}
        lines = [clock.local_input(by_number.get(number), zone) for number in range(1, max(by_number, default=0) + 1)]
        return cls(initial={
            "time_zone": zone,
            "starts_at": clock.local_input(tournament.starts_at, zone, sep="T"),
            "checkin_opens_at": clock.local_input(tournament.checkin_opens_at, zone, sep="T"),
            "round_times": "\n".join(lines),
        })  # fmt: skip

    def schedule(self) -> dict:
        data = dict(self.cleaned_data)
        lines = data["round_times"].splitlines()
        while lines and not lines[-1].strip():
            lines.pop()
        data["round_times"] = [line.strip() for line in lines]
        return data


class RoleForm(forms.Form):
    username = forms.CharField(
        max_length=150, label="User name", widget=forms.TextInput(attrs={"style": "width: 12rem", "autocomplete": "off"})
    )
    role = forms.ChoiceField(choices=[(role, role.capitalize()) for role in ROLES], initial="organizer")


class AdvancingForm(forms.Form):
    """Who goes through from an elimination table, asked only where the places tie at the cut."""

    advancing = forms.TypedMultipleChoiceField(
        coerce=int, choices=(), required=False, widget=forms.CheckboxSelectMultiple, label="Goes through"
    )

    def __init__(self, *args, seats=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["advancing"].choices = [(seat.player_id, seat.player.name) for seat in seats]
