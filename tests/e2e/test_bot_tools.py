"""A bot author on a phone reads another author's bot's head-to-head record, plays one of their bots against
it now (an unrated challenge), and chooses which of their versions stay active in a ladder."""

import os
from pathlib import Path
from unittest import mock

import pytest
from django.contrib.auth import get_user_model

from league.bots.head_to_head import bot_head_to_head
from league.bots.models import Challenge, LadderEvent
from league.bots.services.definitions import bot_register
from league.bots.services.ladders import ladder_create, ladder_enter
from league.bots.services.leagues import league_start
from league.bots.services.work import work_play
from tests.e2e.site_pages import session_cookie
from tests.league.bots.conftest import make_bots, make_league

SHOTS = os.environ.get("PECKING_ORDER_SHOTS")  # a folder to keep the screenshots in, when set


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_head_to_head_play_now_and_versions_on_a_phone(live_server, browser, tmp_path):
    operator = get_user_model().objects.create_user("operator", password="pw-operator-1", is_staff=True)
    author = get_user_model().objects.create_user("author", password="pw-author-1")
    with mock.patch("league.bots.services.leagues.queue_work"):
        bots = make_bots(operator)
        league = make_league(operator, bots, target_value=1)
        league_start(league_id=league.pk)
        work_play(league_id=league.pk, worker="e2e")
        mine = bot_register(name="Hen", game_id="nacho_pile", kind="builtin", strategy="heuristic", by=author)
        ladder = ladder_create(name="Weekday run", game_id="nacho_pile", table_size=3, by=operator)
        for entrant in [*bots[:3], mine]:
            ladder_enter(ladder_id=ladder.pk, bot_id=entrant.pk, by=operator)
    folder = Path(SHOTS) if SHOTS else tmp_path
    context = browser.new_context(viewport={"width": 390, "height": 844})
    context.add_cookies([session_cookie("author", live_server.url)])
    page = context.new_page()
    try:
        page.goto(f"{live_server.url}/bots/bots/{bots[1].pk}/")
        rows = page.locator("#head-to-head tbody tr")
        expected = bot_head_to_head(bots[1])
        assert rows.count() == len(expected) > 0  # each bot it shared a rated table with
        first = expected[0]
        assert rows.first.locator("td").all_inner_texts() == [
            first.name,
            str(first.games),
            str(first.ahead),
            str(first.behind),
            str(first.ties),
            f"{first.score_percent:.1f}".removesuffix(".0") + "%",
        ]
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        page.screenshot(path=str(folder / "bot-page-390.png"), full_page=True)

        page.select_option("#id_bot", str(mine.pk))
        page.fill("#id_match_count", "3")
        page.click("#play-now button")
        page.wait_for_url("**/bots/challenges/*/")
        challenge = Challenge.objects.get()
        assert (challenge.bot_id, challenge.match_count, challenge.challenger_id) == (mine.pk, 3, author.pk)

        page.goto(f"{live_server.url}/bots/bots/mine/")
        page.click("button[aria-label='Deactivate version 1 in Weekday run']")
        page.wait_for_url("**/bots/bots/mine/")
        assert "Hen is inactive in Weekday run from match 1." in page.inner_text("main")
        assert page.locator("button[aria-label='Activate version 1 in Weekday run']").count() == 1
        assert LadderEvent.objects.filter(league=ladder).order_by("-seq").first().reason == (
            "deactivated by its author"
        )
        page.screenshot(path=str(folder / "my-bots-390.png"), full_page=True)
    finally:
        context.close()
