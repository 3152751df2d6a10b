"""Names in any script: "李雷", "محمد علي" and "Юлия" are players like any other, through the services, the
pages and the API; names are unique ignoring case in every script (a key case-folded in Python); one slug
rule that every page URL accepts; CSV exports show names unchanged, start with a BOM and defuse formulas."""

from urllib.parse import quote

import pytest
from rest_framework.test import APIClient

from league.core.errors import UserError
from league.core.exports import safe_cell
from league.players.models import Player
from league.players.services import player_create, player_update
from league.tournaments import services
from tests.factories import StaffFactory
from tests.factories.tournaments import play_round

NAMES = ["李雷", "محمد علي", "Юлия", "Zoë"]


@pytest.fixture
def organizer(db):
    return StaffFactory(username="organizer")


@pytest.fixture
def cup(organizer):
    """A 2-round Swiss named in Cyrillic of the four names, registered by name through the service, played."""
    tournament = services.tournament_create(
        created_by=organizer,
        name="Кубок Юлии",
        game_id="nacho_pile",
        format="swiss",
        table_size=2,
        rounds=2,
        rated=False,
    )
    for name in NAMES:
        services.registration_add(tournament=tournament, by=organizer, name=name)
    services.tournament_start(tournament=tournament, by=organizer)
    play_round(tournament, organizer)
    return tournament


def test_names_in_any_script_are_accepted_and_kept_as_typed(db):
    players = [player_create(name=name) for name in NAMES]
    assert [(player.name, player.slug) for player in players] == [
        ("李雷", "李雷"),
        ("محمد علي", "محمد-علي"),
        ("Юлия", "юлия"),
        ("Zoë", "zoë"),
    ]
    assert player_create(name="مهر\u200cناز").name == "مهر\u200cناز"  # the zero-width non-joiner stays
    with pytest.raises(
        UserError, match=r"^a name cannot hold control .* U\+202E \(RIGHT-TO-LEFT OVERRIDE\)$"
    ):
        player_create(name="Юлия\u202e")
    with pytest.raises(UserError, match=r"^a name cannot hold control .* U\+2067 \(RIGHT-TO-LEFT ISOLATE\)$"):
        player_create(name="\u2067李雷")


def test_names_are_unique_ignoring_case_in_every_script(db):
    julia = player_create(name="Юлия")
    for other in ("юлия", "ЮЛИЯ"):
        with pytest.raises(UserError, match=f"^there is already a player called '{other}'$"):
            player_create(name=other)
    player_create(name="Straße")
    with pytest.raises(UserError, match="^there is already a player called 'STRASSE'$"):
        player_create(name="STRASSE")
    assert Player.objects.get(pk=julia.pk).name_key == "юлия"
    renamed = player_update(player=julia, name="ЮЛИЯ")  # a player may change the case of their own name
    assert (renamed.name, renamed.name_key, renamed.slug) == ("ЮЛИЯ", "юлия", "юлия")


def test_registering_by_name_finds_the_player_whatever_the_case(organizer):
    julia = player_create(name="Юлия")
    tournament = services.tournament_create(created_by=organizer, name="Open", game_id="nacho_pile", rounds=1)
    registration = services.registration_add(tournament=tournament, by=organizer, name="юлия")
    assert registration.player_id == julia.pk
    assert Player.objects.count() == 1


def test_every_page_listing_them_renders(client, cup):
    base = f"/tournaments/{quote(cup.slug)}"
    assert cup.slug == "кубок-юлии"
    pages = [f"{base}/", f"{base}/rounds/1/", f"{base}/rounds/1/find/", "/players/", "/tournaments/"]
    pages += [f"{base}/players/{quote(slug)}/" for slug in ("李雷", "محمد-علي", "юлия", "zoë")]
    pages += [f"/players/{quote(slug)}/" for slug in ("李雷", "محمد-علي", "юлия", "zoë")]
    for url in pages:
        response = client.get(url)
        assert response.status_code == 200, url
    page = client.get(f"{base}/").content.decode()
    for name in NAMES:
        assert name in page
    assert f'href="{base}/players/{quote("محمد-علي")}/"' in page
    assert client.get(f"{base}/players/{quote('no such one')}/").status_code == 404


def test_the_api_takes_and_returns_them(organizer):
    api = APIClient()
    api.force_authenticate(organizer)
    created = api.post(
        "/api/tournaments/",
        {"name": "Кубок", "game": "nacho_pile", "table_size": 2, "rounds": 1},
        format="json",
    )
    assert (created.status_code, created.json()["slug"]) == (201, "кубок")
    base = f"/api/tournaments/{created.json()['id']}"
    api.post(f"{base}/open-registration/")
    for name in NAMES:
        answer = api.post(f"{base}/registrations/", {"name": name}, format="json")
        assert (answer.status_code, answer.json()["name"]) == (201, name)
    duplicate = api.post("/api/players/", {"name": "юлия"}, format="json")
    assert duplicate.status_code == 400
    assert duplicate.json()["detail"] == "there is already a player called 'юлия'"
    listed = APIClient().get("/api/players/").json()["results"]
    assert sorted((player["name"], player["slug"]) for player in listed) == sorted(
        [("李雷", "李雷"), ("محمد علي", "محمد-علي"), ("Юлия", "юлия"), ("Zoë", "zoë")]
    )
    assert api.get(f"{base}/standings/").status_code == 200


def test_csv_exports_keep_names_start_with_a_bom_and_defuse_formulas(client, organizer):
    tournament = services.tournament_create(
        created_by=organizer,
        name="Кубок",
        game_id="nacho_pile",
        format="swiss",
        table_size=2,
        rounds=1,
        rated=False,
    )
    for name in ["李雷", "Юлия", "=HYPERLINK(1)", "@risk"]:
        services.registration_add(tournament=tournament, by=organizer, name=name)
    services.tournament_start(tournament=tournament, by=organizer)
    play_round(tournament, organizer)
    response = client.get(f"/tournaments/{quote(tournament.slug)}/standings.csv")
    assert (
        response["Content-Disposition"]
        == "attachment; filename*=utf-8''%D0%BA%D1%83%D0%B1%D0%BE%D0%BA-standings.csv"
    )
    body = response.content
    assert body.startswith("\ufeff".encode())
    rows = [line.split(",")[1] for line in body.decode("utf-8-sig").splitlines()[1:]]
    assert sorted(rows) == sorted(["李雷", "Юлия", "'=HYPERLINK(1)", "'@risk"])
    results = client.get(f"/tournaments/{quote(tournament.slug)}/results.csv").content.decode("utf-8-sig")
    assert "'=HYPERLINK(1)" in results and "Юлия" in results
    assert [safe_cell(value) for value in ["-Zed", "+1", "-1.5", -2, "Ann", "=1+2"]] == [
        "'-Zed",
        "+1",
        "-1.5",
        -2,
        "Ann",
        "'=1+2",
    ]
