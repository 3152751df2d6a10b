"""An organizer may show players on public pages by first name and initial ("Fatima K.", youth and school
events); organizers and scorekeepers keep seeing full names."""

from __future__ import annotations

import pytest
from django.test import Client

from league.core.errors import UserError
from league.core.words import first_name_and_initial
from league.players.models import Player
from league.players.services import player_update
from league.tournaments import services
from league.tournaments.errors import NotOrganizer
from tests.factories import UserFactory
from tests.factories import tournaments as helpers


@pytest.fixture
def event(organizer):
    """A Swiss of 4 at one table where Ada is Fatima Khalil, round 1 published, short names on."""
    tournament, _ = helpers.make_tournament(organizer, 4, table_size=4)
    player_update(player=Player.objects.get(name="Ada"), name="Fatima Khalil")
    round_row = services.round_generate(tournament=tournament, by=organizer)
    services.round_publish(round_row=round_row, by=organizer)
    services.tournament_names_set(tournament=tournament, by=organizer, short_names=True)
    tournament.refresh_from_db()
    return tournament


def pages(client: Client, tournament) -> dict[str, str]:
    base = f"/tournaments/{tournament.slug}"
    return {
        path: client.get(f"{base}/{path}").content.decode()
        for path in (
            "",
            "?fragment=live",
            "rounds/1/",
            "rounds/1/find/?q=fatima",
            "rounds/1/print/",
            "rounds/1/slips/",
            "projector/",
            "embed/",
        )
    }


def test_visitors_see_first_name_and_initial_organizers_and_scorekeepers_the_full_name(event, organizer):
    for path, page in pages(Client(), event).items():
        assert "<bdi>Fatima K.</bdi>" in page, path
        assert "Fatima Khalil" not in page, path
    judge = Client()
    judge.force_login(organizer)
    for path, page in pages(judge, event).items():
        if path in ("projector/", "embed/"):  # a screen in the room and other sites show the public's view
            assert "<bdi>Fatima K.</bdi>" in page
            continue
        assert "<bdi>Fatima Khalil</bdi>" in page, path
        assert "Fatima K." not in page, path
    scorer = UserFactory(username="scorer")
    services.role_add(tournament=event, by=organizer, username="scorer", role="scorekeeper")
    keeper = Client()
    keeper.force_login(scorer)
    assert "<bdi>Fatima Khalil</bdi>" in keeper.get(f"/tournaments/{event.slug}/rounds/1/").content.decode()


def test_the_organizers_page_turns_short_names_on_and_off_and_only_organizers_may(event, organizer, stranger):
    url = f"/tournaments/{event.slug}/organizers/names/"
    outsider = Client()
    outsider.force_login(stranger)
    assert outsider.post(url, {}).status_code == 403
    event.refresh_from_db()
    assert event.short_names is True
    judge = Client()
    judge.force_login(organizer)
    response = judge.post(url, {}, follow=True)
    assert "Public pages show players&#x27; full names." in response.content.decode()
    event.refresh_from_db()
    assert event.short_names is False
    assert "<bdi>Fatima Khalil</bdi>" in Client().get(f"/tournaments/{event.slug}/rounds/1/").content.decode()
    judge.post(url, {"short_names": "yes"})
    event.refresh_from_db()
    assert event.short_names is True
    with pytest.raises(UserError, match="^short_names must be true or false$"):
        services.tournament_names_set(tournament=event, by=organizer, short_names="yes")
    with pytest.raises(NotOrganizer):
        services.tournament_names_set(tournament=event, by=stranger, short_names=False)


@pytest.mark.parametrize(
    ("name", "shown"),
    [
        ("Fatima Khalil", "Fatima K."),
        ("Jean-Luc de la Tour", "Jean-Luc T."),
        ("محمد علي", "محمد ع."),
        ("Madonna", "Madonna"),
        ("  Ana   Lima ", "Ana L."),
    ],
)
def test_first_name_and_initial(name, shown):
    assert first_name_and_initial(name) == shown
