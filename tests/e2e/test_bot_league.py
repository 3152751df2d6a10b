"""A bot operator creates and starts a league in the browser, watches it progress, and replays a match."""

import pytest
from django.contrib.auth import get_user_model

from league.bots.models import BotLeague
from tests.league.bots.conftest import make_bots
from tests.league.bots.workers import Worker, wait_until

SLOW_BOTS = tuple((f"Sleepy {n}", "sleepy", {"seconds": 0.004 + n / 1000}) for n in range(6))


@pytest.mark.browser
@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
def test_staff_create_and_start_a_league_watch_it_move_and_step_through_a_replay(live_server, page):
    operator = get_user_model().objects.create_user("operator", password="pw-operator-1", is_staff=True)
    bots = make_bots(operator, SLOW_BOTS)
    worker = Worker("e2e", 1)
    try:
        page.goto(f"{live_server.url}/admin/login/?next=/bots/new/")
        page.fill("#id_username", "operator")
        page.fill("#id_password", "pw-operator-1")
        page.click("input[type=submit]")
        page.fill("#id_name", "Browser season")
        page.select_option("#id_game", "nacho_pile")
        for bot in bots:
            page.check(f"input[name=bots][value='{bot.pk}']")
        page.fill("#id_table_size", "3")
        page.fill("#id_target_value", "8")
        page.fill("#id_sittings_per_round", "1")
        page.click("text=Create the league")
        assert page.inner_text("#league-status") == "Draft"

        page.click("button:text('Start')")
        assert page.inner_text("#league-status") == "Running"
        first = int(page.inner_text("#played"))
        # the page refreshes itself: the count grows without a reload
        page.wait_for_function(
            f"() => Number(document.getElementById('played').textContent) > {first}", timeout=120_000
        )
        assert page.locator("table.standings tbody tr").count() == 6

        page.locator("a:text('Replay')").first.click()
        assert page.inner_text("#step-number") == "0"
        assert page.inner_text("#caption") == "The table before the first move"
        page.click("text=Next ▶")
        page.wait_for_function("() => document.getElementById('step-number').textContent === '1'")
        assert page.inner_text("#caption").startswith("draws ")
        page.click("text=Next ▶")
        page.wait_for_function("() => document.getElementById('step-number').textContent === '2'")
        page.click("text=◀ Back")
        page.wait_for_function("() => document.getElementById('step-number').textContent === '1'")
        assert page.locator(".drawing.nacho .chip").count() > 0

        league = BotLeague.objects.get(name="Browser season")
        wait_until(lambda: BotLeague.objects.get(pk=league.pk).status == "finished", "the league finishes")
    finally:
        worker.stop()
