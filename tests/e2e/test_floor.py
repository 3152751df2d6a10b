"""The floor in browsers (issue 48): a player calls a judge from her table's page and a judge claims and
resolves it, each page updating without a reload; extra time shows on the table's page and the projector;
a points penalty changes the standings with its reason; the judges' page and a table on extra time pass axe
at 390 and 1366 px (screenshots into /work/shots/h48judge/ when that folder exists)."""

from pathlib import Path

import pytest
from axe_playwright_python.sync_playwright import Axe
from django.conf import settings as django_settings
from django.test import Client

from league.players.models import Player
from league.tournaments import services
from league.tournaments.floor_models import JudgeCall
from tests.factories import StaffFactory, UserFactory
from tests.factories.tournaments import make_tournament

SHOTS = Path("/work/shots/h48judge")
SCREENS = {"phone": {"width": 390, "height": 844}, "laptop": {"width": 1366, "height": 900}}


def context_of(browser, live_server, user=None, screen="phone"):
    context = browser.new_context(viewport=SCREENS[screen])
    if user is not None:
        client = Client()
        client.force_login(user)
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


def shoot(page, name: str) -> None:
    if SHOTS.is_dir():
        page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def grave(axe: Axe, page) -> list[str]:
    found = axe.run(page).response["violations"]
    return [
        f"{page.url} {v['id']} ({v['impact']}): {[node['target'] for node in v['nodes'][:4]]}"
        for v in found
        if v["impact"] in ("serious", "critical")
    ]


def seat_names(table) -> list[str]:
    return list(table.match.seats.order_by("seat").values_list("player__name", flat=True))


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_call_an_extension_and_a_penalty_on_the_floor(live_server, browser, settings):
    settings.TOURNAMENT_LIVE_SECONDS = 1
    organizer = StaffFactory(username="organizer")
    tournament, players = make_tournament(organizer, 8, name="Floor Open")
    users = {}
    for player in players:
        users[player.name] = UserFactory(username=player.name.lower())
        Player.objects.filter(pk=player.pk).update(user=users[player.name])
    judy = UserFactory(username="judy")
    services.role_add(tournament=tournament, by=organizer, username="judy", role="judge")
    round_row = services.round_generate(tournament=tournament, by=organizer)
    services.round_publish(round_row=round_row, by=organizer)
    services.round_timer_start(round_row=round_row, by=organizer, minutes=50)
    tables = list(round_row.tables.order_by("number").select_related("match"))
    ada_table = next(table for table in tables if "Ada" in seat_names(table))
    base = f"{live_server.url}/tournaments/{tournament.slug}"
    table_url = f"{base}/rounds/1/tables/{ada_table.number}/"

    judge = context_of(browser, live_server, judy, "laptop").new_page()
    judge.goto(f"{base}/judges/")
    judge.evaluate("window.notReloaded = true")
    assert (
        judge.inner_text("#no-calls")
        == "No call is waiting. Calls appear here by themselves, the oldest first."
    )

    ada = context_of(browser, live_server, users["Ada"]).new_page()
    ada.goto(table_url)
    ada.click("#call-judge")
    assert "A judge is called (at" in ada.inner_text("#judge-call")
    ada.evaluate("window.notReloaded = true")
    call = JudgeCall.objects.get()

    # The judge's queue shows the call without a reload.
    judge.wait_for_selector(f"#call-{call.pk}")
    assert judge.evaluate("window.notReloaded") is True
    assert f"Table {ada_table.number} · round 1 · Ada called at" in judge.inner_text(f"#call-{call.pk}")
    shoot(judge, "judge-queue-laptop")
    axe, report = Axe(), grave(Axe(), judge)
    phone_judge = context_of(browser, live_server, judy, "phone").new_page()
    phone_judge.goto(f"{base}/judges/")
    report += grave(axe, phone_judge)
    shoot(phone_judge, "judge-queue-phone")

    judge.click(f"#claim-{call.pk}")
    judge.wait_for_selector(".messages")
    # Ada's page says a judge is coming, without a reload.
    ada.wait_for_selector("#judge-call >> text=A judge is coming.")
    assert ada.evaluate("window.notReloaded") is True

    judge.fill(f"#note-{call.pk}", "Replayed the last turn.")
    judge.click(f"#resolve-{call.pk}")
    judge.wait_for_selector("#no-calls")
    assert "Replayed the last turn." in judge.inner_text("#resolved-calls")
    ada.wait_for_function("() => document.getElementById('judge-call').innerText.trim() === ''")
    ada.wait_for_selector("#call-judge")  # the table may call again, still without a reload
    assert ada.evaluate("window.notReloaded") is True

    # Extra time: the table's page and the projector show the table's own end.
    judge.select_option("#extend-table", str(ada_table.number))
    judge.fill("#extend-minutes", "10")
    judge.click("#extend")
    judge.wait_for_selector(f"#extended-{ada_table.number}")
    ada.wait_for_selector("#table-extra")
    assert ada.inner_text("#table-extra") == "+10 min for this table"
    assert ada.get_attribute("#round-timer", "aria-label") == f"Table {ada_table.number} timer"
    ends_at = int(
        ada.get_attribute("#round-timer", "data-ends-at")
    )  # an instant: 60 min from the timer's start
    ada_left = (ends_at - ada.evaluate("Date.now()")) / 1000
    assert 59 * 60 <= ada_left <= 60 * 60
    shoot(ada, "table-with-extension-phone")
    report += grave(axe, ada)
    laptop_table = context_of(browser, live_server, users["Ada"], "laptop").new_page()
    laptop_table.goto(table_url)
    report += grave(axe, laptop_table)
    projector = context_of(browser, live_server, None, "laptop").new_page()
    projector.goto(f"{base}/projector/")
    extra = projector.inner_text(f"#pj-extra-{ada_table.number}")
    assert extra.startswith("+10 min, ends ")
    shoot(projector, "projector-with-extension")
    round_page = context_of(browser, live_server, None, "phone").new_page()
    round_page.goto(f"{base}/rounds/1/")
    assert round_page.inner_text(f"#extended-{ada_table.number}").startswith(
        f"Table {ada_table.number}: +10 min, ends "
    )

    # Every result in; then a points penalty moves the winner of Ada's table down, and the standings say why.
    for table in tables:
        services.table_result(table=table, by=organizer, expected_version=0, places=[1, 2, 3, 4])
    winners = [seat_names(table)[0] for table in tables]
    visitor = context_of(browser, live_server, None, "phone").new_page()
    visitor.goto(f"{base}/")
    visitor.evaluate("window.notReloaded = true")
    top = [row.split("\t")[1] for row in visitor.inner_text("#standings tbody").splitlines()[:2]]
    assert sorted(top) == sorted(winners)
    penalized = top[0]
    judge.goto(f"{base}/judges/")
    judge.select_option("#penalty-player", label=penalized)
    judge.select_option("#penalty-type", label="Slow play")
    judge.select_option("#penalty-kind", value="points")
    judge.fill("#penalty-points", "1.5")
    judge.fill("#penalty-note", "Over time twice")
    judge.click("#give-penalty")
    judge.wait_for_selector("#penalty-list")
    assert "Over time twice" in judge.inner_text("#penalty-list")
    visitor.wait_for_selector("#standings-penalties")
    assert visitor.evaluate("window.notReloaded") is True
    assert visitor.inner_text("#standings-penalties li") == f"{penalized}: −1.5 pt: Slow play (round 1)"
    first = visitor.inner_text("#standings tbody tr >> nth=0").split("\t")
    assert first[1] == top[1]
    penalized_row = next(
        row for row in visitor.inner_text("#standings tbody").splitlines() if row.split("\t")[1] == penalized
    )
    assert "(−1.5 penalty)" in penalized_row
    assert "Over time twice" not in visitor.content()
    shoot(visitor, "standings-with-penalty-phone")
    assert not report, "\n".join(report)
