"""A bracket match where both players are absent (closed with nobody present, or opened for two players who
both left) is void: nobody goes through, the match it feeds is a walkover for the other side's winner (void
too when that side has nobody either), and both absent players are placed by the round they went out in."""

import pytest

from league.matches.models import Match
from league.results.models import ResultVersion
from league.tournaments import selectors, services
from league.tournaments.history import load_history
from league.tournaments.models import Registration, Tournament
from tests.league.tournaments.test_bracket_flow import board, table_of, win


@pytest.fixture
def eight(make_tournament, organizer):
    """8 players, single elimination, round 1 published: Ada v Hal, Dov v Eli, Bea v Gus, Cal v Fay."""
    tournament, _ = make_tournament(8, format="single_elimination", table_size=2, rated=False)
    services.round_publish(
        round_row=services.round_generate(tournament=tournament, by=organizer), by=organizer
    )
    return tournament


def lines(tournament):
    return [(row.name, row.group) for row in selectors.standing_rows_of(load_history(tournament))]


def absent_pair(tournament, organizer, label):
    table = table_of(tournament, label)
    return services.table_close(table=table, by=organizer, absent=list(table.planned_seats), kind="no_show")


def test_both_players_of_a_quarter_final_absent_the_semi_final_is_a_walkover(eight, organizer):
    tournament = eight
    absent_pair(tournament, organizer, "R1-1")  # Ada v Hal: neither came
    void = table_of(tournament, "R1-1").match
    assert void.status == Match.Status.VOID
    assert list(ResultVersion.objects.filter(match=void).values_list("version", "void", "reason")) == [
        (1, True, "closed as no-show: nobody was present")
    ]
    assert list(
        Registration.objects.filter(tournament=tournament, status="no_show").values_list(
            "player__name", flat=True
        )
    ) == ["Ada", "Hal"]
    win(tournament, organizer, "R1-2", "Dov")  # Dov goes through R2-1 without playing
    assert len(board(tournament)) == 4
    win(tournament, organizer, "R1-3", "Bea")
    win(tournament, organizer, "R1-4", "Cal")
    assert board(tournament)[4:] == [(2, "published", 2, "R2-2", ["Bea", "Cal"], "")]
    dov = tournament.registrations.get(player__name="Dov").player_id
    assert list(tournament.round_set.values_list("number", "status", "advanced")) == [
        (1, "complete", []),
        (2, "published", [dov]),
    ]
    win(tournament, organizer, "R2-2", "Cal")
    assert board(tournament)[5:] == [(3, "published", 1, "F", ["Cal", "Dov"], "")]
    win(tournament, organizer, "F", "Dov")
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    assert set(tournament.round_set.values_list("status", flat=True)) == {"complete"}
    assert lines(tournament) == [
        ("Dov", "Champion"),
        ("Cal", "Final"),
        ("Bea", "Out in the semi-finals (shared third)"),
        ("Eli", "Out in the quarter-finals"),
        ("Fay", "Out in the quarter-finals"),
        ("Gus", "Out in the quarter-finals"),
        ("Ada", "Out in the quarter-finals"),
        ("Hal", "Out in the quarter-finals"),
    ]


def play_out(tournament, organizer):
    """Play every waiting table, the earlier name in the alphabet winning (Ada, Bea, … are seeds 1, 2, …),
    until the tournament finishes; the labels played, in order."""
    played = []
    while tournament.status == Tournament.Status.RUNNING:
        waiting = (
            table_of(tournament, label)
            for label in sorted(
                {row[3] for row in board(tournament) if row[5] == ""},
                key=lambda label: [row[3] for row in board(tournament)].index(label),
            )
        )
        table = next(table for table in waiting if table.match.status == Match.Status.SCHEDULED)
        names = sorted(table.match.seats.values_list("player__name", flat=True))
        win(tournament, organizer, table.label, names[0])
        played.append((table.label, names))
        tournament.refresh_from_db()
    return played


def test_two_quarter_finals_with_nobody_cascade_to_a_walkover_final(eight, organizer):
    tournament = eight
    absent_pair(tournament, organizer, "R1-1")  # Ada v Hal
    absent_pair(tournament, organizer, "R1-2")  # Dov v Eli: R2-1 has nobody, so F is a walkover
    assert play_out(tournament, organizer) == [
        ("R1-3", ["Bea", "Gus"]),
        ("R1-4", ["Cal", "Fay"]),
        ("R2-2", ["Bea", "Cal"]),
    ]
    assert [row[3] for row in board(tournament)] == ["R1-1", "R1-2", "R1-3", "R1-4", "R2-2"]
    assert set(tournament.round_set.values_list("status", flat=True)) == {"complete"}
    assert lines(tournament) == [
        ("Bea", "Champion"),
        ("Cal", "Out in the semi-finals (shared third)"),
        ("Gus", "Out in the quarter-finals"),  # lost to the champion: the better tie-break
        ("Fay", "Out in the quarter-finals"),
        ("Ada", "Out in the quarter-finals"),
        ("Dov", "Out in the quarter-finals"),
        ("Eli", "Out in the quarter-finals"),
        ("Hal", "Out in the quarter-finals"),
    ]


def test_double_elimination_a_winners_match_with_nobody(make_tournament, organizer):
    tournament, _ = make_tournament(8, format="double_elimination", table_size=2, rated=False)
    services.round_publish(
        round_row=services.round_generate(tournament=tournament, by=organizer), by=organizer
    )
    absent_pair(tournament, organizer, "W1-1")  # Ada v Hal: W2-1 and L1-1 are walkovers
    ids = dict(tournament.registrations.values_list("player__name", "player_id"))
    assert play_out(tournament, organizer) == [
        ("W1-2", ["Dov", "Eli"]),
        ("W1-3", ["Bea", "Gus"]),
        ("W1-4", ["Cal", "Fay"]),
        ("W2-2", ["Bea", "Cal"]),
        ("L1-2", ["Fay", "Gus"]),
        ("W3-1", ["Bea", "Dov"]),
        ("L2-1", ["Cal", "Eli"]),
        ("L3-1", ["Cal", "Fay"]),
        ("L4-1", ["Cal", "Dov"]),
        ("GF", ["Bea", "Cal"]),
    ]
    # W2-1 (Dov), L1-1 (Eli, W1-2's loser) and L2-2 (Fay: W2-1 sent nobody down) are walkovers
    assert list(tournament.round_set.values_list("number", "status", "advanced")) == [
        (1, "complete", []),
        (2, "complete", [ids["Dov"], ids["Eli"]]),
        (3, "complete", [ids["Fay"]]),
        (4, "complete", []),
        (5, "complete", []),
        (6, "complete", []),
    ]
    assert lines(tournament) == [
        ("Bea", "Champion"),
        ("Cal", "Final"),
        ("Dov", "Out in losers' round 4"),
        ("Fay", "Out in losers' round 3"),
        ("Eli", "Out in losers' round 2"),
        ("Gus", "Out in losers' round 1"),
        ("Ada", "Out in winners' round 1, both absent"),
        ("Hal", "Out in winners' round 1, both absent"),
    ]


def test_a_match_opened_for_a_player_who_left_closes_as_a_forfeit_and_the_bracket_goes_on(
    eight, organizer, players_by_name
):
    tournament = eight
    win(tournament, organizer, "R1-1", "Ada")
    services.registration_leave(
        tournament=tournament, by=organizer, player_id=players_by_name["Ada"].pk, status="dropped"
    )
    win(tournament, organizer, "R1-3", "Bea")
    win(tournament, organizer, "R1-4", "Cal")
    win(tournament, organizer, "R2-2", "Cal")
    win(tournament, organizer, "R1-2", "Dov")  # R2-1 opens, closes at once (Ada left), and F opens
    assert board(tournament)[4:] == [
        (2, "complete", 1, "R2-1", ["Ada", "Dov"], "forfeit"),
        (2, "complete", 2, "R2-2", ["Bea", "Cal"], ""),
        (3, "published", 1, "F", ["Cal", "Dov"], ""),
    ]
    forfeit = table_of(tournament, "R2-1").match
    assert list(ResultVersion.objects.filter(match=forfeit).values_list("version", "places", "reason")) == [
        (1, [2, 1], "Ada left the tournament")
    ]
