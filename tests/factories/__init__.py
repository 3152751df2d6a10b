"""factory-boy factories for league models. Matches are made through the matches service,
so they are valid."""

from datetime import UTC, datetime, timedelta

import factory
from django.contrib.auth import get_user_model
from factory.django import DjangoModelFactory

from league.core.names import name_key, search_key
from league.core.slugs import slug_of
from league.matches.models import Match
from league.players.models import Player
from league.results.services import match_create

FIRST_PLAY = datetime(2026, 1, 1, 18, 0, tzinfo=UTC)


class UserFactory(DjangoModelFactory):
    class Meta:
        model = get_user_model()

    username = factory.Sequence(lambda n: f"user{n}")
    password = factory.django.Password("pass-word-123")


class StaffFactory(UserFactory):
    is_staff = True


class PlayerFactory(DjangoModelFactory):
    class Meta:
        model = Player

    name = factory.Sequence(lambda n: f"Player {n:03d}")
    name_key = factory.LazyAttribute(lambda player: name_key(player.name))
    search_key = factory.LazyAttribute(
        lambda player: search_key(
            player.name, player.user.get_username() if getattr(player, "user", None) else None
        )
    )
    slug = factory.LazyAttribute(lambda player: slug_of(player.name))


class MatchFactory(factory.Factory):
    """A match made by `match_create`: pass `players` (seat order) or get four new players."""

    class Meta:
        model = Match

    game_id = "nacho_pile"
    players = factory.LazyFunction(lambda: PlayerFactory.create_batch(4))
    rated = True
    played_at = factory.Sequence(lambda n: FIRST_PLAY + timedelta(minutes=10 * n))
    options = None

    @classmethod
    def _create(cls, model_class, *, players, **kwargs):
        return match_create(player_ids=[player.pk for player in players], **kwargs)
