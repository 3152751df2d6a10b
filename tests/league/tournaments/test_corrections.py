"""A correction of an earlier round's result updates standings, tie-breaks and ratings; pairings stay."""

from league.ratings import maths
from league.ratings.models import Rating, RatingPool
from league.tournaments import selectors, services
from league.tournaments.history import load_history
from league.tournaments.models import Table
from tests.factories.tournaments import table_seats


def by_name(names):
    """A `places` callback: each table's places from a name → place map (seat order)."""
    from league.players.models import Player

    ids = {player.pk: player.name for player in Player.objects.all()}
    return lambda index, seats: [names[ids[pid]] for pid in seats]


def standings_of(tournament):
    return [
        (row.name, row.points, row.opponents_points, row.wins)
        for row in selectors.standing_rows_of(load_history(tournament))
    ]


def expected_ratings(pool, tables):
    """Ratings computed with the rating maths alone, applying `tables` (player ids by seat,
    places) in order."""
    skills = {}
    for seats, places in tables:
        before = [skills.get(pid, pool.model.initial()) for pid in seats]
        for pid, after in zip(seats, maths.rate(pool.model, before, places), strict=True):
            skills[pid] = after
    return {pid: (skill.mu, skill.sigma) for pid, skill in skills.items()}


def test_a_correction_of_round_one_updates_standings_tiebreaks_and_ratings(
    make_tournament, play_round, organizer, rate
):
    tournament, (ada, bea, cal, dov) = make_tournament(4, table_size=2, rounds=2, rated=True)
    first = play_round(tournament, by_name({"Ada": 1, "Cal": 2, "Bea": 1, "Dov": 2}))
    second = play_round(tournament, by_name({"Ada": 1, "Bea": 2, "Cal": 1, "Dov": 2}))
    rate()
    assert table_seats(first) == [[ada.pk, cal.pk], [bea.pk, dov.pk]]
    assert table_seats(second) == [[ada.pk, bea.pk], [cal.pk, dov.pk]]
    assert standings_of(tournament) == [
        ("Ada", 2.0, 2.0, 2),
        ("Bea", 1.0, 2.0, 1),
        ("Cal", 1.0, 2.0, 1),
        ("Dov", 0.0, 2.0, 0),
    ]

    table = Table.objects.get(round=first, number=1)
    services.table_result(
        table=table, by=organizer, expected_version=1, places=[2, 1], reason="Cal won, not Ada"
    )
    rate()

    assert standings_of(tournament) == [
        ("Cal", 2.0, 1.0, 2),
        ("Ada", 1.0, 3.0, 1),
        ("Bea", 1.0, 1.0, 1),
        ("Dov", 0.0, 3.0, 0),
    ]
    assert table_seats(first) == [[ada.pk, cal.pk], [bea.pk, dov.pk]], "published pairings stay"
    pool = RatingPool.objects.get(kind="people", game_id="nacho_pile")
    expected = expected_ratings(
        pool,
        [
            ([ada.pk, cal.pk], [2, 1]),
            ([bea.pk, dov.pk], [1, 2]),
            ([ada.pk, bea.pk], [1, 2]),
            ([cal.pk, dov.pk], [1, 2]),
        ],
    )
    stored = {rating.player_id: (rating.mu, rating.sigma) for rating in Rating.objects.filter(pool=pool)}
    assert stored == expected
    leaders = list(
        Rating.objects.filter(pool=pool).order_by("-conservative").values_list("player__name", flat=True)
    )
    assert leaders[0] == "Cal"


def test_head_to_head_decides_between_players_tied_on_points_who_met(make_tournament, play_round, organizer):
    tournament, _ = make_tournament(
        4, table_size=2, rounds=2, rated=False, tiebreaks=["points", "head_to_head"]
    )
    play_round(tournament, by_name({"Ada": 2, "Cal": 1, "Bea": 1, "Dov": 2}))
    play_round(tournament, by_name({"Cal": 2, "Bea": 1, "Ada": 1, "Dov": 2}))
    rows = selectors.standing_rows_of(load_history(tournament))
    assert [(row.name, row.points, row.head_to_head) for row in rows] == [
        ("Bea", 2.0, 0),
        ("Cal", 1.0, 1),
        ("Ada", 1.0, -1),
        ("Dov", 0.0, 0),
    ]
