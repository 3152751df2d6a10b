"""The migration that makes verification leased work gives every stored bot match without a verdict its row,
and no other match one."""

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from league.bots.models import VerificationWork


def migration_named(executor: MigrationExecutor, suffix: str) -> tuple[str, str]:
    return next(key for key in executor.loader.graph.nodes if key[0] == "bots" and key[1].endswith(suffix))


@pytest.mark.django_db(transaction=True)
def test_stored_bot_matches_without_a_verdict_get_a_verification_row():
    executor = MigrationExecutor(connection)
    latest = executor.loader.graph.leaf_nodes()
    target = migration_named(executor, "_verification_work")
    before = [parent.key for parent in executor.loader.graph.node_map[target].parents]
    executor.migrate(before)
    try:
        _check(executor, before, target)
    finally:
        # every app back at its latest: going back unapplied the later migrations that depend on this one,
        # and the tests after this one (a worker's, say) read the same database
        MigrationExecutor(connection).migrate(latest)


def _check(executor: MigrationExecutor, before: list, target: tuple[str, str]) -> None:
    old = executor.loader.project_state(before).apps
    Match = old.get_model("matches", "Match")

    def match(owner: str, record: bytes | None) -> int:
        return Match.objects.create(
            game_id="nacho_pile", game_version=1, rated=False, owner=owner, status="finished", record=record
        ).pk

    fixture = match("fixture", b"x")
    challenge = match("challenge", b"x")
    verified = match("fixture", b"x")
    old.get_model("matches", "Verification").objects.create(match_id=verified, status="verified")
    unplayed = match("fixture", None)
    casual = match("casual", b"x")

    MigrationExecutor(connection).migrate([target])

    rows = VerificationWork.objects.order_by("match_id").values_list(
        "match_id", "done", "lease_token", "seed"
    )
    assert list(rows) == [(fixture, False, "", 0), (challenge, False, "", 0)]
    assert unplayed not in rows and casual not in rows
