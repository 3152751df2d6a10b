"""Uploading bots: any signed-in user, one version per upload, stored once by hash, a quota; the pages (upload
form with its messages, my bots, the version page) and the API (upload, mine, logs); who reads logs."""

import hashlib

import pytest
from django.contrib.auth.models import AnonymousUser
from django.core.files.uploadedfile import SimpleUploadedFile
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from league.bots.models import BotDefinition
from league.bots.services.definitions import bot_register, bot_revise
from league.bots.services.leagues import league_create
from league.bots.uploads import bot_check, bot_upload
from league.core.errors import Conflict, UserError
from league.programs.models import Program, ProgramLog
from league.programs.services import program_logs_add
from tests.factories import MatchFactory, UserFactory
from tests.league.bots.crafted import BOT, MAIN, good_tar, zip_bytes


def upload(user, name="Greedy", data=BOT, game_id="nacho_pile", **extra) -> BotDefinition:
    """An upload, checked as the worker would check it."""
    bot = bot_upload(by=user, game_id=game_id, name=name, data=data, **extra)
    bot_check(bot_id=bot.pk)
    bot.refresh_from_db()
    return bot


def api(user) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.get_or_create(user=user)[0].key}")
    return client


def test_a_member_uploads_a_file_and_gets_version_one_an_external_program(member):
    bot = upload(member)
    assert (bot.name, bot.version, bot.kind, bot.command, bot.created_by, bot.previous) == (
        "Greedy",
        1,
        "external",
        [],
        member,
        None,
    )
    program = bot.program
    assert (program.sha256, program.size, program.format, program.entry) == (
        hashlib.sha256(BOT).hexdigest(),
        len(BOT),
        "python",
        "bot.py",
    )
    assert bytes(program.content) == BOT
    assert bot.player.name == "Greedy"


def test_each_upload_of_the_name_is_the_next_version_and_the_old_keeps_its_history(member, staff):
    first = upload(member)
    MatchFactory(
        rated=False,
        players=[
            first.player,
            bot_register(name="R", game_id="nacho_pile", kind="builtin", strategy="random", by=staff).player,
        ],
    )
    second = upload(member, name="greedy", data=good_tar())
    assert (second.name, second.version, second.previous, second.player.name) == (
        "Greedy",
        2,
        first,
        "Greedy v2",
    )
    assert second.program.format == "tar" and second.program.entry == "main.py"
    first.refresh_from_db()
    assert first.program.sha256 == hashlib.sha256(BOT).hexdigest()
    assert first.player.seats.count() == 1 and second.player.seats.count() == 0
    # a new entry takes the newest version only
    other = bot_register(name="Other", game_id="nacho_pile", kind="builtin", strategy="random", by=staff)
    with pytest.raises(UserError) as caught:
        league_create(name="L", game_id="nacho_pile", bot_ids=[first.pk, other.pk], table_size=2, by=staff)
    assert caught.value.message == "these uploaded bots have a newer version, enter that one: Greedy"
    assert league_create(
        name="L", game_id="nacho_pile", bot_ids=[second.pk, other.pk], table_size=2, by=staff
    )


def test_the_same_bytes_are_stored_once_and_an_identical_new_version_is_refused(member):
    upload(member, name="One")
    upload(UserFactory(), name="Two")
    assert Program.objects.count() == 1
    with pytest.raises(UserError) as caught:
        upload(member, name="One")
    assert (caught.value.field, caught.value.message) == (
        "file",
        f"this is the same program as One (SHA-256 {hashlib.sha256(BOT).hexdigest()[:12]}): change it first",
    )


def test_another_users_bot_name_is_free_and_ones_own_staff_builtin_is_not_an_upload_to_version(member, staff):
    taken = upload(UserFactory(), name="Taken")
    mine = upload(member, name="taken")
    assert (mine.version, mine.previous, mine.name) == (1, None, "taken")
    assert mine.pk != taken.pk
    bot_register(name="Builtin", game_id="nacho_pile", kind="builtin", strategy="random", by=staff)
    with pytest.raises(UserError) as caught:
        upload(staff, name="Builtin")
    assert caught.value.field == "name"
    assert (
        caught.value.message
        == "your bot 'Builtin' for this game is not an upload (staff registered it): choose another name"
    )


def test_anonymous_uploads_and_unknown_games_are_refused(member):
    with pytest.raises(UserError) as caught:
        upload(AnonymousUser())
    assert (caught.value.status, caught.value.message) == (403, "sign in to upload a bot")
    with pytest.raises(UserError) as caught:
        upload(member, game_id="chess")
    assert caught.value.field == "game"


def test_the_quota_of_versions_and_of_bytes(member, settings):
    settings.BOT_UPLOAD_QUOTA_VERSIONS = 2
    upload(member, name="A")
    upload(member, name="A", data=BOT + b"# 2\n")
    with pytest.raises(UserError) as caught:
        upload(member, name="B", data=BOT + b"# 3\n")
    assert caught.value.message == "you have uploaded 2 versions, your quota: ask staff for more room"
    settings.BOT_UPLOAD_QUOTA_VERSIONS = 100
    settings.BOT_UPLOAD_QUOTA_BYTES = 3 * len(BOT) + 10
    upload(member, name="B", data=BOT)  # the same bytes as A v1: stored once, counted once
    longer = BOT + b"# a longer comment to go past the quota\n"
    with pytest.raises(UserError) as caught:
        upload(member, name="C", data=longer)
    assert caught.value.message == (
        f"this upload ({len(longer)} bytes) would take your stored programs past your quota of "
        f"{3 * len(BOT) + 10} bytes ({2 * len(BOT) + 4} bytes used)"
    )
    assert BotDefinition.objects.filter(created_by=member).count() == 3


def test_an_uploaded_bot_is_not_revised_in_place(member, staff):
    bot = upload(member)
    with pytest.raises(Conflict):
        bot_revise(bot=bot, by=staff, description="changed")


def test_logs_keep_the_last_matches_of_each_version(member, staff, settings):
    settings.BOT_LOG_MATCHES = 3
    bot = upload(member)
    other = upload(member, name="Other", data=BOT + b"#\n")
    matches = [MatchFactory(rated=False, players=[bot.player, other.player]) for _ in range(5)]
    for match in matches:
        program_logs_add(
            logs=[
                ProgramLog(match=match, seat=0, bot=bot, output=f"m{match.pk}\x00"),
                ProgramLog(match=match, seat=1, bot=other, output="o"),
            ]
        )
    kept = list(ProgramLog.objects.filter(bot=bot).order_by("match_id").values_list("match_id", "output"))
    assert kept == [(match.pk, f"m{match.pk}\ufffd") for match in matches[2:]]
    assert ProgramLog.objects.filter(bot=other).count() == 3


# --- pages --------------------------------------------------------------------------------------------------


def post_upload(client, content: bytes, name="Greedy", filename="bot.py", game="nacho_pile"):
    return client.post(
        "/bots/bots/upload/",
        {"game": game, "name": name, "file": SimpleUploadedFile(filename, content), "description": ""},
    )


def test_the_upload_page_needs_a_sign_in(client, db):
    response = client.get("/bots/bots/upload/")
    assert (response.status_code, response["Location"]) == (302, "/accounts/login/?next=/bots/bots/upload/")


def test_the_upload_form_shows_a_refusal_next_to_the_file(client, member):
    client.force_login(member)
    response = post_upload(client, zip_bytes({"main.py": MAIN}), filename="bot.zip")
    assert response.status_code == 400
    page = response.content.decode()
    assert "the archive has no manifest: put a bot.toml (entry = &quot;main.py&quot;)" in page
    assert not BotDefinition.objects.exists()


def test_an_upload_through_the_page_lands_on_its_version_page(client, member):
    client.force_login(member)
    response = post_upload(client, good_tar(), filename="bot.tar.gz")
    bot = BotDefinition.objects.get()
    assert (response.status_code, response["Location"]) == (302, f"/bots/bots/{bot.pk}/")
    page = client.get(response["Location"]).content.decode()
    assert bot.program.sha256 in page and "<code>main.py</code>" in page and "Logs of this version" in page
    mine = client.get("/bots/bots/mine/").content.decode()
    assert "Greedy" in mine and bot.program.sha256[:12] in mine


def test_logs_pages_are_the_authors_and_staffs_only(client, member, staff):
    bot = upload(member)
    match = MatchFactory(
        rated=False, players=[bot.player, upload(UserFactory(), name="X", data=BOT + b"#\n").player]
    )
    program_logs_add(
        logs=[
            ProgramLog(
                match=match,
                seat=0,
                bot=bot,
                forfeit="timeout",
                detail="no answer within 1s (killed)",
                output="thinking hard",
                bank="time bank of 10s, drawn on at decision 3 (0.000s left); 0.000s left after 3 decisions",
            )
        ]
    )
    url = f"/bots/bots/{bot.pk}/logs/"
    assert client.get(url)["Location"] == f"/accounts/login/?next={url}"
    client.force_login(UserFactory())
    assert client.get(url).status_code == 403
    assert "thinking hard" not in client.get(f"/bots/bots/{bot.pk}/").content.decode()
    for reader in (member, staff):
        client.force_login(reader)
        page = client.get(url).content.decode()
        assert (
            "thinking hard" in page
            and "forfeited: out of time" in page
            and "no answer within 1s (killed)" in page
        )
        assert "100% time-outs" in page
        assert (
            "Its time bank of 10s, drawn on at decision 3 (0.000s left); 0.000s left after 3 decisions."
            in page
        )
    assert api(member).get(f"/api/bots/{bot.pk}/logs/").json()["results"][0]["bank"] == (
        "time bank of 10s, drawn on at decision 3 (0.000s left); 0.000s left after 3 decisions"
    )


# --- API ----------------------------------------------------------------------------------------------------


def test_the_api_uploads_lists_mine_and_reads_logs(member):
    client = api(member)
    response = client.post(
        "/api/bots/upload/",
        {"game": "nacho_pile", "name": "Api bot", "file": SimpleUploadedFile("b.py", BOT)},
        format="multipart",
    )
    assert response.status_code == 201, response.json()
    body = response.json()
    assert (body["name"], body["version"], body["kind"], body["program"]["sha256"], body["state"]) == (
        "Api bot",
        1,
        "external",
        hashlib.sha256(BOT).hexdigest(),
        "checking",
    )
    mine = client.get("/api/bots/mine/").json()
    assert [row["id"] for row in mine["results"]] == [body["id"]]
    assert client.get(f"/api/bots/{body['id']}/logs/").json() == {
        "count": 0,
        "next": None,
        "previous": None,
        "results": [],
    }


def test_the_api_answers_refusals_with_400_and_others_logs_with_403(member):
    client = api(member)
    response = client.post(
        "/api/bots/upload/",
        {"game": "nacho_pile", "name": "Bad", "file": SimpleUploadedFile("b.zip", zip_bytes({"x.py": b""}))},
        format="multipart",
    )
    assert response.status_code == 400
    assert (response.json()["field"], response.json()["detail"][:29]) == (
        "file",
        "the archive has no manifest: ",
    )
    response = client.post("/api/bots/upload/", {"game": "nacho_pile", "name": "Bad"}, format="multipart")
    assert (response.status_code, response.json()["field"]) == (400, "file")
    bot = upload(UserFactory(), name="Theirs")
    response = client.get(f"/api/bots/{bot.pk}/logs/")
    assert (response.status_code, response.json()["detail"]) == (
        403,
        "only the bot's author and staff read its logs",
    )
    anonymous = APIClient()
    assert anonymous.get(f"/api/bots/{bot.pk}/logs/").status_code == 401
    assert anonymous.post("/api/bots/upload/", {}, format="multipart").status_code == 401
    assert anonymous.get("/api/bots/mine/").status_code == 401


def test_an_uploaded_new_version_replaces_the_old_one_in_its_ladders(member, staff):
    from league.bots.matchmaking import ladder_members
    from league.bots.models import LadderEvent
    from league.bots.services.ladders import ladder_create, ladder_enter
    from league.bots.services.leagues import ladder_log, next_position

    first = upload(member)
    ladder = ladder_create(name="Uploads ladder", game_id="nacho_pile", table_size=2, by=staff)
    ladder_enter(ladder_id=ladder.pk, bot_id=first.pk, by=member)
    second = upload(member, data=good_tar())
    ladder.refresh_from_db()
    assert set(ladder_members(ladder_log(ladder), next_position(ladder))) == {second.pk}
    events = LadderEvent.objects.filter(league=ladder).order_by("id")
    assert list(events.values_list("action", "bot_id", "reason")) == [
        ("enter", first.pk, ""),
        ("leave", first.pk, "replaced by Greedy v2"),
        ("enter", second.pk, ""),
    ]


def test_a_bots_time_bank_is_its_setting_and_reaches_its_programs_limits(member, staff):
    from django.test import Client

    from league.bots.services.work import seat_bot

    def client_for(user):
        client = Client()
        client.force_login(user)
        return client

    uploaded = upload(member)
    assert (uploaded.time_bank_seconds, seat_bot(uploaded).limits.time_bank_seconds) == (10.0, 10.0)
    page = client_for(member).get(f"/bots/bots/{uploaded.pk}/").content.decode()
    assert "(the program's start-up), and a time bank of 10 s a match · 60 s of CPU" in page
    client = api(staff)
    body = {"name": "Quick", "game": "nacho_pile", "strategy": "random", "time_bank_seconds": 2.5}
    response = client.post("/api/bots/", body, format="json")
    assert (response.status_code, response.json()["time_bank_seconds"]) == (201, 2.5)
    bot = BotDefinition.objects.get(pk=response.json()["id"])
    response = client.patch(f"/api/bots/{bot.pk}/", {"time_bank_seconds": 0}, format="json")
    assert response.status_code == 200, response.json()
    bot.refresh_from_db()
    assert (bot.time_bank_seconds, seat_bot(bot).limits.time_bank_seconds) == (0.0, 0.0)


def test_the_uploader_sets_the_time_bank_on_the_page_and_in_the_api_within_0_to_60(member, client):
    client.force_login(member)
    form = {"game": "nacho_pile", "name": "Banker", "file": SimpleUploadedFile("b.py", BOT)}
    response = client.post("/bots/bots/upload/", {**form, "time_bank_seconds": "61"})
    assert response.status_code == 400
    assert response.context["form"].errors == {
        "time_bank_seconds": ["Ensure this value is less than or equal to 60."]
    }
    form["file"] = SimpleUploadedFile("b.py", BOT)
    response = client.post("/bots/bots/upload/", {**form, "time_bank_seconds": "2.5"})
    assert response.status_code == 302
    assert BotDefinition.objects.get(name="Banker").time_bank_seconds == 2.5

    body = {"game": "nacho_pile", "name": "Api banker", "file": SimpleUploadedFile("b.py", BOT + b"#\n")}
    response = api(member).post("/api/bots/upload/", {**body, "time_bank_seconds": "-1"}, format="multipart")
    assert (response.status_code, response.json()["field"]) == (400, "time_bank_seconds")
    body["file"] = SimpleUploadedFile("b.py", BOT + b"#\n")
    response = api(member).post("/api/bots/upload/", {**body, "time_bank_seconds": "0"}, format="multipart")
    assert (response.status_code, response.json()["time_bank_seconds"]) == (201, 0.0)
    with pytest.raises(UserError, match="time bank seconds must be a number from 0 to 60"):
        bot_upload(by=member, game_id="nacho_pile", name="Nan", data=BOT, time_bank_seconds=float("nan"))
