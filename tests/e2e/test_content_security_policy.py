"""The Content-Security-Policy in Chromium: no page of any type reports a violation (as a console message or a
securitypolicyviolation event), Swagger UI and the admin included; and what moved out of inline scripts and
on*= attributes still works: the replay's stepper, a running league's live part, the new league and
challenge forms' filters, the check-in desk, the tournament page's live standings, the print buttons and the
embed code's select-on-focus."""

from unittest import mock

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from league.bots.models import BotDefinition, BotLeague
from league.bots.services.leagues import league_start
from league.tournaments.demo import OPEN_NAME, SWISS_NAME
from league.tournaments.models import Registration, Tournament
from tests.e2e.site_pages import build_site, session_cookie
from tests.league.bots.conftest import make_league

SHOWN = "boxes => boxes.filter(box => !box.closest('div, li').hidden).map(box => Number(box.value))"
# Runs before any script of each page (Playwright's init scripts are not subject to the page's policy).
LISTEN = """window.cspViolations = [];
document.addEventListener("securitypolicyviolation", function (event) {
  window.cspViolations.push(event.violatedDirective + " " + (event.blockedURI || "inline"));
});
window.printed = 0;
window.print = function () { window.printed += 1; };"""


def _context(browser, base_url: str, user: str | None):
    context = browser.new_context(viewport={"width": 1366, "height": 900})
    context.add_init_script(LISTEN)
    if user is not None:
        context.add_cookies([session_cookie(user, base_url)])
    return context


def _refusals(page) -> list[str]:
    """What the policy refused on `page` from now on: the console messages that name it (Chromium's
    "Applying inline style violates the following Content Security Policy directive ...")."""
    refused: list[str] = []

    def heard(message) -> None:
        if "Content Security Policy" in message.text:
            refused.append(message.text)

    page.on("console", heard)
    return refused


def _extra_pages() -> list[tuple[str, str, str | None]]:
    swiss = Tournament.objects.get(name=SWISS_NAME)
    return [
        ("organizer's tournament", f"/tournaments/{swiss.slug}/", "organizer"),
        ("embed", f"/tournaments/{swiss.slug}/embed/", None),
        ("projector", f"/tournaments/{swiss.slug}/projector/", None),
        ("pairings to print", f"/tournaments/{swiss.slug}/rounds/1/print/", None),
        ("score slips", f"/tournaments/{swiss.slug}/rounds/1/slips/", None),
        ("roles", f"/tournaments/{swiss.slug}/organizers/", "organizer"),
        ("new league", "/bots/new/", "organizer"),
        ("new challenge", "/bots/challenges/new/", "author"),
        ("API docs", "/api/docs/", None),
        ("admin", "/admin/", "root"),
        ("admin list", "/admin/tournaments/tournament/", "root"),
        ("admin form", "/admin/players/player/add/", "root"),
    ]


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_no_page_reports_a_policy_violation(live_server, browser):
    visits = [(visit.name, visit.path, visit.user) for visit in build_site()]
    get_user_model().objects.create_superuser("root", "root@example.com", "pass-word-123")
    visits += _extra_pages()
    contexts: dict = {}
    report = []
    try:
        for name, path, user in visits:
            if user not in contexts:
                contexts[user] = _context(browser, live_server.url, user)
            page = contexts[user].new_page()
            page.set_default_timeout(60_000)
            refused = _refusals(page)
            response = page.goto(live_server.url + path, wait_until="networkidle")
            assert response.status == 200, f"{name} {path}: {response.status}"
            if name == "API docs":  # Swagger UI drew the operations from the schema
                expect(page.locator(".opblock").first).to_be_visible()
            events = page.evaluate("window.cspViolations")
            report += [f"{name} {path}: {line}" for line in refused + events]
            page.close()

        # The listeners hear a refusal: an inline style and an inline script put on a page are refused.
        page = contexts[None].new_page()
        refused = _refusals(page)
        page.goto(f"{live_server.url}/", wait_until="networkidle")
        page.evaluate("""document.body.insertAdjacentHTML("beforeend", '<p style="color: red">red</p>');
            var script = document.createElement("script"); script.textContent = "window.ran = true;";
            document.body.appendChild(script);""")
        page.wait_for_function("() => window.cspViolations.length === 2")
        assert page.evaluate("window.cspViolations") == ["style-src-attr inline", "script-src-elem inline"]
        assert page.evaluate("window.ran === undefined")
        refusals = [line.split(" violates ")[0] for line in refused]
        assert refusals == ["Applying inline style", "Executing inline script"]
    finally:
        for context in contexts.values():
            context.close()
    assert report == [], "\n".join(report)


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_what_left_the_inline_scripts_and_handlers_still_works(live_server, browser, settings):
    settings.TOURNAMENT_LIVE_SECONDS = 1
    visits = {visit.name: visit.path for visit in build_site()}
    league = BotLeague.objects.get(name="Nacho season")
    organizer = get_user_model().objects.get(username="organizer")
    with mock.patch("league.bots.services.leagues.queue_work"):  # running, with nobody to play it
        running = make_league(organizer, list(league.bots.order_by("pk")), name="Running season")
        league_start(league_id=running.pk)
    swiss, open_day = (Tournament.objects.get(name=name) for name in (SWISS_NAME, OPEN_NAME))
    people = (None, "organizer", "author")
    visitor, desk, author = (_context(browser, live_server.url, name) for name in people)
    try:
        page = visitor.new_page()
        refused = _refusals(page)

        # The replay's stepper swaps frames in place (no page load) and follows the arrow keys.
        page.goto(live_server.url + visits["replay"])
        page.evaluate("window.samePage = true")
        page.click("text=Next ▶")
        expect(page.locator("#step-number")).to_have_text("1")
        page.keyboard.press("ArrowRight")
        expect(page.locator("#step-number")).to_have_text("2")
        page.keyboard.press("ArrowLeft")
        expect(page.locator("#step-number")).to_have_text("1")
        assert page.url.endswith("?step=1") and page.evaluate("window.samePage") is True
        page.click("[data-go=play]")
        expect(page.locator("[data-go=play]")).to_have_text("⏸ Pause")

        # A running league's page fetches its live part again (every 2 s).
        with page.expect_request(f"{live_server.url}/bots/{running.pk}/live/", timeout=60_000):
            page.goto(f"{live_server.url}/bots/{running.pk}/")

        # A running tournament's page fetches its live standings again (every TOURNAMENT_LIVE_SECONDS).
        tournament = f"{live_server.url}/tournaments/{swiss.slug}/"
        with page.expect_request(f"{tournament}?fragment=live", timeout=60_000):
            page.goto(tournament)

        # The print buttons print (window.print is counted by the init script).
        for view in ("print", "slips"):
            path = f"/tournaments/{swiss.slug}/rounds/1/{view}/"
            page.goto(live_server.url + path)
            page.click("button:text('Print')")
            assert page.evaluate("window.printed") == 1, path
        assert refused == []

        page = desk.new_page()
        refused = _refusals(page)
        # The embed code is selected whole when it gets the focus.
        page.goto(f"{live_server.url}/tournaments/{swiss.slug}/")
        page.click("#room-links summary")  # opens the embed code
        page.focus("input.embed-code")
        code = page.input_value("input.embed-code")
        assert code.startswith("<iframe src=")
        assert page.evaluate("window.getSelection().toString()") == code

        # The new league form offers the bots of the chosen game only.
        page.goto(f"{live_server.url}/bots/new/")
        for game in ("chicken_foot", "nacho_pile"):
            page.select_option("#id_game", game)
            shown = sorted(page.eval_on_selector_all("input[name=bots]", SHOWN))
            of_game = BotDefinition.objects.filter(game_id=game).values_list("pk", flat=True)
            assert shown == sorted(of_game), game

        # The check-in desk asks the server for the matching rows as one types and checks in without a
        # page load.
        page.goto(f"{live_server.url}/tournaments/{open_day.slug}/check-in/")
        page.evaluate("window.samePage = true")
        registrations = Registration.objects.filter(tournament=open_day, status="active")
        waiting = registrations.filter(checked_in_at__isnull=True).order_by("player__name")[0].player.name
        page.fill("#search", waiting.lower()[:3])  # "dmi" of Dmitri's: no other name of the demo holds it
        rows = "#desk tbody tr[data-name]"
        expect(page.locator(rows)).to_have_count(1)
        shown = page.eval_on_selector_all(rows, "all => all.map(r => r.dataset.name)")
        assert (waiting, shown) == ("Dmitri", ["Dmitri"])
        checked = int(page.inner_text("[data-count=registered_checked_in]"))
        row = page.locator('#desk tbody tr[data-name="Dmitri"]')
        row.locator("button:text('Check in')").click()
        expect(page.locator("[data-count=registered_checked_in]")).to_have_text(str(checked + 1))
        expect(row.locator("button")).to_have_text("Undo")
        assert page.evaluate("window.samePage") is True
        assert refused == []

        page = author.new_page()
        refused = _refusals(page)
        # The new challenge form offers the opponents of the chosen bot's game, never the bot itself.
        page.goto(f"{live_server.url}/bots/challenges/new/")
        latest = BotDefinition.objects.filter(next_versions__isnull=True)
        bot = latest.filter(created_by__username="author").order_by("pk")[0]
        page.select_option("#id_bot", str(bot.pk))
        shown = sorted(page.eval_on_selector_all("input[name=opponents]", SHOWN))
        others = latest.filter(game_id=bot.game_id).exclude(pk=bot.pk)
        assert shown == sorted(others.values_list("pk", flat=True))
        assert refused == []
    finally:
        for context in (visitor, desk, author):
            context.close()
