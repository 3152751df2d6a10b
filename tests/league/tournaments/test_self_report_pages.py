"""Self-report on the pages, without JavaScript: plain forms posted with their CSRF token, the table's page
for its players (report, confirm, dispute, the state), the organizer's round page (open reports and
disputed tables with both claims), the settings form."""

import html
import re

import pytest
from django.test import Client

from league.core.errors import UserError
from league.results.models import ResultReport, ResultVersion
from league.tournaments import services
from league.tournaments.models import Tournament
from tests.factories import tournaments as helpers
from tests.league.tournaments.test_self_report import with_accounts


def text(response) -> str:
    """The visible text of the page: inline <bdi> around names dropped, other tags as spaces."""
    page = re.sub(r"</?bdi>", "", response.content.decode())
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", page)).split())


def signed_in(user) -> Client:
    client = Client(enforce_csrf_checks=True)
    client.force_login(user)
    return client


def post(client: Client, url: str, data: dict):
    """POST a form as a browser does: with the CSRF token the page's cookie holds."""
    client.get(url.rsplit("/", 2)[0] + "/")  # the table's page sets the cookie
    return client.post(url, {**data, "csrfmiddlewaretoken": client.cookies["csrftoken"].value})


@pytest.fixture
def table(organizer):
    tournament, players = helpers.make_tournament(
        organizer, 3, table_size=3, result_reporting="self_report", game_id="nacho_pile"
    )
    users = with_accounts(players)
    round_row = services.round_generate(tournament=tournament, by=organizer)
    services.round_publish(round_row=round_row, by=organizer)
    table = round_row.tables.get()
    names = list(table.match.seats.order_by("seat").values_list("player__name", flat=True))
    base = f"/tournaments/{tournament.slug}/rounds/1/tables/1/"
    return tournament, table, users, names, base


def places_data(names, order, prefix=""):
    return {f"{prefix}place_{seat}": order.index(name) + 1 for seat, name in enumerate(names)}


def test_report_confirm_and_the_state_on_the_table_page(table, organizer):
    tournament, table_row, users, names, base = table
    ada = signed_in(users["Ada"])
    page = text(ada.get(base))
    assert "Report the result" in page and "No result yet." in page
    response = post(
        ada, base + "report/", {"expected_version": 0, **places_data(names, ["Cal", "Ada", "Bea"])}
    )
    assert (response.status_code, response["Location"]) == (302, base)
    page = text(ada.get(base))
    assert "Ada reported: 1st Cal, 2nd Ada, 3rd Bea." in page
    assert "Waiting for Bea and Cal to confirm." in page
    assert "Confirm the result" not in page  # the reporter does not confirm
    bea = signed_in(users["Bea"])
    assert "Confirm the result" in text(bea.get(base))
    report = ResultReport.objects.get()
    assert post(bea, base + "confirm/", {"report": report.pk}).status_code == 302
    assert "Waiting for Cal to confirm. Bea confirmed." in text(bea.get(base))
    cal = signed_in(users["Cal"])
    assert post(cal, base + "confirm/", {"report": report.pk}).status_code == 302
    page = text(cal.get(base))
    assert "Result stored . Reported by Ada, confirmed by Bea and Cal." in page
    assert "Dispute the result" in page
    expected = [["Cal", "Ada", "Bea"].index(name) + 1 for name in names]
    assert list(ResultVersion.objects.values_list("places", "entered_by")) == [(expected, users["Ada"].pk)]


def test_a_dispute_shows_both_claims_on_the_organizers_round_page(table, organizer):
    tournament, table_row, users, names, base = table
    ada, bea = signed_in(users["Ada"]), signed_in(users["Bea"])
    post(ada, base + "report/", {"expected_version": 0, **places_data(names, ["Ada", "Bea", "Cal"])})
    response = post(
        bea,
        base + "dispute/",
        {
            "report": ResultReport.objects.get().pk,
            "claim-expected_version": 0,
            **places_data(names, ["Bea", "Ada", "Cal"], "claim-"),
            "note": "my last pile was not counted",
        },
    )
    assert response.status_code == 302
    page = text(signed_in(organizer).get(f"/tournaments/{tournament.slug}/rounds/1/"))
    assert "Disputed tables" in page
    assert (
        "Table 1 disputed Ada reported 1st Ada, 2nd Bea, 3rd Cal Bea claims 1st Bea, 2nd Ada, 3rd Cal "
        "my last pile was not counted Enter the result to settle it"
    ) in page
    # the players' round page has no such panel
    assert "Disputed tables" not in text(
        signed_in(users["Cal"]).get(f"/tournaments/{tournament.slug}/rounds/1/")
    )


def test_the_organizers_round_page_lists_open_reports(table, organizer):
    tournament, _, users, names, base = table
    post(
        signed_in(users["Cal"]),
        base + "report/",
        {"expected_version": 0, **places_data(names, ["Cal", "Bea", "Ada"])},
    )
    page = text(signed_in(organizer).get(f"/tournaments/{tournament.slug}/rounds/1/"))
    assert (
        "Waiting for confirmation Table 1 : Cal reported 1st Cal, 2nd Bea, 3rd Ada; waiting for Ada and Bea."
        in page
    )


def test_anonymous_posts_go_to_the_login_and_strangers_get_403(table, stranger):
    tournament, _, users, names, base = table
    response = Client().post(base + "report/", {"expected_version": 0, **places_data(names, names)})
    assert (response.status_code, response["Location"]) == (302, f"/accounts/login/?next={base}")
    response = post(
        signed_in(stranger), base + "report/", {"expected_version": 0, **places_data(names, names)}
    )
    assert response.status_code == 403
    assert "only the players seated at this table report, confirm or dispute its result" in text(response)
    assert not ResultReport.objects.exists()


def test_a_second_report_on_the_page_is_409_with_the_message(table):
    _, _, users, names, base = table
    post(signed_in(users["Ada"]), base + "report/", {"expected_version": 0, **places_data(names, names)})
    response = post(
        signed_in(users["Bea"]), base + "report/", {"expected_version": 0, **places_data(names, names)}
    )
    assert response.status_code == 409
    assert (
        "a report of this table is already waiting for confirmation: confirm or dispute it instead"
        in text(response)
    )


def test_bad_places_on_the_page_are_400(table):
    _, _, users, names, base = table
    response = post(signed_in(users["Ada"]), base + "report/", {"expected_version": 0, "place_0": 1})
    assert response.status_code == 400
    assert "enter a place for every seat, or none (to derive places from scores)" in text(response)


def test_the_settings_form_sets_self_report(organizer):
    client = signed_in(organizer)
    tournament, _ = helpers.make_tournament(organizer, 4, start=False, table_size=4)
    page = client.get(f"/tournaments/{tournament.slug}/settings/").content.decode()
    assert 'name="result_reporting"' in page and 'name="dispute_window_minutes"' in page
    services.tournament_update(
        tournament=tournament, by=organizer, result_reporting="self_report", dispute_window_minutes=30
    )
    tournament.refresh_from_db()
    assert (
        tournament.result_reporting,
        tournament.dispute_window_minutes,
        tournament.two_seat_confirmation,
    ) == (Tournament.Reporting.SELF_REPORT, 30, "opponent")
    with pytest.raises(UserError) as refused:
        services.tournament_update(tournament=tournament, by=organizer, dispute_window_minutes=5000)
    assert (refused.value.message, refused.value.field) == (
        "dispute window minutes must be a whole number from 0 to 1440",
        "dispute_window_minutes",
    )


def test_the_match_page_attributes_a_confirmed_version_to_its_reporter_and_confirmers(table):
    _, table_row, users, names, base = table
    report = services.table_report(table=table_row, by=users["Bea"], expected_version=0, places=[1, 2, 3])
    for name in names:
        if name != "Bea":
            services.table_confirm(table=table_row, by=users[name], report_id=report.pk)
    others = [name for name in names if name != "Bea"]
    page = text(Client().get(f"/matches/{table_row.match_id}/"))
    assert f"reported by Bea, confirmed by {others[0]}, {others[1]}" in page
