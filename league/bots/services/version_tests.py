"""Writes for version tests: "is v2 better than v1?", a sequential test of two versions of one author's bot.

`version_test_create` checks and queues a test; its pairs are then played one after another as leased work
(kind "version_test", `league.bots.services.leases`), in the challenges' share of the workers
(`league.bots.services.work.SHARED_WITH`). Each pair is one seed played twice at one table: v1 in the
pair's seat and v2 in the next for the first game, swapped for the second; the game's built-in heuristic bots
(`fixed_opponents`) in the other seats, the same in both games. The seat turns by one each pair, so every seat
is taken in turn. When both matches of a pair are stored, `version_tests_advance` (the kind's store step,
in the store's transaction) scores the pair (`league.bots.sprt`), updates the counts and the LLR, and either
finishes the test (a verdict, or the cap) or schedules the next pair. A pair with a void match (its worker
lost three times) is not counted; the next is played.

Rules (each refused with a message): only the author of both versions creates a test; the two versions are
of one bot (same author, game and name), distinct, and both ready; H1's Elo above H0's, each from -400 to 400;
alpha and beta from 0.001 to 0.5; from 1 to `sprt.MAX_PAIRS` pairs. A running test counts as an open
challenge of its author (`league.bots.services.challenges.OPEN_PER_USER` between them).
"""

from __future__ import annotations

import secrets
from collections.abc import Collection
from datetime import timedelta
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AnonymousUser, User
from django.db import transaction
from django.utils import timezone

from games import registry
from games.core.errors import OptionError
from league.bots import matchmaking, sprt
from league.bots.budget import check_table_memory
from league.bots.models import BotDefinition, VersionTest, VersionTestMatch
from league.bots.services.challenges import OPEN_PER_USER, open_work_count, queue_challenge_work
from league.bots.services.definitions import bot_register
from league.bots.services.leagues import not_ready_message
from league.core import bulk
from league.core.bounds import Bounds
from league.core.catalogue import game_spec
from league.core.checks import is_int
from league.core.errors import Forbidden, UserError
from league.matches.models import Match
from league.matches.services import ScheduledMatch, check_owned, matches_schedule

ELO = Bounds(-400, 400, whole=False)
ERROR_RATE = Bounds(0.001, 0.5, whole=False)
PAIRS = Bounds(1, sprt.MAX_PAIRS)
SEED = Bounds(0, 2**63 - 1)
NOT_OPPONENTS = ("random", "search")  # the built-in strategies that are not the game's heuristics


def heuristic_strategies(game_id: str) -> list[str]:
    """The game's built-in heuristic bots, by name: the strategies the games package registers for it (not
    one registered elsewhere), but random and search."""
    return sorted(
        name
        for name, cls in registry.bots_for(game_id).items()
        if name not in NOT_OPPONENTS and cls.__module__.startswith("games.")
    )


def fixed_opponents(game_id: str, seats: int) -> list[BotDefinition]:
    """The game's built-in heuristic bots (every built-in strategy but random and search), at most `seats`
    of them, by name: the unowned definitions of these strategies with default parameters, registered here
    if the site has none yet."""
    spec = game_spec(game_id)
    found: list[BotDefinition] = []
    for name in heuristic_strategies(game_id):
        if len(found) >= seats:
            break
        bot = (
            BotDefinition.objects.filter(
                created_by__isnull=True,
                game_id=game_id,
                kind=BotDefinition.Kind.BUILTIN,
                strategy=name,
                state=BotDefinition.State.READY,
            )
            .order_by("-version")
            .first()
        )
        if bot is None or bot.params != bot_register_params(game_id, name):
            bot = bot_register(
                name=_free_name(game_id, f"{spec.name} {name}"),
                game_id=game_id,
                kind="builtin",
                strategy=name,
                params={},
                by=None,
            )
        found.append(bot)
    return found


def bot_register_params(game_id: str, strategy: str) -> dict[str, Any]:
    """A built-in strategy's default parameters (as `bot_register` stores them)."""
    return dict(registry.bot_class(strategy, game_id).validate_params({}))


def _free_name(game_id: str, name: str) -> str:
    taken = {
        taken.lower()
        for taken in BotDefinition.objects.filter(
            created_by__isnull=True, game_id=game_id, name__istartswith=name
        ).values_list("name", flat=True)
    }
    if name.lower() not in taken:
        return name
    return next(f"{name} ({n})" for n in range(2, 1000) if f"{name} ({n})".lower() not in taken)


def table_size(game_id: str, opponents_available: int) -> int:
    """The table of a version test: v1, v2 and as many heuristic bots as the game seats (at least its
    smallest table: refused by the caller when the game has too few heuristics to fill it)."""
    spec = game_spec(game_id)
    low, high = spec.players_allowed(spec.validate_options({}))
    return max(low, min(high, 2 + opponents_available))


def pair_seats(order: list[int], pair: int, game: int) -> list[int]:
    """The seats (bot ids) of game `game` of pair `pair` of a test whose table, in its first pair's first
    game, is `order` (v1, v2, then the opponents): turned by one seat each pair, v1 and v2 swapped in the
    second game."""
    size = len(order)
    turn = pair % size
    seats = order[-turn:] + order[:-turn] if turn else list(order)
    if game == 1:
        v1, v2 = order[0], order[1]
        seats = [v2 if bot == v1 else v1 if bot == v2 else bot for bot in seats]
    return seats


def pair_seed(seed: int, pair: int) -> int:
    """The seed both matches of a pair are played from."""
    return matchmaking.challenge_seed(seed, pair)


def version_test_create(
    *,
    v1_id: Any,
    v2_id: Any,
    by: User | AnonymousUser | None,
    elo0: Any = sprt.ELO0,
    elo1: Any = sprt.ELO1,
    alpha: Any = sprt.ALPHA,
    beta: Any = sprt.BETA,
    max_pairs: Any = sprt.MAX_PAIRS,
    seed: Any = None,
) -> VersionTest:
    """Queue the test "is `v2_id` better than `v1_id`?" for user `by`, the author of both."""
    if by is None or not by.is_authenticated:
        raise Forbidden("sign in to test your bots' versions")
    versions = []
    for field, pk in (("v1", v1_id), ("v2", v2_id)):
        if not is_int(pk):
            raise UserError(f"{field} must be a bot id", field=field)
        bot = BotDefinition.objects.filter(pk=pk).first()
        if bot is None:
            raise UserError("no bot with this id", field=field)
        if bot.created_by_id != by.pk:
            raise Forbidden(f"only the author of {bot.label} may test its versions")
        versions.append(bot)
    v1, v2 = versions
    if v1.pk == v2.pk:
        raise UserError("choose two different versions", field="v2")
    if v1.line != v2.line:
        raise UserError(f"{v1.label} and {v2.label} are not versions of one bot", field="v2")
    for field, bot in (("v1", v1), ("v2", v2)):
        if not bot.is_ready:
            raise UserError(not_ready_message([bot]), field=field)
    ELO.check(elo0, "elo0")
    ELO.check(elo1, "elo1")
    if not elo1 > elo0:
        raise UserError("H1's Elo (elo1) must be above H0's (elo0)", field="elo1")
    ERROR_RATE.check(alpha, "alpha")
    ERROR_RATE.check(beta, "beta")
    PAIRS.check(max_pairs, "max_pairs")
    if seed is None:
        seed = secrets.randbits(63)
    SEED.check(seed, "seed")
    spec = game_spec(v1.game_id)
    low, high = spec.players_allowed(spec.validate_options({}))
    heuristics = len(heuristic_strategies(spec.id))
    size = table_size(spec.id, heuristics)
    if size - 2 > heuristics:
        raise UserError(f"{spec.name} has too few built-in heuristic bots to fill its table", field="v1")
    try:
        options = spec.validate_options({}, num_players=size)
    except OptionError as exc:
        raise UserError(f"{spec.name}: {exc}", field="v1") from None
    check_table_memory(bots=[v1, v2], table_size=size, field="v2")
    with transaction.atomic():
        # The cap of open work is checked under the user's lock, as a challenge's is.
        get_user_model().objects.select_for_update().filter(pk=by.pk).first()
        open_count = open_work_count(by)
        if open_count >= OPEN_PER_USER:
            raise UserError(
                f"you have {open_count} challenges or version tests still playing, the most allowed: wait "
                "until one finishes",
                field="v2",
            )
        opponents = fixed_opponents(spec.id, size - 2)
        test = VersionTest.objects.create(
            author=by,
            game_id=spec.id,
            options=options,
            v1=v1,
            v2=v2,
            seed=seed,
            elo0=float(elo0),
            elo1=float(elo1),
            alpha=float(alpha),
            beta=float(beta),
            max_pairs=max_pairs,
            counts=[0, 0, 0, 0, 0],
        )
        test.opponents.set(opponents)
        _schedule_pair(test, [v1, v2, *opponents], 0)
        queue_challenge_work(1)
    return test


def _schedule_pair(test: VersionTest, order: list[BotDefinition], pair: int) -> None:
    """Schedule both matches of pair `pair` (unrated, private to the author and staff) and their rows."""
    players = {bot.pk: bot.player_id for bot in order}
    ids_in_order = [bot.pk for bot in order]
    now = timezone.now()
    ids = matches_schedule(
        owner=Match.Owner.VERSION_TEST,
        game_id=test.game_id,
        options=test.options,
        rating_pool_id=None,
        rated=False,
        created_by_id=test.author_id,
        viewer_ids=[test.author_id],
        tables=[
            ScheduledMatch(
                now + timedelta(microseconds=game),
                [players[pk] for pk in pair_seats(ids_in_order, pair, game)],
            )
            for game in (0, 1)
        ],
    )
    check_owned(match_ids=ids, owner=Match.Owner.VERSION_TEST)
    seed = pair_seed(test.seed, pair)
    bulk.insert(
        VersionTestMatch,
        ("game", "match_id"),
        [(game, match_id) for game, match_id in enumerate(ids)],
        test_id=test.pk,
        pair=pair,
        seed=seed,
        done=False,
        lease_token="",
        attempts=0,
        leases_lost=0,
        played_by="",
    )


def _table_order(test: VersionTest) -> list[BotDefinition]:
    return [test.v1, test.v2, *test.opponents.order_by("name", "pk")]


def _v_place(match: Match, bot: BotDefinition) -> int | None:
    seat = next((seat for seat in match.seats.all() if seat.player_id == bot.player_id), None)
    return None if seat is None else seat.place


def version_tests_advance(test_ids: Collection[int]) -> int:
    """Score the finished pairs of these running tests, update their counts and LLR, and finish each at a
    verdict or its cap, or schedule its next pair; how many tests finished. In the transaction that stored
    (or voided) their matches: the kind's store step."""
    finished = 0
    tests = (
        VersionTest.objects.select_for_update()
        .filter(pk__in=test_ids, state=VersionTest.State.RUNNING)
        .select_related("v1", "v2")
        .order_by("pk")
    )
    for test in tests:
        rows = list(
            VersionTestMatch.objects.filter(test=test, pair=test.next_pair)
            .select_related("match")
            .prefetch_related("match__seats")
            .order_by("game")
        )
        if len(rows) != 2 or not all(row.done for row in rows):
            continue
        running = sprt.SequentialTest(
            elo0=test.elo0,
            elo1=test.elo1,
            alpha=test.alpha,
            beta=test.beta,
            max_pairs=test.max_pairs,
            counts=test.counts,
        )
        scores = []
        for row in rows:
            v1_place, v2_place = _v_place(row.match, test.v1), _v_place(row.match, test.v2)
            if row.match.status != Match.Status.FINISHED or v1_place is None or v2_place is None:
                break
            scores.append(sprt.game_score(v2_place, v1_place))
        if len(scores) == 2:
            verdict = running.add(sprt.pair_index(*scores))
        else:
            test.pairs_void += 1
            verdict = running.verdict
        test.counts = running.counts
        test.llr = running.llr
        test.next_pair += 1
        if verdict is sprt.Verdict.RUNNING and test.next_pair >= test.max_pairs:
            verdict = sprt.Verdict.NO_VERDICT  # the cap counts pairs played, void ones too
        if verdict is sprt.Verdict.RUNNING:
            _schedule_pair(test, _table_order(test), test.next_pair)
        else:
            test.verdict = str(verdict)
            test.state = VersionTest.State.FINISHED
            test.finished_at = timezone.now()
            finished += 1
        test.save(
            update_fields=["counts", "llr", "next_pair", "pairs_void", "verdict", "state", "finished_at"]
        )
    return finished


def may_see(test: VersionTest, user: User | AnonymousUser | None) -> bool:
    """A version test is its author's and staff's to see."""
    return bool(user and user.is_authenticated and (user.is_staff or test.author_id == user.pk))
