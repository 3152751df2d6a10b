"""`manage.py ratings_tune GAME [--pool ID] [--write]`: how well a few candidate rating settings would have
predicted the pool's own history.

Each candidate (the pool's current setting; β halved and doubled; τ zero and tripled; the Thurstone–Mosteller
and Plackett–Luce models) replays the pool's matches in order from an empty pool, predicting every match
(`league.ratings.forecast`) before applying it; the mean log loss of the winners' chances is printed, best
first, next to the uniform 1/n baseline. Nothing changes without `--write`, which stores the best candidate
on the pool and rebuilds its ratings from scratch. Exit status 2 on bad input (unknown game, no such pool,
a pool without rated matches when writing).
"""

from __future__ import annotations

import math

from django.core.management.base import BaseCommand, CommandError

from games.core.errors import UnknownGame
from games.registry import get_spec
from league.matches.selectors import rated_matches_for_pool
from league.ratings import maths
from league.ratings.forecast import replay_log_loss
from league.ratings.models import RatingPool
from league.ratings.services import pool_rebuild


def candidates(pool: RatingPool) -> list[tuple[str, maths.RatingModel]]:
    params = dict(pool.model_params)
    beta, tau = float(params.get("beta", 25 / 6)), float(params.get("tau", 25 / 300))
    current = pool.model
    out = [
        ("current", current),
        ("beta x0.5", maths.RatingModel(current.name, {**params, "beta": beta / 2})),
        ("beta x2", maths.RatingModel(current.name, {**params, "beta": beta * 2})),
        ("tau 0", maths.RatingModel(current.name, {**params, "tau": 0.0})),
        ("tau x3", maths.RatingModel(current.name, {**params, "tau": tau * 3})),
    ]
    for name in ("ThurstoneMostellerFull", "PlackettLuce"):
        if name != current.name:
            out.append((name, maths.RatingModel(name, params)))
    return out


class Command(BaseCommand):
    help = (
        "Compare the log loss of a few rating settings replayed on a pool's history; --write keeps the best."
    )

    def add_arguments(self, parser):
        parser.add_argument("game", help="a game id, e.g. nacho_pile")
        parser.add_argument("--pool", type=int, help="a pool id of that game (default: its people pool)")
        parser.add_argument(
            "--write", action="store_true", help="store the best setting and rebuild the pool"
        )

    def handle(self, *args, game: str, pool: int | None, write: bool, **options):
        try:
            get_spec(game)
        except UnknownGame as exc:
            raise CommandError(str(exc), returncode=2) from None
        pools = RatingPool.objects.filter(game_id=game)
        found = pools.filter(pk=pool).first() if pool is not None else pools.filter(kind="people").first()
        if found is None:
            what = f"no pool {pool} of {game}" if pool is not None else f"{game} has no people pool yet"
            raise CommandError(what, returncode=2)
        matches = list(rated_matches_for_pool(pool_id=found.pk))
        if not matches:
            raise CommandError(f"{found.name}: no rated matches to replay", returncode=2)
        uniform = sum(math.log(len(m.player_ids)) for m in matches) / len(matches)
        scored = []
        for label, model in candidates(found):
            loss, _ = replay_log_loss(model, matches)
            scored.append((loss, label, model))
        scored.sort(key=lambda row: (row[0], row[1]))
        self.stdout.write(f"{found.name}: {len(matches)} matches replayed in order, each predicted first")
        self.stdout.write(f"{'setting':<24} {'model':<24} {'beta':>7} {'tau':>7} {'log loss':>9}")
        for loss, label, model in scored:
            self.stdout.write(
                f"{label:<24} {model.name:<24} {model.params['beta']:>7.3f} {model.params['tau']:>7.4f} "
                f"{loss:>9.4f}"
            )
        self.stdout.write(f"{'uniform 1/n':<24} {'':<24} {'':>7} {'':>7} {uniform:>9.4f}")
        best_loss, best_label, best = scored[0]
        if not write:
            self.stdout.write(
                f"best: {best_label} (nothing changed; --write stores it and rebuilds the pool)"
            )
            return
        RatingPool.objects.filter(pk=found.pk).update(model_name=best.name, model_params=dict(best.params))
        applied = pool_rebuild(pool_id=found.pk)
        self.stdout.write(
            self.style.SUCCESS(f"{found.name}: now {best_label}; rebuilt from scratch ({applied} matches)")
        )
