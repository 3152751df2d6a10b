"""Demo data for a first look: players, a few dozen results per game, an admin account, and a player's
account (`demo`, who plays as Chiara) for trying the player's side: log in, my page, my API token.

Seeded, so every fresh install shows the same league. Idempotent: it adds nothing when players exist.
"""

from __future__ import annotations

import random
import secrets
from datetime import timedelta
from pathlib import Path

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

from league.accounts.services import account_create
from league.core.catalogue import game_specs
from league.core.private_files import private_dir
from league.players.models import Player
from league.players.services import player_claim, player_create
from league.ratings.models import RatingPool
from league.ratings.services import pool_rate
from league.results.services import competition_places, match_create, result_submit

DEMO_SEED = 20240611
MATCHES_PER_GAME = 36
DEMO_NAMES = (
    "Ada",
    "Bertil",
    "Chiara",
    "Dmitri",
    "Efua",
    "Farid",
    "Greta",
    "Hiro",
    "Ines",
    "Jonas",
    "Kalani",
    "Lucía",
    "Mateo",
    "Nkechi",
    "Oskar",
    "Priya",
)
ADMIN_USERNAME = "admin"
DEMO_PLAYER_USERNAME = "demo"
DEMO_PLAYER_NAME = "Chiara"  # seated at two waiting tables of the demo tournaments (tournament_demo)


def admin_password_file() -> Path:
    return Path(settings.VAR_DIR) / "admin-password.txt"


def ensure_admin() -> tuple[str, str]:
    """The demo admin's username and password; creates the account (and the password file) when missing."""
    user_model = get_user_model()
    path = admin_password_file()
    user = user_model.objects.filter(username=ADMIN_USERNAME).first()
    password = path.read_text().strip() if path.exists() else ""
    if user is not None and password and user.check_password(password):
        return ADMIN_USERNAME, password
    password = secrets.token_urlsafe(12)
    if user is None:
        user_model.objects.create_superuser(ADMIN_USERNAME, "admin@example.invalid", password)
    else:
        user.set_password(password)
        user.save(update_fields=["password"])
    private_dir(path.parent)
    path.write_text(password + "\n")
    path.chmod(0o600)
    return ADMIN_USERNAME, password


def demo_player_password_file() -> Path:
    return Path(settings.VAR_DIR) / "demo-password.txt"


def ensure_demo_player() -> tuple[str, str]:
    """The demo player account's username and password; creates it (through the sign-up service, so it is an
    account like any other) and links it to the demo player Chiara when they are missing."""
    user_model = get_user_model()
    path = demo_player_password_file()
    user = user_model.objects.filter(username=DEMO_PLAYER_USERNAME).first()
    password = path.read_text().strip() if path.exists() else ""
    if user is None or not password or not user.check_password(password):
        password = secrets.token_urlsafe(12)
        if user is None:
            user = account_create(
                username=DEMO_PLAYER_USERNAME, email="demo@example.invalid", password=password
            )
        else:
            user.set_password(password)
            user.save(update_fields=["password"])
        private_dir(path.parent)
        path.write_text(password + "\n")
        path.chmod(0o600)
    with transaction.atomic():
        player = (
            Player.objects.select_for_update()
            .filter(name=DEMO_PLAYER_NAME, kind=Player.Kind.PERSON, user=None)
            .first()
        )
        if player is not None and not Player.objects.filter(user=user).exists():
            player_claim(player=player, user=user)
    return DEMO_PLAYER_USERNAME, password


def load_demo(*, admin) -> int:
    """Create the demo league unless players exist; returns the number of matches created."""
    if Player.objects.exists():
        return 0
    rng = random.Random(DEMO_SEED)
    players = [player_create(name=name) for name in DEMO_NAMES]
    start = timezone.now() - timedelta(days=60)
    created = 0
    for spec in game_specs():
        low, high = spec.players_allowed(spec.validate_options({}))
        for number in range(MATCHES_PER_GAME):
            size = rng.randint(low, min(high, 5))
            seated = rng.sample(players, size)
            played_at = start + timedelta(hours=number * 36 + rng.randint(0, 20), minutes=rng.randint(0, 59))
            match = match_create(game_id=spec.id, player_ids=[p.pk for p in seated], played_at=played_at)
            strength = [DEMO_NAMES.index(p.name) for p in seated]  # later names play a little better
            if spec.score_order is None:
                keys = [-(s + rng.randint(0, 12)) // 3 for s in strength]
                result_submit(
                    match_id=match.pk, expected_version=0, places=competition_places(keys), entered_by=admin
                )
            else:
                sign = 1 if spec.score_order == "high" else -1
                scores = [max(0, 20 + sign * s + rng.randint(-10, 10)) for s in strength]
                result_submit(match_id=match.pk, expected_version=0, scores=scores, entered_by=admin)
            created += 1
    for pool in RatingPool.objects.all():
        pool_rate(pool_id=pool.pk, now=True)
    return created
