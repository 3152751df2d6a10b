import pytest

from league.core.errors import UserError
from league.players.models import Player
from league.players.services import player_create, player_update
from tests.factories import PlayerFactory


def test_a_new_player_gets_a_cleaned_name_and_a_slug(db):
    player = player_create(name="  Mary   Ann  ")
    assert (player.name, player.slug, player.kind, player.active) == ("Mary Ann", "mary-ann", "person", True)


def test_names_are_unique_ignoring_case(db):
    player_create(name="Ann")
    with pytest.raises(UserError, match="there is already a player called 'ANN'"):
        player_create(name="ANN")
    assert Player.objects.count() == 1


def test_similar_names_get_distinct_slugs(db):
    assert [player_create(name=n).slug for n in ("Ann B", "Ann-B", "Ann_B")] == ["ann-b", "ann-b-2", "ann_b"]


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("", "a player needs a name"),
        ("   ", "a player needs a name"),
        ("x" * 81, "at most 80 characters"),
        ("!!!", "at least one letter or digit"),
        (None, "a player needs a name"),
    ],
)
def test_bad_names_are_refused(db, name, message):
    with pytest.raises(UserError, match=message):
        player_create(name=name)
    assert not Player.objects.exists()


def test_renaming_moves_the_slug_and_keeps_other_names_unique(db):
    ann, _ = PlayerFactory(name="Ann"), PlayerFactory(name="Bob")
    player_update(player=ann, name="Annie", active=False)
    ann.refresh_from_db()
    assert (ann.name, ann.slug, ann.active) == ("Annie", "annie", False)
    with pytest.raises(UserError, match="already a player called 'bob'"):
        player_update(player=ann, name="bob")
