"""The create form and the settings page: typed inputs built from each game's variant options (a checkbox, a
number with its bounds, a choice), points per place per table size, an ordered tie-break picker, only the
chosen format's and game's settings read; bad input is a form error (400), never a 500; once the tournament
has started its settings are refused (409) and shown read-only."""

from datetime import UTC, datetime
from html.parser import HTMLParser

import pytest

from league.core.catalogue import game_specs
from league.tournaments import services
from league.tournaments.models import Tournament

BASE = {
    "name": "Cup",
    "game_id": "nacho_pile",
    "format": "swiss",
    "table_size": 4,
    "leftovers": "short",
    "rounds": 3,
    "advance": 1,
}


class Controls(HTMLParser):
    """Every input, select and textarea of a page by name: (tag, attributes, options of a select)."""

    def __init__(self, html: str):
        super().__init__()
        self.found: dict[str, tuple[str, dict, list]] = {}
        self._select = None
        self.feed(html)

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag in ("input", "select", "textarea") and "name" in attrs:
            self.found[attrs["name"]] = (tag, attrs, [])
            self._select = attrs["name"] if tag == "select" else None
        elif tag == "option" and self._select:
            self.found[self._select][2].append((attrs.get("value"), "selected" in attrs))

    def handle_endtag(self, tag):
        if tag == "select":
            self._select = None


def controls(response) -> dict[str, tuple[str, dict, list]]:
    return Controls(response.content.decode()).found


@pytest.fixture
def staff_client(client, organizer):
    client.force_login(organizer)
    return client


def test_every_variant_option_of_every_game_is_a_typed_control(staff_client):
    found = controls(staff_client.get("/tournaments/new/"))
    seen = {}
    for spec in game_specs():
        for option in spec.options:
            tag, attrs, options = found[f"option__{spec.id}__{option.name}"]
            if option.kind == "bool":
                seen[(spec.id, option.name)] = (tag, attrs["type"], "checked" in attrs)
            elif option.kind == "int":
                seen[(spec.id, option.name)] = (
                    tag,
                    attrs["type"],
                    attrs["min"],
                    attrs["max"],
                    attrs["value"],
                )
            else:
                seen[(spec.id, option.name)] = (tag, [value for value, _ in options])
    assert seen == {
        ("nacho_pile", "specials_all_identical"): ("input", "checkbox", False),
        ("nacho_pile", "optional_specials"): ("input", "checkbox", False),
        ("nobody_but_us_chickens", "allow_two_players"): ("input", "checkbox", False),
        ("nobody_but_us_chickens", "short_summer_nights"): ("input", "checkbox", False),
        ("nobody_but_us_chickens", "healthy_coop"): ("input", "checkbox", False),
        ("nobody_but_us_chickens", "lone_dog_powerless"): ("input", "checkbox", False),
        ("chicken_foot", "set"): ("select", ["double_six", "double_nine", "double_twelve"]),
        ("chicken_foot", "lead_policy"): (
            "select",
            ["seed_highest_held", "draw_until_required", "skip_unheld"],
        ),
        ("chicken_foot", "spinner_arms"): ("select", ["4", "6"]),
        ("chicken_foot", "round_end"): ("select", ["all_passed", "all_passed_yard_empty", "yard_empty"]),
        ("chicken_foot", "double_blank_value"): ("select", ["0", "25", "50"]),
        ("chickie_nuggs", "sauce_value_buffalo"): ("input", "number", "0", "10", "1"),
        ("chickie_nuggs", "sauce_value_ranch"): ("input", "number", "0", "10", "1"),
        ("chickie_nuggs", "sauce_value_sweet_sour"): ("input", "number", "0", "10", "1"),
        ("chickie_nuggs", "sauce_value_bbq"): ("input", "number", "0", "10", "1"),
        ("chickie_nuggs", "sauce_value_honey_mustard"): ("input", "number", "0", "10", "1"),
    }
    assert not any(tag == "textarea" and name in ("options", "points") for name, (tag, _, _) in found.items())


def test_the_points_editor_is_prefilled_with_k_minus_place_and_the_picker_with_todays_order(staff_client):
    found = controls(staff_client.get("/tournaments/new/"))
    assert [found[f"points__4__{place}"][1]["value"] for place in range(1, 5)] == ["3", "2", "1", "0"]
    assert [found[f"points__7__{place}"][1]["value"] for place in range(1, 8)] == [
        "6",
        "5",
        "4",
        "3",
        "2",
        "1",
        "0",
    ]
    picks = [
        next((value for value, selected in found[f"tiebreak_{n}"][2] if selected), "") for n in range(1, 7)
    ]
    assert picks == ["points", "opponents_points", "wins", "head_to_head", "seed", ""]
    assert [value for value, _ in found["tiebreak_1"][2]] == [
        "",
        "points",
        "opponents_points",
        "opponents_points_average",
        "buchholz_cut1",
        "buchholz_median",
        "sonneborn_berger",
        "opponents_match_win_percentage",
        "cumulative",
        "wins",
        "head_to_head",
        "seed",
    ]
    assert "checked" in found["scale_points"][1]
    assert [value for value, selected in found["requested_bye_score"][2] if selected] == ["zero"]


def test_a_chicken_foot_event_is_saved_from_typed_inputs(staff_client, organizer):
    form = {
        **BASE,
        "name": "Bone Yard Open",
        "game_id": "chicken_foot",
        "option__chicken_foot__set": "double_six",
        "option__chicken_foot__lead_policy": "skip_unheld",
        "option__chicken_foot__spinner_arms": "6",
        "option__chicken_foot__round_end": "yard_empty",
        "option__chicken_foot__double_blank_value": "25",
        "points__4__1": "4",
        "points__4__2": "2",
        "points__4__3": "1",
        "points__4__4": "0",
        "points__3__1": "2",
        "points__3__2": "1",
        "points__3__3": "0",
        "points__5__1": "9",  # tables of 5 cannot happen here (short tables of 3 and 4): ignored
        "tiebreak_1": "points",
        "tiebreak_2": "opponents_points_average",
        "tiebreak_3": "cumulative",
        "tiebreak_4": "",
        "tiebreak_5": "seed",
        "scale_points": "on",
        "requested_bye_score": "half",
        "start_date": "2099-12-05",
        "start_time": "10:30",
        "time_zone": "Europe/Berlin",
        "venue": "  Town hall, room 2 ",
        "description": "Bring your own dominoes.\nPrizes for the top 4.",
    }
    response = staff_client.post("/tournaments/new/", form)
    assert response.status_code == 302
    tournament = Tournament.objects.get()
    assert response["Location"] == f"/tournaments/{tournament.slug}/"
    assert tournament.options == {
        "set": "double_six",
        "lead_policy": "skip_unheld",
        "spinner_arms": 6,
        "round_end": "yard_empty",
        "double_blank_value": 25,
    }
    assert tournament.points == {"4": [4.0, 2.0, 1.0, 0.0]}
    assert tournament.tiebreaks == ["points", "opponents_points_average", "cumulative", "seed"]
    assert (tournament.scale_points, tournament.requested_bye_score) == (True, "half")
    assert (tournament.venue, tournament.description) == (
        "Town hall, room 2",
        "Bring your own dominoes.\nPrizes for the top 4.",
    )
    assert (tournament.time_zone, tournament.starts_at) == (
        "Europe/Berlin",
        datetime(2099, 12, 5, 9, 30, tzinfo=UTC),
    )
    assert list(tournament.organizers.all()) == [organizer]
    page = staff_client.get(tournament.get_absolute_url()).content.decode()
    assert '<p id="venue"><strong>Venue:</strong> Town hall, room 2</p>' in page
    assert (
        '<div class="description" id="description"><p>Bring your own dominoes.<br>Prizes for the top '
        "4.</p></div>" in page
    )


def test_number_and_checkbox_options_are_saved_typed(staff_client):
    response = staff_client.post(
        "/tournaments/new/",
        {
            **BASE,
            "game_id": "chickie_nuggs",
            "option__chickie_nuggs__sauce_value_bbq": "7",
            "option__chickie_nuggs__sauce_value_ranch": "",  # empty: the default
        },
    )
    assert response.status_code == 302
    assert Tournament.objects.get().options == {
        "sauce_value_buffalo": 1,
        "sauce_value_ranch": 1,
        "sauce_value_sweet_sour": 1,
        "sauce_value_bbq": 7,
        "sauce_value_honey_mustard": 1,
    }
    response = staff_client.post(
        "/tournaments/new/",
        {
            **BASE,
            "name": "Coop",
            "game_id": "nobody_but_us_chickens",
            "option__nobody_but_us_chickens__healthy_coop": "on",
        },
    )
    assert response.status_code == 302
    assert Tournament.objects.get(name="Coop").options == {
        "allow_two_players": False,
        "short_summer_nights": False,
        "healthy_coop": True,
        "lone_dog_powerless": False,
    }


def test_the_settings_of_other_formats_and_other_games_are_ignored(staff_client):
    response = staff_client.post(
        "/tournaments/new/",
        {
            **BASE,
            "format": "single_elimination",
            "table_size": 2,
            "rounds": "999",
            "cut_size": "100000",
            "requested_bye_score": "double",
            "third_place": "on",
            "option__chickie_nuggs__sauce_value_bbq": "99",
            "option__chicken_foot__set": "double_fifteen",
            "option__nacho_pile__optional_specials": "on",
        },
    )
    assert response.status_code == 302
    tournament = Tournament.objects.get()
    assert (
        tournament.rounds,
        tournament.cut_size,
        tournament.requested_bye_score,
        tournament.third_place,
    ) == (None, None, "zero", True)
    assert tournament.options == {"specials_all_identical": False, "optional_specials": True}
    assert (tournament.scale_points, tournament.points) == (False, {}), (
        "unchecked: unscaled; defaults: stored as none"
    )


@pytest.mark.parametrize(
    ("change", "errors"),
    [
        (
            {"game_id": "chickie_nuggs", "option__chickie_nuggs__sauce_value_bbq": "11"},
            {
                "option__chickie_nuggs__sauce_value_bbq": [
                    "option sauce_value_bbq: 11 is above the maximum 10"
                ]
            },
        ),
        (
            {"game_id": "chickie_nuggs", "option__chickie_nuggs__sauce_value_bbq": "two"},
            {
                "option__chickie_nuggs__sauce_value_bbq": [
                    "option sauce_value_bbq: expected a whole number, got 'two'"
                ]
            },
        ),
        (
            {"game_id": "chicken_foot", "option__chicken_foot__set": "double_fifteen"},
            {
                "option__chicken_foot__set": [
                    "option set: 'double_fifteen' is not one of double_six, double_nine, double_twelve"
                ]
            },
        ),
        (
            {"tiebreak_2": "luck"},
            {"tiebreak_2": ["Select a valid choice. luck is not one of the available choices."]},
        ),
        (
            {"tiebreak_1": "points", "tiebreak_2": "wins", "tiebreak_3": "wins"},
            {"tiebreak_3": ["Wins is already chosen above: each tie-break once"]},
        ),
        ({"points__4__2": "lots"}, {"points__4__2": ["a number, e.g. 3 or 1.5"]}),
        ({"points__3__1": "1e9"}, {"points__3__1": ["a number, e.g. 3 or 1.5"]}),
        ({"start_date": "2099-12-05"}, {"start_time": ["give the start time too"]}),
        ({"start_time": "10:00"}, {"start_date": ["give the date too"]}),
        (
            {"start_date": "2099-12-05", "start_time": "10:00", "time_zone": "Mars/Olympus"},
            {"time_zone": ["'Mars/Olympus' is not a time zone: give an IANA name such as Europe/Berlin"]},
        ),
        (
            {"points__4__1": "0", "points__4__2": "1", "points__4__3": "2", "points__4__4": "3"},
            {"__all__": ["place points for a table of 4 must not increase: 0, 1, 2, 3"]},
        ),
        (
            {"table_size": "6", "game_id": "chickie_nuggs"},
            {"table_size": ["Chickie Nuggs is played at tables of 2 to 4 with these options"]},
        ),
        ({"rounds": ""}, {"rounds": ["a Swiss tournament needs its number of rounds"]}),
        ({"venue": "x" * 201}, {"venue": ["Ensure this value has at most 200 characters (it has 201)."]}),
    ],
)
def test_bad_input_is_a_form_error_never_a_500(staff_client, change, errors):
    response = staff_client.post("/tournaments/new/", {**BASE, **change})
    assert response.status_code == 400
    assert response.context["form"].errors == errors
    assert not Tournament.objects.exists()


def test_without_a_script_every_setting_says_which_format_or_game_it_is_for(staff_client):
    page = staff_client.get("/tournaments/new/").content.decode()
    assert 'data-formats="stages"' in page and 'data-formats="swiss round_robin stages"' in page
    assert '<span class="for">· for Swiss, round robin and stages</span>' in page
    assert '<span class="for">· for Single elimination and stages</span>' in page
    assert '<span class="for"> · used when the game is Chicken Foot</span>' in page
    assert 'src="/static/tournaments/settings-form.js"' in page


@pytest.fixture
def draft(make_tournament):
    tournament, _ = make_tournament(
        8,
        start=False,
        game_id="chicken_foot",
        options={"set": "double_six"},
        tiebreaks=["points", "buchholz_cut1", "seed"],
        points={"3": [3, 1, 0]},
    )
    return tournament


def test_the_settings_page_shows_the_tournaments_settings_in_the_same_controls(staff_client, draft):
    found = controls(staff_client.get(f"/tournaments/{draft.slug}/settings/"))
    assert [value for value, selected in found["option__chicken_foot__set"][2] if selected] == ["double_six"]
    assert [found[f"points__3__{place}"][1]["value"] for place in (1, 2, 3)] == ["3", "1", "0"]
    picks = [
        next((value for value, selected in found[f"tiebreak_{n}"][2] if selected), "") for n in range(1, 7)
    ]
    assert picks == ["points", "buchholz_cut1", "seed", "", "", ""]
    assert "start_date" not in found, "the date and start are the schedule's"


def test_the_settings_page_saves_changes_until_the_start(staff_client, draft, organizer):
    response = staff_client.post(
        f"/tournaments/{draft.slug}/settings/save/",
        {
            **BASE,
            "time_zone": "UTC",
            "name": "Bone Yard Cup",
            "game_id": "chicken_foot",
            "option__chicken_foot__set": "double_nine",
            "tiebreak_1": "points",
            "tiebreak_2": "sonneborn_berger",
            "requested_bye_score": "win",
            "points__3__1": "2",
            "points__3__2": "1",
            "points__3__3": "0",
            "venue": "Library",
        },
    )
    assert (response.status_code, response["Location"]) == (302, "/tournaments/bone-yard-cup/settings/")
    draft.refresh_from_db()
    assert (draft.name, draft.options["set"], draft.tiebreaks, draft.points) == (
        "Bone Yard Cup",
        "double_nine",
        ["points", "sonneborn_berger"],
        {},
    )
    assert (draft.requested_bye_score, draft.venue, draft.scale_points) == ("win", "Library", False)
    services.tournament_start(tournament=draft, by=organizer)
    response = staff_client.post(
        f"/tournaments/{draft.slug}/settings/save/", {**BASE, "time_zone": "UTC", "name": "Late change"}
    )
    assert response.status_code == 302
    draft.refresh_from_db()
    assert draft.name == "Bone Yard Cup", "a started tournament's settings are not read"
    page = staff_client.get(f"/tournaments/{draft.slug}/settings/")
    assert (
        "The tournament has started: its settings are fixed and shown read-only; the schedule's round times "
        "and time zone can still change." in page.content.decode()
    )
    found = controls(page)
    assert all(
        "disabled" in attrs
        for name, (_, attrs, _) in found.items()
        if name.startswith(("option__", "tiebreak_"))
    )
    assert "disabled" in found["name"][1]


def test_after_the_start_bad_settings_input_is_not_read(staff_client, draft, organizer):
    services.tournament_start(tournament=draft, by=organizer)
    response = staff_client.post(
        f"/tournaments/{draft.slug}/settings/save/", {"table_size": "99", "time_zone": "UTC"}
    )
    assert response.status_code == 302
    draft.refresh_from_db()
    assert draft.table_size == 4


def test_only_organizers_save_settings(client, draft, stranger, organizer):
    services.tournament_open_registration(tournament=draft, by=organizer)  # visible to visitors
    url = f"/tournaments/{draft.slug}/settings/save/"
    assert client.post(url, {**BASE, "name": "Mine"})["Location"].startswith("/accounts/login/?next=")
    client.force_login(stranger)
    response = client.post(url, {**BASE, "name": "Mine"})
    assert response.status_code == 403
    draft.refresh_from_db()
    assert draft.name == "Spring Open"
