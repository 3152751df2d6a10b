"""Self-report in browsers: two players in two browser contexts (one reports from her page, the other
confirms), and the organizer's round page and tournament page (a third context) show the stored result and
the new standings without a reload."""

import pytest
from django.conf import settings as django_settings
from django.test import Client

from league.players.models import Player
from league.tournaments import services
from tests.factories import StaffFactory, UserFactory
from tests.factories.tournaments import make_tournament


def signed_in_context(browser, live_server, user):
    """A browser context (a phone's width) whose session is `user`'s."""
    client = Client()
    client.force_login(user)
    context = browser.new_context(viewport={"width": 390, "height": 844})
    context.add_cookies(
        [
            {
                "name": django_settings.SESSION_COOKIE_NAME,
                "value": client.cookies[django_settings.SESSION_COOKIE_NAME].value,
                "url": live_server.url,
            }
        ]
    )
    context.set_default_timeout(60_000)
    return context


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_one_player_reports_the_other_confirms_and_the_organizer_sees_it_without_a_reload(
    live_server, browser, settings
):
    settings.TOURNAMENT_LIVE_SECONDS = 1
    organizer = StaffFactory(username="organizer")
    tournament, players = make_tournament(
        organizer, 2, table_size=2, rounds=1, result_reporting="self_report"
    )
    users = {}
    for player in players:
        users[player.name] = UserFactory(username=player.name.lower())
        Player.objects.filter(pk=player.pk).update(user=users[player.name])
    round_row = services.round_generate(tournament=tournament, by=organizer)
    services.round_publish(round_row=round_row, by=organizer)
    base = f"{live_server.url}/tournaments/{tournament.slug}"

    referee = signed_in_context(browser, live_server, organizer)
    round_page = referee.new_page()
    round_page.goto(f"{base}/rounds/1/")
    standings_page = referee.new_page()
    standings_page.goto(f"{base}/")
    for page in (round_page, standings_page):
        page.evaluate("window.notReloaded = true")
    assert round_page.inner_text("#table-1 h3").split() == ["Table", "1", "playing"]
    assert [row.split("\t")[:3] for row in standings_page.inner_text("#standings tbody").splitlines()] == [
        ["1", "Ada", "0"],
        ["2", "Bea", "0"],
    ]

    ada = signed_in_context(browser, live_server, users["Ada"]).new_page()
    ada.goto(f"{live_server.url}/me/")
    ada.click("text=My table: report or confirm the result")
    seats = list(round_row.tables.get().match.seats.order_by("seat").values_list("player__name", flat=True))
    for seat, name in enumerate(seats):
        ada.fill(f"#id_place_{seat}", "1" if name == "Ada" else "2")
    ada.click("#report")
    assert ada.inner_text("#waiting") == "Waiting for Bea to confirm."
    round_page.wait_for_selector("#open-report-1")
    assert (
        round_page.inner_text("#open-report-1") == "Table 1: Ada reported 1st Ada, 2nd Bea; waiting for Bea."
    )

    bea = signed_in_context(browser, live_server, users["Bea"]).new_page()
    bea.goto(f"{live_server.url}/me/")
    bea.click("text=My table: report or confirm the result")
    assert bea.inner_text("#confirm-panel p >> nth=0") == "Ada reported 1st Ada, 2nd Bea."
    bea.click("#confirm")
    assert "Reported by Ada, confirmed by Bea." in bea.inner_text("#report-status")

    round_page.wait_for_function("() => document.querySelector('#table-1 .badge').textContent === 'done'")
    # inner text follows the layout: a live refresh may join "50%" and "1st" with no space between them
    assert sorted(
        text.replace("%", "% ").split() for text in round_page.locator("#table-1 li").all_inner_texts()
    ) == [
        # the organizer sees two new players' equal chances of finishing first, then the result
        ["Ada", "chance", "of", "1st", "50%", "1st", "·", "1", "pt"],
        ["Bea", "chance", "of", "1st", "50%", "2nd", "·", "0", "pt"],
    ]
    standings_page.wait_for_function(
        "() => document.querySelector('#standings tbody tr td:nth-child(3)').textContent.trim() === '1'"
    )
    assert [row.split("\t")[:3] for row in standings_page.inner_text("#standings tbody").splitlines()] == [
        ["1", "Ada", "1"],
        ["2", "Bea", "0"],
    ]
    for page in (round_page, standings_page):
        assert page.evaluate("window.notReloaded") is True
