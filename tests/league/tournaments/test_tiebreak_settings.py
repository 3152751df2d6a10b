"""Scoring options stored per tournament: new pod tournaments scale points to the table size, 2-seat ones do
not, and tournaments that existed before the option keep exactly the standings they showed (the migration
that adds it leaves them unscaled)."""

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from league.tournaments import round_selectors, selectors, services
from league.tournaments.history import load_history
from league.tournaments.models import Tournament

MIGRATION = "venue_description_tiebreak_options"


def lines(tournament):
    tournament.refresh_from_db()
    return [
        (row.rank, row.name, row.points, row.opponents_points, row.wins, row.played)
        for row in selectors.standing_rows_of(load_history(tournament))
    ]


def test_new_pod_tournaments_scale_points_and_two_seat_ones_do_not(organizer):
    common = {"created_by": organizer, "game_id": "nacho_pile", "format": "swiss", "rounds": 3}
    assert services.tournament_create(name="Pods", table_size=4, **common).scale_points is True
    assert services.tournament_create(name="Duels", table_size=2, **common).scale_points is False
    assert (
        services.tournament_create(name="Flat", table_size=4, scale_points=False, **common).scale_points
        is False
    )


def test_a_win_at_a_short_table_earns_a_full_tables_win(make_tournament, play_round):
    # 7 players at tables of 4: one table of 4 and one of 3; each seat order is the finishing order.
    tournament, _ = make_tournament(7, rated=False, tiebreaks=["points", "opponents_points_average", "seed"])
    round_row = play_round(tournament)
    names = {row.name: row for row in selectors.standing_rows_of(load_history(tournament))}
    seats = _names(round_row)
    assert [len(table) for table in seats] == [4, 3]
    earned = {name: names[name].points for table in seats for name in table}
    assert [earned[name] for name in seats[0]] == [3.0, 2.0, 1.0, 0.0]
    assert [earned[name] for name in seats[1]] == [3.0, 1.5, 0.0]
    short_winner = names[seats[1][0]]
    assert (short_winner.opponents_points, short_winner.opponents_points_average) == (1.5, 0.75)
    page = round_selectors.rounds(load_history(tournament), include_drafts=False)[0]
    assert [seat.points for seat in page.tables[1].seats] == [3.0, 1.5, 0.0]


def _names(round_row):
    return [
        list(table.match.seats.order_by("seat").values_list("player__name", flat=True))
        for table in round_row.tables.order_by("number").select_related("match")
    ]


def _previous(executor: MigrationExecutor) -> tuple[str, str]:
    """The tournaments migration before the one that adds the scoring options (whatever its number)."""
    key = next(key for key in executor.loader.graph.nodes if key[0] == "tournaments" and MIGRATION in key[1])
    return next(
        parent for parent in executor.loader.graph.node_map[key].parents if parent[0] == "tournaments"
    )


@pytest.mark.django_db(transaction=True)
def test_the_migration_keeps_the_standings_an_existing_tournament_shows(make_tournament, play_round):
    # A pod Swiss with short tables, as it stood before scaled points existed (the rules of that time).
    tournament, _ = make_tournament(7, rated=False, scale_points=False)
    play_round(tournament)
    play_round(tournament, lambda index, seats: list(range(len(seats), 0, -1)))
    before = lines(tournament)
    Tournament.objects.filter(pk=tournament.pk).update(scale_points=True)
    assert lines(tournament) != before, "scaled points would change them: the check below means something"
    executor = MigrationExecutor(connection)
    latest = executor.loader.graph.leaf_nodes()
    executor.migrate([_previous(executor)])
    with connection.cursor() as cursor:
        columns = [
            column.name
            for column in connection.introspection.get_table_description(cursor, "tournaments_tournament")
        ]
    assert "scale_points" not in columns and "venue" not in columns, "back before the migration"
    MigrationExecutor(connection).migrate(latest)
    assert Tournament.objects.get(pk=tournament.pk).scale_points is False
    assert lines(tournament) == before
