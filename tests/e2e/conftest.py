"""Browser fixtures: Playwright drives Debian's Chromium (never a browser Playwright downloads)."""

import os

import pytest

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--headless", "--disable-gpu", "--disable-background-networking"]


@pytest.fixture(scope="module")
def browser():
    """Chromium for one module's tests; closed afterwards so that its threads do not outlive the module."""
    from playwright.sync_api import expect, sync_playwright

    # A loaded machine's live server can take seconds to answer:
    # expect() retries for up to a minute (not 5 s).
    expect.set_options(timeout=60_000)
    # Playwright's sync API runs an event loop in this thread; the test's own ORM calls are still synchronous.
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    with sync_playwright() as playwright:
        # Chromium can take more than Playwright's default 30 s to start on a loaded machine.
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, timeout=120_000)
        yield chromium
        chromium.close()


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    page.set_default_timeout(60_000)  # actions and waits, on a loaded machine's live server
    yield page
    context.close()


@pytest.fixture(autouse=True)
def no_stored_pages():
    """Every browser test starts with an empty cache: the shared renderings of the event pages
    (league.web.tournaments.shared) are keyed by the tournament's id and version, which a flushed database
    hands out again."""
    from django.core.cache import cache

    from league.tournaments.pages import _PATHS

    cache.clear()
    _PATHS.clear()
