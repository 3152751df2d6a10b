"""A draft with warnings and an event with a Day 2, in Chromium: no serious or critical axe violation on a
phone and a laptop, light and dark, nothing wider than the phone; screenshots into /work/shots/h48draft/
(issue 48)."""

from pathlib import Path

import pytest
from axe_playwright_python.sync_playwright import Axe

from league.players.models import Player
from league.tournaments import services
from tests.e2e.site_pages import session_cookie
from tests.factories import StaffFactory
from tests.factories.tournaments import better_seed_wins, make_tournament, play_round

SCREENS = {"phone": {"width": 390, "height": 844}, "laptop": {"width": 1366, "height": 900}}
GRAVE = {"serious", "critical"}
SHOTS = Path("/work/shots/h48draft")


def _seat(round_row, *tables):
    for row, names in zip(round_row.tables.order_by("number"), tables, strict=True):
        row.planned_seats = [Player.objects.get(name=name).pk for name in names]
        row.save(update_fields=["planned_seats"])


def _play(tournament, organizer, *tables):
    round_row = services.round_generate(tournament=tournament, by=organizer)
    _seat(round_row, *tables)
    services.round_publish(round_row=round_row, by=organizer)
    for table in round_row.tables.order_by("number"):
        places = list(range(1, len(table.planned_seats) + 1))
        services.table_result(table=table, by=organizer, expected_version=0, places=places)
    services.round_complete(round_row=round_row, by=organizer)


def _build():
    """Seven players at tables of 4 (a table of 3 each round): round 3 drafted with repeats, a short table
    again, a seat streak; and an eight-player Swiss with a Day 2 after round 2."""
    organizer = StaffFactory(username="organizer")
    tournament, _ = make_tournament(organizer, 7, table_size=4, rounds=4)
    _play(tournament, organizer, ["Ada", "Bea", "Cal", "Dov"], ["Eli", "Fay", "Gus"])
    _play(tournament, organizer, ["Ada", "Eli", "Cal", "Fay"], ["Bea", "Dov", "Gus"])
    draft = services.round_generate(tournament=tournament, by=organizer)
    _seat(draft, ["Ada", "Bea", "Eli", "Fay"], ["Cal", "Dov", "Gus"])
    days, _ = make_tournament(
        organizer, 8, name="Two Day Open", table_size=2, rounds=4, day2_after_round=2, day2_points=2
    )
    play_round(days, organizer, better_seed_wins(days))
    play_round(days, organizer, better_seed_wins(days))
    return [
        ("draft-warnings", f"/tournaments/{tournament.slug}/rounds/3/", "organizer"),
        ("days", f"/tournaments/{days.slug}/", None),  # as a visitor reads it
    ]


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_draft_with_warnings_and_the_days_pass_axe_and_fit_a_phone(live_server, browser):
    visits = _build()
    SHOTS.mkdir(parents=True, exist_ok=True)
    axe, report = Axe(), []
    for screen, viewport in SCREENS.items():
        organizer = browser.new_context(viewport=viewport)
        organizer.add_cookies([session_cookie("organizer", live_server.url)])
        visitor = browser.new_context(viewport=viewport)
        try:
            for name, path, user in visits:
                page = (organizer if user else visitor).new_page()
                page.set_default_timeout(60_000)
                response = page.goto(live_server.url + path, wait_until="load")
                assert response.status == 200, f"{path}: {response.status}"
                if name == "draft-warnings":
                    assert page.locator("#draft-warnings li").count() >= 3
                    assert page.locator(".badge.repeat").count() >= 1
                else:
                    assert page.locator("#day-2-qualified").inner_text() == "2 qualified: Ada (2), Bea (2)."
                for scheme in ("light", "dark"):
                    page.emulate_media(color_scheme=scheme)
                    found = axe.run(page).response["violations"]
                    report += [
                        f"{name} {screen} {scheme}: {v['id']} ({v['impact']}) "
                        + " ".join(str(node["target"]) for node in v["nodes"][:4])
                        for v in found
                        if v["impact"] in GRAVE
                    ]
                    page.screenshot(
                        path=str(SHOTS / f"{name}-{viewport['width']}-{scheme}.png"), full_page=True
                    )
                if screen == "phone":
                    width = page.evaluate("document.documentElement.scrollWidth")
                    assert width <= viewport["width"], f"{name} is {width} px wide on a phone"
                page.close()
        finally:
            organizer.close()
            visitor.close()
    assert not report, "\n".join(report)
