"""The floor's pages (issue 48): the judges' page (who may open it, claim and resolve, extra time,
penalties, penalty types), "call a judge" from a table's page and from a private link, a table's extra
time on its page, the round page, the projector and the slips, and the standings saying why points came
off."""

from datetime import timedelta

from django.test import Client

from league.tournaments import floor_selectors, services
from league.tournaments.floor_models import JudgeCall, Penalty
from league.tournaments.services import floor
from tests.factories import UserFactory
from tests.factories import tournaments as helpers
from tests.league.tournaments.test_floor import NOON, clock, floor_event, seated  # noqa: F401

__all__ = ["clock", "floor_event"]


def signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_the_judges_page_is_for_the_events_judges_and_organizers(organizer, floor_event):
    tournament, _, _, judy = floor_event
    url = f"/tournaments/{tournament.slug}/judges/"
    assert Client().get(url).status_code == 302
    assert signed_in(UserFactory(username="nosy")).get(url).status_code == 403
    other, _ = helpers.make_tournament(organizer, 4, name="Judy Elsewhere")
    assert signed_in(judy).get(f"/tournaments/{other.slug}/judges/").status_code == 403
    assert (
        signed_in(judy)
        .post(f"/tournaments/{other.slug}/judges/extend/", {"table": 1, "minutes": 5})
        .status_code
        == 403
    )
    response = signed_in(judy).get(url)
    assert response.status_code == 200
    assert "No call is waiting." in response.content.decode()
    assert signed_in(organizer).get(url).status_code == 200
    # Judges never reach the settings.
    assert signed_in(judy).get(f"/tournaments/{tournament.slug}/settings/").status_code == 403


def test_a_player_calls_from_the_table_page_and_sees_the_judge_coming(floor_event, clock):
    tournament, round_row, tables, judy = floor_event
    table = tables[0]
    player = seated(table)[0]
    table_url = f"/tournaments/{tournament.slug}/rounds/1/tables/{table.number}/"
    player_client = signed_in(player.user)
    assert 'id="call-judge"' in player_client.get(table_url).content.decode()
    response = player_client.post(table_url + "judge/", follow=True)
    page = response.content.decode()
    assert "A judge is called: stay at your table, they come as soon as they can." in page
    assert "<strong>A judge is called</strong> (at 12:00): one comes as soon as they can." in page
    assert 'id="call-judge"' not in page
    # A second tap says a judge was called already.
    again = player_client.post(table_url + "judge/", follow=True).content.decode()
    assert "A judge was called to table 1 already: a judge comes soon." in again

    call = JudgeCall.objects.get()
    queue = signed_in(judy).get(f"/tournaments/{tournament.slug}/judges/").content.decode()
    assert f'id="call-{call.pk}"' in queue
    assert f"<strong>Table 1</strong> · round 1 · <bdi>{player.name}</bdi> called at 12:00" in queue
    signed_in(judy).post(f"/tournaments/{tournament.slug}/judges/claim/", {"call": call.pk})
    assert "<strong>A judge is coming.</strong>" in Client().get(table_url).content.decode()
    signed_in(judy).post(
        f"/tournaments/{tournament.slug}/judges/resolve/", {"call": call.pk, "note": "Fixed."}
    )
    resolved = signed_in(judy).get(f"/tournaments/{tournament.slug}/judges/").content.decode()
    assert "No call is waiting." in resolved
    assert "<q>Fixed.</q>" in resolved
    assert "A judge is" not in Client().get(table_url).content.decode()


def test_a_stranger_cannot_call_from_someone_elses_table(floor_event):
    tournament, _, tables, _ = floor_event
    outsider = seated(tables[1])[0]
    response = signed_in(outsider.user).post(
        f"/tournaments/{tournament.slug}/rounds/1/tables/1/judge/", follow=True
    )
    assert "Only the players at this table call a judge from it." in response.content.decode()
    assert JudgeCall.objects.count() == 0


def test_a_private_link_holder_calls_a_judge(organizer, floor_event):
    tournament, _, tables, _ = floor_event
    holder = seated(tables[0])[1]
    token = services.private_link_issue(tournament=tournament, player_id=holder.pk, by=organizer).token
    assert 'id="call-judge"' in Client().get(f"/p/{token}/").content.decode()
    response = Client().post(f"/p/{token}/", {"action": "call"}, follow=True)
    page = response.content.decode()
    assert "A judge is called: stay at your table, they come as soon as they can." in page
    assert "<strong>A judge is called</strong>" in page
    assert JudgeCall.objects.get().caller_id == holder.pk


def test_extra_time_shows_on_the_table_the_round_the_projector_and_the_slips(organizer, floor_event, clock):
    tournament, _, tables, judy = floor_event
    response = signed_in(judy).post(
        f"/tournaments/{tournament.slug}/judges/extend/", {"table": 2, "minutes": 8, "note": "ruling"}
    )
    assert response.status_code == 302
    refused = signed_in(judy).post(
        f"/tournaments/{tournament.slug}/judges/extend/", {"table": 2, "minutes": 45}
    )
    assert refused.status_code == 400
    assert "minutes must be a whole number from 1 to 30" in refused.content.decode()
    table_page = Client().get(f"/tournaments/{tournament.slug}/rounds/1/tables/2/").content.decode()
    assert 'aria-label="Table 2 timer"' in table_page
    assert "+8 min for this table" in table_page
    ends = NOON + timedelta(minutes=58)  # 50 + 8 minutes from noon, as an instant the browser counts to
    assert f'data-ends-at="{int(ends.timestamp() * 1000)}"' in table_page
    assert "12:58" in table_page
    round_page = Client().get(f"/tournaments/{tournament.slug}/rounds/1/").content.decode()
    assert "<strong>Table 2</strong>: +8 min, ends 12:58" in round_page
    projector = Client().get(f"/tournaments/{tournament.slug}/projector/").content.decode()
    assert '<p class="pj-extra" id="pj-extra-2">+8 min, ends 12:58</p>' in projector
    slips = signed_in(organizer).get(f"/tournaments/{tournament.slug}/rounds/1/slips/").content.decode()
    assert "Extra time for this table: +8 min, ends 12:58" in slips
    assert "pj-extra-1" not in projector


def test_a_points_penalty_shows_in_the_standings_with_its_reason(organizer, floor_event):
    tournament, _, tables, judy = floor_event
    for table in tables:
        services.table_result(table=table, by=organizer, expected_version=0, places=[1, 2, 3, 4])
    winner = seated(tables[0])[0]
    response = signed_in(judy).post(
        f"/tournaments/{tournament.slug}/judges/penalty/",
        {"player": winner.pk, "infraction": "Slow play", "kind": "points", "points": "2", "note": "again"},
    )
    assert response.status_code == 302
    page = Client().get(f"/tournaments/{tournament.slug}/").content.decode()
    assert "(−2 penalty)" in page
    assert f"<li><bdi>{winner.name}</bdi>: −2 pt: Slow play (round 1)</li>" in page
    assert "again" not in page  # the note stays with the player and the judges
    projector = Client().get(f"/tournaments/{tournament.slug}/projector/").content.decode()
    assert f"<li><bdi>{winner.name}</bdi>: −2 pt: Slow play (round 1)</li>" in projector


def test_penalties_are_seen_by_their_player_and_the_judges_only(floor_event):
    tournament, _, tables, judy = floor_event
    ada, bea = seated(tables[0])[:2]
    floor.penalty_give(
        tournament=tournament, by=judy, player_id=ada.pk, infraction="Tardiness", note="5 min late"
    )
    table_url = f"/tournaments/{tournament.slug}/rounds/1/tables/1/"
    own = signed_in(ada.user).get(table_url).content.decode()
    assert "Your warnings and penalties" in own
    assert "Warning: Tardiness, round 1" in own
    assert "5 min late" in own
    assert "Tardiness" not in signed_in(bea.user).get(table_url).content.decode()
    assert "Tardiness" not in Client().get(table_url).content.decode()
    judges = signed_in(judy).get(f"/tournaments/{tournament.slug}/judges/").content.decode()
    assert "5 min late" in judges


def test_organizers_edit_the_penalty_types_and_judges_cannot(organizer, floor_event):
    tournament, _, _, judy = floor_event
    url = f"/tournaments/{tournament.slug}/judges/types/"
    assert signed_in(organizer).post(url, {"types": "Late\n\nDeck error\n"}).status_code == 302
    assert floor_selectors.penalty_types_of(tournament) == ["Late", "Deck error"]
    assert signed_in(judy).post(url, {"types": "Mine"}).status_code == 403
    assert (
        'id="penalty-types"'
        not in signed_in(judy).get(f"/tournaments/{tournament.slug}/judges/").content.decode()
    )


def test_a_bad_penalty_is_a_form_error(floor_event):
    tournament, _, tables, judy = floor_event
    ada = seated(tables[0])[0]
    response = signed_in(judy).post(
        f"/tournaments/{tournament.slug}/judges/penalty/",
        {"player": ada.pk, "infraction": "Slow play", "kind": "points", "points": "lots"},
    )
    assert response.status_code == 400
    assert "points must be a number from 0.01 to 100" in response.content.decode()
    assert Penalty.objects.count() == 0
    assert (
        signed_in(judy).post(f"/tournaments/{tournament.slug}/judges/claim/", {"call": "x"}).status_code
        == 400
    )
    assert (
        signed_in(judy).post(f"/tournaments/{tournament.slug}/judges/claim/", {"call": "99"}).status_code
        == 404
    )
    assert signed_in(judy).post(f"/tournaments/{tournament.slug}/judges/nothing/").status_code == 404


def test_an_organizer_adds_a_judge_on_the_page_and_through_the_api(organizer, floor_event):
    tournament, *_ = floor_event
    UserFactory(username="kim")
    response = signed_in(organizer).post(
        f"/tournaments/{tournament.slug}/organizers/", {"username": "kim", "role": "judge"}, follow=True
    )
    assert "kim now judges this tournament." in response.content.decode()
    assert list(tournament.judges.order_by("username").values_list("username", flat=True)) == ["judy", "kim"]
    from rest_framework.test import APIClient

    client = APIClient()
    client.force_authenticate(organizer)
    assert client.delete(f"/api/tournaments/{tournament.pk}/roles/judge/kim/").status_code == 204
    roles = client.get(f"/api/tournaments/{tournament.pk}/roles/").json()
    assert roles == [{"username": "organizer", "role": "organizer"}, {"username": "judy", "role": "judge"}]
    page = signed_in(tournament.judges.get()).get(f"/tournaments/{tournament.slug}/").content.decode()
    assert 'id="to-judges"' in page
