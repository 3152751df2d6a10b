"""Free texts (league.core.names.check_text): a description, a venue, a reason or a note keeps its line
breaks and any script, and is refused with a clear error when it holds NUL, another control character or a
lone surrogate, which PostgreSQL cannot store (a 500 before). Texts no person typed (a program's output, a
verification's reason) are made storable instead. The manifest of an uploaded bot is attacked through the
service, the API and, on PostgreSQL, stored through the real path."""

import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from rest_framework.test import APIClient

from league.bots.models import BotDefinition
from league.bots.services.definitions import bot_register
from league.bots.uploads import bot_upload
from league.core.errors import UserError
from league.core.names import check_text, storable_text
from league.programs.models import ProgramLog
from league.programs.services import program_logs_add
from league.results.services import result_submit, result_void
from league.tournaments import services as tournaments
from tests.factories import MatchFactory, PlayerFactory, StaffFactory, UserFactory
from tests.league.bots.crafted import MAIN, zip_bytes


def refused(call, **kwargs) -> tuple[str | None, str]:
    with pytest.raises(UserError) as error:
        call(**kwargs)
    return error.value.field, error.value.message


def test_a_text_keeps_line_breaks_tabs_any_script_and_format_characters():
    text = "  Zoë's bot\n\tplays 李 and محمد\r\nsoft\u00adhyphen, joiner 👩\u200d🍳  "
    assert check_text(text, field="description", max_length=100) == text.strip()


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("a\x00b", "the description cannot hold a control character, such as U+0000"),
        ("red \x1b[31m", "the description cannot hold a control character, such as U+001B"),
        ("a\x7f", "the description cannot hold a control character, such as U+007F"),
        ("half \ud800 pair", "the description cannot hold a lone surrogate, such as U+D800"),
        ("x" * 11, "the description has at most 10 characters"),
        (b"bytes", "the description must be text"),
        (None, "the description must be text"),
    ],
)
def test_a_text_with_a_character_no_database_stores_is_refused_by_name(text, message):
    assert refused(check_text, text=text, field="description", max_length=10) == ("description", message)


def test_a_text_of_max_length_after_trimming_passes():
    assert check_text("  " + "x" * 10 + "\n", field="note", max_length=10) == "x" * 10


def test_storable_text_replaces_what_check_text_refuses_and_keeps_the_rest():
    assert storable_text("ok\n\ta\x00b\ud800c\x1bd") == "ok\n\ta\ufffdb\ufffdc\ufffdd"
    assert storable_text("plain 李\n") == "plain 李\n"


def manifest_zip(manifest: bytes, name: str = "manifest.json") -> bytes:
    return zip_bytes({name: manifest, "main.py": MAIN, "helper.py": b"def pick(a):\n    return a[0]\n"})


@pytest.mark.parametrize(
    ("manifest", "name", "message"),
    [
        (
            b'{"entry": "main.py", "description": "a\\u0000b"}',
            "manifest.json",
            "manifest.json: the description cannot hold a control character, such as U+0000",
        ),
        (
            b'{"entry": "main.py", "description": "half \\ud800"}',
            "manifest.json",
            "manifest.json: the description cannot hold a lone surrogate, such as U+D800",
        ),
        (
            b'entry = "main.py"\ndescription = "bell \\u0007"\n',
            "bot.toml",
            "bot.toml: the description cannot hold a control character, such as U+0007",
        ),
    ],
)
def test_an_upload_whose_manifest_description_holds_nul_or_a_surrogate_is_refused(
    db, manifest, name, message
):
    member = UserFactory()
    data = manifest_zip(manifest, name)
    assert refused(bot_upload, by=member, game_id="nacho_pile", name="Nully", data=data) == ("file", message)
    assert not BotDefinition.objects.exists()


def test_the_api_answers_a_manifest_with_nul_with_400_naming_the_file(db):
    client = APIClient()
    client.force_authenticate(UserFactory())
    upload = SimpleUploadedFile("bot.zip", manifest_zip(b'{"entry": "main.py", "description": "\\u0000"}'))
    response = client.post("/api/bots/upload/", {"game": "nacho_pile", "name": "Nully", "file": upload})
    assert (response.status_code, response.json()["field"], response.json()["detail"]) == (
        400,
        "file",
        "manifest.json: the description cannot hold a control character, such as U+0000",
    )
    assert not BotDefinition.objects.exists()


def test_a_typed_description_is_checked_too_and_wins_over_the_manifests(db):
    member = UserFactory()
    data = manifest_zip(b'{"entry": "main.py", "description": "from the manifest"}')
    assert refused(
        bot_upload, by=member, game_id="nacho_pile", name="Typed", data=data, description="typed \ud83d"
    ) == ("description", "the description cannot hold a lone surrogate, such as U+D83D")
    bot = bot_upload(by=member, game_id="nacho_pile", name="Typed", data=data, description=" typed\nhere ")
    assert bot.description == "typed\nhere"


def test_a_registered_bots_description_is_checked(db):
    staff = StaffFactory()
    assert refused(
        bot_register,
        name="Greedy",
        description="a\x00",
        by=staff,
        game_id="nacho_pile",
        kind="builtin",
        strategy="random",
    ) == ("description", "the description cannot hold a control character, such as U+0000")
    assert not BotDefinition.objects.exists()


@pytest.mark.parametrize(
    ("command", "message"),
    [
        (["/usr/bin/py\x00thon3"], "the command cannot hold a control character, such as U+0000"),
        (["python3", "--seed", "1\x00"], "the command cannot hold a control character, such as U+0000"),
        (["python3", "\udc80"], "the command cannot hold a lone surrogate, such as U+DC80"),
    ],
)
def test_an_external_bots_command_with_nul_or_a_surrogate_is_refused(db, command, message):
    staff = StaffFactory()
    assert refused(
        bot_register, name="Outside", by=staff, game_id="nacho_pile", kind="external", command=command
    ) == ("command", message)
    assert not BotDefinition.objects.exists()


def test_a_tournaments_venue_and_description_are_checked(db):
    organizer = StaffFactory()
    settings = {
        "name": "Spring Open",
        "game_id": "nacho_pile",
        "format": "swiss",
        "table_size": 4,
        "rounds": 3,
    }
    assert refused(tournaments.tournament_create, created_by=organizer, venue="Hall\x00 B", **settings) == (
        "venue",
        "the venue cannot hold a control character, such as U+0000",
    )
    assert refused(tournaments.tournament_create, created_by=organizer, description="\udfff", **settings) == (
        "description",
        "the description cannot hold a lone surrogate, such as U+DFFF",
    )
    tournament = tournaments.tournament_create(
        created_by=organizer, venue=" Hall B ", description="Two\nlines", **settings
    )
    assert (tournament.venue, tournament.description) == ("Hall B", "Two\nlines")


def test_a_results_reason_is_checked_on_entry_correction_and_void(db):
    match = MatchFactory(players=PlayerFactory.create_batch(4))
    staff = StaffFactory()
    result_submit(match_id=match.pk, expected_version=0, places=[1, 2, 3, 4], entered_by=staff)
    correction = {"match_id": match.pk, "expected_version": 1, "places": [4, 3, 2, 1], "entered_by": staff}
    assert refused(result_submit, reason="slip\x00", **correction) == (
        "reason",
        "the reason cannot hold a control character, such as U+0000",
    )
    assert refused(result_void, match_id=match.pk, entered_by=staff, reason="\ud800") == (
        "reason",
        "the reason cannot hold a lone surrogate, such as U+D800",
    )
    match.refresh_from_db()
    assert (match.result_version, match.status) == (1, "finished")


def test_program_output_with_nul_and_surrogates_is_stored_with_replacement_characters(db):
    match = MatchFactory(players=PlayerFactory.create_batch(2))
    program_logs_add(
        logs=[
            ProgramLog(
                match=match, seat=0, forfeit="illegal", detail="said \x00", output="out\x00put \udcff\nnext"
            )
        ]
    )
    stored = list(ProgramLog.objects.values_list("detail", "output"))
    assert stored == [("said \ufffd", "out\ufffdput \ufffd\nnext")]


@pytest.mark.postgres
def test_on_postgresql_a_manifest_with_nul_is_a_400_and_a_manifest_in_any_script_is_stored(db):
    client = APIClient()
    client.force_authenticate(UserFactory())
    nul = SimpleUploadedFile("bot.zip", manifest_zip(b'{"entry": "main.py", "description": "\\u0000"}'))
    response = client.post("/api/bots/upload/", {"game": "nacho_pile", "name": "Nully", "file": nul})
    assert (response.status_code, response.json()["field"]) == (400, "file")
    description = "Zo\u00eb's bot: 李 \u0645\u062d\u0645\u062f 🐔\n\tsecond line"
    manifest = json.dumps({"entry": "main.py", "description": description}, ensure_ascii=False).encode()
    good = SimpleUploadedFile("bot.zip", manifest_zip(manifest))
    response = client.post("/api/bots/upload/", {"game": "nacho_pile", "name": "Worldly", "file": good})
    assert response.status_code == 201, response.json()
    bot = BotDefinition.objects.select_related("program").get()
    stored = (bot.name, bot.description, bot.program.manifest["description"])
    assert stored == ("Worldly", description, description)
    match = MatchFactory(players=PlayerFactory.create_batch(2))
    program_logs_add(logs=[ProgramLog(match=match, seat=0, bot=bot, output="a\x00b")])
    assert ProgramLog.objects.get().output == "a\ufffdb"
