"""The external programs' models left the bots app for the programs app with their tables: rows stored
before the move (an uploaded program, a version playing it, a seat's log, a worker's probe) are read
through the programs app after it, unchanged, and their content types (so permissions and admin history)
follow them."""

import datetime

import pytest
from django.contrib.contenttypes.models import ContentType
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from league.bots.models import BotDefinition
from league.programs.models import Program, ProgramLog, WorkerProbe

MOVE = "programs_to_their_app"  # the bots migration that hands the models over (whatever its number)
SHA = "ab" * 32
CHECKED = datetime.datetime(2026, 1, 2, 3, 4, 5, tzinfo=datetime.UTC)


def _before(executor: MigrationExecutor) -> list[tuple[str, str | None]]:
    """The bots migration before the move, and the programs app not yet migrated."""
    key = next(key for key in executor.loader.graph.nodes if key[0] == "bots" and MOVE in key[1])
    parent = next(parent for parent in executor.loader.graph.node_map[key].parents if parent[0] == "bots")
    return [parent.key, ("programs", None)]


def _store_old_rows(apps) -> dict[str, int]:
    """One row of each moved model (and the rows they link), written through the bots app's models of before
    the move."""
    player = apps.get_model("players", "Player").objects.create(
        name="Uploaded", name_key="uploaded", slug="uploaded", kind="bot"
    )
    program = apps.get_model("bots", "Program").objects.create(
        sha256=SHA,
        size=12,
        format="python",
        entry="bot.py",
        manifest={"entry": "bot.py"},
        files=[["bot.py", 12, "cd" * 32]],
        extracted_bytes=12,
        content=b"print('hi')\n",
    )
    bot = apps.get_model("bots", "BotDefinition").objects.create(
        name="Uploaded", game_id="nacho_pile", kind="external", program=program, player=player
    )
    match = apps.get_model("matches", "Match").objects.create(
        game_id="nacho_pile", game_version=1, owner="fixture", rated=False
    )
    log = apps.get_model("bots", "ProgramLog").objects.create(
        match=match, seat=1, bot=bot, forfeit="timeout", detail="no answer", output="hi\n", output_bytes=3
    )
    apps.get_model("bots", "WorkerProbe").objects.create(
        worker="celery@old",
        hostname="old",
        isolated=True,
        proven={"no_network": True},
        detail={"no_network": "refused"},
        checked_at=CHECKED,
        seen_at=CHECKED,
    )
    return {"program": program.pk, "bot": bot.pk, "match": match.pk, "log": log.pk}


@pytest.mark.django_db(transaction=True)
def test_rows_stored_before_the_move_are_read_through_the_programs_app():
    log_type = ContentType.objects.get(app_label="programs", model="programlog").pk
    executor = MigrationExecutor(connection)
    latest = executor.loader.graph.leaf_nodes()
    before = _before(executor)
    executor.migrate(before)
    try:
        assert ContentType.objects.get(pk=log_type).app_label == "bots", "back before the move"
        # The other apps stay at their latest (the players' table has its later columns): their models too.
        players = next(key for key in latest if key[0] == "players")
        ids = _store_old_rows(MigrationExecutor(connection).loader.project_state([before[0], players]).apps)
    finally:
        MigrationExecutor(connection).migrate(latest)

    assert ContentType.objects.get(pk=log_type).app_label == "programs"
    assert list(Program.objects.values_list("pk", "sha256", "entry", "files")) == [
        (ids["program"], SHA, "bot.py", [["bot.py", 12, "cd" * 32]])
    ]
    bot = BotDefinition.objects.get(pk=ids["bot"])
    assert bytes(bot.program.content) == b"print('hi')\n"
    assert list(
        bot.logs.values_list("pk", "match_id", "seat", "forfeit", "detail", "output", "output_bytes")
    ) == [(ids["log"], ids["match"], 1, "timeout", "no answer", "hi\n", 3)]
    assert ProgramLog.objects.get().bot_id == ids["bot"]
    probe = WorkerProbe.objects.get()
    assert (probe.worker, probe.isolated, probe.proven, probe.checked_at) == (
        "celery@old",
        True,
        {"no_network": True},
        CHECKED,
    )
