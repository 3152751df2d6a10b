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
    assert list(
        ResultVersion.objects.filter(match=table.match_id)
        .order_by("version")
        .values_list("places", flat=True)
    ) == [[1, 2, 3, 4], [2, 1, 3, 4], [4, 3, 2, 1], [3, 4, 1, 2]]
    services.table_result(table=final.tables.get(), by=organizer, expected_version=0, places=[1, 2, 3, 4])


def test_the_page_and_the_api_show_the_refusal(client, pods, organizer):
    tournament, table = pods
    services.round_generate(tournament=tournament, by=organizer)
    api = APIClient()
    api.force_authenticate(organizer)
    body = {"expected_version": 1, "places": [4, 3, 2, 1], "reason": "slips swapped"}
    refused = api.post(f"/api/tournament-tables/{table.pk}/result/", body, format="json")
    assert refused.status_code == 409
    assert refused.json() == {
        "code": "conflict",
        "detail": DRAFT,
        "field": "places",
        "errors": [{"field": "places", "code": "conflict", "detail": DRAFT}],
    }
    client.force_login(organizer)
    url = f"/tournaments/{tournament.slug}/rounds/1/tables/1/result/"
    form = {"expected_version": 1, "place_0": 4, "place_1": 3, "place_2": 2, "place_3": 1, "reason": "x"}
    page = client.post(url, form)
    assert page.status_code == 409
    assert DRAFT in page.content.decode()
    assert ResultVersion.objects.filter(match=table.match_id).count() == 1


@pytest.fixture
def pods_published(make_tournament, organizer):
    """8 players at 4-seat tables, top 2 through: round 1 published."""
    tournament, _ = make_tournament(8, format="single_elimination", table_size=4, advance=2, rated=False)
    first = services.round_generate(tournament=tournament, by=organizer)
    services.round_publish(round_row=first, by=organizer)
    table = first.tables.get(number=1)
    names = dict(tournament.registrations.values_list("player_id", "player__name"))
    return tournament, table, {names[pid]: pid for pid in table.planned_seats}


def test_a_forfeit_at_an_elimination_cut_with_the_players_present_tied_needs_a_decider(
    pods_published, organizer
):
    tournament, table, ids = pods_published
    assert sorted(ids) == ["Ada", "Dov", "Eli", "Hal"]
    tied = "Ada, Dov and Eli share 1st place and only 2 of them go through: say who"
    with pytest.raises(UserError) as refused:
        services.table_close(table=table, by=organizer, absent=[ids["Hal"]], kind="forfeit")
    assert (refused.value.message, refused.value.field, refused.value.status) == (tied, "advancing", 400)
    assert not ResultVersion.objects.filter(match=table.match_id).exists()
    with pytest.raises(UserError, match="^nobody is present at this table: nobody goes through$"):
        services.table_close(
            table=table, by=organizer, absent=list(ids.values()), kind="forfeit", advancing=[ids["Ada"]]
        )
    services.table_close(
        table=table, by=organizer, absent=[ids["Hal"]], kind="forfeit", advancing=[ids["Eli"], ids["Dov"]]
    )
    version = ResultVersion.objects.get(match=table.match_id)
    assert sorted(version.advancing) == sorted([ids["Dov"], ids["Eli"]])
    other = tournament.round_set.get(number=1).tables.get(number=2)
    services.table_result(table=other, by=organizer, expected_version=0, places=[1, 2, 3, 4])
    services.round_complete(round_row=tournament.round_set.get(number=1), by=organizer)
    final = services.round_generate(tournament=tournament, by=organizer)
    finalists = set(final.tables.get().planned_seats)
    assert {ids["Dov"], ids["Eli"]} <= finalists and ids["Ada"] not in finalists


def test_two_present_of_four_with_two_going_through_need_no_decider(pods_published, organizer):
    tournament, table, ids = pods_published
    services.table_close(table=table, by=organizer, absent=[ids["Hal"], ids["Eli"]], kind="no_show")
    assert ResultVersion.objects.get(match=table.match_id).advancing is None


def test_the_close_form_and_the_api_ask_who_goes_through(client, pods_published, organizer):
    tournament, table, ids = pods_published
    tied = "Ada, Dov and Eli share 1st place and only 2 of them go through: say who"
    api = APIClient()
    api.force_authenticate(organizer)
    url = f"/api/tournament-tables/{table.pk}/close/"
    refused = api.post(url, {"kind": "forfeit", "absent": [ids["Hal"]]}, format="json")
    assert refused.status_code == 400
    assert refused.json() == {
        "code": "invalid",
        "detail": tied,
        "field": "advancing",
        "errors": [{"field": "advancing", "code": "invalid", "detail": tied}],
    }
    client.force_login(organizer)
    page = client.get(f"/tournaments/{tournament.slug}/rounds/1/tables/1/result/").content.decode()
    assert "Only when more players are present than go through: tick who goes through." in page
    assert f'name="advancing" value="{ids["Ada"]}" id="close-advancing_' in page
    close = f"/tournaments/{tournament.slug}/rounds/1/tables/1/close/"
    answer = client.post(close, {"kind": "forfeit", "absent": [ids["Hal"]]})
    assert answer.status_code == 400
    assert tied in answer.content.decode()
    done = client.post(
        close, {"kind": "forfeit", "absent": [ids["Hal"]], "advancing": [ids["Ada"], ids["Eli"]]}
    )
    assert done.status_code == 302
    assert sorted(ResultVersion.objects.get(match=table.match_id).advancing) == sorted(
        [ids["Ada"], ids["Eli"]]
    )
