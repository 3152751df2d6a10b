"""Tournament services: settings, lifecycle, registrations, rounds (generate, adjust, publish, results,
closing tables, complete) and the errors each gives."""

import pytest
from django.db import IntegrityError

from league.core.errors import UserError
from league.matches.models import Match
from league.ratings.models import Rating, RatingPool
from league.tournaments import seam, selectors, services
from league.tournaments.errors import NotOrganizer, StateConflict
from league.tournaments.history import load_history
from league.tournaments.models import Registration, Round, Table, Tournament
from tests.factories import PlayerFactory, UserFactory
from tests.factories.tournaments import better_seed_wins, table_seats


def settings(**overrides):
    values = {"name": "Open", "game_id": "nacho_pile", "format": "swiss", "table_size": 4, "rounds": 3}
    values.update(overrides)
    return values


@pytest.mark.parametrize(
    ("overrides", "field", "message"),
    [
        ({"name": "  "}, "name", "a tournament needs a name"),
        ({"game_id": "chess"}, "game", "unknown game"),
        ({"table_size": 7}, "table_size", "Nacho Pile is played at tables of 2 to 6 with these options"),
        (
            {"game_id": "nobody_but_us_chickens", "table_size": 2},
            "table_size",
            "Nobody but Us Chickens is played at tables of 3 to 6 with these options",
        ),
        ({"rounds": None}, "rounds", "a Swiss tournament needs its number of rounds"),
        ({"format": "double_elimination"}, "format", "double elimination is for tables of 2"),
        ({"format": "knockout"}, "format", "format must be one of"),
        ({"leftovers": "sideways"}, "leftovers", "leftovers must be one of short, long, byes"),
        ({"options": {"speed": 2}}, "options", "unknown option speed"),
        ({"points": {"4": [3, 2, 1]}}, "points", "a table of 4 needs 4 place points, got 3"),
        (
            {"points": {"4": [0, 1, 2, 3]}},
            "points",
            "place points for a table of 4 must not increase: 0, 1, 2, 3",
        ),
        ({"tiebreaks": ["points", "coin_toss"]}, "tiebreaks", "unknown tie-break 'coin_toss'"),
        ({"tiebreaks": ["wins", "wins"]}, "tiebreaks", "each tie-break is listed once"),
        ({"format": "single_elimination", "advance": 3}, "advance", "fewer than 3 players must advance"),
        ({"format": "stages", "cut_size": None}, "cut_size", "a top cut needs a size of at least 2 players"),
    ],
)
def test_bad_settings_are_refused_with_the_field_at_fault(organizer, overrides, field, message):
    with pytest.raises(UserError) as caught:
        services.tournament_create(created_by=organizer, **settings(**overrides))
    assert caught.value.field == field
    assert message in caught.value.message
    assert not Tournament.objects.exists()


def test_table_rule_never_goes_below_the_games_minimum(organizer):
    chickens = services.tournament_create(
        created_by=organizer, **settings(game_id="nobody_but_us_chickens", table_size=3, leftovers="short")
    )
    assert seam.table_spec(chickens) == seam.TableSpec(preferred=3, minimum=3, maximum=3)
    long = services.tournament_create(created_by=organizer, **settings(name="Long", leftovers="long"))
    assert seam.table_spec(long) == seam.TableSpec(preferred=4, minimum=4, maximum=5)
    short = services.tournament_create(created_by=organizer, **settings(name="Short"))
    assert seam.table_spec(short) == seam.TableSpec(preferred=4, minimum=3, maximum=4)


def test_only_staff_create_and_only_organizers_run_a_tournament(organizer, stranger):
    with pytest.raises(NotOrganizer):
        services.tournament_create(created_by=stranger, **settings())
    tournament = services.tournament_create(created_by=organizer, **settings())
    assert list(tournament.organizers.all()) == [organizer]
    with pytest.raises(NotOrganizer) as caught:
        services.tournament_open_registration(tournament=tournament, by=stranger)
    assert caught.value.status == 403
    services.organizer_add(tournament=tournament, by=organizer, username="stranger")
    services.tournament_open_registration(tournament=tournament, by=stranger)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.REGISTRATION
    with pytest.raises(UserError, match="no user called 'nobody'"):
        services.organizer_add(tournament=tournament, by=organizer, username="nobody")


def test_settings_change_until_the_start_and_are_fixed_after(make_tournament, organizer):
    tournament, _ = make_tournament(4, start=False)
    services.tournament_update(tournament=tournament, by=organizer, name="Winter Open", rounds=5)
    tournament.refresh_from_db()
    assert (tournament.name, tournament.slug, tournament.rounds) == ("Winter Open", "winter-open", 5)
    services.tournament_start(tournament=tournament, by=organizer)
    with pytest.raises(StateConflict, match="settings are fixed once the tournament has started"):
        services.tournament_update(tournament=tournament, by=organizer, rounds=6)


def test_seeding_by_rating_puts_rated_players_first_then_the_rest_in_registration_order(
    make_tournament, organizer
):
    tournament, players = make_tournament(4, start=False)
    pool = RatingPool.objects.create(name="people", kind="people", game_id="nacho_pile")
    for player, conservative in ((players[2], 9.0), (players[3], 12.0)):
        Rating.objects.create(pool=pool, player=player, mu=25, sigma=5, conservative=conservative, matches=3)
    services.tournament_seed(tournament=tournament, by=organizer, method="rating")
    seeds = dict(tournament.registrations.values_list("player__name", "seed"))
    assert seeds == {"Dov": 1, "Cal": 2, "Ada": 3, "Bea": 4}
    order = [players[1].pk, players[0].pk, players[3].pk, players[2].pk]
    services.tournament_seed(tournament=tournament, by=organizer, method="hand", order=order)
    assert dict(tournament.registrations.values_list("player__name", "seed")) == {
        "Bea": 1,
        "Ada": 2,
        "Dov": 3,
        "Cal": 4,
    }
    with pytest.raises(UserError, match="list every registered player's id once"):
        services.tournament_seed(tournament=tournament, by=organizer, method="hand", order=order[:3])


def test_a_round_waits_for_the_last_one_to_complete(make_tournament, play_round, organizer):
    tournament, _ = make_tournament(8)
    with pytest.raises(StateConflict, match="round 1 is not complete") as caught:
        play_round(tournament, complete=False)
        services.round_generate(tournament=tournament, by=organizer)
    assert caught.value.status == 409
    first = Round.objects.get(number=1)
    table = first.tables.get(number=2)
    services.table_result(
        table=table, by=organizer, expected_version=1, places=[4, 3, 2, 1], reason="reversed"
    )
    services.round_complete(round_row=first, by=organizer)
    second = services.round_generate(tournament=tournament, by=organizer)
    assert second.number == 2
    with pytest.raises(StateConflict, match="round 2 is a draft: publish it first"):
        services.round_complete(round_row=second, by=organizer)


def test_completing_a_round_with_a_table_waiting_is_refused(make_tournament, organizer):
    tournament, _ = make_tournament(8)
    round_row = services.round_generate(tournament=tournament, by=organizer)
    services.round_publish(round_row=round_row, by=organizer)
    services.table_result(
        table=round_row.tables.get(number=1), by=organizer, expected_version=0, places=[1, 2, 3, 4]
    )
    with pytest.raises(StateConflict, match="round 1 still waits for the result of table 2"):
        services.round_complete(round_row=round_row, by=organizer)


def test_results_of_a_draft_are_refused(make_tournament, organizer):
    tournament, _ = make_tournament(8)
    round_row = services.round_generate(tournament=tournament, by=organizer)
    with pytest.raises(StateConflict, match="round 1 is a draft: publish it before entering results"):
        services.table_result(
            table=round_row.tables.get(number=1), by=organizer, expected_version=0, places=[1, 2, 3, 4]
        )


def test_publishing_links_each_table_to_one_new_match(make_tournament, organizer):
    tournament, _ = make_tournament(13)
    round_row = services.round_generate(tournament=tournament, by=organizer)
    assert Match.objects.count() == 0
    services.round_publish(round_row=round_row, by=organizer)
    tables = list(round_row.tables.select_related("match").order_by("number"))
    assert [len(table.planned_seats) for table in tables] == [4, 3, 3, 3]
    assert [[seat.player_id for seat in table.match.seats.order_by("seat")] for table in tables] == [
        table.planned_seats for table in tables
    ]
    assert {table.match.status for table in tables} == {Match.Status.SCHEDULED}
    assert all(table.match.rated and table.match.game_id == "nacho_pile" for table in tables)
    with pytest.raises(IntegrityError):
        Table.objects.create(round=round_row, number=9, planned_seats=[], match=tables[0].match)


def test_swapping_and_moving_in_a_draft_updates_the_quality_report(make_tournament, organizer):
    tournament, players = make_tournament(13)
    round_row = services.round_generate(tournament=tournament, by=organizer)
    before = table_seats(round_row)
    services.round_swap(
        round_row=round_row, by=organizer, first_table=1, first_seat=1, second_table=2, second_seat=2
    )
    after = table_seats(round_row)
    assert after[0][0] == before[1][1] and after[1][1] == before[0][0]
    mover = after[0][1]
    services.round_move(round_row=round_row, by=organizer, player_id=mover, to_table=3)
    seats = table_seats(round_row)
    assert [len(table) for table in seats] == [3, 3, 4, 3]
    assert seats[2][-1] == mover
    round_row.refresh_from_db()
    assert round_row.quality["adjusted"] is True
    assert round_row.quality["tables"] == 4
    with pytest.raises(UserError, match="table 1 would fall below the game's minimum of 2"):
        services.round_move(round_row=round_row, by=organizer, player_id=seats[0][0], to_table=2)
        services.round_move(round_row=round_row, by=organizer, player_id=seats[0][1], to_table=2)
    with pytest.raises(UserError, match="round 1 has no table 9"):
        services.round_swap(
            round_row=round_row, by=organizer, first_table=9, first_seat=1, second_table=1, second_seat=1
        )
    with pytest.raises(UserError, match="table 1 has seats 1 to"):
        services.round_swap(
            round_row=round_row, by=organizer, first_table=1, first_seat=6, second_table=2, second_seat=1
        )
    services.round_publish(round_row=round_row, by=organizer)
    with pytest.raises(StateConflict, match="round 1 is published: only drafts change"):
        services.round_swap(
            round_row=round_row, by=organizer, first_table=1, first_seat=1, second_table=2, second_seat=1
        )


def test_a_late_entry_starts_with_zero_points_and_is_paired_from_the_next_round(
    make_tournament, play_round, organizer
):
    tournament, players = make_tournament(8)
    play_round(tournament)
    late = services.registration_add(tournament=tournament, by=organizer, name="Zoe")
    assert (late.entered_round, late.seed) == (2, 9)
    rows = {row.name: row for row in selectors.standing_rows_of(load_history(tournament))}
    assert (rows["Zoe"].points, rows["Zoe"].played, rows["Zoe"].rank) == (0.0, 0, 9)
    second = play_round(tournament)
    assert [len(seats) for seats in table_seats(second)] == [3, 3, 3]
    assert late.player_id in sum(table_seats(second), [])


def test_a_dropped_player_is_paired_no_more_but_keeps_their_results(make_tournament, play_round, organizer):
    tournament, players = make_tournament(9)
    play_round(tournament)
    with pytest.raises(StateConflict, match="the tournament has started: the player drops"):
        services.registration_leave(
            tournament=tournament, by=organizer, player_id=players[0].pk, status="withdrawn"
        )
    reg = services.registration_leave(
        tournament=tournament, by=organizer, player_id=players[0].pk, status="dropped"
    )
    assert (reg.status, reg.left_after_round) == ("dropped", 1)
    second = play_round(tournament)
    assert players[0].pk not in sum(table_seats(second), [])
    assert [len(seats) for seats in table_seats(second)] == [4, 4]
    rows = {row.name: row for row in selectors.standing_rows_of(load_history(tournament))}
    # Ada won a table of 3 in round 1: 3 points, scaled to a win at the preferred table of 4.
    assert (rows["Ada"].points, rows["Ada"].played, rows["Ada"].status) == (3.0, 1, "Dropped")


def test_withdrawing_before_the_start_frees_the_seed(make_tournament, organizer):
    tournament, players = make_tournament(4, start=False)
    services.registration_leave(
        tournament=tournament, by=organizer, player_id=players[1].pk, status="withdrawn"
    )
    reg = tournament.registrations.get(player=players[1])
    assert (reg.status, reg.seed) == ("withdrawn", None)
    with pytest.raises(UserError, match="Ada is already registered"):
        services.registration_add(tournament=tournament, by=organizer, player_id=players[0].pk)
    again = services.registration_add(tournament=tournament, by=organizer, player_id=players[1].pk)
    assert again.status == "active"


def test_closing_tables_as_no_show_and_forfeit(make_tournament, organizer):
    tournament, players = make_tournament(8, rated=False)
    round_row = services.round_generate(tournament=tournament, by=organizer)
    services.round_publish(round_row=round_row, by=organizer)
    first, second = round_row.tables.order_by("number")
    seats = list(first.match.seats.order_by("seat").values_list("player_id", flat=True))
    services.table_close(table=first, by=organizer, absent=[seats[1]], kind="no_show")
    first.match.refresh_from_db()
    assert list(first.match.seats.order_by("seat").values_list("place", flat=True)) == [1, 4, 1, 1]
    assert Registration.objects.get(player_id=seats[1]).status == "no_show"
    everyone = list(second.match.seats.values_list("player_id", flat=True))
    services.table_close(table=second, by=organizer, absent=everyone, kind="forfeit")
    second.match.refresh_from_db()
    assert second.match.status == Match.Status.VOID
    services.round_complete(round_row=round_row, by=organizer)
    points = {row.player_id: row.points for row in selectors.standing_rows_of(load_history(tournament))}
    assert sorted(points[pid] for pid in seats) == [0.0, 2.0, 2.0, 2.0]
    assert {points[pid] for pid in everyone} == {0.0}
    with pytest.raises(UserError, match="name the absent players among the table's players"):
        services.table_close(table=first, by=organizer, absent=[PlayerFactory().pk], kind="forfeit")


def test_a_swiss_finishes_after_its_last_round(make_tournament, play_round, organizer):
    tournament, _ = make_tournament(8, rounds=2)
    play_round(tournament)
    assert tournament.status == Tournament.Status.RUNNING
    play_round(tournament)
    assert tournament.status == Tournament.Status.FINISHED
    with pytest.raises(StateConflict, match="the tournament is finished"):
        services.round_generate(tournament=tournament, by=organizer)


def labels(round_row):
    return list(round_row.tables.order_by("number").values_list("label", flat=True))


@pytest.mark.parametrize("reset_played", [True, False])
def test_double_elimination_plays_the_reset_only_when_the_losers_bracket_winner_takes_the_grand_final(
    make_tournament, play_round, reset_played
):
    tournament, _ = make_tournament(4, format="double_elimination", table_size=2)
    played = [labels(play_round(tournament, better_seed_wins(tournament))) for _ in range(3)]
    assert played == [["W1-1", "W1-2"], ["W2-1", "L1-1"], ["L2-1"]]
    grand_final = play_round(tournament, better_seed_wins(tournament, upset=reset_played))
    assert labels(grand_final) == ["GF"]
    if reset_played:
        assert tournament.status == Tournament.Status.RUNNING
        assert labels(play_round(tournament, better_seed_wins(tournament))) == ["GF2"]
    assert tournament.status == Tournament.Status.FINISHED
    assert tournament.round_set.count() == (5 if reset_played else 4)


def test_a_stage_sequence_cuts_the_top_of_the_swiss_into_a_bracket(make_tournament, play_round, organizer):
    tournament, players = make_tournament(8, format="stages", table_size=2, rounds=2, cut_size=4)
    play_round(tournament)
    play_round(tournament)
    semis = play_round(tournament)
    names = {player.pk: player.name for player in players}
    standings = [row.name for row in selectors.standing_rows_of(load_history(tournament))]
    assert [[names[pid] for pid in seats] for seats in table_seats(semis)]
    assert list(semis.tables.order_by("number").values_list("label", flat=True)) == ["R1-1", "R1-2"]
    assert standings[0] in {names[pid] for seats in table_seats(semis) for pid in seats}
    final = play_round(tournament)
    assert list(final.tables.values_list("label", flat=True)) == ["F"]
    assert tournament.status == Tournament.Status.FINISHED


def test_a_user_is_a_stranger_until_added(make_tournament):
    tournament, _ = make_tournament(4)
    user = UserFactory()
    assert selectors.is_organizer(user, tournament) is False
    tournament.organizers.add(user)
    assert selectors.is_organizer(user, tournament) is True
    assert selectors.is_organizer(None, tournament) is False


def test_a_two_seat_round_robin_meets_every_pair_once_and_finishes(make_tournament, play_round, organizer):
    tournament, players = make_tournament(5, format="round_robin", table_size=2, rounds=None, rated=False)
    pairs = []
    while tournament.status == Tournament.Status.RUNNING:
        round_row = play_round(tournament)
        pairs += [frozenset(seats) for seats in table_seats(round_row)]
        assert len(round_row.byes) == 1
    assert tournament.round_set.count() == 5
    assert len(pairs) == len(set(pairs)) == 10
    with pytest.raises(StateConflict, match="the tournament is finished"):
        services.registration_add(tournament=tournament, by=organizer, name="Zed")


def test_a_round_robin_takes_no_late_entries(make_tournament, play_round, organizer):
    tournament, _ = make_tournament(8, format="round_robin", table_size=4, rounds=None, rated=False)
    round_row = play_round(tournament)
    assert round_row.quality["schedule_balance"] is not None
    with pytest.raises(StateConflict, match="the field is fixed once the first round is drawn"):
        services.registration_add(tournament=tournament, by=organizer, name="Zed")
    assert services.registration_open(tournament) is False


def test_a_round_robin_stage_then_a_pod_cut(make_tournament, play_round):
    tournament, _ = make_tournament(
        8,
        format="stages",
        first_stage="round_robin",
        rounds=2,
        cut_size=4,
        table_size=4,
        advance=2,
        rated=False,
    )
    play_round(tournament)
    play_round(tournament)
    final = play_round(tournament)
    assert list(final.tables.values_list("label", flat=True)) == ["Final"]
    assert tournament.status == Tournament.Status.FINISHED
