"""The demo bot leagues of `make run`: one per registered game, on the scheduled pace, playing while you look.

Each league seats the game's built-in bots (the random bot, every heuristic, and a small search bot) and
draws a round every few seconds (django-celery-beat), so the standings and the convergence chart move for a
few minutes after the start. Beside them, one ladder (Nacho Pile's bots) that never ends: the beat draws a
round every few seconds for as long as the workers run. Idempotent: a game whose demo league exists, and
the ladder if it exists, are skipped.
"""

from __future__ import annotations

from typing import Any

from games import registry
from league.bots.models import BotDefinition, BotLeague
from league.bots.services.definitions import bot_register
from league.bots.services.ladders import ladder_create, ladder_enter
from league.bots.services.leagues import league_create, league_start

DEMO_ROUNDS = 40
DEMO_INTERVAL_SECONDS = 5
DEMO_SEED = 2024
SEARCH_ITERATIONS = 25
DEMO_LADDER = "Demo ladder: Nacho Pile"
DEMO_LADDER_GAME = "nacho_pile"


def demo_bots(game_id: str) -> list[tuple[str, str, dict[str, Any]]]:
    """(label, strategy, params) of the demo bots of a game."""
    bots: list[tuple[str, str, dict[str, Any]]] = [("random", "random", {})]
    for name in registry.bots_for(game_id):
        if name not in ("random", "search"):
            bots.append((name, name, {}))
    bots.append((f"search {SEARCH_ITERATIONS}", "search", {"iterations": SEARCH_ITERATIONS}))
    return bots


def _demo_bot(game_id: str, game_name: str, label: str, strategy: str, params: dict) -> BotDefinition:
    bot_name = f"{game_name} {label}"
    bot = BotDefinition.objects.filter(game_id=game_id, name=bot_name).order_by("-version").first()
    return bot or bot_register(
        name=bot_name, game_id=game_id, kind="builtin", strategy=strategy, params=params, by=None
    )


def load_demo_ladder() -> BotLeague | None:
    """Create and start the demo ladder (the demo bots of Nacho Pile, tables of 3, a round every few
    seconds, forever) unless it exists; the ladder started, or None."""
    if BotLeague.objects.filter(name=DEMO_LADDER).exists() or DEMO_LADDER_GAME not in registry.game_ids():
        return None
    spec = registry.get_spec(DEMO_LADDER_GAME)
    ladder = ladder_create(
        name=DEMO_LADDER,
        game_id=spec.id,
        table_size=3,
        seed=DEMO_SEED,
        sittings_per_round=1,
        newcomer_matches=10,
        pace=BotLeague.Pace.SCHEDULED,
        interval_seconds=DEMO_INTERVAL_SECONDS,
        by=None,
    )
    for label, strategy, params in demo_bots(spec.id):
        bot = _demo_bot(spec.id, spec.name, label, strategy, params)
        ladder_enter(ladder_id=ladder.pk, bot_id=bot.pk, by=None)
    return league_start(league_id=ladder.pk)


def load_bot_demo() -> list[BotLeague]:
    """Create and start the demo league of every registered game that has none, and the demo ladder; returns
    the leagues (and ladder) started."""
    started = []
    for game_id in registry.game_ids():
        spec = registry.get_spec(game_id)
        name = f"Demo: {spec.name}"
        if BotLeague.objects.filter(name=name).exists():
            continue
        bots = [_demo_bot(game_id, spec.name, *bot) for bot in demo_bots(game_id)]
        low, high = spec.players_allowed(spec.validate_options({}))
        league = league_create(
            name=name,
            game_id=game_id,
            bot_ids=[bot.pk for bot in bots],
            table_size=max(low, min(3, high, len(bots))),
            target_kind=BotLeague.Target.ROUNDS,
            target_value=DEMO_ROUNDS,
            sittings_per_round=1,
            seed=DEMO_SEED,
            pace=BotLeague.Pace.SCHEDULED,
            interval_seconds=DEMO_INTERVAL_SECONDS,
            by=None,
        )
        started.append(league_start(league_id=league.pk))
    ladder = load_demo_ladder()
    if ladder is not None:
        started.append(ladder)
    return started
