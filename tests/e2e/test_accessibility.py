"""axe-core (the axe-playwright-python package) over a page of every type, a visitor's and the organizer's,
player's and bot author's main pages, on a phone and a laptop, light and dark: no serious or critical
violation. And on a phone, every page fits the screen with no console error and no failed request."""

import pytest
from axe_playwright_python.sync_playwright import Axe

from tests.e2e.site_pages import build_site, session_cookie

SCREENS = {"phone": {"width": 390, "height": 844}, "laptop": {"width": 1366, "height": 900}}
GRAVE = {"serious", "critical"}


def _contexts(browser, base_url: str, visits, **options) -> dict:
    """A browser context per person who looks (None: a visitor), signed in by cookie."""
    contexts = {}
    for user in {visit.user for visit in visits}:
        context = browser.new_context(**options)
        if user is not None:
            context.add_cookies([session_cookie(user, base_url)])
        contexts[user] = context
    return contexts


def _violations(axe: Axe, page) -> list[str]:
    found = axe.run(page).response["violations"]
    return [
        f"{v['id']} ({v['impact']}): {v['help']}\n"
        + "\n".join(f"      {node['target']} {node['html'][:160]}" for node in v["nodes"][:6])
        for v in found
        if v["impact"] in GRAVE
    ]


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("screen", list(SCREENS))
def test_no_page_has_a_serious_accessibility_violation_in_light_or_dark(live_server, browser, screen):
    """Each page is loaded once and checked in the light scheme, then again after switching to the dark."""
    visits = build_site()
    contexts = _contexts(browser, live_server.url, visits, viewport=SCREENS[screen])
    axe, report = Axe(), []
    try:
        for visit in visits:
            page = contexts[visit.user].new_page()
            page.set_default_timeout(60_000)
            response = page.goto(live_server.url + visit.path, wait_until="load")
            assert response.status == 200, f"{visit.name} {visit.path}: {response.status}"
            for scheme in ("light", "dark"):
                page.emulate_media(color_scheme=scheme)
                report += [f"{visit.name} {visit.path} ({scheme}): {line}" for line in _violations(axe, page)]
            page.close()
    finally:
        for context in contexts.values():
            context.close()
    assert not report, f"{len(report)} serious or critical violations on the {screen}:\n" + "\n".join(report)


def _watched(page) -> list[str]:
    """What goes wrong on `page` from now on: console errors, script errors, failed requests, 4xx and 5xx."""
    problems: list[str] = []
    page.on(
        "console", lambda message: message.type == "error" and problems.append(f"console: {message.text}")
    )
    page.on("pageerror", lambda error: problems.append(f"script error: {error}"))
    page.on("requestfailed", lambda request: problems.append(f"failed: {request.url} {request.failure}"))
    page.on(
        "response",
        lambda response: response.status >= 400 and problems.append(f"{response.status}: {response.url}"),
    )
    return problems


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_every_page_fits_a_phone_with_no_console_error_or_failed_request(live_server, browser):
    visits = build_site()
    contexts = _contexts(browser, live_server.url, visits, viewport=SCREENS["phone"])
    report = []
    try:
        for visit in visits:
            page = contexts[visit.user].new_page()
            page.set_default_timeout(60_000)
            problems = _watched(page)
            page.goto(live_server.url + visit.path, wait_until="networkidle")  # with its first late requests
            width = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
            if width[0] > width[1]:
                problems.append(f"page {width[0]} px wide on a {width[1]} px screen")
            report += [f"{visit.name} {visit.path}: {problem}" for problem in problems]
            page.close()
    finally:
        for context in contexts.values():
            context.close()
    assert not report, "\n".join(report)
