"""The drawn bracket: who plays each match as far as results tell, walkovers, and where future players come
from; multi-seat elimination tables with who goes through."""

from league.tournaments import round_selectors
from league.tournaments.bracket_selectors import bracket_matches
from league.tournaments.history import load_history
from league.tournaments.models import Tournament
from league.web.drawing import bracket
from tests.factories.tournaments import better_seed_wins


def drawn(tournament):
    history = load_history(tournament)
    names = {reg.player_id: reg.player.name for reg in history.registrations}
    return [
        (match.label, [(slot.text, slot.won) for slot in match.slots], match.skipped)
        for match in bracket_matches(history, names)
    ]


def test_a_double_elimination_bracket_names_the_players_known_so_far(make_tournament, play_round):
    tournament, _ = make_tournament(3, format="double_elimination", table_size=2, grand_final_reset=True)
    play_round(tournament, better_seed_wins(tournament))
    assert drawn(tournament) == [
        ("W1-1", [("Ada", True), ("bye", False)], False),
        ("W1-2", [("Bea", True), ("Cal", False)], False),
        ("W2-1", [("Ada", False), ("Bea", False)], False),
        ("L1-1", [("bye", False), ("Cal", True)], False),
        ("L2-1", [("Cal", False), ("Loser of W2-1", False)], False),
        ("GF", [("Winner of W2-1", False), ("Winner of L2-1", False)], False),
        ("GF2", [("Winner of W2-1", False), ("Winner of L2-1", False)], False),
    ]
    while tournament.status == Tournament.Status.RUNNING:
        play_round(tournament, better_seed_wins(tournament))
    assert drawn(tournament)[-2:] == [
        ("GF", [("Ada", True), ("Bea", False)], False),
        ("GF2", [("Ada", False), ("Bea", False)], True),
    ]


def test_multi_seat_elimination_draws_each_round_with_who_goes_through(make_tournament, play_round):
    tournament, _ = make_tournament(8, format="single_elimination", table_size=4, advance=2, leftovers="byes")
    play_round(tournament)  # snake seeding: seeds 1, 4, 5, 8 at table 1; seat order is the finishing order
    history = load_history(tournament)
    views = round_selectors.rounds(history, include_drafts=False)
    (drawing,) = bracket.bracket(history, views, round_url=lambda number: f"/r/{number}/")
    # The drawn names sit between Unicode isolates (SVG text has no <bdi>): the place stays beside its name.
    assert [(box.title, [(text, won) for text, won, _ in box.lines], box.href) for box in drawing.boxes] == [
        (
            "R1-T1",
            [
                ("\u2068Ada\u2069 (1)", True),
                ("\u2068Dov\u2069 (2)", True),
                ("\u2068Eli\u2069 (3)", False),
                ("\u2068Hal\u2069 (4)", False),
            ],
            "/r/1/#table-1",
        ),
        (
            "R1-T2",
            [
                ("\u2068Bea\u2069 (1)", True),
                ("\u2068Cal\u2069 (2)", True),
                ("\u2068Fay\u2069 (3)", False),
                ("\u2068Gus\u2069 (4)", False),
            ],
            "/r/1/#table-2",
        ),
    ]
    play_round(tournament)
    assert tournament.status == Tournament.Status.FINISHED
    history = load_history(tournament)
    (drawing,) = bracket.bracket(
        history, round_selectors.rounds(history, include_drafts=False), round_url=str
    )
    assert [column for _, column in drawing.columns] == ["Round 1", "Round 2"]
    assert drawing.boxes[-1].title == "Final"
    assert [won for _, won, _ in drawing.boxes[-1].lines] == [True, False, False, False]


def test_the_api_serves_the_bracket(client, make_tournament, play_round):
    tournament, _ = make_tournament(3, format="single_elimination", table_size=2, rated=False)
    play_round(tournament, better_seed_wins(tournament))
    bracket = client.get(f"/api/tournaments/{tournament.pk}/bracket/").json()
    assert [
        (match["label"], [slot["text"] for slot in match["slots"]], match["decided"]) for match in bracket
    ] == [("R1-1", ["Ada", "bye"], True), ("R1-2", ["Bea", "Cal"], True), ("F", ["Ada", "Bea"], False)]
    swiss, _ = make_tournament(4, name="Swiss", table_size=2)
    assert client.get(f"/api/tournaments/{swiss.pk}/bracket/").json() == []
