import zlib
from datetime import timedelta

import pytest

from games.core.encoding import canonical_json
from games.core.runner import play_match
from league.core.errors import InvariantViolation, UserError
from league.matches.models import Match
from league.matches.services import (
    MatchOutcome,
    ScheduledMatch,
    matches_hand_back,
    matches_schedule,
    matches_set_outcomes,
    matches_set_running,
)
from league.players.models import Player
from league.ratings.models import RatingPool
from league.ratings.services import pool_create
from league.results.services import match_create
from tests.factories import FIRST_PLAY, PlayerFactory


def ids(players):
    return [p.pk for p in players]


def test_a_match_gets_seats_in_order_and_complete_options(players):
    match = match_create(game_id="chicken_foot", player_ids=ids(players[::-1]))

    assert list(match.seats.order_by("seat").values_list("player__name", flat=True)) == [
        "Dan",
        "Cat",
        "Bob",
        "Ann",
    ]
    assert match.status == Match.Status.SCHEDULED
    assert match.options["set"] == "double_nine"
    assert match.rating_pool.name == "Chicken Foot: people"


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"game_id": "go"}, "unknown game 'go'"),
        ({"options": {"no_such_option": True}}, "unknown option no_such_option"),
        ({"options": {"specials_all_identical": "maybe"}}, "expected true or false"),
        ({"options": [1]}, "options must be an object"),
        ({"rated": "yes"}, "rated must be true or false"),
    ],
)
def test_bad_matches_are_refused_with_a_message(players, kwargs, message):
    arguments = {"game_id": "nacho_pile", "player_ids": ids(players), **kwargs}
    with pytest.raises(UserError, match=message):
        match_create(**arguments)
    assert not Match.objects.exists()


def test_seats_must_be_distinct_known_active_people_within_the_games_range(players):
    with pytest.raises(UserError, match="a match has 2 to 7 seats, not 1"):
        match_create(game_id="nacho_pile", player_ids=ids(players[:1]))
    with pytest.raises(UserError, match="only one seat"):
        match_create(game_id="nacho_pile", player_ids=[players[0].pk, players[0].pk])
    with pytest.raises(UserError, match="no player with id 9999"):
        match_create(game_id="nacho_pile", player_ids=[players[0].pk, 9999])
    with pytest.raises(UserError, match="Chickie Nuggs takes 2 to 4 players"):
        match_create(game_id="chickie_nuggs", player_ids=ids(players) + [PlayerFactory().pk])
    Player.objects.filter(name="Bob").update(active=False)
    with pytest.raises(UserError, match="inactive players cannot take a seat: Bob"):
        match_create(game_id="nacho_pile", player_ids=ids(players))
    bot = PlayerFactory(name="Robo", kind=Player.Kind.BOT)
    with pytest.raises(UserError, match="bots play rated matches only in bot leagues"):
        match_create(game_id="nacho_pile", player_ids=[players[0].pk, bot.pk])
    assert not Match.objects.exists()
    assert (
        match_create(game_id="nacho_pile", player_ids=[players[0].pk, bot.pk], rated=False).rating_pool
        is None
    )


def test_a_bot_match_record_is_stored_compressed(players):
    match = match_create(game_id="nacho_pile", player_ids=ids(players), rated=False)
    record = {"game": "nacho_pile", "events": [{"seat": 0, "action": "draw"}] * 500}
    match.record = Match.compress_record(record)
    match.save(update_fields=["record"])
    match.refresh_from_db()

    assert match.record_json() == record
    assert len(match.record) < 200


def test_a_stored_record_is_the_canonical_json_of_the_match():
    record = play_match("nacho_pile", 4, ["heuristic", "random", "heuristic", "random"], seed=7)
    huge = {"seed": 2**70, "events": [["c", 1]]}  # beyond 64 bits: the standard library's encoder

    assert zlib.decompress(Match.compress_record(record)) == canonical_json(record).encode()
    assert (
        zlib.decompress(Match.compress_record(huge)) == b'{"events":[["c",1]],"seed":1180591620717411303424}'
    )


def bot_pool():
    return pool_create(name="Bot league: test", kind=RatingPool.Kind.BOT_LEAGUE, game_id="nacho_pile")


def test_a_drawn_round_is_scheduled_in_two_statements_in_table_order(players, django_assert_num_queries):
    pool = bot_pool()
    tables = [
        ScheduledMatch(FIRST_PLAY + timedelta(microseconds=1), ids(players[:3])),
        ScheduledMatch(FIRST_PLAY, ids(players[1:])),
    ]

    with django_assert_num_queries(2):
        match_ids = matches_schedule(
            owner="fixture", game_id="nacho_pile", options={"x": 1}, rating_pool_id=pool.pk, tables=tables
        )

    matches = [Match.objects.get(pk=match_id) for match_id in match_ids]
    assert [(m.played_at, m.status, m.rated, m.rating_pool_id, m.options) for m in matches] == [
        (FIRST_PLAY + timedelta(microseconds=1), "scheduled", True, pool.pk, {"x": 1}),
        (FIRST_PLAY, "scheduled", True, pool.pk, {"x": 1}),
    ]
    assert [list(m.seats.order_by("seat").values_list("player__name", flat=True)) for m in matches] == [
        ["Ann", "Bob", "Cat"],
        ["Bob", "Cat", "Dan"],
    ]
    with pytest.raises(InvariantViolation, match="the same time"):
        matches_schedule(
            owner="fixture",
            game_id="nacho_pile",
            options={},
            rating_pool_id=pool.pk,
            tables=[tables[0], tables[0]],
        )


def test_claims_and_hand_backs_move_the_status(players):
    [match_id] = matches_schedule(
        owner="fixture",
        game_id="nacho_pile",
        options={},
        rating_pool_id=bot_pool().pk,
        tables=[ScheduledMatch(FIRST_PLAY, ids(players))],
    )

    matches_set_running(match_ids=[match_id])
    running = Match.objects.get(pk=match_id).status
    matches_hand_back(match_ids=[match_id])

    assert (running, Match.objects.get(pk=match_id).status) == ("running", "scheduled")


def test_outcomes_are_written_onto_matches_and_seats(players, django_assert_num_queries):
    played, scored, voided = (
        match_create(game_id="nacho_pile", player_ids=ids(players), rated=False) for _ in range(3)
    )
    record = {"game": "nacho_pile", "outcome": {"places": [2, 1, 3, 4]}}

    with django_assert_num_queries(2):
        matches_set_outcomes(
            status="finished", outcomes=[MatchOutcome(played.pk, 1, [2, 1, 3, 4], None, record)]
        )
    matches_set_outcomes(status="finished", outcomes=[MatchOutcome(scored.pk, 3, [1, 1, 3, 4], [9, 9, 4, 0])])
    matches_set_outcomes(status="finished", outcomes=[MatchOutcome(voided.pk, 1, [4, 3, 2, 1])])
    matches_set_outcomes(status="void", outcomes=[MatchOutcome(voided.pk, 1, None)])

    def outcome(match):
        match.refresh_from_db()
        seats = match.seats.order_by("seat").values_list("place", "score")
        return match.status, match.result_version, match.record_json(), list(seats)

    assert outcome(played) == ("finished", 1, record, [(2, None), (1, None), (3, None), (4, None)])
    assert outcome(scored) == ("finished", 3, None, [(1, 9), (1, 9), (3, 4), (4, 0)])
    assert outcome(voided) == ("void", 1, None, [(4, None), (3, None), (2, None), (1, None)])
    with pytest.raises(InvariantViolation, match="all carry a record or none do"):
        matches_set_outcomes(
            status="finished",
            outcomes=[
                MatchOutcome(played.pk, 1, [2, 1, 3, 4], None, record),
                MatchOutcome(scored.pk, 4, [1, 2, 3, 4]),
            ],
        )
