"""Settings of a top cut that could never be played are refused when typed (page form and API, 400 with the
reason); at Start, a cut larger than the field is refused naming the largest possible cut; the cut's size
and advance stay editable until the cut is drawn."""

import pytest

from league.core.errors import UserError
from league.tournaments import services
from league.tournaments.models import Tournament
from tests.league.api_errors import field_error_body
from tests.league.tournaments.test_api import client_for

PAGE = {
    "name": "Cup",
    "game_id": "nacho_pile",
    "format": "stages",
    "table_size": 4,
    "leftovers": "short",
    "rounds": 2,
    "first_stage": "swiss",
    "cut_size": 8,
    "cut_format": "single_elimination",
    "advance": 2,
}
API = {"name": "Cup", "game": "nacho_pile", "format": "stages", "table_size": 4, "rounds": 2, "cut_size": 8}
ADVANCE_4 = "with tables of 4, fewer than 4 players must advance from each table"
CUT_6 = (
    "a top cut of 6 at tables of 4 with 2 advancing is not a whole number of tables of 4 "
    "(cuts that work: 3, 4, 8, 16, 32 ...)"
)


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [("advance", 4, ADVANCE_4), ("cut_size", 6, CUT_6)],
)
def test_the_new_tournament_page_refuses_a_cut_that_cannot_be_played(
    client, organizer, field, value, message
):
    client.force_login(organizer)
    response = client.post("/tournaments/new/", {**PAGE, field: value})
    assert response.status_code == 400
    assert response.context["form"].errors == {field: [message]}
    assert not Tournament.objects.exists()


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("advance", 4, ADVANCE_4),
        ("cut_size", 6, CUT_6),
        ("cut_size", 1, "Ensure this value is greater than or equal to 2."),
    ],
)
def test_the_api_refuses_the_same_cuts(organizer, field, value, message):
    response = client_for(organizer).post(
        "/api/tournaments/", {**API, "advance": 2, field: value}, format="json"
    )
    assert (response.status_code, response.json()) == (400, field_error_body(field, message))
    assert not Tournament.objects.exists()


def test_a_cut_of_whole_tables_is_taken(organizer):
    for cut in (4, 8, 16):
        tournament = services.tournament_create(created_by=organizer, **{**PAGE, "cut_size": cut})
        assert tournament.cut_size == cut


def test_a_cut_larger_than_the_places_is_refused_when_typed_and_so_are_places_below_the_cut(
    organizer, make_tournament
):
    tournament, _ = make_tournament(0, start=False, format="stages", table_size=2, rounds=2, cut_size=8)
    services.signup_configure(tournament=tournament, by=organizer, capacity=24)
    api = client_for(organizer)
    response = api.patch(f"/api/tournaments/{tournament.pk}/", {"cut_size": 1000}, format="json")
    assert (response.status_code, response.json()) == (
        400,
        field_error_body("cut_size", "a top cut of 1000 is larger than this tournament's 24 places"),
    )
    with pytest.raises(UserError) as caught:
        services.signup_configure(tournament=tournament, by=organizer, capacity=6)
    assert (caught.value.message, caught.value.field) == (
        "6 places cannot fill this tournament's top cut of 8",
        "capacity",
    )
    tournament.refresh_from_db()
    assert (tournament.cut_size, tournament.capacity) == (8, 24)


def test_start_refuses_a_cut_of_8_with_7_players_naming_4(organizer, make_tournament):
    tournament, _ = make_tournament(7, start=False, **{**PAGE, "game_id": "chicken_foot"})
    response = client_for(organizer).post(f"/api/tournaments/{tournament.pk}/start/", {}, format="json")
    assert (response.status_code, response.json()) == (
        400,
        field_error_body(
            "cut_size",
            "a top cut of 8 needs at least 8 players and 7 are starting: the largest possible cut is 4; "
            "change the cut's size in the settings",
        ),
    )
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.DRAFT


def test_start_refuses_a_cut_of_1000_at_tables_of_2_naming_the_field(organizer, make_tournament):
    tournament, _ = make_tournament(
        7, start=False, format="stages", game_id="nacho_pile", table_size=2, rounds=2, cut_size=1000
    )
    with pytest.raises(UserError) as caught:
        services.tournament_start(tournament=tournament, by=organizer)
    assert caught.value.message == (
        "a top cut of 1000 needs at least 1000 players and 7 are starting: the largest possible cut is 7; "
        "change the cut's size in the settings"
    )


def test_the_cut_stays_editable_until_it_is_drawn(organizer, make_tournament, play_round, client):
    tournament, _ = make_tournament(12, **{**PAGE, "cut_size": 8})
    play_round(tournament)
    api = client_for(organizer)
    url = f"/api/tournaments/{tournament.pk}/"

    changed = api.patch(url, {"cut_size": 4}, format="json")
    assert (changed.status_code, changed.json()["cut_size"]) == (200, 4)
    refused = api.patch(url, {"rounds": 3}, format="json")
    assert (refused.status_code, refused.json()["detail"]) == (
        409,
        "settings are fixed once the tournament has started",
    )
    too_big = api.patch(url, {"cut_size": 16}, format="json")
    assert (too_big.status_code, too_big.json()["detail"]) == (
        400,
        "a top cut of 16 needs at least 16 players and 12 are still in: the largest possible cut is 8; "
        "change the cut's size in the settings",
    )

    client.force_login(organizer)
    page = client.get(f"/tournaments/{tournament.slug}/settings/")
    assert not page.context["form"].fields["cut_size"].disabled
    assert page.context["form"].fields["rounds"].disabled
    assert "but for the top cut's size and the players advancing per table" in page.content.decode()
    saved = client.post(
        f"/tournaments/{tournament.slug}/settings/save/",
        {**PAGE, "cut_size": 8, "rounds": 5, "time_zone": "UTC"},
    )
    assert saved.status_code == 302
    tournament.refresh_from_db()
    assert (tournament.cut_size, tournament.rounds) == (8, 2)  # the fixed settings kept their values

    play_round(tournament)
    play_round(tournament)  # the cut's first round: drawn
    drawn = api.patch(url, {"cut_size": 4}, format="json")
    assert (drawn.status_code, drawn.json()["detail"]) == (
        409,
        "settings are fixed once the tournament has started",
    )
    assert client.get(f"/tournaments/{tournament.slug}/settings/").context["form"].fields["cut_size"].disabled


def test_the_settings_form_says_what_the_top_cut_becomes(client, organizer):
    pods = Tournament(
        game_id="nacho_pile", format="stages", table_size=4, leftovers="short", cut_size=8, advance=2
    )
    assert (
        services.top_cut_plan(pods)
        == "Top 8 at tables of 4, 2 through from each: 2 tables of 4, then a final table of 4."
    )
    bracket = Tournament(
        game_id="nacho_pile", format="stages", table_size=2, leftovers="short", cut_size=6, advance=1
    )
    assert (
        services.top_cut_plan(bracket)
        == "Top 6: a single-elimination bracket of 3 rounds, 2 top seeds with a bye."
    )
    uneven = Tournament(
        game_id="nacho_pile", format="stages", table_size=4, leftovers="short", cut_size=10, advance=2
    )
    assert services.top_cut_plan(uneven).startswith(
        "Top 10 cannot be played: a top cut of 10 at tables of 4 with 2 advancing is not a whole number "
        "of tables"
    )
    assert (
        services.top_cut_plan(Tournament(game_id="nacho_pile", format="swiss", table_size=4, cut_size=8))
        == ""
    )
    client.force_login(organizer)
    page = client.post("/tournaments/new/", {**PAGE, "name": ""})  # refused: the page comes back
    assert page.status_code == 400
    assert (
        '<output id="cut-plan" for="id_cut_size id_advance id_table_size" aria-live="polite">'
        "Top 8 at tables of 4, 2 through from each: 2 tables of 4, then a final table of 4.</output>"
    ) in page.content.decode()
