"""Reports and disputes on the pages: a reporter takes back a wrong report before it is confirmed; the
organizer's entry page shows a waiting report and a dispute's two claims, each accepted with one click; a
round is not drawn over an open dispute without the organizer confirming it."""

import re

import pytest

from league.core.bidi import isolated
from league.core.errors import Conflict
from league.matches.models import Match
from league.notifications.models import Notification
from league.results.models import ResultDispute, ResultReport, ResultVersion
from league.tournaments import services
from league.tournaments.models import AuditEntry
from tests.factories import tournaments as helpers
from tests.league.notifications.conftest import eager  # noqa: F401  # a fixture: tasks run at once
from tests.league.page_forms import posted
from tests.league.tournaments.test_self_report import with_accounts
from tests.league.tournaments.test_self_report_pages import places_data, post, signed_in, text


@pytest.fixture
def table(organizer):
    tournament, players = helpers.make_tournament(
        organizer, 3, table_size=3, result_reporting="self_report", game_id="nacho_pile", rounds=2
    )
    users = with_accounts(players)
    round_row = services.round_generate(tournament=tournament, by=organizer)
    services.round_publish(round_row=round_row, by=organizer)
    table = round_row.tables.get()
    names = list(table.match.seats.order_by("seat").values_list("player__name", flat=True))
    base = f"/tournaments/{tournament.slug}/rounds/1/tables/1/"
    return tournament, table, users, names, base


def test_the_reporter_takes_back_a_wrong_report_and_reports_again(table):
    tournament, table_row, users, names, base = table
    ada = signed_in(users["Ada"])
    post(ada, base + "report/", {"expected_version": 0, **places_data(names, ["Cal", "Ada", "Bea"])})
    bea = signed_in(users["Bea"])
    report = ResultReport.objects.get()
    assert post(bea, base + "confirm/", {"report": report.pk}).status_code == 302
    assert "Take back my report" not in text(bea.get(base)), "only the reporter takes it back"
    refused = post(bea, base + "withdraw/", {"report": report.pk})
    assert refused.status_code == 403
    assert "only the player who made this report takes it back; dispute it instead" in text(refused)
    assert "Take back my report" in text(ada.get(base))
    taken = post(ada, base + "withdraw/", {"report": report.pk})
    assert taken.status_code == 302
    page = text(ada.get(base))
    assert "Your report is taken back: report the result again once it is right." in page
    assert "Report the result" in page and "Waiting for" not in page
    report.refresh_from_db()
    assert report.status == "withdrawn"
    cal = signed_in(users["Cal"])
    late = post(cal, base + "confirm/", {"report": report.pk})
    assert late.status_code == 409
    assert "its reporter took this report back: it counts no more" in text(late)
    again = post(ada, base + "report/", {"expected_version": 0, **places_data(names, ["Ada", "Cal", "Bea"])})
    assert again.status_code == 302
    assert ResultReport.objects.filter(status="open").count() == 1
    assert Match.objects.get(pk=table_row.match_id).result_version == 0
    log = text(signed_in(tournament.created_by).get(f"/tournaments/{tournament.slug}/log/"))
    assert "Ada took back their report of round 1, table 1" in log
    assert AuditEntry.objects.filter(tournament=tournament, action="result.withdrawn").count() == 1


def test_a_stored_report_cannot_be_taken_back(table):
    tournament, table_row, users, names, base = table
    report = services.table_report(table=table_row, by=users["Ada"], expected_version=0, places=[1, 2, 3])
    for name in ("Bea", "Cal"):
        if users[name].player.pk in report.awaiting:
            services.table_confirm(table=table_row, by=users[name], report_id=report.pk)
    with pytest.raises(Conflict, match="this report is confirmed and stored already"):
        services.table_report_withdraw(table=table_row, by=users["Ada"], report_id=report.pk)


def test_the_entry_page_shows_a_waiting_report_accepted_with_one_click(table, organizer):
    tournament, table_row, users, names, base = table
    ada = signed_in(users["Ada"])
    post(ada, base + "report/", {"expected_version": 0, **places_data(names, ["Cal", "Ada", "Bea"])})
    organizer_client = signed_in(organizer)
    url = base + "result/"
    page = organizer_client.get(url)
    shown = text(page)
    assert "A player's report is waiting" in shown
    assert "Waiting for Bea and Cal to confirm." in shown
    assert "Ada reported 1st Cal, 2nd Ada, 3rd Bea" in shown
    body = page.content.decode()
    accept = body[body.index('class="inline-form accept-claim"') :].split("</form>")[0]
    assert "Accept <bdi>Ada</bdi>'s result" in accept
    response = post(organizer_client, url, _hidden(accept))
    assert response.status_code == 302
    version = ResultVersion.objects.get()
    assert version.places == [["Cal", "Ada", "Bea"].index(name) + 1 for name in names]
    assert ResultReport.objects.get().status == "superseded"


def test_a_dispute_shows_both_claims_and_one_click_settles_it(table, organizer):
    tournament, table_row, users, names, base = table
    report = services.table_report(table=table_row, by=users["Ada"], expected_version=0, places=[1, 2, 3])
    disputer = next(name for name in ("Bea", "Cal") if users[name].player.pk in report.awaiting)
    claimed = [3, 2, 1]
    services.table_dispute(table=table_row, by=users[disputer], places=claimed, note="counted twice")
    organizer_client = signed_in(organizer)
    url = base + "result/"
    page = organizer_client.get(url)
    shown = text(page)
    assert "Disputed: settle it" in shown
    assert (
        f"{disputer} disputes the report: counted twice . Accept one side with its button, or enter the "
        "result below."
    ) in shown
    body = page.content.decode()
    forms = [part.split("</form>")[0] for part in body.split('class="inline-form accept-claim"')[1:]]
    assert [
        ("Accept <bdi>Ada</bdi>'s result" in form, f"Accept <bdi>{disputer}</bdi>'s result" in form)
        for form in forms
    ] == [
        (True, False),
        (False, True),
    ]
    response = post(organizer_client, url, _hidden(forms[1]))
    assert response.status_code == 302
    assert ResultVersion.objects.get().places == claimed
    assert ResultDispute.objects.get().status == "settled"


def test_drawing_a_round_over_an_open_dispute_asks_first(table, organizer):
    tournament, table_row, users, names, base = table
    report = services.table_report(table=table_row, by=users["Ada"], expected_version=0, places=[1, 2, 3])
    for name in ("Bea", "Cal"):
        if users[name].player.pk in report.awaiting:
            services.table_confirm(table=table_row, by=users[name], report_id=report.pk)
    services.table_dispute(table=table_row, by=users["Bea"], places=[2, 1, 3], note="")
    services.round_complete(round_row=table_row.round, by=organizer)
    organizer_client = signed_in(organizer)
    generate = f"/tournaments/{tournament.slug}/generate/"
    asked = post(organizer_client, generate, {})
    assert asked.status_code == 200
    shown = text(asked)
    assert f"Draw the next round of {tournament.name} with 1 open dispute?" in shown
    assert "Not settled yet: round 1, table 1 (Bea disputes it)." in shown
    assert not tournament.round_set.filter(number=2).exists()
    drawn = post(organizer_client, generate, posted(asked, "confirm"))
    assert drawn.status_code == 302
    assert tournament.round_set.filter(number=2).exists()


def _hidden(form_html: str) -> dict:
    return dict(re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)">', form_html))


@pytest.mark.usefixtures("eager")
def test_settling_a_dispute_marks_its_notifications_read_and_settled(
    table, organizer, django_capture_on_commit_callbacks
):
    tournament, table_row, users, names, base = table
    with django_capture_on_commit_callbacks(execute=True):
        report = services.table_report(table=table_row, by=users["Ada"], expected_version=0, places=[1, 2, 3])
        disputer = next(name for name in ("Bea", "Cal") if users[name].player.pk in report.awaiting)
        services.table_dispute(table=table_row, by=users[disputer], places=[3, 2, 1], note="")
    dispute = Notification.objects.get(user=organizer, kind="table_disputed")
    assert (dispute.text, dispute.read_at) == (
        f"A result is disputed in {isolated(tournament.name)}: round 1, table 1. Settle it with an organizer "
        "entry.",
        None,
    )
    with django_capture_on_commit_callbacks(execute=True):
        services.table_result(table=table_row, by=organizer, expected_version=0, places=[3, 2, 1])
    dispute.refresh_from_db()
    assert dispute.text == (
        f"A result is disputed in {isolated(tournament.name)}: round 1, table 1. Settled by an organizer's "
        "entry."
    )
    assert dispute.read_at is not None
    page = signed_in(organizer).get("/notifications/").content.decode()
    assert "Settled by an organizer&#x27;s entry." in page
