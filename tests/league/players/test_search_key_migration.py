"""Players stored before search keys existed get theirs from the migration: the name folded, and the user
name of their account."""

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from league.players.models import Player

ADDED = "player_search_key"  # the players migration that adds the key (whatever its number)


@pytest.mark.django_db(transaction=True)
def test_players_stored_before_get_their_search_key():
    executor = MigrationExecutor(connection)
    latest = executor.loader.graph.leaf_nodes()
    key = next(key for key in executor.loader.graph.nodes if key[0] == "players" and ADDED in key[1])
    parent = next(p for p in executor.loader.graph.node_map[key].parents if p[0] == "players")
    executor.migrate([parent])
    try:
        apps = MigrationExecutor(connection).loader.project_state(parent).apps
        user = apps.get_model("auth", "User").objects.create(username="kenji.sato")
        old = apps.get_model("players", "Player")
        old.objects.create(name="佐藤健二", name_key="佐藤健二", slug="佐藤健二", user_id=user.pk)
        old.objects.create(name="Siobhán O’Brien", name_key="siobhán o’brien", slug="siobhan-obrien")
        old.objects.create(name="Łukasz", name_key="łukasz", slug="lukasz")
    finally:
        MigrationExecutor(connection).migrate(latest)
    assert dict(Player.objects.values_list("name", "search_key")) == {
        "佐藤健二": "佐藤健二|kenjisato",
        "Siobhán O’Brien": "siobhan obrien",
        "Łukasz": "lukasz",
    }
