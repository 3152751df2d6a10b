"""What a bot's author reads on its pages: seats as "seat 1 (protocol seat 0)", a log that links to the
forfeit's step of the replay, and a bot page that links an unplayed match to its match page, never to a
replay that has nothing to show."""

import subprocess

from django.test import Client
from django.urls import reverse

from league.bots.uploads import bot_check, bot_upload
from league.programs.models import ProgramLog
from league.programs.services import program_logs_add
from league.programs.uploads import bots_python
from tests.factories import MatchFactory, UserFactory
from tests.league.bots.crafted import BOT


def upload(user, name, data=BOT):
    bot = bot_upload(by=user, game_id="nacho_pile", name=name, data=data)
    bot_check(bot_id=bot.pk)
    bot.refresh_from_db()
    return bot


def test_the_log_names_the_seat_both_ways_and_links_to_the_forfeits_step(db):
    author = UserFactory()
    bot = upload(author, "Quitter")
    other = upload(UserFactory(), "Other", BOT + b"#\n")
    match = MatchFactory(rated=False, players=[other.player, bot.player])
    program_logs_add(
        logs=[
            ProgramLog(
                match=match,
                seat=1,
                bot=bot,
                forfeit="crashed",
                forfeit_event=40,
                detail="At decision 17, your program exited with status 1 before answering",
            )
        ]
    )
    client = Client()
    client.force_login(author)
    page = client.get(f"/bots/bots/{bot.pk}/logs/").content.decode()
    replay = reverse("bots:replay", args=[match.pk])
    assert (
        f'<a href="{replay}?step=40">match {match.pk}, at its forfeit</a> · seat 2 (protocol seat 1) ·'
        in page
    )
    assert "At decision 17, your program exited with status 1 before answering" in page
    assert "ExternalBotError" not in page


def test_a_bot_page_links_a_scheduled_match_to_its_match_page_not_to_a_replay(client, db):
    bot = upload(UserFactory(), "Waiting")
    other = upload(UserFactory(), "Other", BOT + b"#\n")
    scheduled = MatchFactory(rated=False, players=[bot.player, other.player])
    assert scheduled.status == "scheduled"
    page = client.get(f"/bots/bots/{bot.pk}/").content.decode()
    assert (
        f'<a href="/matches/{scheduled.pk}/">match {scheduled.pk}</a> · seat 1 (protocol seat 0) · scheduled'
        in page
    )
    assert reverse("bots:replay", args=[scheduled.pk]) not in page
    assert client.get(reverse("bots:replay", args=[scheduled.pk])).status_code == 404


def test_the_upload_page_states_the_python_version_the_folder_and_the_move_limit_with_the_start_up(db):
    client = Client()
    client.force_login(UserFactory())
    page = client.get("/bots/bots/upload/").content.decode()
    version = bots_python()
    assert (
        version
        == subprocess.run(
            ["/usr/bin/python3", "-c", "import platform; print(platform.python_version())"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
    )
    assert f"<li><strong>Python</strong> {version}: <code>python3 -E -s -B /bot/</code>" in page
    assert (
        "<li><strong>JavaScript</strong> on Node.js: "
        "<code>node --max-old-space-size=</code><var>memory</var> <code>/bot/</code><var>entry</var>; "
        "its heap is the bot's memory (512 MB by default), under an "
        "address-space cap 1024 MB above it" in page
    )
    assert (
        "the check compiles every <code>.c</code> file with the system's <code>cc -std=gnu17 -O2</code>"
        in page
    )
    assert "its own files read-only at <code>/bot</code> (its working folder)" in page
    assert (
        "Each answer may take 1.0 s (the move limit), and the first 5.0 s more for the program's start-up"
        in page
    )


def test_a_bot_page_states_the_start_up_allowance_beside_the_move_limit(client, db):
    bot = upload(UserFactory(), "Timed")
    page = client.get(f"/bots/bots/{bot.pk}/").content.decode()
    assert (
        "Limits</dt><dd>1.0 s a move, and 5.0 s more for the first answer (the program's start-up),"
        " and a time bank of 10 s a match · 60 s" in page
    )
