"""`manage.py ratings_recompute GAME`: prove a game's people pool equals a from-scratch recompute.

Exit status: 0 when every stored rating equals the recompute exactly, 1 on any difference (each printed),
2 on bad input (unknown game). `--write` rebuilds the stored ratings and history from scratch first.
"""

from django.core.management.base import BaseCommand, CommandError

from games.core.errors import UnknownGame
from games.registry import get_spec
from league.players.models import Player
from league.ratings.models import RatingPool
from league.ratings.selectors import people_pool
from league.ratings.services import pool_differences, pool_rebuild


def _show(numbers: tuple[float, float, int] | None) -> str:
    if numbers is None:
        return "none"
    mu, sigma, matches = numbers
    return f"mu={mu!r} sigma={sigma!r} matches={matches}"


class Command(BaseCommand):
    help = "Recompute a game's people rating pool from scratch and compare it with the stored ratings."

    def add_arguments(self, parser):
        parser.add_argument("game", help="a game id, e.g. nacho_pile")
        parser.add_argument("--write", action="store_true", help="rebuild the stored pool from scratch first")

    def handle(self, *args, game: str, write: bool, **options):
        try:
            get_spec(game)
        except UnknownGame as exc:
            raise CommandError(str(exc), returncode=2) from None
        pool: RatingPool | None = people_pool(game)
        if pool is None:
            self.stdout.write(f"{game}: no rated matches yet; nothing to compare")
            return
        if write:
            applied = pool_rebuild(pool_id=pool.pk)
            self.stdout.write(f"{pool.name}: rebuilt from scratch ({applied} matches)")
        differences = pool_differences(pool)
        if not differences:
            count = pool.ratings.count()
            self.stdout.write(
                self.style.SUCCESS(f"{pool.name}: {count} ratings equal a recompute from scratch")
            )
            return
        names = dict(
            Player.objects.filter(pk__in=[d.player_id for d in differences]).values_list("pk", "name")
        )
        for difference in differences:
            self.stdout.write(
                f"{names.get(difference.player_id, difference.player_id)}: stored "
                f"{_show(difference.stored)}, "
                f"recomputed {_show(difference.computed)}"
            )
        raise CommandError(f"{pool.name}: {len(differences)} ratings differ from a recompute", returncode=1)
