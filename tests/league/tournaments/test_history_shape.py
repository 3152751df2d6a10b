"""A tournament's history: one shape whatever is read, in a fixed number of queries."""

from django.db import connection
from django.test.utils import CaptureQueriesContext

from league.tournaments.history import HistoryEntry, HistoryPlayer, HistoryTable, load_history


def queries_of(action):
    with CaptureQueriesContext(connection) as captured:
        value = action()
    return value, len(captured)


def test_every_read_of_a_history_has_one_shape_in_a_fixed_number_of_queries(make_tournament, play_round):
    tournament, _ = make_tournament(8, format="swiss", rounds=3)
    play_round(tournament)
    play_round(tournament)

    whole, whole_count = queries_of(lambda: load_history(tournament))
    lean, lean_count = queries_of(lambda: load_history(tournament, names=False))
    part, part_count = queries_of(lambda: load_history(tournament, round_number=2, tables=(1, 1)))
    rows, rows_count = queries_of(lambda: load_history(tournament, played=False))

    assert (whole_count, lean_count, part_count, rows_count) == (5, 5, 5, 2)
    for history in (whole, lean, part, rows):
        assert all(type(entry) is HistoryEntry for entry in history.registrations)
        assert all(type(table) is HistoryTable for listed in history.tables.values() for table in listed)
    first = whole.registrations[0]
    assert first.player == HistoryPlayer(first.player_id, "Ada", "ada")
    assert first.get_status_display() == "Active" and first.player.get_absolute_url() == "/players/ada/"
    assert lean.registrations[0].player is None
    assert [
        (table.number, len(table.planned_seats)) for listed in part.tables.values() for table in listed
    ] == [(1, 4)]
    assert len(part.registrations) == 4  # the four players of the table shown
    assert len(whole.rounds) == len(lean.rounds) == 2 and rows.rounds == {} and len(rows.round_rows) == 2
    assert [row.number for row in whole.round_rows] == [1, 2]
