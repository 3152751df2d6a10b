"""Registering a batch of players is all or nothing, with a message per bad line; new names are shown as new,
with look-alike existing names, before anyone is created; a CSV of participants (name, optional seed) goes
the same way. Through the service, the page and the API."""

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from rest_framework.test import APIClient

from league.players.models import Player
from league.tournaments import services
from league.tournaments.services import BatchEntry, BatchRefused
from tests.factories.tournaments import players_named


@pytest.fixture
def open_day(make_tournament):
    """A tournament before the start with nobody registered; Priya, Ada and Bea exist as players."""
    players_named(["Priya", "Ada", "Bea"])
    tournament, _ = make_tournament(0, name="Open Day", start=False)
    return tournament


def entries(*lines):
    return [
        BatchEntry(*line, number) if isinstance(line, tuple) else BatchEntry(line, None, number)
        for number, line in enumerate(lines, 1)
    ]


def lines_of(batch_lines):
    return [(line.line, line.name, line.new, line.suggestions, line.error) for line in batch_lines]


def test_a_batch_with_bad_lines_saves_nothing_and_names_every_one(open_day, organizer):
    players_before = Player.objects.count()
    with pytest.raises(BatchRefused) as refused:
        services.registrations_add_batch(
            tournament=open_day,
            by=organizer,
            confirm_new=True,
            entries=entries("Ada", ("Bea", 1), "ada", "Zed\u202e", ("Cal", 1), ("Dov", 0)),
        )
    assert refused.value.message == "4 lines need fixing: nothing was registered"
    assert lines_of(refused.value.lines) == [
        (1, "Ada", False, [], ""),
        (2, "Bea", False, [], ""),
        (3, "ada", False, [], "ada is on line 1 already"),
        (
            4,
            "Zed\u202e",
            False,
            [],
            "a name cannot hold control or invisible formatting characters, such as U+202E (RIGHT-TO-LEFT "
            "OVERRIDE)",
        ),
        (5, "Cal", True, [], "seed 1 is taken"),
        (6, "Dov", True, [], "seed must be a whole number from 1 to 100000"),
    ]
    assert refused.value.faults[0] == ("entries.2", "line 3: ada is on line 1 already")
    assert open_day.registrations.count() == 0
    assert Player.objects.count() == players_before


def test_new_names_are_shown_with_look_alikes_before_anyone_is_created(open_day, organizer):
    preview = services.registrations_add_batch(
        tournament=open_day, by=organizer, entries=entries("Priyaa", "Ada", "Noor")
    )
    assert preview.saved is False
    assert lines_of(preview.lines) == [
        (1, "Priyaa", True, ["Priya"], ""),
        (2, "Ada", False, [], ""),
        (3, "Noor", True, [], ""),
    ]
    assert not Player.objects.filter(name__in=["Priyaa", "Noor"]).exists()
    assert open_day.registrations.count() == 0
    fixed = services.registrations_add_batch(
        tournament=open_day, by=organizer, entries=entries("Priya", "Ada")
    )
    assert fixed.saved is True  # no new name: registered at once
    assert sorted(open_day.registrations.values_list("player__name", flat=True)) == ["Ada", "Priya"]
    confirmed = services.registrations_add_batch(
        tournament=open_day, by=organizer, entries=entries("Noor", ("Bea", 7)), confirm_new=True
    )
    assert confirmed.saved is True
    assert [line.player_id for line in confirmed.lines] == list(
        Player.objects.filter(name__in=["Noor", "Bea"]).order_by("-name").values_list("pk", flat=True)
    )
    assert open_day.registrations.get(player__name="Bea").seed == 7


def test_the_page_shows_the_batch_line_by_line_and_asks_to_confirm_new_players(client, open_day, organizer):
    client.force_login(organizer)
    url = f"/tournaments/{open_day.slug}/register/"
    refused = client.post(url, {"names": "Ada\nada\nBea"})
    page = refused.content.decode()
    assert refused.status_code == 400
    assert "1 line needs fixing: nothing was registered" in page
    assert '<span class="error">ada is on line 1 already</span>' in page
    preview = client.post(url, {"names": "Priyaa\nAda"})
    page = preview.content.decode()
    assert preview.status_code == 200
    assert "Check the new players before they are created." in page
    assert "<bdi>Priyaa</bdi>\n — <strong>new player</strong>: did you mean <q><bdi>Priya</bdi></q>?" in page
    assert '<button type="submit">Yes, register all 2, creating the new player</button>' in page
    assert open_day.registrations.count() == 0
    confirm = preview.context["register_form"]
    answer = client.post(url, {"entries": confirm.initial["entries"], "confirm_new": "True"}, follow=True)
    assert "Registered 2 players (1 new)." in answer.content.decode()
    assert sorted(open_day.registrations.values_list("player__name", flat=True)) == ["Ada", "Priyaa"]


def test_a_csv_of_participants_goes_the_same_way(client, open_day, organizer):
    client.force_login(organizer)
    url = f"/tournaments/{open_day.slug}/register/"
    upload = SimpleUploadedFile("players.csv", "name,seed\nAda,2\nБорис,1\nBea,\n".encode("utf-8-sig"))
    preview = client.post(url, {"participants": upload})
    assert preview.status_code == 200
    assert [(line.line, line.name, line.seed, line.new) for line in preview.context["batch"]] == [
        (2, "Ada", 2, False),
        (3, "Борис", 1, True),
        (4, "Bea", None, False),
    ]
    client.post(url, {"entries": preview.context["register_form"].initial["entries"], "confirm_new": "True"})
    assert dict(open_day.registrations.values_list("player__name", "seed")) == {
        "Ada": 2,
        "Борис": 1,
        "Bea": None,
    }
    bad = SimpleUploadedFile("players.csv", b"Cal,first\nDov,3\n")
    refused = client.post(url, {"participants": bad})
    assert refused.status_code == 400
    assert "seed must be a whole number from 1 to 100000" in refused.content.decode()
    assert not open_day.registrations.filter(player__name__in=["Cal", "Dov"]).exists()


def test_the_api_registers_a_batch_all_or_nothing(open_day, organizer):
    api = APIClient()
    api.force_authenticate(organizer)
    url = f"/api/tournaments/{open_day.pk}/registrations/batch/"
    refused = api.post(
        url, {"entries": [{"name": "Ada"}, {"name": "ADA"}, {"name": "Bea", "seed": 3}]}, format="json"
    )
    assert refused.status_code == 400
    assert refused.json() == {
        "code": "invalid",
        "detail": "1 line needs fixing: nothing was registered",
        "field": "entries.1",
        "errors": [{"field": "entries.1", "code": "invalid", "detail": "line 2: ADA is on line 1 already"}],
    }
    preview = api.post(url, {"entries": [{"name": "Priyaa"}, {"name": "Ada", "seed": 1}]}, format="json")
    assert preview.status_code == 200
    assert preview.json() == {
        "saved": False,
        "lines": [
            {
                "line": 1,
                "name": "Priyaa",
                "seed": None,
                "new": True,
                "suggestions": ["Priya"],
                "player": None,
            },
            {"line": 2, "name": "Ada", "seed": 1, "new": False, "suggestions": [], "player": None},
        ],
    }
    saved = api.post(
        url, {"entries": [{"name": "Priyaa"}, {"name": "Ada", "seed": 1}], "confirm_new": True}, format="json"
    )
    assert saved.status_code == 201
    assert [(line["name"], line["player"] is not None) for line in saved.json()["lines"]] == [
        ("Priyaa", True),
        ("Ada", True),
    ]


@pytest.mark.parametrize("entries", ["[" * 200_000, '[{"name": "Ada", "line": 1}, ' + "[" * 5_000 + "]"])
def test_a_damaged_batch_nested_deep_is_a_form_error_not_a_500(client, open_day, organizer, entries):
    """The confirmed batch comes back from the browser as JSON: nesting deep enough to exhaust Python's
    recursion is refused before parsing, as a damaged batch, and nothing is registered."""
    client.force_login(organizer)
    answer = client.post(
        f"/tournaments/{open_day.slug}/register/", {"entries": entries, "confirm_new": "True"}
    )
    assert answer.status_code == 400
    assert "the batch came back damaged: type the names again" in answer.content.decode()
    assert open_day.registrations.count() == 0
