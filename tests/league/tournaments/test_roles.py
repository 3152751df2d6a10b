"""Roles per tournament: organizers (everything) and scorekeepers (results only), added by user name; the
right to add is checked before the name is looked up, so a user who may not add learns nothing."""

import re

import pytest
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from league.core.errors import NotFound, UserError
from league.tournaments import selectors, services
from league.tournaments.errors import NotOrganizer, StateConflict
from league.tournaments.models import Round
from tests.factories import UserFactory
from tests.factories.tournaments import user_with_player


def api_for(user) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.get_or_create(user=user)[0].key}")
    return client


@pytest.fixture
def scorer(db):
    return UserFactory(username="scorer")


@pytest.fixture
def running(make_tournament, organizer, scorer):
    """A 4-seat Swiss of 8 with a scorekeeper: round 1 published, no result yet."""
    tournament, _ = make_tournament(8, rated=False)
    services.role_add(tournament=tournament, by=organizer, username="scorer", role="scorekeeper")
    round_row = services.round_generate(tournament=tournament, by=organizer)
    services.round_publish(round_row=round_row, by=organizer)
    return tournament


def test_a_scorekeeper_enters_and_corrects_results_on_the_pages(client, running, scorer):
    client.force_login(scorer)
    base = f"/tournaments/{running.slug}/rounds/1"
    round_page = client.get(f"{base}/").content.decode()
    assert 'id="score-controls"' in round_page and 'id="controls"' not in round_page
    assert f'href="{base}/tables/1/result/">Enter the result</a>' in round_page
    form = client.get(f"{base}/tables/1/result/")
    assert form.status_code == 200
    assert "Close the table" not in form.content.decode(), "closing a table drops no-shows: organizers only"
    places = {"expected_version": 0, "place_0": 1, "place_1": 2, "place_2": 3, "place_3": 4}
    assert client.post(f"{base}/tables/1/result/", places)["Location"] == f"{base}/tables/2/result/"
    corrected = {**places, "expected_version": 1, "place_0": 4, "place_3": 1, "reason": "misread the sheet"}
    assert client.post(f"{base}/tables/1/result/", corrected).status_code == 302
    table = running.round_set.get(number=1).tables.get(number=1)
    assert table.match.result_version == 2


def test_a_scorekeeper_cannot_change_settings_start_publish_drop_or_close(client, running, scorer):
    client.force_login(scorer)
    base = f"/tournaments/{running.slug}"
    player = running.registrations.first().player_id
    for path, data in [
        ("settings/", None),
        ("settings/save/", {"self_signup": "on", "time_zone": "UTC"}),
        ("check-in/", None),
        ("start/", {}),
        ("organizers/", {"username": "scorer", "role": "organizer"}),
        ("generate/", {}),
        ("finish/", {}),
        ("leave/", {"player": player, "status": "dropped"}),
        ("register/", {"names": "Zed"}),
        ("rounds/1/complete/", {}),
        ("rounds/1/tables/1/close/", {"kind": "forfeit"}),
    ]:
        response = client.get(f"{base}/{path}") if data is None else client.post(f"{base}/{path}", data)
        assert response.status_code == 403, path
        assert (
            "Only the tournament&#x27;s organizers (and site staff) can do this." in response.content.decode()
        ), path
    assert running.organizers.filter(username="scorer").count() == 0
    api = api_for(scorer)
    table = running.round_set.get(number=1).tables.get(number=1)
    assert (
        api.post(
            f"/api/tournament-tables/{table.pk}/result/",
            {"expected_version": 0, "places": [1, 2, 3, 4]},
            format="json",
        ).status_code
        == 201
    )
    for method, url, data in [
        ("patch", f"/api/tournaments/{running.pk}/", {"rounds": 5}),
        ("patch", f"/api/tournaments/{running.pk}/sign-up/", {"capacity": 3}),
        ("patch", f"/api/tournaments/{running.pk}/schedule/", {"time_zone": "UTC"}),
        ("post", f"/api/tournaments/{running.pk}/finish/", {}),
        ("patch", f"/api/tournaments/{running.pk}/registrations/{player}/", {"status": "dropped"}),
        ("post", f"/api/tournament-rounds/{table.round_id}/complete/", {}),
        ("post", f"/api/tournament-tables/{table.pk}/close/", {"kind": "forfeit", "absent": [player]}),
    ]:
        response = getattr(api, method)(url, data, format="json")
        assert (response.status_code, response.json()["code"]) == (403, "forbidden"), url
    assert running.round_set.get(number=1).status == Round.Status.PUBLISHED


def test_roles_are_added_by_user_name_and_a_scorekeeper_can_become_an_organizer(organizer, running, scorer):
    assert selectors.can_score(scorer, running) and not selectors.is_organizer(scorer, running)
    with pytest.raises(UserError, match="^scorer keeps score here already$"):
        services.role_add(tournament=running, by=organizer, username="scorer", role="scorekeeper")
    services.role_add(tournament=running, by=organizer, username=" scorer ", role="organizer")
    assert [(role.username, role.role) for role in selectors.roles(running)] == [
        ("organizer", "organizer"),
        ("scorer", "organizer"),
    ]
    with pytest.raises(UserError, match="^scorer organizes this tournament: organizers enter results too$"):
        services.role_add(tournament=running, by=organizer, username="scorer", role="scorekeeper")
    with pytest.raises(UserError, match="^no user called 'ghost'$"):
        services.role_add(tournament=running, by=organizer, username="ghost", role="scorekeeper")
    with pytest.raises(UserError, match="^role is one of organizer, scorekeeper, judge$"):
        services.role_add(tournament=running, by=organizer, username="scorer", role="boss")
    services.role_remove(tournament=running, by=organizer, username="organizer", role="organizer")
    with pytest.raises(
        StateConflict, match="^a tournament keeps at least one organizer: add another one first$"
    ):
        services.role_remove(tournament=running, by=scorer, username="scorer", role="organizer")
    with pytest.raises(NotFound, match="^ghost is not a scorekeeper of this tournament$"):
        services.role_remove(tournament=running, by=scorer, username="ghost", role="scorekeeper")


def test_the_organizers_page_adds_and_removes_roles(client, organizer, running, scorer):
    UserFactory(username="helper")
    client.force_login(organizer)
    url = f"/tournaments/{running.slug}/organizers/"
    page = client.get(url)
    assert page.status_code == 200
    added = client.post(url, {"username": "helper", "role": "scorekeeper"}, follow=True)
    assert "helper now keeps score at this tournament." in added.content.decode()
    unknown = client.post(url, {"username": "ghost", "role": "scorekeeper"})
    assert unknown.status_code == 400
    assert "no user called &#x27;ghost&#x27;" in unknown.content.decode()
    removed = client.post(f"{url}remove/", {"username": "helper", "role": "scorekeeper"}, follow=True)
    assert "helper no longer has that role here." in removed.content.decode()
    assert [(role.username, role.role) for role in selectors.roles(running)] == [
        ("organizer", "organizer"),
        ("scorer", "scorekeeper"),
    ]


def test_the_organizers_page_finds_user_names_whatever_their_case(client, organizer, running, scorer):
    """Sign-up keeps user names unique regardless of case, so the roles page finds "Helper" as "HELPER"."""
    UserFactory(username="Helper")
    client.force_login(organizer)
    url = f"/tournaments/{running.slug}/organizers/"
    added = client.post(url, {"username": "HELPER", "role": "scorekeeper"}, follow=True)
    assert "Helper now keeps score at this tournament." in added.content.decode()
    again = client.post(url, {"username": "helper", "role": "scorekeeper"})
    assert again.status_code == 400
    assert "Helper keeps score here already" in again.content.decode()
    removed = client.post(f"{url}remove/", {"username": "hELPER", "role": "scorekeeper"}, follow=True)
    assert "Helper no longer has that role here." in removed.content.decode()
    assert [(role.username, role.role) for role in selectors.roles(running)] == [
        ("organizer", "organizer"),
        ("scorer", "scorekeeper"),
    ]


@pytest.mark.parametrize("who", ["stranger", "scorer", "player"])
def test_adding_a_role_reveals_nothing_to_who_may_not_add(client, running, scorer, stranger, who):
    """The same 403, word for word, whether the user name exists or not: pages and API."""
    user = {"stranger": stranger, "scorer": scorer, "player": user_with_player("pia-user", "Pia U")}[who]
    UserFactory(username="exists")
    client.force_login(user)
    url = f"/tournaments/{running.slug}/organizers/"
    pages = [client.post(url, {"username": name, "role": "organizer"}) for name in ("exists", "missing")]
    assert [response.status_code for response in pages] == [403, 403]
    unmasked = [re.sub(rb'name="csrfmiddlewaretoken" value="[^"]+"', b"", page.content) for page in pages]
    assert unmasked[0] == unmasked[1], "the same page, the per-response CSRF mask aside"
    api = api_for(user)
    answers = [
        api.post(
            f"/api/tournaments/{running.pk}/{path}/", {"username": name, "role": "organizer"}, format="json"
        )
        for path in ("roles", "organizers")
        for name in ("exists", "missing")
    ]
    forbidden = {
        "code": "forbidden",
        "detail": "only the tournament's organizers (and site staff) can do this",
        "errors": [],
    }
    assert [(answer.status_code, answer.json()) for answer in answers] == [(403, forbidden)] * 4
    with pytest.raises(NotOrganizer):
        services.role_add(tournament=running, by=user, username="missing", role="organizer")
    assert [role.username for role in selectors.roles(running)] == ["organizer", "scorer"]


def test_roles_through_the_api(running, organizer):
    UserFactory(username="helper")
    api = api_for(organizer)
    base = f"/api/tournaments/{running.pk}/roles"
    assert api.get(f"{base}/").json() == [
        {"username": "organizer", "role": "organizer"},
        {"username": "scorer", "role": "scorekeeper"},
    ]
    added = api.post(f"{base}/", {"username": "helper", "role": "scorekeeper"}, format="json")
    assert (added.status_code, added.json()) == (201, {"username": "helper", "role": "scorekeeper"})
    unknown = api.post(f"{base}/", {"username": "ghost"}, format="json")
    assert (unknown.status_code, unknown.json()) == (
        400,
        {
            "code": "invalid",
            "detail": "no user called 'ghost'",
            "field": "username",
            "errors": [{"field": "username", "code": "invalid", "detail": "no user called 'ghost'"}],
        },
    )
    assert api.delete(f"{base}/scorekeeper/helper/").status_code == 204
    gone = api.delete(f"{base}/scorekeeper/helper/")
    assert (gone.status_code, gone.json()["detail"]) == (
        404,
        "helper is not a scorekeeper of this tournament",
    )
    last = api.delete(f"{base}/organizer/organizer/")
    assert (last.status_code, last.json()["detail"]) == (
        409,
        "a tournament keeps at least one organizer: add another one first",
    )
