"""The local runner's replay file opens offline in a browser and steps through the match like the site's."""

from __future__ import annotations

import pytest

from games.core.runner import play_match
from games.viewer.page import replay_page
from tests.e2e.conftest import CHROMIUM, CHROMIUM_ARGS


@pytest.mark.browser
def test_the_replay_file_steps_through_the_match_with_no_network(tmp_path):
    from playwright.sync_api import sync_playwright

    record = play_match("nacho_pile", 2, ["random", "heuristic"], 5)
    path = tmp_path / "replay.html"
    path.write_text(replay_page(record, ["Ada", "Bob"]))
    total = len(record["events"])
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, timeout=120_000)
        page = chromium.new_page()
        page.set_default_timeout(60_000)
        requests: list[str] = []
        page.on("request", lambda request: requests.append(request.url))
        page.goto(path.as_uri())
        assert page.text_content("#step-number") == "0"
        assert page.text_content("#caption") == "The table before the first move"
        page.click("[data-go='1']")
        assert page.text_content("#step-number") == "1"
        assert page.text_content("#caption").startswith("draws ")  # Nacho Pile opens with a chip drawn
        page.keyboard.press("ArrowRight")
        assert page.text_content("#step-number") == "2"
        page.click(f"[data-go='{total}']")
        assert page.text_content("#step-number") == str(total)
        chromium.close()
    assert requests == [path.as_uri()]  # the file alone: no script, style or frame fetched
