"""Multi-seat elimination: a correction at a table that changes who goes through is refused once a later
round exists (it was seated from the result being corrected), with a message naming that round, through the
service, the page and the API. A draft can be discarded first; a correction that keeps who goes through is
accepted."""

import pytest
from rest_framework.test import APIClient

from league.core.errors import UserError
from league.results.models import ResultVersion
from league.tournaments import services

DRAFT = (
    "the result of R1-T1 already sent players to round 2 (a draft): correcting who goes through changes that "
    "round; discard the draft of round 2 first, then correct the result"
)
PUBLISHED = (
    "the result of R1-T1 already sent players to round 2, which is published: a correction that changes who "
    "goes through cannot be made once the next round is published (a correction that keeps who goes through "
    "can)"
)


@pytest.fixture
def pods(make_tournament, play_round, organizer):
    """8 players at 4-seat tables, top 2 through: round 1 played in seat order and complete."""
    tournament, _ = make_tournament(8, format="single_elimination", table_size=4, advance=2, rated=False)
    first = play_round(tournament)
    return tournament, first.tables.get(number=1)


def correct(table, organizer, places, version):
    return services.table_result(
        table=table, by=organizer, expected_version=version, places=places, reason="slips swapped"
    )


def test_a_correction_that_changes_who_goes_through_is_refused_once_the_next_round_exists(pods, organizer):
    tournament, table = pods
    draft = services.round_generate(tournament=tournament, by=organizer)
    with pytest.raises(UserError) as refused:
        correct(table, organizer, [4, 3, 2, 1], 1)
    assert (refused.value.message, refused.value.field, refused.value.status) == (DRAFT, "places", 409)
    assert ResultVersion.objects.filter(match=table.match_id).count() == 1
    correct(table, organizer, [2, 1, 3, 4], 1)  # the same two go through: accepted
    services.round_discard(round_row=draft, by=organizer)
    correct(table, organizer, [4, 3, 2, 1], 2)  # no later round any more
    final = services.round_generate(tournament=tournament, by=organizer)
    seats = list(table.match.seats.order_by("seat").values_list("player_id", flat=True))
    assert set(seats[2:]) <= set(final.tables.get().planned_seats)
    services.round_publish(round_row=final, by=organizer)
    with pytest.raises(UserError) as refused:
        correct(table, organizer, [1, 2, 3, 4], 3)
    assert (refused.value.message, refused.value.status) == (PUBLISHED, 409)
    with pytest.raises(UserError, match=r"^the result of R1-T1 already sent players to round 2, which is"):
        services.table_close(table=table, by=organizer, absent=seats[2:], kind="forfeit")
    correct(table, organizer, [3, 4, 1, 2], 3)  # who goes through stays
    assert list(ResultVersion.objects.filter(match=table.match_id).order_by("version").values_list("places", flat=True)) == [
        [1, 2, 3, 4], [2, 1, 3, 4], [4, 3, 2, 1], [3, 4, 1, 2]
    ]  # fmt: skip
    services.table_result(table=final.tables.get(), by=organizer, expected_version=0, places=[1, 2, 3, 4])


def test_the_page_and_the_api_show_the_refusal(client, pods, organizer):
    tournament, table = pods
    services.round_generate(tournament=tournament, by=organizer)
    api = APIClient()
    api.force_authenticate(organizer)
    body = {"expected_version": 1, "places": [4, 3, 2, 1], "reason": "slips swapped"}
    refused = api.post(f"/api/tournament-tables/{table.pk}/result/", body, format="json")
    assert refused.status_code == 409
    assert refused.json() == {"code": "conflict", "detail": DRAFT, "field": "places",
                              "errors": [{"field": "places", "code": "conflict", "detail": DRAFT}]}  # fmt: skip
    client.force_login(organizer)
    url = f"/tournaments/{tournament.slug}/rounds/1/tables/1/result/"
    form = {"expected_version": 1, "place_0": 4, "place_1": 3, "place_2": 2, "place_3": 1, "reason": "x"}
    page = client.post(url, form)
    assert page.status_code == 409
    assert DRAFT in page.content.decode()
    assert ResultVersion.objects.filter(match=table.match_id).count() == 1
