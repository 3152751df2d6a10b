"""A tournament table's match takes its result at the table only: the generic entry points (the API's match
results, the match's result page, the admin) refuse it with a 409 or a form error naming the table's own
entry, so a correction there cannot skip the bracket's rules."""

import re

import pytest
from django.utils.html import escape
from rest_framework.test import APIClient

from league.core.errors import Conflict
from league.results.models import ResultVersion
from league.results.services import result_submit, result_void
from league.tournaments import services
from league.tournaments.models import Table
from tests.league.tournaments.test_bracket_flow import RESET_F, board, table_of, win


@pytest.fixture
def bracket(make_tournament, organizer):
    """4-player single elimination: Ada beat Dov, Bea beat Cal, the final Ada–Bea opened."""
    tournament, _ = make_tournament(4, format="single_elimination", table_size=2, rated=True)
    services.round_publish(
        round_row=services.round_generate(tournament=tournament, by=organizer), by=organizer
    )
    win(tournament, organizer, "R1-1", "Ada")
    win(tournament, organizer, "R1-2", "Bea")
    return tournament


BOARD = [
    (1, "complete", 1, "R1-1", ["Ada", "Dov"], ""),
    (1, "complete", 2, "R1-2", ["Bea", "Cal"], ""),
    (2, "published", 1, "F", ["Ada", "Bea"], ""),
]


def refusal(tournament, first):
    page = f"/tournaments/{tournament.slug}/rounds/1/tables/1/result/"
    api = f"/api/tournament-tables/{first.pk}/result/"
    return (
        f"match {first.match_id} is table 1 of round 1 of {tournament.name}: enter or correct its result at "
        f"the table, where the tournament's rules apply ({page}, or POST {api})"
    )


def unchanged(tournament, first):
    """R1-1 still says Ada won (version 1 only), and the final still seats Ada and Bea, unplayed."""
    versions = list(ResultVersion.objects.filter(match_id=first.match_id).values_list("version", "places"))
    names = list(first.match.seats.order_by("seat").values_list("player__name", flat=True))
    return board(tournament) == BOARD and versions == [(1, [1, 2])] and names == ["Ada", "Dov"]


def test_the_api_refuses_a_correction_of_a_table_and_names_the_tables_entry(bracket, organizer):
    first = table_of(bracket, "R1-1")
    api = APIClient()
    api.force_authenticate(organizer)
    body = {"expected_version": 1, "places": [2, 1], "reason": "Dov won"}

    answer = api.post(f"/api/matches/{first.match_id}/results/", body, format="json")

    assert answer.status_code == 409
    detail = refusal(bracket, first)
    assert answer.json() == {"code": "conflict", "detail": detail, "errors": []}
    assert unchanged(bracket, first)
    # the table's own entry applies the bracket's rule: confirm the reset
    at_table = api.post(f"/api/tournament-tables/{first.pk}/result/", body, format="json")
    assert (at_table.status_code, at_table.json()["detail"]) == (409, RESET_F)
    assert unchanged(bracket, first)


def test_the_result_page_refuses_a_table_and_names_the_tables_entry(client, bracket, organizer):
    first = table_of(bracket, "R1-1")
    client.force_login(organizer)
    url = f"/matches/{first.match_id}/result/"

    page = client.get(url)
    posted = client.post(url, {"expected_version": 1, "place_0": 2, "place_1": 1, "reason": "Dov won"})

    assert page.status_code == 200
    assert posted.status_code == 409
    for answer in (page, posted):
        content = answer.content.decode()
        assert f'<p class="bad" id="result-refused">{escape(refusal(bracket, first))}</p>' in content
        assert "Save result" not in content
    assert unchanged(bracket, first)
    match_page = client.get(f"/matches/{first.match_id}/").content.decode()
    assert (
        f'<a class="button" href="/tournaments/{bracket.slug}/rounds/1/tables/1/result/">'
        "Correct the result at the table</a>"
    ) in match_page
    assert f'href="/matches/{first.match_id}/result/"' not in match_page


def test_the_admin_refuses_a_correction_and_a_void_of_a_table(admin_client, bracket):
    first = table_of(bracket, "R1-1")
    url = f"/admin/matches/match/{first.match_id}/change/"
    page = admin_client.get(url).content.decode()
    hidden = dict(re.findall(r'<input type="hidden" name="([\w-]+)" value="([^"]*)"', page))
    inline_management = {name: value for name, value in hidden.items() if name != "csrfmiddlewaretoken"}

    answer = admin_client.post(
        url, {**inline_management, "new_places": "2, 1", "correction_reason": "Dov won"}
    )

    assert answer.status_code == 200  # the form again, with its error
    assert escape(refusal(bracket, first)) in answer.content.decode()
    voided = admin_client.post(
        "/admin/matches/match/",
        {"action": "void_matches", "_selected_action": [first.match_id]},
        follow=True,
    )
    assert escape(f"Match {first.match_id}: {refusal(bracket, first)}") in voided.content.decode()
    assert unchanged(bracket, first)


def test_the_results_service_refuses_a_caller_that_does_not_apply_the_tables_rules(bracket, organizer):
    first = table_of(bracket, "R1-1")
    with pytest.raises(Conflict) as refused:
        result_submit(
            match_id=first.match_id, expected_version=1, places=[2, 1], entered_by=organizer, reason="Dov won"
        )
    assert (refused.value.message, refused.value.status) == (refusal(bracket, first), 409)
    with pytest.raises(Conflict, match=f"^match {first.match_id} is table 1 of round 1"):
        result_void(match_id=first.match_id, entered_by=organizer)
    assert unchanged(bracket, first)
    assert Table.objects.get(pk=first.pk).closed_as == ""
