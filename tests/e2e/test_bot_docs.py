"""The bot authors' docs in a browser, as an anonymous visitor: every page passes the axe check on a phone
and a laptop, light and dark, fits a phone with no console error or failed request, and a kit downloads from
its game's page."""

import io
import os
import zipfile
from pathlib import Path

import pytest
from axe_playwright_python.sync_playwright import Axe

from tests.e2e.test_accessibility import SCREENS, _violations, _watched

PAGES = [
    "/bots/docs/",
    "/bots/docs/protocol/",
    "/bots/docs/limits/",
    "/bots/docs/local/",
    "/bots/docs/games/nacho_pile/",
    "/bots/docs/games/nobody_but_us_chickens/",
    "/bots/docs/games/chicken_foot/",
    "/bots/docs/games/chickie_nuggs/",
]
SHOTS = os.environ.get("BOT_DOCS_SHOTS")  # a folder: each page's screenshot is saved there too


def _shots(page, stem: Path) -> None:
    """The whole page, and the page in parts a reader can look at one by one."""
    page.screenshot(path=f"{stem}.png", full_page=True)
    width, height = page.evaluate(
        "[document.documentElement.scrollWidth, document.documentElement.scrollHeight]"
    )
    for part, top in enumerate(range(0, height, 1400)):
        clip = {"x": 0, "y": top, "width": width, "height": min(1400, height - top)}
        page.screenshot(path=f"{stem}-part{part + 1}.png", full_page=True, clip=clip)


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("screen", list(SCREENS))
def test_the_docs_pass_the_axe_check_and_fit_the_screen(live_server, browser, screen):
    context = browser.new_context(viewport=SCREENS[screen])
    axe, report = Axe(), []
    try:
        for path in PAGES:
            page = context.new_page()
            page.set_default_timeout(60_000)
            problems = _watched(page)
            response = page.goto(live_server.url + path, wait_until="networkidle")
            assert response.status == 200, path
            width = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
            if width[0] > width[1]:
                problems.append(f"page {width[0]} px wide on a {width[1]} px screen")
            for scheme in ("light", "dark"):
                page.emulate_media(color_scheme=scheme)
                report += [f"{path} ({scheme}): {line}" for line in _violations(axe, page)]
            if SHOTS:
                name = path.strip("/").replace("/", "-")
                page.emulate_media(color_scheme="light")
                _shots(page, Path(SHOTS) / f"{name}-{SCREENS[screen]['width']}")
            report += [f"{path}: {problem}" for problem in problems]
            page.close()
    finally:
        context.close()
    assert not report, "\n".join(report)


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_visitor_downloads_a_kit_from_its_games_reference(live_server, page):
    page.goto(live_server.url + "/bots/docs/")
    page.get_by_role("navigation", name="Bot docs").get_by_role("link", name="Chicken Foot").click()
    page.get_by_role("heading", name="Chicken Foot: the bot reference").wait_for()
    with page.expect_download() as download:
        page.get_by_role("link", name="Python kit").click()
    assert download.value.suggested_filename == "chicken_foot-python-kit.zip"
    archive = zipfile.ZipFile(io.BytesIO(Path(download.value.path()).read_bytes()))
    assert sorted(archive.namelist()) == ["README.md", "bot.py", "bot.toml"]
