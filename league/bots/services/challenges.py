"""Writes for challenges: an author's bot against chosen bots for a number of unrated matches.

A challenge is the third owner of matches, beside tournament tables and league fixtures: its matches are
created here (`league.matches.services.matches_schedule`, unrated: no rating pool, so no rating ever moves;
private: seen only by the challenger, the authors of the bots seated and staff) and linked one to one
(`ChallengeMatch`). The workers play them behind every league and ladder fixture, through the leased-work
pipeline (`league.bots.services.leases`, kind "challenge"; the loop is `league.bots.services.work`). Every
match seats the bot and its opponents, the seat order turning by one each match; each match's seed comes
from the challenge's seed, so a challenge replays.

Rules (each refused with a message): only the bot's owner (its `created_by`) or staff challenge with it;
anyone's bot may be challenged; every bot plays the challenge's game and is its latest version; from 1 to
`MAX_MATCHES` matches; a table the game seats; at most `OPEN_PER_USER` unfinished challenges per user.
"""

from __future__ import annotations

import secrets
from collections.abc import Collection, Sequence
from datetime import timedelta

from celery import signature
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AnonymousUser, User
from django.db import transaction
from django.utils import timezone

from games.core.errors import OptionError
from league.bots import matchmaking
from league.bots.budget import check_table_memory
from league.bots.models import BotDefinition, Challenge, ChallengeMatch
from league.bots.services.leagues import not_ready_message, retired
from league.core import bulk
from league.core.bounds import Bounds
from league.core.catalogue import game_spec
from league.core.checks import is_int
from league.core.errors import Forbidden, UserError
from league.matches.models import Match
from league.matches.services import ScheduledMatch, check_owned, matches_schedule

MAX_MATCHES = 100
MAX_OPPONENTS = 7
OPEN_PER_USER = 3
MATCHES = Bounds(1, MAX_MATCHES)
SEED = Bounds(0, 2**63 - 1)
PLAY_TASK = "league.bots.tasks.challenge_play_task"


def challenge_create(
    *,
    bot_id: int,
    opponent_ids: Sequence[int],
    matches: int,
    by: User | AnonymousUser | None,
    seed: int | None = None,
) -> Challenge:
    """Queue a challenge of `matches` unrated matches of bot `bot_id` against `opponent_ids` for user `by`."""
    if by is None or not by.is_authenticated:
        raise Forbidden("sign in to challenge other bots")
    if not is_int(bot_id):
        raise UserError("bot must be a bot id", field="bot")
    bot = BotDefinition.objects.filter(pk=bot_id).first()
    if bot is None:
        raise UserError("no bot with this id", field="bot")
    if not by.is_staff and bot.created_by_id != by.pk:
        raise Forbidden(f"only the owner of {bot.label} (or staff) may challenge with it")
    MATCHES.check(matches, "matches")
    if seed is None:
        seed = secrets.randbits(63)
    SEED.check(seed, "seed")
    if not isinstance(opponent_ids, list | tuple) or not all(is_int(pk) for pk in opponent_ids):
        raise UserError("opponents must be a list of bot ids", field="opponents")
    if not opponent_ids:
        raise UserError("choose at least one opponent", field="opponents")
    if len(set(opponent_ids)) != len(opponent_ids) or bot.pk in opponent_ids:
        raise UserError("opponents must be distinct bots, other than the challenger", field="opponents")
    if len(opponent_ids) > MAX_OPPONENTS:
        raise UserError(f"at most {MAX_OPPONENTS} opponents", field="opponents")
    opponents = list(BotDefinition.objects.filter(pk__in=opponent_ids).order_by("pk"))
    if len(opponents) != len(opponent_ids):
        raise UserError("some of these opponents do not exist", field="opponents")
    wrong_game = [other.label for other in opponents if other.game_id != bot.game_id]
    if wrong_game:
        raise UserError(
            f"these bots play another game than {bot.label}: {', '.join(wrong_game)}", field="opponents"
        )
    if not bot.is_ready:
        raise UserError(not_ready_message([bot]), field="bot")
    unready = [other for other in opponents if not other.is_ready]
    if unready:
        raise UserError(not_ready_message(unready), field="opponents")
    if retired(bot):
        raise UserError(f"{bot.label} has a newer version: challenge with that one", field="bot")
    old = [other.label for other in opponents if retired(other)]
    if old:
        raise UserError(
            f"these bots have newer versions, challenge those: {', '.join(old)}", field="opponents"
        )
    spec = game_spec(bot.game_id)
    try:
        options = spec.validate_options({}, num_players=1 + len(opponents))
    except OptionError as exc:
        raise UserError(f"{spec.name}: {exc}", field="opponents") from None
    check_table_memory(bots=[bot, *opponents], table_size=1 + len(opponents), field="opponents")
    with transaction.atomic():
        # The cap is checked under the user's lock, so two requests at once cannot both pass it.
        get_user_model().objects.select_for_update().filter(pk=by.pk).first()
        open_count = Challenge.objects.filter(challenger=by, status=Challenge.Status.QUEUED).count()
        if open_count >= OPEN_PER_USER:
            raise UserError(
                f"you have {open_count} challenges still playing, the most allowed: wait until one finishes",
                field="matches",
            )
        challenge = Challenge.objects.create(
            challenger=by, bot=bot, game_id=spec.id, options=options, match_count=matches, seed=seed
        )
        challenge.opponents.set(opponents)
        now = timezone.now()
        players = {other.pk: other.player_id for other in [bot, *opponents]}
        seats = [
            matchmaking.challenge_seats(bot.pk, [other.pk for other in opponents], index)
            for index in range(matches)
        ]
        ids = matches_schedule(
            owner=Match.Owner.CHALLENGE,
            game_id=spec.id,
            options=options,
            rating_pool_id=None,
            rated=False,
            created_by_id=by.pk,
            viewer_ids=challenge_viewers(challenger_id=by.pk, bots=[bot, *opponents]),
            tables=[
                ScheduledMatch(now + timedelta(microseconds=index), [players[pk] for pk in seats[index]])
                for index in range(matches)
            ],
        )
        check_owned(match_ids=ids, owner=Match.Owner.CHALLENGE)
        bulk.insert(
            ChallengeMatch,
            ("index", "match_id", "seed"),
            [
                (index, match_id, matchmaking.challenge_seed(seed, index))
                for index, match_id in enumerate(ids)
            ],
            challenge_id=challenge.pk,
            done=False,
            lease_token="",
            attempts=0,
            leases_lost=0,
            played_by="",
        )
        queue_challenge_work(1)
    return challenge


def challenge_viewers(*, challenger_id: int, bots: Sequence[BotDefinition]) -> list[int]:
    """Who may see a challenge's matches beside staff: its challenger and the authors of the bots it seats."""
    return sorted({challenger_id} | {bot.created_by_id for bot in bots if bot.created_by_id is not None})


def queue_challenge_work(tasks: int) -> None:
    """Queue `tasks` runs of the challenge task after the commit."""

    def send() -> None:
        for _ in range(tasks):
            signature(PLAY_TASK).delay()

    transaction.on_commit(send)


def wake_a_worker() -> None:
    """Queue one run of the play task (after the commit, if in a transaction): a worker takes whatever work
    is open, slice by slice (`league.bots.services.work.work_shared`)."""
    queue_challenge_work(1)


def challenges_finish(challenge_ids: Collection[int]) -> int:
    """Finish the queued challenges among these that have nothing left to play (every match stored or voided);
    how many. In the transaction that stored or voided their last matches."""
    return (
        Challenge.objects.filter(pk__in=challenge_ids, status=Challenge.Status.QUEUED)
        .exclude(games__done=False)
        .update(status=Challenge.Status.FINISHED, finished_at=timezone.now())
    )


def may_see(challenge: Challenge, user: User | AnonymousUser | None) -> bool:
    """A challenge is its challenger's and staff's to see (an author's trials are theirs, not the
    public's)."""
    return bool(user and user.is_authenticated and (user.is_staff or challenge.challenger_id == user.pk))
