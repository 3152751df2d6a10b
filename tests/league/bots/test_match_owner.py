"""`Match.owner`: each scheduling service writes the owner of the matches it creates, a link row
takes only a match of its own kind (PostgreSQL: a composite foreign key; SQLite: `check_owned`, which every
linking service calls), and the generic result entry refuses a bot league's or a challenge's match."""

import importlib

import pytest
from django.apps import apps
from django.db import IntegrityError, transaction
from rest_framework.test import APIClient

from league.bots.models import ChallengeMatch, Fixture
from league.bots.services.challenges import challenge_create
from league.bots.services.leagues import league_start
from league.matches.models import Match
from league.results.models import ResultVersion
from league.results.services import match_create
from league.tournaments import services
from league.tournaments.models import Table
from tests.factories import tournaments as tournament_helpers
from tests.league.bots.conftest import make_bots, make_league

pytestmark = pytest.mark.django_db

owner_migration = importlib.import_module("league.matches.migrations.0008_match_owner")


@pytest.fixture
def owned(staff, member):
    """One match of each owner: casual, a tournament table's, a league fixture's, a challenge's."""
    bots = make_bots(staff)
    league = make_league(staff, bots, target_value=1, sittings_per_round=1)
    league_start(league_id=league.pk)
    challenge = challenge_create(bot_id=bots[0].pk, opponent_ids=[bots[1].pk], matches=1, seed=1, by=staff)
    tournament, _ = tournament_helpers.make_tournament(staff, 4, format="round_robin", table_size=2)
    services.round_publish(round_row=services.round_generate(tournament=tournament, by=staff), by=staff)
    people = list(tournament.registrations.values_list("player_id", flat=True))
    return {
        "casual": match_create(game_id="nacho_pile", player_ids=people[:2]).pk,
        "table": Table.objects.filter(round__tournament=tournament).order_by("number")[0].match_id,
        "fixture": Fixture.objects.filter(league=league).order_by("position")[0].match_id,
        "challenge": ChallengeMatch.objects.get(challenge=challenge).match_id,
    }


def owners(match_ids):
    return dict(Match.objects.filter(pk__in=match_ids).values_list("pk", "owner"))


def test_each_scheduling_service_writes_the_owner_of_its_matches(owned):
    assert owners(owned.values()) == {match_id: owner for owner, match_id in owned.items()}
    assert set(Match.objects.values_list("owner", flat=True)) == {"casual", "challenge", "fixture", "table"}
    assert not Fixture.objects.exclude(match__owner="fixture").exists()
    assert not ChallengeMatch.objects.exclude(match__owner="challenge").exists()
    assert not Table.objects.exclude(match__owner="table").exists()


def test_the_data_migration_gives_each_match_the_owner_of_its_link(owned):
    before = owners(Match.objects.values_list("pk", flat=True))
    assert set(before.values()) == {"casual", "table", "fixture", "challenge"}
    owner_migration.owners_from_links(apps, None)
    assert owners(Match.objects.values_list("pk", flat=True)) == before


@pytest.mark.parametrize("owner", ["fixture", "challenge"])
def test_the_generic_result_entry_refuses_a_bot_match(owned, staff, owner):
    match_id = owned[owner]
    api = APIClient()
    api.force_authenticate(staff)

    answer = api.post(
        f"/api/matches/{match_id}/results/", {"expected_version": 0, "places": [1, 2]}, format="json"
    )

    kind = "a bot league's fixture" if owner == "fixture" else "a challenge's match"
    detail = f"match {match_id} is {kind}: its result is the record its workers play"
    assert (answer.status_code, answer.json()) == (409, {"code": "conflict", "detail": detail, "errors": []})
    assert not ResultVersion.objects.filter(match_id=match_id).exists()
    assert Match.objects.get(pk=match_id).status == "scheduled"


@pytest.mark.postgres
@pytest.mark.parametrize(
    ("model", "owner", "other"),
    [(Fixture, "fixture", "challenge"), (ChallengeMatch, "challenge", "table"), (Table, "table", "fixture")],
)
def test_postgresql_refuses_a_link_to_a_match_of_another_owner(owned, model, owner, other):
    """The composite foreign key (match_id, owner) -> match (id, owner), whatever writes the link."""
    row = model.objects.get(match_id=owned[owner])
    with pytest.raises(IntegrityError, match=f"{model._meta.db_table}_match_owner_fk"), transaction.atomic():
        model.objects.filter(pk=row.pk).update(match_id=owned["casual"])
    with pytest.raises(IntegrityError), transaction.atomic():
        Match.objects.filter(pk=owned[owner]).update(owner=other)  # an owner is never changed
    assert owners([owned[owner]]) == {owned[owner]: owner}
