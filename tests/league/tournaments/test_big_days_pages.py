"""The pages of drafts that warn and big days: the draft's warnings and its cards' points and repeat marks
(server-rendered after each move), the event's days with who qualified, and the organizers' switch for
starting rounds by themselves (issue 48)."""

import pytest

from league.players.models import Player
from league.tournaments import services
from league.tournaments.models import Tournament
from tests.factories.tournaments import better_seed_wins, make_tournament, play_round

pytestmark = pytest.mark.django_db


def seat(round_row, *tables):
    for row, names in zip(round_row.tables.order_by("number"), tables, strict=True):
        row.planned_seats = [Player.objects.get(name=name).pk for name in names]
        row.save(update_fields=["planned_seats"])


@pytest.fixture
def repeated(organizer):
    """Round 1 played (Ada beat Bea, Cal beat Dov); round 2 drafted with both pairs again."""
    tournament, _ = make_tournament(organizer, 4, table_size=2, rounds=3)
    first = services.round_generate(tournament=tournament, by=organizer)
    seat(first, ["Ada", "Bea"], ["Cal", "Dov"])
    services.round_publish(round_row=first, by=organizer)
    for table in first.tables.all():
        services.table_result(table=table, by=organizer, expected_version=0, places=[1, 2])
    services.round_complete(round_row=first, by=organizer)
    second = services.round_generate(tournament=tournament, by=organizer)
    seat(second, ["Ada", "Bea"], ["Cal", "Dov"])
    return tournament


def test_the_draft_page_lists_its_warnings_and_marks_the_cards(client, organizer, repeated):
    client.force_login(organizer)
    html = client.get("/tournaments/spring-open/rounds/2/").content.decode()
    assert "Check before publishing: 2 warnings" in html
    assert (
        "Table 1: <bdi>Ada</bdi> and <bdi>Bea</bdi> meet again (they met in round 1); avoidable: another "
        "arrangement keeps them apart with fewer repeats." in html
    )
    ada = Player.objects.get(name="Ada").pk
    assert f'<option value="{ada}">\u2068Ada\u2069 · 1 pt</option>' in html  # the move form, name isolated
    card = html.split('id="table-1"')[1].split("</section>")[0]
    assert (
        '<li><bdi>Ada</bdi> <span class="before">1 pt</span> <span class="badge repeat">met before</span>'
        in card
    )
    assert (
        '<li><bdi>Bea</bdi> <span class="before">0 pt</span> <span class="badge repeat">met before</span>'
        in card
    )


def test_a_move_without_javascript_recomputes_the_warnings_and_the_quality(client, organizer, repeated):
    client.force_login(organizer)
    swapped = client.post(
        "/tournaments/spring-open/rounds/2/swap/",
        {"first_table": 1, "first_seat": 2, "second_table": 2, "second_seat": 2},
        follow=True,
    )
    html = swapped.content.decode()
    assert "Seats swapped." in html
    assert (
        "No warnings: no repeat, short table again, seat streak or player far from their score group." in html
    )
    assert "met before" not in html
    assert "<dt>Repeat pairings</dt><dd>0</dd>" in html


def test_visitors_see_no_draft_and_no_warnings(client, repeated):
    assert client.get("/tournaments/spring-open/rounds/2/").status_code == 404


def test_the_event_page_shows_its_days_and_who_qualified(client, organizer):
    tournament, _ = make_tournament(organizer, 8, table_size=2, rounds=4, day2_after_round=2, day2_points=2)
    html = client.get("/tournaments/spring-open/").content.decode()
    assert "<strong>Day 1</strong>: Swiss, rounds 1 to 2, for everyone." in html
    assert (
        "<strong>Day 2</strong>: Swiss, rounds 3 to 4, for the players with at least 2 points after round 2."
        in html
    )
    assert "qualified" not in html.split('id="days"')[1].split("</section>")[0]
    play_round(tournament, organizer, better_seed_wins(tournament))
    play_round(tournament, organizer, better_seed_wins(tournament))
    html = client.get("/tournaments/spring-open/").content.decode()
    assert '<span id="day-2-qualified">2 qualified: <bdi>Ada</bdi> (2), <bdi>Bea</bdi> (2).</span>' in html


def test_organizers_switch_rounds_starting_by_themselves_on_and_off(client, organizer):
    tournament, _ = make_tournament(organizer, 4, table_size=2, rounds=3)
    client.force_login(organizer)
    page = client.get("/tournaments/spring-open/").content.decode()
    assert "Start each next round as soon as every table is in" in page
    on = client.post("/tournaments/spring-open/auto-next/", {"on": "yes"}, follow=True).content.decode()
    assert "Each next round now starts as soon as every table is in" in on
    assert "Stop starting rounds by themselves" in on
    assert Tournament.objects.get(pk=tournament.pk).auto_next_round is True
    client.post("/tournaments/spring-open/auto-next/", {"on": "no"})
    assert Tournament.objects.get(pk=tournament.pk).auto_next_round is False


def test_strangers_cannot_switch_it(client, stranger, organizer):
    tournament, _ = make_tournament(organizer, 4, table_size=2, rounds=3)
    client.force_login(stranger)
    assert client.post("/tournaments/spring-open/auto-next/", {"on": "yes"}).status_code == 403
    assert Tournament.objects.get(pk=tournament.pk).auto_next_round is False


def test_the_create_page_sets_a_day_two_and_rounds_that_start_by_themselves(client, organizer):
    client.force_login(organizer)
    form = client.get("/tournaments/new/").content.decode()
    assert 'name="day2_after_round"' in form and 'name="day2_points"' in form
    assert 'name="auto_next_round"' in form
    created = client.post(
        "/tournaments/new/",
        {
            "name": "Two Days",
            "game_id": "nacho_pile",
            "format": "swiss",
            "table_size": 2,
            "leftovers": "short",
            "rounds": 6,
            "day2_after_round": 4,
            "day2_points": "7.5",
            "auto_next_round": "on",
            "rated": "on",
        },
    )
    assert created.status_code == 302, created.content.decode()[:2000]
    tournament = Tournament.objects.get(name="Two Days")
    assert (tournament.day2_after_round, tournament.day2_points, tournament.auto_next_round) == (4, 7.5, True)
