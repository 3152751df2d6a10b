"""What a phone shows: the tournaments list has a date (in the event's zone) and keeps to the columns a
390 px screen holds; the standings explain their short column titles in visible text."""

import re

from league.tournaments import services
from tests.factories.tournaments import open_signup


def test_the_tournaments_list_shows_the_date_in_the_events_zone(client, organizer):
    open_signup(
        organizer, name="Late Night", schedule={"time_zone": "Asia/Tokyo", "starts_at": "2026-12-06 01:30"}
    )
    open_signup(organizer, name="No Date")
    page = client.get("/tournaments/").content.decode()
    late = page.split("><bdi>Late Night</bdi></a>", 1)[1].split("</tr>", 1)[0]
    assert '<td class="when"><time datetime="2026-12-06">Sun 6 Dec 2026</time></td>' in late
    undated = page.split("><bdi>No Date</bdi></a>", 1)[1].split("</tr>", 1)[0]
    assert '<span class="muted">not set</span>' in undated
    head = page.split("<thead>", 1)[1].split("</thead>", 1)[0]
    shown_on_phones = [
        title
        for cls, title in re.findall(r'<th( class="[^"]*")?>([^<]+)</th>', head)
        if "wide-only" not in cls
    ]
    assert shown_on_phones == ["Tournament", "Date", "Status"]
    assert '<span class="narrow-only muted"><br>Nacho Pile · 0 players</span>' in late


def test_the_standings_explain_their_column_titles_in_visible_text(client, make_tournament, play_round):
    tournament, _ = make_tournament(4)
    play_round(tournament)
    page = client.get(tournament.get_absolute_url()).content.decode()
    legend = page.split('<dl class="legend" id="standings-legend">', 1)[1].split("</dl>", 1)[0]
    pairs = re.findall(r"<dt><abbr title=\"[^\"]*\">([^<]+)</abbr></dt><dd>([^<]+)</dd>", legend)
    assert ("Opp. pts", "Opponents&#x27; points: the total points of everyone met") in pairs
    assert ("H2H", "Head to head among the players tied so far") in pairs
    assert ("Pl", "tables played") in pairs
    assert '<th class="num"><abbr title="Tables played">Pl</abbr></th>' in page


def test_find_my_table_is_near_the_top_of_a_running_event(client, make_tournament, organizer):
    tournament, _ = make_tournament(8)
    round_row = services.round_generate(tournament=tournament, by=organizer)
    services.round_publish(round_row=round_row, by=organizer)
    page = client.get(tournament.get_absolute_url()).content.decode()
    link = (
        f'<a class="button" href="/tournaments/{tournament.slug}/rounds/1/find/">Find my table in round 1</a>'
    )
    assert link in page
    assert page.index(link) < page.index('id="standings"') and page.index(link) < page.index('id="players"')


def test_the_chance_of_first_is_labelled_and_shown_to_those_running_the_event(
    client, make_tournament, organizer, django_capture_on_commit_callbacks
):
    tournament, _ = make_tournament(4, rated=True)
    with django_capture_on_commit_callbacks(execute=True):
        round_row = services.round_generate(tournament=tournament, by=organizer)
        services.round_publish(round_row=round_row, by=organizer)
    url = f"/tournaments/{tournament.slug}/rounds/1/"
    visitor = client.get(url).content.decode()
    assert 'class="chance"' not in visitor
    client.force_login(organizer)
    chances = re.findall(
        r'<span class="chance" title="expected place [0-9.]+">([^<]+)</span>',
        client.get(url).content.decode(),
    )
    assert chances == ["chance of 1st 25%"] * 4
