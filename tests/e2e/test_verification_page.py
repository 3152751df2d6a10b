"""A visitor reads a replay page's verdict: verified, or rejected naming the event,
on a phone and a desktop."""

import os
from pathlib import Path
from unittest import mock

import pytest
from django.contrib.auth import get_user_model

from league.bots.models import Fixture
from league.bots.services.leagues import league_start
from league.bots.services.work import work_play
from league.matches.models import Match
from league.matches.tasks import verify_matches_task
from tests.games.test_verify import legal, mutations
from tests.league.bots.conftest import make_bots, make_league

SHOTS = os.environ.get("PECKING_ORDER_SHOTS")  # a folder to keep the screenshots in, when set


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_replay_page_shows_the_verdict_on_a_phone_and_a_desktop(live_server, page, tmp_path):
    operator = get_user_model().objects.create_user("operator", password="pw-operator-1", is_staff=True)
    with (
        mock.patch("league.bots.services.leagues.queue_work"),
        mock.patch.object(verify_matches_task, "apply_async"),
    ):
        league = make_league(operator, make_bots(operator), target_value=1)
        league_start(league_id=league.pk)
        work_play(league_id=league.pk, worker="e2e")
    good, *others = sorted(Fixture.objects.filter(league=league).values_list("match_id", flat=True))
    bad, (index, seat, changed) = next(
        (pk, m)
        for pk in others
        for m in mutations(Match.objects.get(pk=pk).record_json(), limit=1)
        if m[1] is not None and legal(m[2])
    )
    Match.objects.filter(pk=bad).update(record=Match.compress_record(changed))
    verify_matches_task([good, bad])
    folder = Path(SHOTS) if SHOTS else tmp_path

    for width in (390, 1366):
        page.set_viewport_size({"width": width, "height": 900})
        page.goto(f"{live_server.url}/bots/matches/{good}/replay/")
        verdict = page.locator("section.verification")
        assert verdict.inner_text().startswith("✓ Verified: every chance outcome was drawn again")
        assert verdict.bounding_box()["width"] <= width
        page.screenshot(path=str(folder / f"replay-verified-{width}.png"), full_page=True)

        page.goto(f"{live_server.url}/bots/matches/{bad}/replay/")
        verdict = page.locator("section.verification.rejected")
        assert verdict.inner_text().startswith(f"✗ Rejected: event {index + 1}, seat {seat + 1}: re-made ")
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        page.screenshot(path=str(folder / f"replay-rejected-{width}.png"), full_page=True)
        page.click("text=the table just before it")
        page.wait_for_url(f"**/bots/matches/{bad}/replay/?step={index}")
        assert page.locator("[data-step]").first.get_attribute("data-step") == str(index)
