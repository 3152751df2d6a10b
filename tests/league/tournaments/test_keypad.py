"""Keypad entry: table, then places, through the table's result rules; bad entries are form errors; the
tables still missing; who may use it."""

import pytest

from league.core.bidi import isolated
from league.matches.models import Match
from league.tournaments import services
from league.tournaments.models import Registration
from tests.factories import UserFactory
from tests.factories import tournaments as helpers


@pytest.fixture
def round_one(organizer):
    tournament, players = helpers.make_tournament(organizer, 8)  # two tables of 4
    Registration.objects.filter(tournament=tournament, player=players[0]).update(fixed_table=5)
    round_row = services.round_generate(tournament=tournament, by=organizer)
    services.round_publish(round_row=round_row, by=organizer)
    return tournament, round_row


def url(tournament, number=1):
    return f"/tournaments/{tournament.slug}/rounds/{number}/keypad/"


def names_at(table):
    return list(table.match.seats.order_by("seat").values_list("player__name", flat=True))


def test_table_then_places_stores_the_result_and_lists_what_is_missing(client, organizer, round_one):
    tournament, round_row = round_one
    client.force_login(organizer)
    top, second = round_row.tables.order_by("number").select_related("match")
    assert (top.physical_number, second.physical_number) == (5, 2)
    page = client.get(url(tournament)).content.decode()
    assert "Still missing: 2 of 2 tables" in page
    assert '<ul class="keypad-missing"><li>2</li><li>5</li></ul>' in page
    chosen = client.post(url(tournament), {"table": "5", "places": ""}).content.decode()
    for name in names_at(top):
        assert f"<li><bdi>{name}</bdi></li>" in chosen
    assert (
        'id="keypad-places"' in chosen and "autofocus" in chosen.split('id="keypad-places"')[1].split(">")[0]
    )
    saved = client.post(url(tournament), {"table": "5", "places": "2 1 4 3", "version": "0"}, follow=True)
    page = saved.content.decode()
    names = [isolated(name) for name in names_at(top)]  # names in a message keep their own direction
    assert f"Table 5 saved: {names[0]} 2, {names[1]} 1, {names[2]} 4, {names[3]} 3." in page
    assert "Still missing: 1 of 2 tables" in page
    assert "autofocus" in page.split('id="keypad-table"')[1].split(">")[0]
    top.match.refresh_from_db()
    assert top.match.status == Match.Status.FINISHED
    assert list(top.match.seats.order_by("seat").values_list("place", flat=True)) == [2, 1, 4, 3]
    # the slip's short code works too, ties share a place
    client.post(url(tournament), {"table": "1.2", "places": "1134"})
    second.match.refresh_from_db()
    assert list(second.match.seats.order_by("seat").values_list("place", flat=True)) == [1, 1, 3, 4]
    assert "Every table is in" in client.get(url(tournament)).content.decode()


@pytest.mark.parametrize(
    ("table", "places", "message"),
    [
        ("", "", "Type the table&#x27;s number (or the code on its slip)."),
        ("9", "", "Round 1 has no table 9."),
        ("1", "", "Round 1 has no table 1."),  # the top table stands at 5 this round
        (
            "abc",
            "",
            "“abc” names no table of round 1: type the table&#x27;s number, like 12, "
            "or its slip&#x27;s code, like 1.12.",
        ),
        (
            "2.5",
            "",
            "“2.5” names no table of round 1: type the table&#x27;s number, like 12",
        ),
        ("٥", "", "“٥” names no table of round 1"),
        ("5", "214", "Table 5 has 4 seats: type 4 places, one digit per seat (you typed 3)."),
        ("5", "2a43", "Places are digits only, one per seat: 1 is the winner."),
        ("5", "5555", "Places"),  # the result service's own check
        ("5", "<script>", "Places are digits only"),
    ],
)
def test_bad_entries_are_form_errors(client, organizer, round_one, table, places, message):
    tournament, round_row = round_one
    client.force_login(organizer)
    response = client.post(url(tournament), {"table": table, "places": places})
    assert response.status_code == 400
    page = response.content.decode()
    assert 'role="alert" id="keypad-error"' in page
    assert message in page
    assert "<script>" not in page.split("<main")[1]
    assert not Match.objects.filter(tournament_table__round=round_row, status=Match.Status.FINISHED).exists()


def test_a_table_with_a_result_is_corrected_on_its_page_not_here(client, organizer, round_one):
    tournament, round_row = round_one
    client.force_login(organizer)
    client.post(url(tournament), {"table": "5", "places": "1234"})
    response = client.post(url(tournament), {"table": "5", "places": "4321"})
    assert response.status_code == 400
    assert (
        "Table 5 already has a result: correct it on its result page, saying why."
        in response.content.decode()
    )


def test_a_result_stored_since_the_table_was_shown_is_refused(client, organizer, round_one):
    tournament, round_row = round_one
    client.force_login(organizer)
    table = round_row.tables.get(number=2)
    client.post(url(tournament), {"table": "2", "places": ""})  # the page shows the table (version 0)
    services.table_result(table=table, by=organizer, expected_version=0, places=[1, 2, 3, 4])  # meanwhile
    response = client.post(url(tournament), {"table": "2", "places": "4321", "version": "0"})
    assert response.status_code == 400
    assert list(table.match.seats.order_by("seat").values_list("place", flat=True)) == [1, 2, 3, 4]


def test_scorekeepers_use_it_and_others_do_not(client, organizer, round_one):
    tournament, _ = round_one
    keeper, stranger = UserFactory(username="keeper"), UserFactory(username="nobody")
    services.role_add(tournament=tournament, by=organizer, role="scorekeeper", username="keeper")
    assert client.get(url(tournament)).status_code == 302  # to the login page
    client.force_login(stranger)
    assert client.get(url(tournament)).status_code == 403
    assert client.post(url(tournament), {"table": "5", "places": "1234"}).status_code == 403
    client.force_login(keeper)
    assert client.get(url(tournament)).status_code == 200
    client.post(url(tournament), {"table": "5", "places": "1234"})
    assert (
        Match.objects.filter(tournament_table__round__tournament=tournament, status="finished").count() == 1
    )


def test_a_draft_round_waits_for_publishing(client, organizer):
    tournament, _ = helpers.make_tournament(organizer, 8)
    services.round_generate(tournament=tournament, by=organizer)
    client.force_login(organizer)
    page = client.post(url(tournament), {"table": "1", "places": "1234"}).content.decode()
    assert "Round 1 is a draft: publish it before entering results." in page
