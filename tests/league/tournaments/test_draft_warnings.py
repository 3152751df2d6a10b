"""Drafts that warn: each check of `draft_warnings.DRAFT_CHECKS` in the situation it is for, with its exact
sentence (issue 48)."""

import pytest

from league.players.models import Player
from league.tournaments import draft_warnings as draft_warnings_module
from league.tournaments import services
from league.tournaments.draft_warnings import DRAFT_CHECKS, draft_of, draft_warnings, seat_marks
from league.tournaments.models import Table
from tests.factories.tournaments import make_tournament

pytestmark = pytest.mark.django_db


def draw(tournament, organizer, *tables):
    """Generate the next round as a draft and seat it as `tables` says (names in seat order)."""
    round_row = services.round_generate(tournament=tournament, by=organizer)
    rows = list(round_row.tables.order_by("number"))
    assert len(rows) == len(tables)
    for row, names in zip(rows, tables, strict=True):
        row.planned_seats = [Player.objects.get(name=name).pk for name in names]
        row.save(update_fields=["planned_seats"])
    return round_row


def play(tournament, organizer, *tables):
    """Play the next round seated as `tables` says; seat order is the finishing order."""
    round_row = draw(tournament, organizer, *tables)
    services.round_publish(round_row=round_row, by=organizer)
    for table in round_row.tables.order_by("number"):
        services.table_result(
            table=table, by=organizer, expected_version=0, places=list(range(1, len(table.planned_seats) + 1))
        )
    services.round_complete(round_row=round_row, by=organizer)


def messages(round_row, kind=None):
    return [w.text for w in draft_warnings(round_row) if kind is None or w.kind == kind]


@pytest.fixture
def duel(organizer):
    """Four players at tables of 2, Swiss over four rounds."""
    tournament, _ = make_tournament(organizer, 4, table_size=2, rounds=4)
    return tournament


def test_every_pairing_repeats_in_the_fourth_round_and_the_warnings_say_it_was_unavoidable(duel, organizer):
    play(duel, organizer, ["Ada", "Bea"], ["Cal", "Dov"])
    play(duel, organizer, ["Ada", "Cal"], ["Bea", "Dov"])
    play(duel, organizer, ["Ada", "Dov"], ["Bea", "Cal"])
    draft = draw(duel, organizer, ["Ada", "Bea"], ["Cal", "Dov"])
    assert messages(draft) == [
        "Table 1: Ada and Bea meet again (they met in round 1); unavoidable: no arrangement keeps them apart "
        "without as many repeats.",
        "Table 2: Cal and Dov meet again (they met in round 1); unavoidable: no arrangement keeps them apart "
        "without as many repeats.",
        "Table 1: Ada has seat 1 for 4 rounds running (rounds 1 to 4).",
        "Table 2: Dov has seat 2 for 4 rounds running (rounds 1 to 4).",
    ]


def test_a_repeat_another_arrangement_avoids_is_called_avoidable(duel, organizer):
    play(duel, organizer, ["Ada", "Bea"], ["Cal", "Dov"])
    draft = draw(duel, organizer, ["Ada", "Bea"], ["Cal", "Dov"])
    assert messages(draft, "repeat_opponents") == [
        "Table 1: Ada and Bea meet again (they met in round 1); avoidable: another arrangement keeps them "
        "apart with fewer repeats.",
        "Table 2: Cal and Dov meet again (they met in round 1); avoidable: another arrangement keeps them "
        "apart with fewer repeats.",
    ]


def test_the_generated_draft_has_no_repeat_to_warn_of(duel, organizer):
    play(duel, organizer, ["Ada", "Bea"], ["Cal", "Dov"])
    draft = services.round_generate(tournament=duel, by=organizer)
    assert messages(draft, "repeat_opponents") == []


def test_a_player_at_a_short_table_again(organizer):
    tournament, _ = make_tournament(organizer, 7, table_size=4, rounds=3)
    play(tournament, organizer, ["Ada", "Bea", "Cal", "Dov"], ["Eli", "Fay", "Gus"])
    draft = draw(tournament, organizer, ["Ada", "Bea", "Eli", "Fay"], ["Cal", "Dov", "Gus"])
    assert messages(draft, "short_table_again") == [
        "Table 2: Gus sits at a short table (3 of 4 seats) again, as in round 1."
    ]


def test_the_same_seat_three_rounds_running(duel, organizer):
    play(duel, organizer, ["Ada", "Bea"], ["Cal", "Dov"])
    play(duel, organizer, ["Ada", "Cal"], ["Bea", "Dov"])
    draft = draw(duel, organizer, ["Ada", "Dov"], ["Bea", "Cal"])
    assert messages(draft, "seat_streak") == [
        "Table 1: Ada has seat 1 for 3 rounds running (rounds 1 to 3).",
        "Table 1: Dov has seat 2 for 3 rounds running (rounds 1 to 3).",
    ]


def test_two_rounds_in_one_seat_is_no_streak(duel, organizer):
    play(duel, organizer, ["Ada", "Bea"], ["Cal", "Dov"])
    draft = draw(duel, organizer, ["Ada", "Cal"], ["Dov", "Bea"])
    assert messages(draft, "seat_streak") == []


def test_a_player_two_score_groups_from_their_table(duel, organizer):
    # after two rounds: Ada 2 points, Bea and Cal 1, Dov 0: three score groups
    play(duel, organizer, ["Ada", "Bea"], ["Cal", "Dov"])
    play(duel, organizer, ["Ada", "Cal"], ["Bea", "Dov"])
    draft = draw(duel, organizer, ["Ada", "Dov"], ["Bea", "Cal"])
    assert messages(draft, "far_from_score_group") == [
        "Table 1: Dov (0 points) is 2 score groups below the table's median (2 points)."
    ]


def test_one_score_group_away_is_no_warning(duel, organizer):
    play(duel, organizer, ["Ada", "Bea"], ["Cal", "Dov"])
    play(duel, organizer, ["Ada", "Cal"], ["Bea", "Dov"])
    draft = draw(duel, organizer, ["Ada", "Bea"], ["Cal", "Dov"])
    assert messages(draft, "far_from_score_group") == []


def test_the_first_round_warns_of_nothing_and_a_published_round_has_no_warnings(duel, organizer):
    draft = services.round_generate(tournament=duel, by=organizer)
    assert messages(draft) == []
    services.round_publish(round_row=draft, by=organizer)
    draft.refresh_from_db()
    assert messages(draft) == []


def test_the_checks_are_one_list():
    assert [check.kind for check in DRAFT_CHECKS] == [
        "repeat_opponents",
        "short_table_again",
        "seat_streak",
        "far_from_score_group",
        "fixed_seat",
    ]


def test_the_cards_marks_give_points_before_the_round_and_repeats(duel, organizer, players_by_name):
    play(duel, organizer, ["Ada", "Bea"], ["Cal", "Dov"])
    draft = draw(duel, organizer, ["Ada", "Bea"], ["Cal", "Dov"])
    Table.objects.filter(round=draft, number=2).update(
        planned_seats=[players_by_name["Dov"].pk, players_by_name["Cal"].pk]
    )
    marks = seat_marks(draft_of(draft))
    assert {players_by_name.name_of(pid): (mark.points, mark.repeat) for pid, mark in marks.items()} == {
        "Ada": (1.0, True),
        "Bea": (0.0, True),
        "Cal": (1.0, True),
        "Dov": (0.0, True),
    }


def test_a_large_field_does_not_ask_the_optimiser(duel, organizer, monkeypatch):
    monkeypatch.setattr(draft_warnings_module, "CHECKED_FIELD", 3)
    play(duel, organizer, ["Ada", "Bea"], ["Cal", "Dov"])
    draft = draw(duel, organizer, ["Ada", "Bea"], ["Cal", "Dov"])
    assert messages(draft, "repeat_opponents")[0] == (
        "Table 1: Ada and Bea meet again (they met in round 1); not checked whether it could be avoided "
        "(over 3 players)."
    )
