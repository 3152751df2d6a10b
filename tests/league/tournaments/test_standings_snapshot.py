"""The standings are computed once per state of a tournament and kept (`league.tournaments.snapshots`): every
change a visitor would see in them (a result, a correction, a drop, a void, a new round, a result stored by
the results service itself, a settings change) shows at once; nothing else recomputes them."""

import re
from datetime import timedelta
from unittest import mock

import pytest
from django.utils import timezone

from league.core.errors import Conflict
from league.matches.models import Match
from league.players.models import Player
from league.results.services import result_submit
from league.tournaments import pages, ranking, services, snapshots
from league.tournaments.models import StandingsChunk, StandingsSnapshot
from league.tournaments.tasks import standings_refresh_task
from tests.factories import UserFactory
from tests.factories.tournaments import table_seats

# READER: these writes go around the services (the results service as the table's owner, an update of the
# player's row), so they bump no public version: a visitor's shared copy of the page (league.web.tournaments.
# shared) changes only with the next counted change. What these tests check is the standings snapshot below
# it, so they read the page as a signed-in reader, for whom it is rendered.


def shown(client, tournament, fragment=False):
    """The standings on the tournament's page: (rank, name with its note, points, tables played) per row."""
    html = client.get(
        f"/tournaments/{tournament.slug}/{'?fragment=live' if fragment else ''}"
    ).content.decode()
    body = html.split('<table class="standings" id="standings">')[1].split("</table>")[0]
    rows = []
    for row in body.split("<tbody>")[1].split("<tr>")[1:]:
        cells = [re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", cell)).strip() for cell in row.split("<td")[1:]]
        cells = [cell.split(">", 1)[1].strip() if ">" in cell else cell for cell in cells]
        rows.append((cells[0], cells[1], cells[2], cells[-2]))
    return rows


@pytest.fixture
def computations(monkeypatch):
    """How many times the standings were computed from the history."""
    calls = []
    real = ranking.standings_of

    def counted(history, **kwargs):
        calls.append(history.tournament.pk)
        return real(history, **kwargs)

    monkeypatch.setattr(ranking, "standings_of", counted)
    return calls


@pytest.fixture
def swiss(make_tournament, play_round):
    """Four players, 2-seat Swiss; round 1 played with the first seat winning: Ada beat Cal, Bea beat Dov."""
    tournament, _ = make_tournament(4, table_size=2, rounds=3, rated=False)
    first = play_round(tournament)
    assert [[Player.objects.get(pk=pid).name for pid in seats] for seats in table_seats(first)] == [
        ["Ada", "Cal"],
        ["Bea", "Dov"],
    ]
    return tournament, first


AFTER_ROUND_1 = [
    ("1", "Ada", "1", "1"),
    ("2", "Bea", "1", "1"),
    ("3", "Cal", "0", "1"),
    ("4", "Dov", "0", "1"),
]


def test_a_second_look_reads_the_snapshot_and_the_fragment_shows_the_same(client, swiss, computations):
    tournament, _ = swiss
    assert shown(client, tournament) == AFTER_ROUND_1
    assert shown(client, tournament, fragment=True) == AFTER_ROUND_1
    assert shown(client, tournament) == AFTER_ROUND_1
    assert computations == [tournament.pk]
    assert StandingsSnapshot.objects.get(tournament=tournament).count == 4
    assert [
        len(rows) for rows in StandingsChunk.objects.order_by("index").values_list("rows", flat=True)
    ] == [4]


def test_a_correction_changes_the_standings_shown(client, swiss, organizer, computations):
    tournament, first = swiss
    assert shown(client, tournament) == AFTER_ROUND_1
    table = first.tables.get(number=1)
    services.table_result(
        table=table, by=organizer, expected_version=1, places=[2, 1], reason="seats swapped"
    )
    assert shown(client, tournament) == [
        ("1", "Bea", "1", "1"),
        ("2", "Cal", "1", "1"),
        ("3", "Ada", "0", "1"),
        ("4", "Dov", "0", "1"),
    ]
    assert len(computations) == 2


def test_a_drop_shows_at_once(client, swiss, organizer, players_by_name):
    tournament, _ = swiss
    assert shown(client, tournament) == AFTER_ROUND_1
    services.registration_leave(
        tournament=tournament, by=organizer, player_id=players_by_name["Bea"].pk, status="dropped"
    )
    assert shown(client, tournament) == [
        ("1", "Ada", "1", "1"),
        ("2", "Bea (dropped)", "1", "1"),
        ("3", "Cal", "0", "1"),
        ("4", "Dov", "0", "1"),
    ]


def test_a_void_table_no_longer_counts(client, make_tournament, play_round, organizer):
    tournament, _ = make_tournament(4, table_size=2, rounds=3, rated=False)
    services.round_publish(
        round_row=services.round_generate(tournament=tournament, by=organizer), by=organizer
    )
    first = tournament.round_set.get()
    services.table_result(table=first.tables.get(number=2), by=organizer, expected_version=0, places=[1, 2])
    assert shown(client, tournament) == [  # Dov's opponent has a point: he ranks above the two still waiting
        ("1", "Bea", "1", "1"),
        ("2", "Dov", "0", "1"),
        ("3", "Ada", "0", "0"),
        ("4", "Cal", "0", "0"),
    ]
    services.table_close(
        table=first.tables.get(number=2),
        by=organizer,
        absent=table_seats(first)[1],
        kind="no_show",
        reason="both away",
    )
    assert shown(client, tournament) == [
        ("1", "Ada", "0", "0"),
        ("2", "Bea (no-show)", "0", "0"),
        ("3", "Cal", "0", "0"),
        ("4", "Dov (no-show)", "0", "0"),
    ]


def test_a_new_round_changes_the_standings_shown(client, swiss, play_round):
    tournament, _ = swiss
    assert shown(client, tournament) == AFTER_ROUND_1
    play_round(tournament)  # round 2: Ada beats Bea, Cal beats Dov (first seat wins)
    assert shown(client, tournament) == [
        ("1", "Ada", "2", "2"),
        ("2", "Bea", "1", "2"),
        ("3", "Cal", "1", "2"),
        ("4", "Dov", "0", "2"),
    ]


def test_a_result_stored_by_the_results_service_itself_shows_too(client, swiss, organizer):
    tournament, first = swiss
    client.force_login(UserFactory(username="reader"))  # READER: rendered for them, from the snapshot
    assert shown(client, tournament) == AFTER_ROUND_1
    match_id = first.tables.get(number=2).match_id
    correction = {"match_id": match_id, "expected_version": 1, "places": [2, 1], "reason": "typo"}
    with pytest.raises(Conflict, match=f"^match {match_id} is table 2 of round 1 of "):
        result_submit(**correction, entered_by=organizer)  # the generic entry: the table's rules apply
    assert shown(client, tournament) == AFTER_ROUND_1
    result_submit(**correction, entered_by=organizer, owner=Match.Owner.TABLE)
    assert shown(client, tournament) == [
        ("1", "Ada", "1", "1"),
        ("2", "Dov", "1", "1"),
        ("3", "Bea", "0", "1"),
        ("4", "Cal", "0", "1"),
    ]


def test_a_renamed_player_shows_the_new_name_without_recomputing(
    client, swiss, players_by_name, computations
):
    tournament, _ = swiss
    client.force_login(UserFactory(username="reader"))  # READER
    assert shown(client, tournament) == AFTER_ROUND_1
    Player.objects.filter(pk=players_by_name["Cal"].pk).update(name="Calla")
    assert shown(client, tournament)[2] == ("3", "Calla", "0", "1")
    assert computations == [tournament.pk]


def test_a_stale_snapshot_is_never_shown(client, swiss):
    """A snapshot whose fingerprint is not the tournament's state is recomputed, whatever it holds."""
    tournament, _ = swiss
    assert shown(client, tournament) == AFTER_ROUND_1
    StandingsSnapshot.objects.filter(tournament=tournament).update(key="0" * 40, count=0)
    assert shown(client, tournament) == AFTER_ROUND_1
    StandingsChunk.objects.filter(tournament=tournament).delete()  # rows gone under a matching key: computed
    assert shown(client, tournament) == AFTER_ROUND_1


def test_pages_of_standings_read_the_chunks_that_hold_them(client, swiss, monkeypatch, computations):
    tournament, _ = swiss
    monkeypatch.setattr(snapshots, "CHUNK", 3)
    monkeypatch.setattr(pages, "STANDINGS_PER_PAGE", 3)
    assert shown(client, tournament) == AFTER_ROUND_1[:3]
    assert [
        len(rows) for rows in StandingsChunk.objects.order_by("index").values_list("rows", flat=True)
    ] == [3, 1]
    html = client.get(f"/tournaments/{tournament.slug}/?standings=2").content.decode()
    assert "Places 4–4 of 4" in html and "><bdi>Dov</bdi></a>" in html and "><bdi>Ada</bdi></a>" not in html
    assert computations == [tournament.pk]


@pytest.fixture
def queued(monkeypatch):
    """The tournaments whose standings refresh was queued (the task is not run: no worker here)."""
    calls = []

    class Queued:
        def __init__(self, name, args):
            assert name == "league.tournaments.tasks.standings_refresh_task"
            self.args = args

        def delay(self):
            calls.extend(self.args)

    monkeypatch.setattr(snapshots, "signature", lambda name, args: Queued(name, args))
    return calls


def test_a_large_events_pages_show_the_earlier_standings_as_of_their_time_while_a_refresh_runs(
    client, swiss, organizer, computations, queued, settings, django_capture_on_commit_callbacks
):
    """At STANDINGS_BACKGROUND_ROWS rows or more, a correction does not make the next look compute: the page
    shows the snapshot of before, says so, and queues one refresh for that state; once it ran, the new
    standings show. The CSV and the API stay exact throughout. The clock stands still while the snapshot is
    computed and shown, so its age reads 0 seconds however busy the machine is."""
    settings.STANDINGS_BACKGROUND_ROWS = 4
    tournament, first = swiss
    with mock.patch("django.utils.timezone.now", return_value=timezone.now()):
        assert shown(client, tournament) == AFTER_ROUND_1
        services.table_result(
            table=first.tables.get(number=1),
            by=organizer,
            expected_version=1,
            places=[2, 1],
            reason="seats swapped",
        )
        corrected = [
            ("1", "Bea", "1", "1"),
            ("2", "Cal", "1", "1"),
            ("3", "Ada", "0", "1"),
            ("4", "Dov", "0", "1"),
        ]
        for fragment in (False, True, False):
            with django_capture_on_commit_callbacks(execute=True):
                assert shown(client, tournament, fragment=fragment) == AFTER_ROUND_1
        html = client.get(f"/tournaments/{tournament.slug}/").content.decode()
    assert 'id="standings-as-of">As of 0 seconds ago: the latest results are being counted' in html
    assert queued == [tournament.pk]  # one refresh for the new state, however many looks
    assert computations == [tournament.pk]
    csv = client.get(f"/tournaments/{tournament.slug}/standings.csv").content.decode()
    assert csv.splitlines()[1].split(",")[1] == "Bea"

    standings_refresh_task(tournament.pk)  # what the worker does
    assert shown(client, tournament) == corrected
    assert "standings-as-of" not in client.get(f"/tournaments/{tournament.slug}/").content.decode()


def test_a_large_events_snapshot_older_than_the_limit_is_computed_in_the_request(
    client, swiss, organizer, computations, queued, settings
):
    """No worker refreshed it (or it is simply old): past STANDINGS_STALE_SECONDS the page computes."""
    settings.STANDINGS_BACKGROUND_ROWS = 4
    tournament, first = swiss
    assert shown(client, tournament) == AFTER_ROUND_1
    StandingsSnapshot.objects.filter(tournament=tournament).update(
        computed_at=timezone.now() - timedelta(seconds=settings.STANDINGS_STALE_SECONDS)
    )
    services.table_result(
        table=first.tables.get(number=1),
        by=organizer,
        expected_version=1,
        places=[2, 1],
        reason="seats swapped",
    )
    assert shown(client, tournament)[0] == ("1", "Bea", "1", "1")
    assert queued == [] and len(computations) == 2


def test_a_small_event_is_never_shown_earlier_standings(client, swiss, organizer, computations, queued):
    tournament, first = swiss  # 4 rows, far below the default STANDINGS_BACKGROUND_ROWS
    assert shown(client, tournament) == AFTER_ROUND_1
    services.table_result(
        table=first.tables.get(number=1),
        by=organizer,
        expected_version=1,
        places=[2, 1],
        reason="seats swapped",
    )
    assert shown(client, tournament)[0] == ("1", "Bea", "1", "1")
    assert queued == []
