"""The room's pages in a browser: only the embed can be framed, the print stylesheet hides the chrome and
prints score slips three to a page, a published round's page shows new results without a reload, and the round
timer counts down (and shows its end time without JavaScript)."""

import os
import re
from datetime import timedelta

import pytest
from django.utils import timezone

from league.tournaments import services
from league.tournaments.models import Round
from tests.e2e.conftest import CHROMIUM, CHROMIUM_ARGS
from tests.factories import StaffFactory
from tests.factories.tournaments import make_tournament


@pytest.fixture
def running(db):
    """A 4-seat Swiss of 10 with round 1 published: tables of 4, 3 and 3."""
    organizer = StaffFactory(username="organizer")
    tournament, _ = make_tournament(organizer, 10)
    round_row = services.round_generate(tournament=tournament, by=organizer)
    services.round_publish(round_row=round_row, by=organizer)
    return tournament, round_row, organizer


def pdf_pages(pdf: bytes) -> int:
    return len(re.findall(rb"/Type\s*/Page\b", pdf))


@pytest.fixture
def other_site_page():
    """A page of Chromium allowed to frame a local server from another site (club.example): Chromium's local
    network access checks would otherwise refuse any public page framing localhost, whatever our headers."""
    from playwright.sync_api import sync_playwright

    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(
            executable_path=CHROMIUM,
            args=[*CHROMIUM_ARGS, "--disable-features=LocalNetworkAccessChecks"],
            timeout=120_000,
        )
        page = chromium.new_page()
        page.set_default_timeout(60_000)
        yield page
        chromium.close()


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_only_the_embed_shows_inside_another_sites_frame(live_server, other_site_page, running):
    tournament, _, _ = running
    page = other_site_page
    base = f"{live_server.url}/tournaments/{tournament.slug}"
    framed = {
        "embed": f"{base}/embed/",
        "redirect": f"{base}/?embed=1",
        "page": f"{base}/",
        "round": f"{base}/rounds/1/",
        "projector": f"{base}/projector/",
    }
    host = "".join(f'<iframe id="{name}" src="{url}"></iframe>' for name, url in framed.items())
    refused = []
    page.on("requestfailed", lambda request: refused.append((request.url, request.failure)))
    page.route("http://club.example/", lambda route: route.fulfill(body=host, content_type="text/html"))
    page.goto("http://club.example/")
    for name in ("embed", "redirect"):
        page.frame_locator(f"#{name}").locator("#standings").wait_for()
        assert page.frame_locator(f"#{name}").locator("#standings tbody tr").count() == 10, name
    for name in ("page", "round", "projector"):
        frame = page.locator(f"#{name}").element_handle().content_frame()
        assert frame.url == "chrome-error://chromewebdata/", name
    assert sorted(refused) == sorted(
        (framed[name], "net::ERR_BLOCKED_BY_RESPONSE") for name in ("page", "round", "projector")
    )


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_printing_hides_the_chrome_and_puts_three_score_slips_on_a_page(live_server, page, running):
    tournament, round_row, _ = running
    base = f"{live_server.url}/tournaments/{tournament.slug}/rounds/1"
    page.set_default_timeout(60_000)
    page.goto(f"{base}/slips/")
    assert page.locator("header.site").is_visible() and page.locator(".print-bar").is_visible()
    page.emulate_media(media="print")
    assert page.locator("header.site").is_hidden() and page.locator(".print-bar").is_hidden()
    assert page.locator(".slip").count() == 3
    assert round_row.tables.count() == 3
    assert pdf_pages(page.pdf(format="A4")) == 1  # three slips to an A4 page, cut apart along the lines
    page.goto(f"{base}/print/")
    assert page.locator("header.site").is_hidden()
    assert pdf_pages(page.pdf(format="A4")) == 2  # by table, then by name on a page of its own
    page.goto(f"{base}/print/?list=names")
    assert pdf_pages(page.pdf(format="A4")) == 1


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_round_page_and_the_projector_show_new_results_and_timer_changes_without_a_reload(
    live_server, page, running, settings
):
    settings.TOURNAMENT_LIVE_SECONDS = 1
    tournament, round_row, organizer = running
    page.set_default_timeout(60_000)
    page.goto(f"{live_server.url}/tournaments/{tournament.slug}/rounds/1/")
    page.evaluate("window.notReloaded = true")
    assert page.inner_text("#table-2 h3").split() == ["Table", "2", "playing"]
    table = round_row.tables.get(number=2)
    services.table_result(table=table, by=organizer, expected_version=0, places=[1, 2, 3])
    page.wait_for_function("() => document.querySelector('#table-2 .badge').textContent === 'done'")
    # A table of 3 among tables of 4: first place scaled to a full table's 3 points (a visitor is not
    # shown the chance of finishing first: that is for organizers and scorekeepers)
    assert page.inner_text("#table-2 li >> nth=0").split() == ["Bea", "1st", "·", "3", "pt"]
    services.round_timer_start(round_row=round_row, by=organizer, minutes=50)
    page.wait_for_selector("#round-timer[data-state=running]")
    page.wait_for_function("() => document.querySelector('#round-timer .timer-clock').textContent < '50:00'")
    assert page.evaluate("window.notReloaded") is True

    page.goto(f"{live_server.url}/tournaments/{tournament.slug}/projector/")
    page.evaluate("window.notReloaded = true")
    services.round_timer_pause(round_row=round_row, by=organizer)
    page.wait_for_selector("#round-timer[data-state=paused]")
    assert page.text_content("#round-timer .timer-label") == "Paused"
    services.table_result(
        table=round_row.tables.get(number=3), by=organizer, expected_version=0, places=[3, 2, 1]
    )
    page.wait_for_function("() => document.querySelectorAll('.pj-table.done').length === 1")
    assert page.evaluate("window.notReloaded") is True


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_timer_counts_down_to_time_is_up_and_shows_its_end_without_javascript(
    live_server, browser, running
):
    tournament, round_row, organizer = running
    services.round_timer_start(round_row=round_row, by=organizer, minutes=1)
    ends_at = timezone.now() + timedelta(seconds=3)  # a timer nearly run out, without waiting a minute
    Round.objects.filter(pk=round_row.pk).update(timer_ends_at=ends_at)
    end = ends_at.strftime("%H:%M")
    url = f"{live_server.url}/tournaments/{tournament.slug}/rounds/1/find/"
    plain = browser.new_context(java_script_enabled=False)
    page = plain.new_page()
    page.goto(url)
    assert page.inner_text("#round-timer .timer-note") == f"ends {end} (UTC)"
    plain.close()
    scripted = browser.new_context()
    page = scripted.new_page()
    page.set_default_timeout(120_000)
    page.goto(url)
    page.wait_for_function("() => document.querySelector('#round-timer .timer-clock').textContent === '0:00'")
    assert page.text_content("#round-timer .timer-label") == "Time is up"
    assert page.get_attribute("#round-timer", "class") == "round-timer over"
    scripted.close()
