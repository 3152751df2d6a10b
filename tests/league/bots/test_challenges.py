"""Challenges: an author's bot against chosen bots for N unrated matches, played behind ladder work."""

import pytest
from django.db import IntegrityError, transaction

from league.bots.models import Challenge, ChallengeMatch, Fixture
from league.bots.selectors import challenge_summary
from league.bots.services.challenges import OPEN_PER_USER, challenge_create
from league.bots.services.definitions import bot_register, bot_revise
from league.bots.services.ladders import ladder_create, ladder_enter
from league.bots.services.leagues import league_start
from league.bots.services.work import work_claim, work_play
from league.core.errors import Forbidden, InvariantViolation, UserError
from league.matches.models import Match
from league.matches.services import check_owned
from league.ratings.models import PendingRatingUpdate, Rating, RatingHistory
from tests.league.bots.conftest import make_bots, make_league

pytestmark = pytest.mark.django_db


@pytest.fixture
def authored(staff, member):
    """A bot of the member's (its `created_by`), and five bots of staff's to challenge."""
    bots = make_bots(staff)
    mine = bot_register(
        name="Member's bot",
        game_id="nacho_pile",
        kind="builtin",
        strategy="heuristic",
        params={"caution": 1.2},
        by=staff,
    )
    mine.created_by = member
    mine.save(update_fields=["created_by"])
    return mine, bots


def test_a_challenge_of_twenty_matches_is_played_unrated_and_replays(member, authored):
    mine, bots = authored
    challenge = challenge_create(
        bot_id=mine.pk, opponent_ids=[bots[1].pk, bots[0].pk], matches=20, seed=5, by=member
    )
    assert ChallengeMatch.objects.filter(challenge=challenge).count() == 20
    assert work_play(worker="test") == 20
    challenge.refresh_from_db()
    assert challenge.status == "finished"
    games = list(ChallengeMatch.objects.filter(challenge=challenge).select_related("match").order_by("index"))
    assert all(game.done and game.match.status == "finished" and not game.match.rated for game in games)
    # Seats turn by one each match: the bot, then its opponents by id.
    first_seats = [[seat.player_id for seat in game.match.seats.order_by("seat")] for game in games[:3]]
    players = [mine.player_id, bots[0].player_id, bots[1].player_id]
    assert first_seats == [players, players[1:] + players[:1], players[2:] + players[:2]]
    # Unrated: no pool is touched.
    assert not Rating.objects.filter(player__in=players).exists()
    assert not RatingHistory.objects.filter(match__challenge_match__challenge=challenge).exists()
    assert not PendingRatingUpdate.objects.exists()
    # What the page shows: each bot's matches, wins and share; the wins add up to at least one a match.
    lines = challenge_summary(challenge)
    assert [line.bot.pk for line in lines] == [mine.pk, bots[0].pk, bots[1].pk]
    assert [line.played for line in lines] == [20, 20, 20]
    assert sum(line.wins for line in lines) >= 20
    assert lines[0].win_share == lines[0].wins / 20
    # The same seed gives the same matches, record for record.
    again = challenge_create(
        bot_id=mine.pk, opponent_ids=[bots[0].pk, bots[1].pk], matches=20, seed=5, by=member
    )
    work_play(worker="again")
    records = [
        g.match.record_json() for g in ChallengeMatch.objects.filter(challenge=again).order_by("index")
    ]
    assert records == [game.match.record_json() for game in games]


def test_ladder_fixtures_are_claimed_before_challenge_matches(staff, member, authored):
    mine, bots = authored
    ladder = ladder_create(
        name="Ladder", game_id="nacho_pile", table_size=3, sittings_per_round=1, by=staff, pace="scheduled"
    )
    for bot in bots[:3]:
        ladder_enter(ladder_id=ladder.pk, bot_id=bot.pk, by=staff)
    challenge = challenge_create(bot_id=mine.pk, opponent_ids=[bots[4].pk], matches=3, seed=1, by=member)
    league_start(league_id=ladder.pk)
    assert Fixture.objects.filter(league=ladder, done=False).count() == 1

    claim = work_claim(token="w1")
    assert (claim.league_id, claim.games) == (ladder.pk, [])
    assert not ChallengeMatch.objects.exclude(lease_token="").exists()  # nothing of the challenge taken

    work_play(worker="test")  # plays the ladder's fixture first, then the challenge
    assert Fixture.objects.get(league=ladder).done
    assert ChallengeMatch.objects.filter(challenge=challenge, done=True).count() == 3
    fixture_stored = Fixture.objects.get(league=ladder).match.result_versions.get().entered_at
    first_game = (
        ChallengeMatch.objects.get(challenge=challenge, index=0).match.result_versions.get().entered_at
    )
    assert fixture_stored <= first_game
    claim = work_claim(token="w2")
    assert (claim.league_id, claim.games) == (None, [])


def test_a_match_cannot_belong_to_two_owners(staff, member, authored):
    mine, bots = authored
    league = make_league(staff, bots, target_value=1, sittings_per_round=1)
    league_start(league_id=league.pk)
    fixture = Fixture.objects.filter(league=league).first()
    challenge = challenge_create(bot_id=mine.pk, opponent_ids=[bots[0].pk], matches=1, seed=1, by=member)
    game = ChallengeMatch.objects.get(challenge=challenge)
    owners = dict(Match.objects.filter(pk__in=[fixture.match_id, game.match_id]).values_list("pk", "owner"))
    assert owners == {fixture.match_id: "fixture", game.match_id: "challenge"}
    with pytest.raises(InvariantViolation, match="a match linked as a challenge was not scheduled for one"):
        check_owned(match_ids=[game.match_id, fixture.match_id], owner="challenge")
    with pytest.raises(InvariantViolation, match="a match linked as a fixture was not scheduled for one"):
        check_owned(match_ids=[game.match_id], owner="fixture")
    with transaction.atomic(), pytest.raises(IntegrityError):
        ChallengeMatch.objects.create(challenge=challenge, index=2, match_id=game.match_id, seed=1)
    assert ChallengeMatch.objects.filter(match_id=game.match_id).count() == 1
    assert Match.objects.get(pk=game.match_id).rating_pool is None


def test_challenges_are_refused_with_a_clear_message(staff, member, authored):
    mine, bots = authored
    others = [bots[0].pk]
    with pytest.raises(Forbidden, match="only the owner of Random"):
        challenge_create(bot_id=bots[0].pk, opponent_ids=[mine.pk], matches=5, by=member)
    for matches in (0, 10**9, 1.5, "7", None, True):
        with pytest.raises(UserError, match="matches must be a whole number from 1 to 100"):
            challenge_create(bot_id=mine.pk, opponent_ids=others, matches=matches, by=member)
    hen = make_bots(staff, (("Hen", "random", {}),), game_id="chicken_foot")[0]
    with pytest.raises(UserError, match="these bots play another game than Member's bot: Hen"):
        challenge_create(bot_id=mine.pk, opponent_ids=[hen.pk], matches=5, by=member)
    challenge_create(bot_id=mine.pk, opponent_ids=[bots[1].pk], matches=1, seed=1, by=member)
    work_play(worker="test")  # Careful has played: a change makes its v2, and v1 is retired
    careful_v2 = bot_revise(bot=bots[1], by=staff, params={"caution": 2.5})
    with pytest.raises(UserError, match="newer versions, challenge those: Careful"):
        challenge_create(bot_id=mine.pk, opponent_ids=[bots[1].pk], matches=5, by=member)
    for opponents, message in (
        ([], "choose at least one opponent"),
        ([mine.pk], "opponents must be distinct bots"),
        ([bots[0].pk, bots[0].pk], "opponents must be distinct bots"),
        ([10**12], "some of these opponents do not exist"),
        (["x"], "opponents must be a list of bot ids"),
        ([b.pk for b in bots] + [10**12, 10**12 + 1], "at most 7 opponents"),
    ):
        with pytest.raises(UserError, match=message):
            challenge_create(bot_id=mine.pk, opponent_ids=opponents, matches=5, by=member)
    with pytest.raises(UserError, match="Nacho Pile"):  # more seats than the game has
        challenge_create(
            bot_id=mine.pk,
            opponent_ids=[b.pk for b in bots if b.pk != bots[1].pk] + [careful_v2.pk],
            matches=5,
            by=member,
        )
    for _ in range(OPEN_PER_USER):
        challenge_create(bot_id=mine.pk, opponent_ids=others, matches=2, by=member)
    with pytest.raises(
        UserError, match="you have 3 challenges or version tests still playing, the most allowed"
    ):
        challenge_create(bot_id=mine.pk, opponent_ids=others, matches=2, by=member)
    assert Challenge.objects.filter(challenger=member).count() == 1 + OPEN_PER_USER
    # Staff may challenge with anyone's bot, and have a cap of their own.
    challenge_create(bot_id=mine.pk, opponent_ids=others, matches=2, by=staff)
