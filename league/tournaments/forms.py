"""Forms of the tournament pages. They only parse input; every rule is checked by the services."""

import csv
import io
import re
from typing import Any, TypedDict, cast

from django import forms
from django.conf import settings

from games.core.errors import OptionError
from games.core.spec import Option
from league.core.bounds import Bounds
from league.core.catalogue import game_choices, game_spec, game_specs
from league.core.errors import UserError
from league.core.json_input import parse_json
from league.tournaments import clock, seam, services
from league.tournaments.models import Tournament, default_time_zone
from league.tournaments.services import (
    CAPACITY_BOUNDS,
    DAY2_POINTS_LIMIT,
    ROLES,
    SETTING_BOUNDS,
    SHIFT_DAYS,
    SHIFT_HOURS,
    BatchEntry,
)

FORMATS = dict(Tournament.Format.choices)


class IntegerLimits(TypedDict):
    """The bounds an IntegerField takes (`Bounds.limits` of a setting counted in whole numbers)."""

    min_value: int
    max_value: int


def _limits(bounds: Bounds) -> IntegerLimits:
    return cast(IntegerLimits, bounds.limits)  # the settings of these fields are whole numbers


FORMAT_FIELDS = {  # the settings that only some formats use; the others ignore them (and their errors)
    "rounds": ("swiss", "round_robin", "stages"),
    "first_stage": ("stages",),
    "cut_size": ("stages",),
    "cut_format": ("stages",),
    "advance": ("single_elimination", "stages"),
    "third_place": ("single_elimination", "stages"),
    "grand_final_reset": ("double_elimination", "stages"),
    "requested_bye_score": ("swiss", "stages"),
    "day2_after_round": ("swiss",),
    "day2_points": ("swiss",),
}
IGNORED_VALUE = {  # what an irrelevant format setting is saved as
    "rounds": None,
    "first_stage": "swiss",
    "cut_size": None,
    "cut_format": "single_elimination",
    "advance": 1,
    "third_place": False,
    "grand_final_reset": True,
    "requested_bye_score": Tournament.ByeScore.ZERO,
    "day2_after_round": None,
    "day2_points": None,
}
TIEBREAK_LABELS = {
    "points": "Points",
    "opponents_points": "Opponents' points (sum)",
    "opponents_points_average": "Opponents' points per opponent (fair with mixed table sizes)",
    "buchholz_cut1": "Buchholz cut 1 (without the weakest opponent)",
    "buchholz_median": "Median Buchholz (without the weakest and the strongest)",
    "sonneborn_berger": "Sonneborn–Berger (2 seats)",
    "opponents_match_win_percentage": "Opponents' match-win % (33% floor, card games)",
    "cumulative": "Cumulative (running totals summed)",
    "wins": "Wins",
    "head_to_head": "Head to head",
    "seed": "Seed",
}
TIEBREAK_PICKS = 6  # selects shown (more when a tournament uses more)
TABLE_SIZES = range(2, 8)  # the points editor's rows: every table size a game can have
POINTS_NUMBER = re.compile(r"-?[0-9]{1,6}(?:\.[0-9]{1,3})?")


def _ordinal(number: int) -> str:
    return f"{number}{ {1: 'st', 2: 'nd', 3: 'rd'}.get(number if number < 20 else number % 10, 'th') }"


def _formats_text(formats: tuple[str, ...]) -> str:
    """ "Swiss, round robin and stages": the formats a field applies to, for the page without JavaScript."""
    names = [
        FORMATS[name].split(":")[0].lower() if index else FORMATS[name].split(":")[0]
        for index, name in enumerate(formats)
    ]
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def _shown(value: float) -> str:
    return f"{value:g}"


class LocalTimeInput(forms.DateTimeInput):
    input_type = "datetime-local"


class ZonePicker(forms.Select):
    """A choice of every IANA zone; the field stays text, so the service matches what a client sends without
    regard to case (`clock.check_zone`)."""

    def __init__(self, attrs=None):
        super().__init__(attrs, choices=[(name, name) for name in sorted(clock.zone_names())])


class TournamentForm(forms.Form):
    """A tournament's settings, from typed inputs only: a checkbox, number or choice per variant option of
    each game (the chosen game's are read), points per place per table size, tie-breaks as an ordered list
    of choices. Settings of other formats than the chosen one are ignored, errors included. With
    `with_schedule` (the create page) also the event's date, start time and time zone."""

    name = forms.CharField(max_length=120)
    game_id = forms.ChoiceField(label="Game", choices=())
    format = forms.ChoiceField(choices=Tournament.Format.choices, initial=Tournament.Format.SWISS)
    start_date = forms.DateField(required=False, label="Date", widget=forms.DateInput(attrs={"type": "date"}))
    start_time = forms.TimeField(
        required=False, label="Start time", widget=forms.TimeInput(attrs={"type": "time"})
    )
    time_zone = forms.CharField(max_length=64, required=False, label="Time zone", widget=ZonePicker())
    venue = forms.CharField(max_length=200, required=False, help_text="Where the event takes place.")
    description = forms.CharField(
        max_length=4000,
        required=False,
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text="Shown on the tournament's page: rules, prizes, what to bring.",
    )
    table_size = forms.IntegerField(
        initial=4, label="Seats per table", **_limits(SETTING_BOUNDS["table_size"])
    )
    leftovers = forms.ChoiceField(
        choices=Tournament.Leftovers.choices, label="Players who do not fill a table"
    )
    rounds = forms.IntegerField(
        required=False,
        initial=4,
        **_limits(SETTING_BOUNDS["rounds"]),
        help_text="Swiss: rounds to play. Round robin: empty for one full cycle. "
        "Stages: rounds of the first stage.",
    )
    first_stage = forms.ChoiceField(
        choices=[("swiss", "Swiss"), ("round_robin", "Round robin")], required=False, label="First stage"
    )
    cut_size = forms.IntegerField(
        required=False, label="Players in the top cut", **_limits(SETTING_BOUNDS["cut_size"])
    )
    cut_format = forms.ChoiceField(
        choices=[("single_elimination", "Single elimination"), ("double_elimination", "Double elimination")],
        required=False,
        label="Top cut format",
    )
    advance = forms.IntegerField(
        initial=1, label="Advancing per table (tables of 3 or more)", **_limits(SETTING_BOUNDS["advance"])
    )
    third_place = forms.BooleanField(required=False, label="Third-place match (single elimination)")
    grand_final_reset = forms.BooleanField(
        required=False, initial=True, label="Grand final reset (double elimination)"
    )
    requested_bye_score = forms.ChoiceField(
        choices=Tournament.ByeScore.choices,
        required=False,
        initial=Tournament.ByeScore.ZERO,
        label="A bye a player asks for scores",
        help_text="A bye the pairing gives (an odd player out) always scores as a win.",
    )
    day2_after_round = forms.IntegerField(
        required=False,
        label="Day 2 after round",
        **_limits(SETTING_BOUNDS["day2_after_round"]),
        help_text="The last round of Day 1; the later rounds are Day 2, for the players with the points "
        "below. Empty: one day.",
    )
    day2_points = forms.FloatField(
        required=False,
        min_value=0,
        max_value=DAY2_POINTS_LIMIT,
        label="Points that qualify for Day 2",
        help_text="Everyone with at least this many points after Day 1 plays Day 2 (not a number of places).",
    )
    auto_next_round = forms.BooleanField(
        required=False,
        label="Start the next round as soon as every table is in",
        help_text="It is generated by itself and published when its draft has no warning and no dispute is "
        "open; otherwise it waits as a draft and you are told.",
    )
    scale_points = forms.BooleanField(
        required=False,
        initial=True,
        label="Scale points to the table size",
        help_text="Winning a short table (3 among tables of 4) earns what winning a full table earns: "
        "a table's points are multiplied by first place at the preferred size over first place at its size.",
    )
    rated = forms.BooleanField(
        required=False, initial=True, help_text="Rated tournaments count in the game's ratings."
    )
    result_reporting = forms.ChoiceField(
        choices=Tournament.Reporting.choices,
        initial=Tournament.Reporting.ORGANIZER,
        label="Results",
        required=False,
        help_text="With self-report a seated player reports the table's result and every other player at the "
        "table confirms it before it counts; organizers can always enter or correct a result.",
    )
    two_seat_confirmation = forms.ChoiceField(
        choices=Tournament.TwoSeatConfirmation.choices,
        initial=Tournament.TwoSeatConfirmation.OPPONENT,
        label="Self-report at tables of 2",
        required=False,
    )
    dispute_window_minutes = forms.IntegerField(
        initial=15,
        label="Dispute window (minutes)",
        required=False,
        **_limits(SETTING_BOUNDS["dispute_window_minutes"]),
        help_text="Self-report: how long after a confirmed result is stored a player at the table may still "
        "dispute it (0: not at all).",
    )

    def __init__(self, *args, with_schedule: bool = True, **kwargs):
        super().__init__(*args, **kwargs)
        cast(forms.ChoiceField, self.fields["game_id"]).choices = game_choices()  # declared above
        self.with_schedule = with_schedule
        if with_schedule:
            self.fields["time_zone"].initial = default_time_zone()
        else:
            for name in ("start_date", "start_time", "time_zone"):
                del self.fields[name]
        # by game id (looked up with None too, when no game is chosen)
        self.option_fields: dict[str | None, list[tuple[Option, str]]] = {}
        for spec in game_specs():
            self.option_fields[spec.id] = []
            for option in spec.options:
                name = f"option__{spec.id}__{option.name}"
                self.fields[name] = _option_field(option)
                self.option_fields[spec.id].append((option, name))
        for size in TABLE_SIZES:
            for place in range(1, size + 1):
                self.fields[f"points__{size}__{place}"] = forms.CharField(
                    required=False,
                    max_length=12,
                    initial=_shown(size - place),
                    label=_ordinal(place),
                    widget=forms.NumberInput(attrs={"step": "any", "class": "points-input"}),
                )
        picks = max(TIEBREAK_PICKS, len((self.initial or {}).get("tiebreaks") or ()) + 1)
        self.tiebreak_names = [
            f"tiebreak_{number}" for number in range(1, min(picks, len(seam.TIEBREAKS)) + 1)
        ]
        defaults = list(seam.DEFAULT_TIEBREAKS)
        choices = [("", "—"), *((key, TIEBREAK_LABELS[key]) for key in seam.TIEBREAKS)]
        for index, name in enumerate(self.tiebreak_names):
            self.fields[name] = forms.ChoiceField(
                required=False,
                choices=choices,
                label=_ordinal(index + 1),
                initial=defaults[index] if index < len(defaults) else "",
            )

    @classmethod
    def of(cls, tournament: Tournament, data=None) -> "TournamentForm":
        """The settings form of an existing tournament (the schedule has its own form)."""
        initial = {name: getattr(tournament, name) for name in services.SETTINGS if name in cls.base_fields}
        initial["tiebreaks"] = list(tournament.tiebreaks or seam.DEFAULT_TIEBREAKS)
        form = cls(data, with_schedule=False, initial=initial)
        for index, name in enumerate(form.tiebreak_names):
            form.initial[name] = initial["tiebreaks"][index] if index < len(initial["tiebreaks"]) else ""
        for option, name in form.option_fields.get(tournament.game_id, []):
            if option.name in tournament.options:
                form.initial[name] = tournament.options[option.name]
        for size, points in (tournament.points or {}).items():
            for place, value in enumerate(points, start=1):
                form.initial[f"points__{size}__{place}"] = _shown(value)
        return form

    def clean(self) -> dict[str, Any]:
        data = cast(dict[str, Any], super().clean())  # Form.clean returns cleaned_data
        fmt = data.get("format")
        for name, formats in FORMAT_FIELDS.items():
            if fmt not in formats:
                self.errors.pop(name, None)
                data[name] = IGNORED_VALUE[name]
        game = data.get("game_id")
        for spec_id, fields in self.option_fields.items():
            for _, name in fields:
                if spec_id != game:
                    self.errors.pop(name, None)
        data["options"] = self._options(game)
        data["tiebreaks"] = self._tiebreaks()
        if self.with_schedule:
            if data.get("start_date") and not data.get("start_time"):
                self.add_error("start_time", "give the start time too")
            if data.get("start_time") and not data.get("start_date"):
                self.add_error("start_date", "give the date too")
        if "table_size" in data and game:
            data["points"] = self._points(game, data)
        return data

    def _options(self, game: str | None) -> dict:
        """The chosen game's options, each checked by the engine's own validation."""
        values = {}
        for option, name in self.option_fields.get(game, []):
            raw = self.cleaned_data.get(name)
            if option.kind != "bool" and raw in (None, ""):
                continue
            try:
                values[option.name] = option.validate(raw)
            except OptionError as exc:
                self.add_error(name, str(exc))
        return values

    def _tiebreaks(self) -> list[str]:
        chosen = []
        for name in self.tiebreak_names:
            key = self.cleaned_data.get(name)
            if not key:
                continue
            if key in chosen:
                self.add_error(name, f"{TIEBREAK_LABELS[key]} is already chosen above: each tie-break once")
            chosen.append(key)
        return chosen

    def _points(self, game: str, data: dict) -> dict[str, list[float]]:
        """Points per place of the sizes the tournament's tables can have; only those that differ from the
        default k - place are stored."""
        try:
            options = game_spec(game).validate_options(data["options"])
        except (OptionError, UserError):
            return {}
        points = {}
        planned = Tournament(
            game_id=game,
            options=options,
            table_size=data["table_size"],
            leftovers=data.get("leftovers") or Tournament.Leftovers.SHORT,
        )
        for size in seam.table_sizes_of(planned):
            values = []
            for place in range(1, size + 1):
                name = f"points__{size}__{place}"
                raw = (self.cleaned_data.get(name) or "").strip()
                if raw == "":
                    values.append(float(size - place))
                elif POINTS_NUMBER.fullmatch(raw):
                    values.append(float(raw))
                else:
                    self.add_error(name, "a number, e.g. 3 or 1.5")
            if len(values) == size and values != [float(size - place) for place in range(1, size + 1)]:
                points[str(size)] = values
        return points

    def settings(self) -> dict:
        """The cleaned settings as the services take them."""
        data = {name: self.cleaned_data[name] for name in services.SETTINGS if name in self.cleaned_data}
        data["first_stage"] = data["first_stage"] or "swiss"
        data["cut_format"] = data["cut_format"] or "single_elimination"
        data["requested_bye_score"] = data["requested_bye_score"] or Tournament.ByeScore.ZERO
        data["result_reporting"] = data["result_reporting"] or Tournament.Reporting.ORGANIZER
        data["two_seat_confirmation"] = (
            data["two_seat_confirmation"] or Tournament.TwoSeatConfirmation.OPPONENT
        )
        if data["dispute_window_minutes"] is None:
            data["dispute_window_minutes"] = 15
        if self.with_schedule:
            date, time = self.cleaned_data.get("start_date"), self.cleaned_data.get("start_time")
            data["time_zone"] = self.cleaned_data.get("time_zone") or None
            data["starts_at"] = f"{date:%Y-%m-%d}T{time:%H:%M}" if date and time else None
        return data

    def cut_plan(self) -> str:
        """What the top cut typed (or stored) becomes, in words (`services.top_cut_plan`); "" where there is
        no cut or the other settings do not make a table rule yet."""
        data = getattr(self, "cleaned_data", None) if self.is_bound else None

        def shown(name: str) -> Any:
            if data is not None:
                return data.get(name)
            return self.initial.get(name, self.fields[name].initial if name in self.fields else None)

        try:
            planned = Tournament(
                game_id=shown("game_id"),
                options=game_spec(shown("game_id")).validate_options(
                    (data or {}).get("options") or self.initial.get("options") or {}
                ),
                format=shown("format"),
                table_size=int(shown("table_size")),
                leftovers=shown("leftovers") or Tournament.Leftovers.SHORT,
                cut_size=shown("cut_size"),
                advance=int(shown("advance") or 1),
                cut_format=shown("cut_format") or "single_elimination",
            )
            return services.top_cut_plan(planned)
        except (OptionError, UserError, KeyError, TypeError, ValueError):
            return ""

    # What the template lays out.
    def format_rows(self) -> list[dict]:
        """The format settings with the formats each applies to (a data attribute for the script, words for
        the page without it)."""
        return [
            {"field": self[name], "formats": " ".join(formats), "for": _formats_text(formats)}
            for name, formats in FORMAT_FIELDS.items()
        ]

    def option_sets(self) -> list[dict]:
        return [
            {
                "game": spec.id,
                "name": spec.name,
                "fields": [self[name] for _, name in self.option_fields[spec.id]],
            }
            for spec in game_specs()
        ]

    def points_rows(self) -> list[dict]:
        return [
            {"size": size, "fields": [self[f"points__{size}__{place}"] for place in range(1, size + 1)]}
            for size in TABLE_SIZES
        ]

    def tiebreak_fields(self) -> list:
        return [self[name] for name in self.tiebreak_names]

    def disable(self, keep: tuple[str, ...] = ()) -> None:
        """Show the settings read-only (after the start), but for those named in `keep`."""
        for name, field in self.fields.items():
            field.disabled = name not in keep


def _option_field(option: Option) -> forms.Field:
    """A form field for one variant option: a checkbox, a number with its bounds, a choice, or text. Values
    stay as typed; the engine validates the chosen game's (`Option.validate`)."""
    label = option.name.replace("_", " ").capitalize()
    if option.kind == "bool":
        return forms.BooleanField(required=False, initial=option.default, label=label, help_text=option.help)
    if option.kind in ("int", "float"):
        attrs = {"step": "1" if option.kind == "int" else "any"}
        attrs.update(
            {
                key: f"{value:g}"
                for key, value in (("min", option.min), ("max", option.max))
                if value is not None
            }
        )
        return forms.CharField(
            required=False,
            initial=option.default,
            label=label,
            help_text=option.help,
            max_length=30,
            widget=forms.NumberInput(attrs=attrs),
        )
    if option.kind == "choice":
        choices = [(str(choice), str(choice).replace("_", " ")) for choice in option.choices]
        return forms.CharField(
            required=False,
            initial=str(option.default),
            label=label,
            help_text=option.help,
            max_length=60,
            widget=forms.Select(choices=choices),
        )
    return forms.CharField(
        required=False, initial=option.default, label=label, help_text=option.help, max_length=200
    )


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


def participants_body_limit() -> int:
    """The cap of the body of a tournament's page and of the API's batch registration (league.core.bodies):
    room for a CSV of MAX_CSV_BYTES, or a batch of MAX_BATCH_JSON coming back with its names to confirm."""
    return settings.PARTICIPANTS_MAX_BODY_BYTES


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
        required=False,
        label="Or a CSV of participants",
        help_text="One row per player: name, and optionally a seed.",
    )
    entries = forms.CharField(required=False, widget=forms.HiddenInput, max_length=MAX_BATCH_JSON)
    confirm_new = forms.BooleanField(required=False, widget=forms.HiddenInput)

    def clean(self) -> dict[str, Any]:
        data = cast(dict[str, Any], super().clean())  # Form.clean returns cleaned_data
        if self.errors:
            return data
        if data.get("entries"):
            data["batch"] = _entries_from_json(data["entries"])
        elif data.get("participants"):
            data["batch"] = _entries_from_csv(data["participants"])
        else:
            lines = (data.get("names") or "").splitlines()
            data["batch"] = [
                BatchEntry(line.strip(), None, number) for number, line in enumerate(lines, 1) if line.strip()
            ]
        if not data["batch"]:
            raise forms.ValidationError("name at least one player")
        return data


def _entries_from_json(text: str) -> list[BatchEntry]:
    try:
        rows = parse_json(text)
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
    advancing = forms.TypedMultipleChoiceField(
        coerce=int, choices=(), required=False, widget=forms.CheckboxSelectMultiple, label="Goes through"
    )

    def __init__(self, *args, seats=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["absent"].choices = [(seat.player_id, seat.player.name) for seat in seats]
        self.fields["advancing"].choices = self.fields["absent"].choices
        self.fields["advancing"].widget.attrs["id"] = "close-advancing"


class SignupForm(forms.Form):
    """How players sign up; the service checks the rest (and the state)."""

    self_signup = forms.BooleanField(required=False, label="Players join and leave themselves")
    capacity = forms.IntegerField(
        required=False,
        label="Places (empty: no cap)",
        **_limits(CAPACITY_BOUNDS),
        widget=forms.NumberInput(attrs={"class": "places"}),
    )
    waitlist = forms.BooleanField(required=False, label="When full, joiners go to a waitlist")
    approval = forms.BooleanField(required=False, label="Organizers approve each entry")

    @classmethod
    def of(cls, tournament: Tournament, data=None) -> "SignupForm":
        return cls(data, initial={name: getattr(tournament, name) for name in cls.base_fields})


class CreateSignupForm(SignupForm):
    """Sign-up and check-in on the create form. Open sign-up starts off (as the model's and the API's default:
    an invitational stays closed to strangers); typing a cap turns it on until the box is touched
    (`settings-form.js`), so an event with places to fill opens without a second visit."""

    self_signup = forms.BooleanField(
        required=False,
        initial=False,
        label=SignupForm.base_fields["self_signup"].label,
        help_text="Turned on when you set a cap (untick it to keep the event by invitation).",
    )
    checkin_opens_at = forms.CharField(
        required=False,
        max_length=40,
        label="Check-in opens (empty: no check-in)",
        widget=LocalTimeInput(),
        help_text="A local time of the event's zone before the start: players check themselves in from then.",
    )

    def signup(self) -> dict:
        return {name: self.cleaned_data[name] for name in SignupForm.base_fields}


class ScheduleForm(forms.Form):
    """The event's clock, in its own zone: a time input per planned round start (`round_time_1`, ...; one
    more than the rounds planned or scheduled, so a round can be added). Times stay text here: the service
    reads them in the zone given."""

    time_zone = forms.CharField(max_length=64, widget=ZonePicker())
    starts_at = forms.CharField(required=False, max_length=40, label="Start", widget=LocalTimeInput())
    checkin_opens_at = forms.CharField(
        required=False, max_length=40, label="Check-in opens (empty: no check-in)", widget=LocalTimeInput()
    )

    def __init__(self, *args, slots: int = 1, **kwargs):
        super().__init__(*args, **kwargs)
        data = args[0] if args else kwargs.get("data")
        posted = [_round_slot(key) for key in (data or {})]
        high = int(SETTING_BOUNDS["rounds"].high)
        self.round_names = [
            f"round_time_{number}" for number in range(1, min(max([slots, *posted]), high) + 1)
        ]
        for number, name in enumerate(self.round_names, start=1):
            self.fields[name] = forms.CharField(
                required=False, max_length=40, label=f"Round {number}", widget=LocalTimeInput()
            )

    @classmethod
    def of(cls, tournament: Tournament, round_times, data=None) -> "ScheduleForm":
        zone = tournament.time_zone
        by_number = {row.number: row.starts_at for row in round_times}
        initial = {
            "time_zone": zone,
            "starts_at": clock.local_input(tournament.starts_at, zone, sep="T"),
            "checkin_opens_at": clock.local_input(tournament.checkin_opens_at, zone, sep="T"),
        }
        for number, starts_at in by_number.items():
            initial[f"round_time_{number}"] = clock.local_input(starts_at, zone, sep="T")
        slots = max(max(by_number, default=0), tournament.rounds or 0) + 1
        return cls(data, slots=slots, initial=initial)

    def round_fields(self) -> list:
        return [self[name] for name in self.round_names]

    def schedule(self) -> dict:
        data = {name: self.cleaned_data[name] for name in ("time_zone", "starts_at", "checkin_opens_at")}
        times = [self.cleaned_data[name].strip() for name in self.round_names]
        while times and not times[-1]:
            times.pop()
        data["round_times"] = times
        return data


def _round_slot(key: str) -> int:
    """The round number of a posted `round_time_N` (0 for any other key)."""
    number = key.removeprefix("round_time_")
    return int(number) if key.startswith("round_time_") and number.isdigit() and len(number) <= 3 else 0


class RoleForm(forms.Form):
    username = forms.CharField(
        max_length=150,
        label="User name",
        widget=forms.TextInput(attrs={"class": "user-name", "autocomplete": "off"}),
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


class DisputeForm(forms.Form):
    """A dispute's note and the report it disputes; the places claimed come from a `ResultForm` (prefix
    "claim")."""

    report = forms.IntegerField(required=False, widget=forms.HiddenInput, min_value=1)
    note = forms.CharField(
        required=False,
        max_length=500,
        label="What happened",
        widget=forms.Textarea(attrs={"rows": 2, "placeholder": "e.g. Cal's last pile was counted twice"}),
    )


class CloneForm(forms.Form):
    """A clone of an event: the new name and how far its clock moves (`services.tournament_clone`)."""

    name = forms.CharField(required=False, max_length=120, label="Name of the new event")
    shift_days = forms.IntegerField(
        initial=0,
        label="Move its times by (days)",
        min_value=int(SHIFT_DAYS.low),
        max_value=int(SHIFT_DAYS.high),
        widget=forms.NumberInput(attrs={"inputmode": "numeric", "class": "narrow"}),
    )
    shift_hours = forms.IntegerField(
        initial=0,
        label="and (hours)",
        min_value=int(SHIFT_HOURS.low),
        max_value=int(SHIFT_HOURS.high),
        widget=forms.NumberInput(attrs={"inputmode": "numeric", "class": "narrow"}),
    )
