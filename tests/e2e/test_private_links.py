"""Private links in a browser: a whole event day played by eight people without an account, each on a 390 px
phone holding only their private link (no cookie, no log-in), and the axe check of the link pages at 390 and
1366 px.

The event: 8 players (Ada ... Hal, seeded in that order), 2 Swiss rounds at tables of 4, a top-4 cut, whose
one table is the final table. Every table finishes by the rule "the lower seed places better"; the holder in
seat 1 reports it from their phone, the other three confirm from theirs. Ada (seed 1) wins every table she
sits at, so she leads the Swiss, is in the cut, and wins the final table.
"""

import pytest
from axe_playwright_python.sync_playwright import Axe
from django.contrib.auth import get_user_model

from league.matches.models import Match
from league.tournaments import services
from league.tournaments.models import Registration, Round, Table, Tournament
from tests.e2e.site_pages import session_cookie
from tests.factories import StaffFactory
from tests.factories.tournaments import make_tournament

PHONE = {"width": 390, "height": 844}
SCREENS = {"phone": PHONE, "laptop": {"width": 1366, "height": 900}}
GRAVE = {"serious", "critical"}


def organizer_context(browser, live_server, viewport):
    context = browser.new_context(viewport=viewport)
    context.add_cookies([session_cookie("organizer", live_server.url)])
    context.set_default_timeout(60_000)
    return context


def issue_links(browser, live_server, tournament, names) -> dict[str, str]:
    """The organizer issues every link from the private-links page; each slip's address, by name."""
    context = organizer_context(browser, live_server, PHONE)
    page = context.new_page()
    urls = {}
    for name in names:
        page.goto(f"{live_server.url}/tournaments/{tournament.slug}/private-links/")
        page.get_by_role("button", name=f"Issue the link of {name}").click()
        urls[name] = page.inner_text("#private-link-url").strip()
    context.close()
    return urls


def seeds_by_place(table: Table) -> list[int]:
    """Places in seat order by the rule: the lower seed places better."""
    seeds = dict(
        Registration.objects.filter(tournament=table.round.tournament).values_list("player_id", "seed")
    )
    seated = list(table.match.seats.order_by("seat").values_list("player_id", flat=True))
    ranked = sorted(seated, key=lambda pid: seeds[pid])
    return [ranked.index(pid) + 1 for pid in seated]


def play_table(phones, urls, table: Table) -> None:
    names = list(table.match.seats.order_by("seat").values_list("player__name", flat=True))
    places = seeds_by_place(table)
    reporter, *others = names
    page = phones[reporter]
    page.goto(urls[reporter])
    assert page.inner_text("#my-table-heading").startswith(
        f"Round {table.round.number}, table {table.number}"
    )
    for seat, place in enumerate(places):
        page.fill(f'input[name="place_{seat}"]', str(place))
    page.click("#report")
    assert page.inner_text("#done") == "Result reported: it counts once the others at the table confirm it."
    for index, name in enumerate(others):
        page = phones[name]
        page.goto(urls[name])
        page.click("#confirm")
        last = index == len(others) - 1
        expected = "Confirmed: everyone agreed, the result is stored." if last else "Confirmed."
        assert page.inner_text("#done") == expected
    table.match.refresh_from_db()
    assert table.match.status == Match.Status.FINISHED
    assert list(table.match.seats.order_by("seat").values_list("place", flat=True)) == places


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_an_event_day_through_private_links_with_no_account(live_server, browser):
    organizer = StaffFactory(username="organizer")
    tournament, players = make_tournament(
        organizer,
        8,
        format="stages",
        first_stage="swiss",
        rounds=2,
        cut_size=4,
        table_size=4,
        result_reporting="self_report",
        rated=False,
    )
    names = [player.name for player in players]
    urls = issue_links(browser, live_server, tournament, names)
    contexts = {name: browser.new_context(viewport=PHONE) for name in names}
    phones = {name: contexts[name].new_page() for name in names}
    for page in phones.values():
        page.set_default_timeout(60_000)
    try:
        for number in (1, 2, 3):
            round_row = services.round_generate(tournament=tournament, by=organizer)
            services.round_publish(round_row=round_row, by=organizer)
            tables = list(round_row.tables.order_by("number").select_related("match", "round__tournament"))
            assert len(tables) == (2 if number < 3 else 1)
            for table in tables:
                play_table(phones, urls, table)
            round_row.refresh_from_db()
            if round_row.status != Round.Status.COMPLETE:
                services.round_complete(round_row=round_row, by=organizer)
        final = Table.objects.get(round__tournament=tournament, round__number=3)
        seated = set(final.match.seats.values_list("player__name", flat=True))
        assert "Ada" in seated and len(seated) == 4
        assert final.match.seats.get(place=1).player.name == "Ada"
        tournament.refresh_from_db()
        assert tournament.status == Tournament.Status.FINISHED
        assert [context.cookies() for context in contexts.values()] == [[]] * 8
        assert list(get_user_model().objects.values_list("username", flat=True)) == ["organizer"]
        phones["Ada"].goto(urls["Ada"])
        assert phones["Ada"].inner_text("#stored") == "Result stored."
    finally:
        for context in contexts.values():
            context.close()


def _violations(axe: Axe, page) -> list[str]:
    found = axe.run(page).response["violations"]
    return [f"{v['id']} ({v['impact']}): {v['help']}" for v in found if v["impact"] in GRAVE]


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("screen", list(SCREENS))
def test_the_private_link_pages_pass_the_axe_check(live_server, browser, screen):
    organizer = StaffFactory(username="organizer")
    tournament, players = make_tournament(organizer, 4, table_size=4, result_reporting="self_report")
    tokens = {
        player.name: services.private_link_issue(
            tournament=tournament, player_id=player.pk, by=organizer
        ).token
        for player in players
    }
    round_row = services.round_generate(tournament=tournament, by=organizer)
    services.round_publish(round_row=round_row, by=organizer)
    table = round_row.tables.get()
    reporter = table.match.seats.get(seat=0).player
    other = table.match.seats.get(seat=1).player.name
    holder = browser.new_context(viewport=SCREENS[screen])
    staff = organizer_context(browser, live_server, SCREENS[screen])
    axe, report = Axe(), []
    try:
        page = holder.new_page()
        page.goto(f"{live_server.url}/p/{tokens[reporter.name]}/")
        assert page.is_visible("#report-form")
        report += [f"report form: {line}" for line in _violations(axe, page)]
        services.table_report(table=table, by=None, expected_version=0, places=[1, 2, 3, 4], holder=reporter)
        page.goto(f"{live_server.url}/p/{tokens[other]}/")
        assert page.is_visible("#confirm-form")
        report += [f"confirm form: {line}" for line in _violations(axe, page)]
        page.goto(f"{live_server.url}/p/{'x' * 22}/")
        report += [f"no such link: {line}" for line in _violations(axe, page)]
        desk = staff.new_page()
        desk.goto(f"{live_server.url}/tournaments/{tournament.slug}/private-links/")
        report += [f"organizers' page: {line}" for line in _violations(axe, desk)]
        desk.get_by_role("button", name=f"Reissue the link of {other}").click()
        assert desk.is_visible("#private-link-url")
        report += [f"slip: {line}" for line in _violations(axe, desk)]
    finally:
        holder.close()
        staff.close()
    assert not report, "\n".join(report)
