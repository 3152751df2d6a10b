"""The pages of a JavaScript upload on a phone: its bot page (its runtime, and that no worker can run it now)
and the upload form with its runtimes, with no serious accessibility violation and nothing wider than the
screen."""

from pathlib import Path

import pytest
from axe_playwright_python.sync_playwright import Axe

from league.bots.uploads import bot_upload
from league.programs.probe import PROTECTIONS, ProbeResult
from league.programs.services import worker_probe_record
from tests.e2e.site_pages import session_cookie
from tests.factories import UserFactory

SHOTS = Path("/work/shots/h46run")
PHONE = {"width": 390, "height": 844}


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_javascript_bots_page_and_the_upload_form_read_well_on_a_phone(live_server, browser):
    author = UserFactory(username="author")
    bot = bot_upload(
        by=author, game_id="nacho_pile", name="Scripted", data=b"process.stdin.resume();\n", filename="b.js"
    )
    probe = ProbeResult(proven=dict.fromkeys(PROTECTIONS, True), runtimes={"python": "Python 3.11.2"})
    worker_probe_record(worker="celery@python-only", hostname="python-only", result=probe)
    context = browser.new_context(viewport=PHONE)
    context.add_cookies([session_cookie("author", live_server.url)])
    axe = Axe()
    try:
        for name, path, expected in (
            ("bot", f"/bots/bots/{bot.pk}/", "No worker can run node programs now; its matches wait."),
            ("upload", "/bots/bots/upload/", "JavaScript (Node.js)"),
        ):
            page = context.new_page()
            response = page.goto(live_server.url + path, wait_until="load")
            assert response.status == 200
            assert expected in page.content()
            width = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
            assert width[0] <= width[1], f"{name}: {width}"
            grave = [
                violation["id"]
                for violation in axe.run(page).response["violations"]
                if violation["impact"] in {"serious", "critical"}
            ]
            assert grave == [], name
            if SHOTS.parent.is_dir():
                SHOTS.mkdir(exist_ok=True)
                page.screenshot(path=str(SHOTS / f"runtime-{name}.png"), full_page=True)
            page.close()
    finally:
        context.close()
