"""Right-to-left names keep to their place: every page, print view, slip and the projector puts a name people
typed in <bdi>, the drawn bracket and mails hold it between Unicode isolates (U+2068 … U+2069), and CSV
exports and API answers carry the bare name."""

from __future__ import annotations

import csv
import io
import re

import pytest
from django.core import mail
from django.test import Client
from rest_framework.test import APIClient

from league.core.bidi import isolates_as_bdi
from league.notifications import services as notification_services
from league.notifications.models import Kind, Notification
from league.players.models import Player
from league.players.services import player_update
from league.results.models import ResultReport
from league.tournaments import services
from tests.factories import tournaments as helpers
from tests.league.tournaments.test_self_report import with_accounts

MUHAMMAD = "محمد"
FATIMA = "فاطمة"


def csrf_post(client: Client, page: str, url: str, data: dict):
    """POST a form as a browser does, with the token of the cookie the page set."""
    client.get(page)
    return client.post(url, {**data, "csrfmiddlewaretoken": client.cookies["csrftoken"].value})


@pytest.fixture
def event(organizer):
    """A self-report Swiss of 4 at one table of 4 where Ada is محمد and Bea is فاطمة, each with an account;
    round 1 published."""
    tournament, players = helpers.make_tournament(organizer, 4, table_size=4, result_reporting="self_report")
    users = with_accounts(players)
    player_update(player=Player.objects.get(name="Ada"), name=MUHAMMAD)
    player_update(player=Player.objects.get(name="Bea"), name=FATIMA)
    round_row = services.round_generate(tournament=tournament, by=organizer)
    services.round_publish(round_row=round_row, by=organizer)
    table = round_row.tables.get()
    seats = list(table.match.seats.order_by("seat").values_list("player__name", flat=True))
    return tournament, users, seats


def places(seats: list[str], order: list[str], prefix: str = "") -> dict[str, int]:
    return {f"{prefix}place_{seat}": order.index(name) + 1 for seat, name in enumerate(seats)}


def test_the_round_page_print_views_slips_and_projector_isolate_each_name(client, event):
    tournament, _, _ = event
    base = f"/tournaments/{tournament.slug}"
    round_page = client.get(f"{base}/rounds/1/").content.decode()
    assert f"<li><bdi>{MUHAMMAD}</bdi></li>" in round_page
    assert f"<li><bdi>{FATIMA}</bdi></li>" in round_page
    printed = client.get(f"{base}/rounds/1/print/").content.decode()
    assert f"<td><bdi>{MUHAMMAD}</bdi></td>" in printed
    assert f'<span class="who"><bdi>{FATIMA}</bdi></span>' in printed
    slips = client.get(f"{base}/rounds/1/slips/").content.decode()
    assert f'<td class="slip-name"><bdi>{MUHAMMAD}</bdi></td>' in slips
    projector = client.get(f"{base}/projector/").content.decode()
    assert f'<span class="pj-name"><bdi>{MUHAMMAD}</bdi></span>' in projector
    find = client.get(f"{base}/rounds/1/find/", {"q": FATIMA}).content.decode()
    assert f"<td><bdi>{FATIMA}</bdi></td>" in find


def test_a_report_and_a_dispute_isolate_the_names_in_their_claims(event, organizer):
    tournament, users, seats = event
    base = f"/tournaments/{tournament.slug}/rounds/1/tables/1/"
    reporter = Client(enforce_csrf_checks=True)
    reporter.force_login(users["Ada"])
    order = [MUHAMMAD, FATIMA, "Cal", "Dov"]
    reported = csrf_post(reporter, base, base + "report/", {"expected_version": 0, **places(seats, order)})
    assert reported.status_code == 302
    page = reporter.get(base).content.decode()
    assert (
        f"<strong><bdi>{MUHAMMAD}</bdi> reported:</strong> 1st <bdi>{MUHAMMAD}</bdi>, "
        f"2nd <bdi>{FATIMA}</bdi>, 3rd <bdi>Cal</bdi>, 4th <bdi>Dov</bdi>." in page
    )
    disputer = Client(enforce_csrf_checks=True)
    disputer.force_login(users["Bea"])
    claim = {
        "report": ResultReport.objects.get().pk,
        "claim-expected_version": 0,
        **places(seats, [FATIMA, MUHAMMAD, "Cal", "Dov"], "claim-"),
        "note": "",
    }
    assert csrf_post(disputer, base, base + "dispute/", claim).status_code == 302
    judge = Client()
    judge.force_login(organizer)
    round_page = judge.get(f"/tournaments/{tournament.slug}/rounds/1/").content.decode()
    assert (
        f"<dt><bdi>{FATIMA}</bdi> claims</dt><dd>1st <bdi>{FATIMA}</bdi>, 2nd <bdi>{MUHAMMAD}</bdi>, "
        "3rd <bdi>Cal</bdi>, 4th <bdi>Dov</bdi>" in round_page
    )
    table_page = judge.get(base).content.decode()
    assert f"<strong>Disputed.</strong> <bdi>{FATIMA}</bdi> disputes" in table_page


def test_standings_isolate_names_and_the_csv_and_api_carry_them_bare(client, event, organizer):
    tournament, _, seats = event
    table = tournament.round_set.get(number=1).tables.get()
    order = [MUHAMMAD, FATIMA, "Cal", "Dov"]
    services.table_result(
        table=table, by=organizer, places=[order.index(name) + 1 for name in seats], expected_version=0
    )
    page = client.get(f"/tournaments/{tournament.slug}/").content.decode()
    assert re.search(rf'<td class="name"><a href="[^"]+"><bdi>{MUHAMMAD}</bdi></a></td>', page)
    exported = client.get(f"/tournaments/{tournament.slug}/standings.csv").content.decode()
    rows = list(csv.reader(io.StringIO(exported)))
    assert [row[1] for row in rows[1:3]] == [MUHAMMAD, FATIMA]
    assert "\u2068" not in exported and "<bdi>" not in exported
    api = APIClient().get(f"/api/tournaments/{tournament.pk}/standings/").json()
    assert [row["name"] for row in api[:2]] == [MUHAMMAD, FATIMA]


def test_the_drawn_bracket_isolates_names_between_unicode_isolates(client, organizer):
    tournament, _ = helpers.make_tournament(organizer, 4, format="single_elimination", table_size=2)
    Player.objects.filter(name="Ada").update(name=MUHAMMAD)
    services.round_publish(
        round_row=services.round_generate(tournament=tournament, by=organizer), by=organizer
    )
    page = client.get(f"/tournaments/{tournament.slug}/").content.decode()
    assert f"\u2068{MUHAMMAD}\u2069</text>" in page
    bracket = APIClient().get(f"/api/tournaments/{tournament.pk}/bracket/").content.decode()
    assert MUHAMMAD in bracket and "\u2068" not in bracket


def test_a_mail_isolates_the_name_the_inbox_shows_it_in_bdi_and_the_api_bare(organizer, settings):
    settings.SITE_URL = "http://127.0.0.1:8001"
    tournament, players = helpers.make_tournament(organizer, 4, table_size=4, name="Spring Open")
    users = with_accounts(players)
    tournament.name = "بطولة الربيع"
    tournament.save(update_fields=["name"])
    round_row = services.round_generate(tournament=tournament, by=organizer)
    services.round_publish(round_row=round_row, by=organizer)
    Notification.objects.all().delete()
    users["Ada"].email = "ada@example.com"
    users["Ada"].save(update_fields=["email"])
    notification_services.notify_table_ready(
        tournament_id=tournament.pk, table_ids=[round_row.tables.get().pk]
    )
    note = Notification.objects.get(user=users["Ada"], kind=Kind.TABLE_READY)
    mail.outbox.clear()
    assert notification_services.notification_mail(notification_id=note.pk)
    (message,) = mail.outbox
    text = "Your table is ready in \u2068بطولة الربيع\u2069: round 1, table 1."
    assert message.body.startswith(f"{text}\n\nhttp://127.0.0.1:8001/tournaments/{tournament.slug}/rounds/1/")
    reader = Client()
    reader.force_login(users["Ada"])
    inbox = reader.get("/notifications/").content.decode()
    assert "Your table is ready in <bdi>بطولة الربيع</bdi>: round 1, table 1." in inbox
    api = APIClient()
    api.force_authenticate(users["Ada"])
    (note,) = api.get("/api/notifications/").json()["results"]
    assert note["text"] == "Your table is ready in بطولة الربيع: round 1, table 1."


def test_an_isolated_text_on_a_page_is_escaped_and_closes_what_it_opened():
    assert isolates_as_bdi("\u2068<b>\u2069 and \u2068cut") == "<bdi>&lt;b&gt;</bdi> and <bdi>cut</bdi>"
    assert isolates_as_bdi("stray\u2069 end") == "stray end"


def test_the_organizer_log_isolates_the_names_in_its_sentences(event, organizer):
    tournament, _, _ = event
    services.registration_leave(
        tournament=tournament, by=organizer, player_id=Player.objects.get(name=MUHAMMAD).pk, status="dropped"
    )
    judge = Client()
    judge.force_login(organizer)
    page = judge.get(f"/tournaments/{tournament.slug}/log/").content.decode()
    assert f"<td>Dropped <bdi>{MUHAMMAD}</bdi> after round 1</td>" in page
