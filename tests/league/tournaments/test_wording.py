"""Texts an organizer reads on an event day: counts in the right number, formats in words, a pairing's quality
grid that keeps a wrapped label beside its value."""

from __future__ import annotations

import pytest
from django.contrib.staticfiles import finders

from league.core.words import counted
from league.tournaments import services
from league.tournaments.log import describe
from league.tournaments.models import AuditEntry


@pytest.mark.parametrize(
    ("rounds", "cut_format", "words"),
    [
        (1, "single_elimination", "(1 round of Swiss, top 8 to single elimination)"),
        (3, "double_elimination", "(3 rounds of Swiss, top 8 to double elimination)"),
    ],
)
def test_the_stages_line_says_its_rounds_and_cut_in_words(
    client, make_tournament, organizer, rounds, cut_format, words
):
    tournament, _ = make_tournament(
        0, start=False, format="stages", table_size=2, rounds=rounds, cut_size=8, cut_format=cut_format
    )
    client.force_login(organizer)  # a draft: its organizers see it
    page = client.get(f"/tournaments/{tournament.slug}/").content.decode()
    assert words in page
    assert "singleelimination" not in page and "doubleelimination" not in page


def test_the_log_counts_one_table_and_one_player_in_the_singular(make_tournament, organizer):
    tournament, _ = make_tournament(2, table_size=2)
    round_row = services.round_generate(tournament=tournament, by=organizer)
    services.round_publish(round_row=round_row, by=organizer)
    texts = [
        describe(entry, tournament.time_zone) for entry in AuditEntry.objects.filter(tournament=tournament)
    ]
    assert "Generated round 1 as a draft (1 table)" in texts
    assert "Published round 1 (1 table)" in texts
    assert "Started the tournament with 2 players" in texts


def test_counted_words():
    assert [counted(0, "table"), counted(1, "table"), counted(5, "table")] == [
        "0 tables",
        "1 table",
        "5 tables",
    ]
    assert counted(2, "match", "matches") == "2 matches"


def test_the_quality_grid_keeps_a_wrapped_label_beside_its_value():
    with open(finders.find("tournaments/tournaments.css"), encoding="utf-8") as handle:
        css = handle.read()
    assert ".quality { display: grid; grid-template-columns: minmax(7rem, 11rem) minmax(0, 1fr);" in css
    assert "float: left" not in css[css.index(".quality") : css.index(".quality dd")]
