"""The rating-history charts: dated axes, a readable value per point, a legend naming each line."""

import re
from datetime import UTC, datetime, timedelta
from unittest import mock

import pytest
from django.urls import reverse

from league.bots.models import BotDefinition
from league.ratings.charts import MAX_POINTS, Series, history_chart
from tests.league.bots.conftest import make_bots
from tests.league.bots.test_pages import played_league

DAY = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)


def test_a_chart_over_days_has_date_ticks_rating_ticks_and_a_title_per_point():
    dates = [DAY + timedelta(days=k) for k in range(9)]
    chart = history_chart([Series("Nacho Pile", [10 + k for k in range(9)], dates)])

    assert [label for label, _ in chart.x_ticks] == ["1 Mar", "3 Mar", "5 Mar", "7 Mar", "9 Mar"]
    assert [label for label, _ in chart.y_ticks] == ["10", "12", "14", "16", "18"]
    assert [x for _, x in chart.x_ticks] == [46, 181.5, 317, 452.5, 588]
    titles = [dot.title for dot in chart.lines[0].dots]
    assert (
        titles[0] == "Nacho Pile: 10.0 on 2026-03-01 12:00"
        and titles[-1] == "Nacho Pile: 18.0 on 2026-03-09 12:00"
    )
    assert len(titles) == 9


def test_a_chart_within_a_day_labels_times_and_one_over_years_labels_months():
    minutes = [DAY + timedelta(minutes=15 * k) for k in range(5)]
    assert [t for t, _ in history_chart([Series("A", [1, 2, 3, 4, 5], minutes)]).x_ticks] == [
        "12:00",
        "12:15",
        "12:30",
        "12:45",
        "13:00",
    ]
    years = [DAY, DAY + timedelta(days=730)]
    assert [t for t, _ in history_chart([Series("A", [1, 2], years)]).x_ticks] == [
        "Mar 2026",
        "Aug 2026",
        "Mar 2027",
        "Aug 2027",
        "Feb 2028",
    ]


def test_a_long_history_is_thinned_keeping_its_last_point():
    dates = [DAY + timedelta(hours=k) for k in range(1000)]
    chart = history_chart([Series("A", [k / 10 for k in range(1000)], dates)])

    line = chart.lines[0]
    assert len(line.points.split()) <= MAX_POINTS + 1 and line.dots[-1].title == "A: 99.9 on 2026-04-12 03:00"
    assert line.last == 99.9


def test_the_player_page_draws_dated_axes_point_titles_legend_and_a_table(client, league):
    page = client.get("/players/ann/").content.decode()

    assert re.search(r'<text class="x-tick"[^>]*>\d\d:\d\d:\d\d</text>', page)  # matches within seconds
    assert '<text class="y-tick"' in page
    titles = re.findall(r"<g class=\"pt\"><title>([^<]+)</title>", page)
    # each point is titled with its own match's time (the factory's times may straddle midnight)
    times = sorted(f"{match.played_at:%Y-%m-%d %H:%M}" for match in league)
    assert sorted(title.rsplit(" on ", 1)[1] for title in titles) == times
    assert {title.split(":")[0] for title in titles} == {"Nacho Pile", "Chicken Foot"}
    legend = page[page.index('<figcaption class="legend">') : page.index("</figcaption>")]
    assert "Nacho Pile (now " in legend and "Chicken Foot (now " in legend
    assert page.count("<tr><td>Nacho Pile</td><td>") == 2 and page.count("<tr><td>Chicken Foot</td><td>") == 1


@pytest.mark.django_db
def test_a_bots_chart_names_each_league_not_the_game(client, staff):
    bots = make_bots(staff)
    with mock.patch("league.bots.services.leagues.queue_work"):
        played_league(staff, bots, name="Spring")
        played_league(staff, bots, name="Autumn")
    bot = BotDefinition.objects.select_related("player").get(name="Careful")

    page = client.get(reverse("players:detail", args=[bot.player.slug])).content.decode()

    legend = page[page.index('<figcaption class="legend">') : page.index("</figcaption>")]
    assert "Bot league: Spring (now " in legend and "Bot league: Autumn (now " in legend
    assert "Nacho Pile" not in legend


@pytest.mark.django_db
def test_the_league_chart_has_a_line_and_titled_points_per_bot(client, staff):
    with mock.patch("league.bots.services.leagues.queue_work"):
        league = played_league(staff, make_bots(staff))

    page = client.get(reverse("bots:league-live", args=[league.pk])).content.decode()

    legend = page[page.index('<figcaption class="legend">') : page.index("</figcaption>")]
    for name in ("Random", "Careful", "Balanced", "Daring", "Reckless", "Timid"):
        assert f"{name} (now " in legend
        assert re.search(rf"<title>{name}: -?\d+\.\d on \d{{4}}-\d\d-\d\d \d\d:\d\d</title>", page)
    assert page.count("<polyline") == 6 and '<text class="x-tick"' in page


def test_a_chart_by_match_spreads_matches_evenly_and_labels_distinct_times_of_the_longest_line():
    same_second = [DAY] * 6 + [DAY + timedelta(seconds=30)] * 6
    chart = history_chart(
        [Series("A", list(range(12)), same_second), Series("B", list(range(6)), same_second[:6])],
        by_time=False,
    )

    assert chart.x_ticks == [("12:00:00", 46), ("12:00:30", 341.6)]
    assert [dot.x for dot in chart.lines[1].dots] == [46, 95.3, 144.5, 193.8, 243.1, 292.4]
    assert chart.lines[0].dots[-1].tip == "11.0 · 2026-03-01 12:00"


def test_a_chart_by_time_of_matches_stored_at_the_same_second_spreads_them_by_match():
    chart = history_chart(
        [Series("Bot league: Spring", [1, 2, 3, 4], [DAY, DAY, DAY, DAY + timedelta(seconds=1)])]
    )

    assert [dot.x for dot in chart.lines[0].dots] == [46, 226.7, 407.3, 588]
    assert chart.x_ticks == [("12:00:00", 46), ("12:00:01", 588)]
