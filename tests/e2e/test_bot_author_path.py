"""A newcomer goes from nothing to a rated match with the site alone: they sign up, download the Python
starter kit from the bot docs, upload the zip as it is, see it checked and validated by a real worker in the
real sandbox, enter it in a ladder, and once it has played a rated match read its log and step through the
replay."""

import re
from pathlib import Path

import pytest
from django.core import mail
from playwright.sync_api import expect

from league.bots.models import BotDefinition, BotLeague, Fixture, LadderEvent
from league.bots.services.ladders import ladder_create, ladder_enter
from league.bots.services.leagues import league_start
from tests.factories import StaffFactory
from tests.league.bots.conftest import make_bots
from tests.league.bots.workers import Worker, wait_until

PASSWORD = "a-long-pass-phrase-9"


def rated_matches(bot: BotDefinition) -> int:
    return Fixture.objects.filter(
        league__kind="ladder", done=True, match__rated=True, match__seats__player=bot.player
    ).count()


@pytest.mark.browser
@pytest.mark.worker
@pytest.mark.sandbox
@pytest.mark.django_db(transaction=True)
def test_a_newcomer_goes_from_the_docs_kit_to_a_rated_match_its_log_and_replay(
    live_server, page, tmp_path, settings
):
    base = settings.SITE_URL = live_server.url  # mails link to the site's address
    staff = StaffFactory()
    ladder = ladder_create(
        name="Nacho ladder", game_id="nacho_pile", table_size=3, seed=3, newcomer_matches=2, by=staff
    )
    for bot in make_bots(staff)[:2]:
        ladder_enter(ladder_id=ladder.pk, bot_id=bot.pk, by=staff)
    worker = Worker("docs-path", 1)
    try:
        # Sign up, from the home page's menu.
        page.goto(f"{base}/")
        page.click("header.site summary")
        page.click("#sign-up")
        page.fill("#id_username", "newcomer")
        page.fill("#id_email", "newcomer@example.org")
        page.fill("#id_password1", PASSWORD)
        page.fill("#id_password2", PASSWORD)
        page.get_by_role("button", name="Sign up").click()
        expect(page).to_have_url(f"{base}/accounts/signup/sent/")
        [message] = [message for message in mail.outbox if message.to == ["newcomer@example.org"]]
        page.goto(re.search(r"^http://\S+/accounts/signup/\S+/$", message.body, re.MULTILINE).group(0))
        page.get_by_role("button", name="Create my account").click()
        expect(page).to_have_url(f"{base}/me/")

        # The docs, from the ladders' page; the kit of Nacho Pile in Python.
        page.goto(f"{base}/bots/ladders/")
        page.get_by_role("link", name="Write a bot").click()
        expect(page.get_by_role("heading", name="Write a bot", exact=True)).to_be_visible()
        with page.expect_download() as download:
            page.get_by_role("link", name="Nacho Pile: Python kit (zip)").click()
        kit = tmp_path / download.value.suggested_filename
        download.value.save_as(kit)
        assert kit.name == "nacho_pile-python-kit.zip"

        # Upload the zip as it is.
        page.get_by_role("link", name="upload your bot").first.click()
        page.select_option("#id_game", "nacho_pile")
        page.fill("#id_name", "Kit Hen")
        page.set_input_files("#id_file", str(kit))
        page.get_by_role("button", name="Upload").click()
        expect(page.get_by_role("heading", name="Kit Hen")).to_be_visible()
        bot = BotDefinition.objects.get(name="Kit Hen")
        wait_until(lambda: BotDefinition.objects.get(pk=bot.pk).state == "ready", "checked and validated")
        page.reload()
        expect(page.locator("dd", has_text="entry = bot.py")).to_be_visible()

        # Enter the ladder; the worker plays a rated match.
        page.goto(f"{base}/bots/ladders/{ladder.pk}/")
        page.select_option("#enter-bot", str(bot.pk))
        page.get_by_role("button", name="Enter", exact=True).click()
        expect(page.locator(".messages")).to_contain_text("Kit Hen")
        assert LadderEvent.objects.filter(league=ladder, bot_id=bot.pk, action="enter").exists()
        # Staff start the ladder, now that its three bots fill a table. (A running ladder of the fast pace
        # waiting for members does not draw when one enters: its play task finds no open work.)
        league_start(league_id=ladder.pk)
        try:
            wait_until(
                lambda: rated_matches(bot) >= 1, "the ladder plays a rated match with the newcomer's bot"
            )
        except AssertionError:
            fixtures = list(
                Fixture.objects.filter(league=ladder).values_list("match_id", "done", "match__rated")
            )
            raise AssertionError(
                f"fixtures {fixtures}, ladder {BotLeague.objects.get(pk=ladder.pk).status}"
            ) from None
        wait_until(lambda: bot.player.ratings.filter(pool=ladder.rating_pool).exists(), "the match is rated")
        page.goto(f"{base}/bots/ladders/{ladder.pk}/")
        expect(page.locator("table", has_text="Kit Hen").first).to_be_visible()

        # Its log, then the replay it links.
        page.goto(f"{base}/bots/bots/{bot.pk}/")
        page.get_by_role("link", name="Logs of this version").click()
        expect(page.get_by_role("heading", name="Logs of Kit Hen")).to_be_visible()
        log = page.locator("details.log").first  # the newest, open
        expect(log.locator("pre.stderr")).to_contain_text(
            "places:"
        )  # what the kit printed on its standard error at the end
        log.get_by_role("link", name=re.compile(r"^match \d+")).click()
        expect(page.locator("#step-number")).to_have_text("0")
        page.click("text=Next ▶")
        page.wait_for_function("() => document.getElementById('step-number').textContent === '1'")
    finally:
        worker.stop()
    assert Path(kit).stat().st_size > 0
