"""A version test's pages in a browser ("is v2 better than v1?"): its page after the verdict, the form that
starts one and the bot page that links both pass the axe check on a phone and a laptop, light and dark, and
fit a 390 px phone with no console error or failed request."""

from __future__ import annotations

import pytest
from axe_playwright_python.sync_playwright import Axe

from league.bots.models import VersionTest
from league.bots.services.version_tests import version_test_create
from tests.e2e.site_pages import session_cookie
from tests.e2e.test_accessibility import GRAVE, SCREENS, _watched
from tests.league.bots.test_version_tests import play_all, versions

SHOTS = "/work/shots/h46sprt"


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_version_tests_pages_pass_the_axe_check_and_fit_a_phone(live_server, browser, monkeypatch):
    from django.contrib.auth import get_user_model

    monkeypatch.setattr("league.bots.services.leases.queue_challenge_work", lambda tasks: None)
    monkeypatch.setattr("league.bots.services.work.queue_challenge_work", lambda tasks: None)
    monkeypatch.setattr("league.bots.services.version_tests.queue_challenge_work", lambda tasks: None)
    users = get_user_model().objects
    staff = users.create_user("staffer", password="x", is_staff=True)
    author = users.create_user("author", password="x")
    v1, v2 = versions(author, staff)
    test = version_test_create(v1_id=v1.pk, v2_id=v2.pk, by=author, seed=46)
    play_all()
    test.refresh_from_db()
    assert test.verdict == VersionTest.Verdict.BETTER
    paths = {
        "test": f"/bots/version-tests/{test.pk}/",
        "new": f"/bots/version-tests/new/?v2={v2.pk}",
        "bot": f"/bots/bots/{v2.pk}/",
    }
    axe, report = Axe(), []
    for screen, viewport in SCREENS.items():
        context = browser.new_context(viewport=viewport)
        context.add_cookies([session_cookie("author", live_server.url)])
        try:
            for name, path in paths.items():
                page = context.new_page()
                problems = _watched(page)
                response = page.goto(live_server.url + path, wait_until="networkidle")
                assert response.status == 200, path
                if name == "test":
                    assert "better" in page.locator("#verdict").inner_text()
                for scheme in ("light", "dark"):
                    page.emulate_media(color_scheme=scheme)
                    found = axe.run(page).response["violations"]
                    report += [
                        f"{screen} {scheme} {path}: {v['id']} ({v['impact']}): {v['help']}"
                        for v in found
                        if v["impact"] in GRAVE
                    ]
                    if name != "new":
                        page.screenshot(path=f"{SHOTS}/{name}-{screen}-{scheme}.png", full_page=True)
                        page.screenshot(path=f"{SHOTS}/{name}-{screen}-{scheme}-top.png")
                if screen == "phone":
                    width = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
                    if width[0] > width[1]:
                        problems.append(f"page {width[0]} px wide on a {width[1]} px screen")
                report += [f"{screen} {path}: {problem}" for problem in problems]
                page.close()
        finally:
            context.close()
    assert not report, "\n".join(report)
