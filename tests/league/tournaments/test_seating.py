"""Physical tables and fixed seats: the rule, a fixed player's table over three rounds, pinned tables, the
warnings a draft gets when a fixed seat breaks, and who may set them."""

import pytest

from league.core.errors import UserError
from league.tournaments import seating
from league.tournaments.errors import NotOrganizer, StateConflict
from league.tournaments.models import Registration, Table
from league.tournaments.seating import PlannedTable, assign, fixed_seat_warnings
from league.tournaments.services import seating as seating_services
from tests.factories import tournaments as helpers


def test_tables_stand_at_their_rank_number_when_nobody_is_fixed():
    tables = [PlannedTable(1, (1, 2)), PlannedTable(2, (3, 4)), PlannedTable(3, (5, 6))]
    assert assign(tables, {}, {}) == {1: 1, 2: 2, 3: 3}


def test_a_fixed_player_takes_their_table_and_only_the_displaced_number_moves():
    tables = [PlannedTable(number, (number * 10, number * 10 + 1)) for number in range(1, 6)]
    # player 20 (at the table ranked 2) keeps table 4: table 4 moves to the number left free, 2
    assert assign(tables, {20: 4}, {}) == {1: 1, 2: 4, 3: 3, 4: 2, 5: 5}


def test_two_fixed_players_at_one_table_the_better_seed_keeps_theirs():
    tables = [PlannedTable(1, (7, 8)), PlannedTable(2, (9, 10))]
    assert assign(tables, {7: 5, 8: 6}, {7: 2, 8: 1}) == {1: 6, 2: 2}


def test_a_pinned_table_wins_over_a_fixed_player():
    tables = [PlannedTable(1, (1, 2), pinned=3), PlannedTable(2, (3, 4)), PlannedTable(3, (5, 6))]
    assert assign(tables, {3: 3}, {}) == {1: 3, 2: 2, 3: 1}


def _physical_of(round_row, player_id):
    for table in round_row.tables.select_related("match"):
        if player_id in helpers.table_seats(round_row)[table.number - 1]:
            return table.physical_number
    return None


def test_a_fixed_player_keeps_their_physical_table_in_rounds_1_to_3(organizer):
    tournament, players = helpers.make_tournament(organizer, 12)
    ada, bea = players[0], players[1]
    Registration.objects.filter(tournament=tournament, player=bea).update(fixed_table=9)
    seen = []
    for _ in range(3):
        round_row = helpers.play_round(tournament, organizer)
        seen.append(_physical_of(round_row, bea.pk))
        numbers = sorted(round_row.tables.values_list("physical_number", flat=True))
        assert len(set(numbers)) == 3
        assert fixed_seat_warnings(round_row) == []
    assert seen == [9, 9, 9]
    # the others keep their rank numbers where they can: Ada (seed 1) stays at the top table, table 1
    first = tournament.round_set.get(number=1)
    assert _physical_of(first, ada.pk) == 1


def test_the_slip_find_my_table_and_projector_show_the_physical_number(client, organizer):
    tournament, players = helpers.make_tournament(organizer, 8)
    Registration.objects.filter(tournament=tournament, player=players[0]).update(fixed_table=12)
    round_row = helpers.play_round(tournament, organizer, complete=False)
    top = round_row.tables.get(number=1)
    assert top.physical_number == 12
    slips = client.get(f"/tournaments/{tournament.slug}/rounds/1/slips/").content.decode()
    assert '<span class="slip-table">Table 12</span>' in slips
    find = client.get(f"/tournaments/{tournament.slug}/rounds/1/find/?q=Ada").content.decode()
    assert ">12</a>" in find
    projector = client.get(f"/tournaments/{tournament.slug}/projector/").content.decode()
    assert "<h2>Table 12" in projector
    path = client.get(f"/tournaments/{tournament.slug}/players/{players[0].slug}/").content.decode()
    assert "<td>12, seat " in path


def test_two_fixed_players_at_one_table_warn_with_the_exact_message(organizer):
    tournament, players = helpers.make_tournament(organizer, 4)
    Registration.objects.filter(tournament=tournament, player=players[0]).update(fixed_table=5)
    Registration.objects.filter(tournament=tournament, player=players[1]).update(fixed_table=6)
    from league.tournaments import services

    round_row = services.round_generate(tournament=tournament, by=organizer)
    assert list(round_row.tables.values_list("physical_number", flat=True)) == [5]
    assert fixed_seat_warnings(round_row) == [
        "Bea keeps table 6 every round but sits at table 5: Ada, at the same table, keeps table 5"
    ]


def test_two_fixed_players_wanting_one_table_warn_for_the_one_who_lost_it(organizer):
    from league.tournaments import services

    tournament, players = helpers.make_tournament(organizer, 8)
    round_row = services.round_generate(tournament=tournament, by=organizer)
    seats = helpers.table_seats(round_row)
    first, second = seats[0][0], seats[1][0]  # one player of each table
    names = dict(Registration.objects.filter(tournament=tournament).values_list("player_id", "player__name"))
    Registration.objects.filter(tournament=tournament, player_id__in=[first, second]).update(fixed_table=2)
    services.round_publish(round_row=round_row, by=organizer)  # publishing seats them again
    assert list(round_row.tables.order_by("number").values_list("physical_number", flat=True)) == [2, 1]
    assert fixed_seat_warnings(round_row) == [
        f"{names[second]} keeps table 2 every round but sits at table 1: {names[first]} keeps table 2 too"
    ]


def test_a_pinned_table_keeps_its_physical_number_in_later_rounds(organizer):
    from league.tournaments import services

    tournament, _ = helpers.make_tournament(organizer, 12)
    round_row = services.round_generate(tournament=tournament, by=organizer)
    seating_services.table_fix(table=round_row.tables.get(number=1), by=organizer, physical_number=20)
    assert list(round_row.tables.order_by("number").values_list("physical_number", "fixed")) == [
        (20, True),
        (2, False),
        (3, False),
    ]
    services.round_publish(round_row=round_row, by=organizer)
    for table in round_row.tables.order_by("number").select_related("match"):
        seats = list(table.match.seats.values_list("player_id", flat=True))
        services.table_result(
            table=table, by=organizer, expected_version=0, places=[1, 2, 3, 4][: len(seats)]
        )
    services.round_complete(round_row=round_row, by=organizer)
    second = services.round_generate(tournament=tournament, by=organizer)
    assert list(second.tables.order_by("number").values_list("physical_number", "fixed")) == [
        (20, True),
        (2, False),
        (3, False),
    ]


def test_a_fixed_table_breaking_a_fixed_seat_warns(organizer):
    from league.tournaments import services

    tournament, _ = helpers.make_tournament(organizer, 8)
    round_row = services.round_generate(tournament=tournament, by=organizer)
    seats = helpers.table_seats(round_row)
    name = Registration.objects.get(tournament=tournament, player_id=seats[1][0]).player.name
    seating_services.table_fix(table=round_row.tables.get(number=1), by=organizer, physical_number=7)
    registration = Registration.objects.get(tournament=tournament, player_id=seats[1][0])
    seating_services.registration_seating(registration=registration, by=organizer, fixed_table=7)
    assert fixed_seat_warnings(round_row) == [
        f"{name} keeps table 7 every round but sits at table 2: table 7 is fixed for the table ranked 1"
    ]


def test_pinning_checks_its_number_the_round_and_who_asks(organizer, stranger):
    from league.tournaments import services

    tournament, _ = helpers.make_tournament(organizer, 8)
    round_row = services.round_generate(tournament=tournament, by=organizer)
    first, second = round_row.tables.order_by("number")
    with pytest.raises(NotOrganizer):
        seating_services.table_fix(table=first, by=stranger, physical_number=3)
    for bad in (0, -1, 10_000, "3", 2.5, True):
        with pytest.raises(UserError) as refused:
            seating_services.table_fix(table=first, by=organizer, physical_number=bad)
        assert refused.value.message == "physical number must be a whole number from 1 to 9999"
    seating_services.table_fix(table=first, by=organizer, physical_number=3)
    with pytest.raises(UserError) as clash:
        seating_services.table_fix(table=second, by=organizer, physical_number=3)
    assert clash.value.message == "table 3 is already pinned for the table ranked 1"
    seating_services.table_fix(table=first, by=organizer, physical_number=None)
    assert list(round_row.tables.order_by("number").values_list("physical_number", "fixed")) == [
        (1, False),
        (2, False),
    ]
    services.round_publish(round_row=round_row, by=organizer)
    with pytest.raises(StateConflict):
        seating_services.table_fix(table=first, by=organizer, physical_number=3)


def test_seating_checks_its_values_and_who_asks(organizer, stranger):
    tournament, _ = helpers.make_tournament(organizer, 4)
    registration = tournament.registrations.first()
    with pytest.raises(NotOrganizer):
        seating_services.registration_seating(registration=registration, by=stranger, fixed_table=2)
    for bad in (0, "2", 10_000):
        with pytest.raises(UserError):
            seating_services.registration_seating(registration=registration, by=organizer, fixed_table=bad)
    with pytest.raises(UserError) as long:
        seating_services.registration_seating(
            registration=registration, by=organizer, accessibility_note="x" * 501
        )
    assert long.value.field == "accessibility_note"
    with pytest.raises(UserError):
        seating_services.registration_seating(
            registration=registration, by=organizer, accessibility_note="wheel\x00chair"
        )
    with pytest.raises(UserError):
        seating_services.registration_seating(registration=registration, by=organizer)
    seating_services.registration_seating(
        registration=registration, by=organizer, fixed_table=2, accessibility_note="  wheelchair  "
    )
    registration.refresh_from_db()
    assert (registration.fixed_table, registration.accessibility_note) == (2, "wheelchair")
    # the log says the note changed, never what it says
    entry = tournament.audit_entries.get(action="registration.seating_changed")
    assert "wheelchair" not in str(entry.details)


def test_notes_are_the_floors_only(organizer, stranger):
    tournament, _ = helpers.make_tournament(organizer, 4)
    assert seating.sees_floor_notes(organizer, tournament)
    assert not seating.sees_floor_notes(stranger, tournament)
    assert not seating.sees_floor_notes(None, tournament)


def test_tables_made_before_physical_numbers_show_their_rank(organizer):
    tournament, _ = helpers.make_tournament(organizer, 8)
    round_row = helpers.play_round(tournament, organizer)
    Table.objects.filter(round=round_row).update(physical_number=None)
    assert [table.physical for table in round_row.tables.order_by("number")] == [1, 2]


def test_the_seating_page_sets_a_fixed_table_and_a_note_pins_a_table_and_forgets(client, organizer, stranger):
    from league.tournaments import services

    tournament, players = helpers.make_tournament(organizer, 8)
    ada = players[0]
    page = f"/tournaments/{tournament.slug}/seating/"
    client.force_login(stranger)
    assert client.get(page).status_code == 403
    assert client.post(page + "player/", {"player": ada.pk, "fixed_table": "4"}).status_code == 403
    client.force_login(organizer)
    assert 'id="seating-link"' in client.get(f"/tournaments/{tournament.slug}/").content.decode()
    saved = client.post(
        page + "player/", {"player": ada.pk, "fixed_table": "4", "accessibility_note": "Low light"}
    )
    assert saved.status_code == 302
    registration = Registration.objects.get(tournament=tournament, player=ada)
    assert (registration.fixed_table, registration.accessibility_note) == (4, "Low light")
    shown = client.get(page).content.decode()
    assert 'value="Low light"' in shown and 'value="4"' in shown
    bad = client.post(page + "player/", {"player": ada.pk, "fixed_table": "four", "accessibility_note": ""})
    assert bad.status_code == 400
    assert "Fixed table must be a whole number, or empty for none." in bad.content.decode()
    assert client.post(page + "player/", {"player": "x", "fixed_table": ""}).status_code == 400
    round_row = services.round_generate(tournament=tournament, by=organizer)
    assert client.post(page + "pin/", {"table": "2", "physical_number": "11"}).status_code == 302
    assert round_row.tables.get(number=2).physical_number == 11
    assert "Every fixed seat holds." in client.get(page).content.decode()
    assert client.post(page + "pin/", {"table": "9", "physical_number": "3"}).status_code == 400
    assert client.post(page + "forget/").status_code == 409  # still running
    services.tournament_cancel(tournament=tournament, by=organizer, reason="the hall flooded")
    assert client.post(page + "forget/").status_code == 302
    registration.refresh_from_db()
    assert registration.accessibility_note == ""


@pytest.mark.parametrize(
    ("text", "table"),
    [
        ("12", 12),
        (" 12 ", 12),
        ("3.12", 12),
        ("3*12", 12),
        ("3-12", 12),
        ("3/12", 12),
        ("2.12", None),  # another round's slip
        ("3.", None),
        (".12", None),
        ("-12", None),
        ("1.2.3", None),
        ("１２", None),  # full-width digits are not typed on a keypad
        ("123456", None),
        ("", None),
        ("twelve", None),
        ("9" * 5000 + ".12", None),  # a round number too long for int(): refused, not a 500
    ],
)
def test_the_keypad_reads_a_table_number_or_a_slips_code(text, table):
    assert seating.read_table(text, 3) == table


def test_a_slips_code_is_its_round_and_physical_table():
    assert seating.short_code(3, 12) == "3.12"


@pytest.mark.parametrize("count", [8, 24])
def test_the_warnings_of_a_published_round_take_the_same_queries_whatever_its_size(
    organizer, count, django_assert_num_queries
):
    tournament, players = helpers.make_tournament(organizer, count)
    Registration.objects.filter(tournament=tournament, player=players[0]).update(fixed_table=3)
    round_row = helpers.play_round(tournament, organizer, complete=False)
    round_row = type(round_row).objects.select_related("tournament").get(pk=round_row.pk)
    with django_assert_num_queries(4):  # fixed players, tables, their seats, names
        assert fixed_seat_warnings(round_row) == []


def test_judges_read_notes_and_set_fixed_seats_but_only_organizers_delete_private_data(organizer, stranger):
    from league.tournaments import services
    from tests.factories import UserFactory

    tournament, players = helpers.make_tournament(organizer, 4)
    other, _ = helpers.make_tournament(organizer, 4)
    judge = UserFactory(username="jude")
    services.role_add(tournament=tournament, by=organizer, username="jude", role="judge")
    assert seating.sees_floor_notes(judge, tournament)
    assert not seating.sees_floor_notes(judge, other)  # a judge of one event only
    registration = Registration.objects.get(tournament=tournament, player=players[0])
    seating_services.registration_seating(
        registration=registration, by=judge, fixed_table=3, accessibility_note="needs a chair with arms"
    )
    registration.refresh_from_db()
    assert (registration.fixed_table, registration.accessibility_note) == (3, "needs a chair with arms")
    services.tournament_finish(tournament=tournament, by=organizer)
    with pytest.raises(NotOrganizer):
        seating_services.tournament_private_data_delete(tournament=tournament, by=judge)


def test_a_broken_fixed_seat_is_one_of_the_drafts_warnings(organizer):
    from league.tournaments import services
    from league.tournaments.draft_warnings import draft_warnings

    tournament, players = helpers.make_tournament(organizer, 4)
    Registration.objects.filter(tournament=tournament, player=players[0]).update(fixed_table=5)
    Registration.objects.filter(tournament=tournament, player=players[1]).update(fixed_table=6)
    round_row = services.round_generate(tournament=tournament, by=organizer)
    fixed = [w for w in draft_warnings(round_row) if w.kind == "fixed_seat"]
    assert [w.text for w in fixed] == [
        "Bea keeps table 6 every round but sits at table 5: Ada, at the same table, keeps table 5"
    ]
