"""The demo bot leagues of `make run`: one per registered game, on the scheduled pace, playing while you look.

Each league seats the game's built-in bots (the random bot, every heuristic, and a small search bot) and
draws a round every few seconds (django-celery-beat), so the standings and the convergence chart move for a
few minutes after the start. Idempotent: a game whose demo league exists is skipped.
"""

from __future__ import annotations

from games import registry
from league.bots.leagues import league_create, league_start
from league.bots.models import BotDefinition, BotLeague
from league.bots.services import bot_register

DEMO_ROUNDS = 40
DEMO_INTERVAL_SECONDS = 5
DEMO_SEED = 2024
SEARCH_ITERATIONS = 25


def demo_bots(game_id: str) -> list[tuple[str, str, dict]]:
    """(label, strategy, params) of the demo bots of a game."""
    bots = [("random", "random", {})]
    for name in registry.bots_for(game_id):
        if name not in ("random", "search"):
            bots.append((name, name, {}))
    bots.append((f"search {SEARCH_ITERATIONS}", "search", {"iterations": SEARCH_ITERATIONS}))
    return bots


def load_bot_demo() -> list[BotLeague]:
    """Create and start the demo league of every registered game that has none; returns the leagues started."""
    started = []
    for game_id in registry.game_ids():
        spec = registry.get_spec(game_id)
        name = f"Demo: {spec.name}"
        if BotLeague.objects.filter(name=name).exists():
            continue
        bots = []
        for label, strategy, params in demo_bots(game_id):
            bot_name = f"{spec.name} {label}"
            bot = BotDefinition.objects.filter(game_id=game_id, name=bot_name).order_by("-version").first()
            bots.append(
                bot
                or bot_register(
                    name=bot_name, game_id=game_id, kind="builtin", strategy=strategy, params=params, by=None
                )
            )
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
    return started
