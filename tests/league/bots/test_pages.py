"""Bot-league pages: league page, live part, controls, new-league form, bot page, replays of every game."""

from pathlib import Path
from unittest import mock

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games.core.runner import play_match
from games.viewer.drawing import replay_frame
from league.bots.models import BotLeague, Fixture
from league.bots.services.definitions import bot_register
from league.bots.services.leagues import league_start
from league.bots.services.work import work_play
from league.matches.models import Match
from league.programs.probe import PROTECTIONS, ProbeResult
from league.programs.services import worker_probe_record
from tests.league.bots.conftest import league_page_form, make_bots, make_league

PROGRAMS = Path(__file__).parent / "programs"
pytestmark = pytest.mark.django_db


@pytest.fixture
def no_broker():
    """Pages start leagues; these tests play them in-process instead of queueing work."""
    with mock.patch("league.bots.services.leagues.queue_work"):
        yield


def played_league(staff, bots, name="Nacho season", **overrides):
    league = make_league(staff, bots, name=name, **overrides)
    league_start(league_id=league.pk)
    work_play(league_id=league.pk, worker="test")
    league.refresh_from_db()
    return league


def test_the_league_page_shows_standings_progress_chart_and_recent_matches(client, staff, no_broker):
    league = played_league(staff, make_bots(staff))

    page = client.get(reverse("bots:league", args=[league.pk])).content.decode()

    assert "Finished" in page and "12</span> of 12 matches played" in page
    for name in ("Random", "Careful", "Balanced", "Daring", "Reckless", "Timid"):
        assert f"><bdi>{name}</bdi></a>" in page
    assert "<polyline" in page and page.count(">Replay</a>") == 10


def test_the_league_pages_run_the_same_queries_whatever_the_league_size(client, staff, no_broker):
    bots = make_bots(staff)
    small = played_league(staff, bots, name="Small", target_value=1)
    large = played_league(staff, bots, name="Large", target_value=4)
    counts = []
    for league in (small, large):
        with CaptureQueriesContext(connection) as queries:
            assert client.get(reverse("bots:league-live", args=[league.pk])).status_code == 200
        counts.append(len(queries))

    assert counts[0] == counts[1]


def test_only_staff_start_a_league_from_its_page(client, staff, member, no_broker):
    league = make_league(staff, make_bots(staff))
    url = reverse("bots:league-control", args=[league.pk, "start"])

    client.force_login(member)
    assert client.post(url).status_code == 302
    assert BotLeague.objects.get(pk=league.pk).status == "draft"
    client.force_login(staff)
    client.post(url)
    assert BotLeague.objects.get(pk=league.pk).status == "running"
    client.post(url)
    assert BotLeague.objects.get(pk=league.pk).status == "running"


def test_the_new_league_form_creates_a_league_or_says_what_is_wrong(client, staff, no_broker):
    bots = make_bots(staff)
    client.force_login(staff)
    form = league_page_form([bot.pk for bot in bots], table_size=7)
    refused = client.post(reverse("bots:league-new"), form)
    assert "Nacho Pile takes 2 to 6 players with these options, not 7" in refused.content.decode()

    created = client.post(reverse("bots:league-new"), {**form, "table_size": 3})
    league = BotLeague.objects.get(name="Spring")
    assert created.url == reverse("bots:league", args=[league.pk])
    assert (league.status, league.table_size, league.bots.count()) == ("draft", 3, 6)


def test_the_new_league_form_refuses_a_bot_id_beyond_64_bits(client, staff, no_broker):
    bots = make_bots(staff)
    client.force_login(staff)
    form = league_page_form([bots[0].pk, str(2**64)])
    refused = client.post(reverse("bots:league-new"), form)
    assert refused.context["form"].errors == {"bots": [f"“{2**64}” is not a valid value."]}
    assert not BotLeague.objects.exists()


def register_program(staff, name="Program"):
    return bot_register(
        name=name,
        game_id="nacho_pile",
        kind="external",
        command=["/usr/bin/python3", str(PROGRAMS / "first_legal.py")],
        by=staff,
    )


def probe(*, failed=()):
    return ProbeResult(
        proven={name: name not in failed for name in PROTECTIONS},
        detail={name: "reached 127.0.0.1:5432" if name in failed else "held" for name in PROTECTIONS},
    )


def test_an_external_bots_page_says_no_worker_has_proved_its_sandbox_yet(client, staff):
    bot = register_program(staff)

    page = client.get(reverse("bots:bot", args=[bot.pk])).content.decode()

    assert "Protections the workers proved" in page
    assert (
        "No worker has probed its sandbox in the last day: this bot's matches wait until one proves it."
        in page
    )


def test_an_external_bots_page_shows_what_each_worker_proved(client, staff):
    bot = register_program(staff)
    worker_probe_record(worker="celery@good", hostname="good", result=probe())
    worker_probe_record(worker="celery@leaky", hostname="leaky", result=probe(failed=("no_network",)))

    page = client.get(reverse("bots:bot", args=[bot.pk])).content.decode()

    assert 'celery@good · <span class="ok">plays external programs</span>' in page
    assert 'celery@leaky · <span class="bad">takes no external seat</span>' in page
    assert page.count("✔ No network at all (its own network namespace)") == 1
    assert (
        '<li class="bad">✘ No network at all (its own network namespace) <span class="muted">'
        "(reached 127.0.0.1:5432)</span></li>" in page
    )
    assert page.count("✔ Cannot read the service&#x27;s files (settings, passwords)") == 2


def test_a_built_in_bots_page_lists_no_protections(client, staff):
    (bot,) = make_bots(staff, (("Dice", "random", {}),))
    assert (
        "Protections the workers proved"
        not in client.get(reverse("bots:bot", args=[bot.pk])).content.decode()
    )


def test_a_league_page_says_when_external_programs_wait_for_a_proven_worker(client, staff, no_broker):
    program = register_program(staff)
    bots = [*make_bots(staff, (("Dice", "random", {}), ("Plain", "random", {}))), program]
    league = make_league(staff, bots, table_size=3, target_value=1, sittings_per_round=1)
    league_start(league_id=league.pk)
    worker_probe_record(worker="celery@leaky", hostname="leaky", result=probe(failed=("no_host_sockets",)))
    message = (
        "1 match with an external program waits for a worker that has proved its sandbox: none has in the "
        "last 10 minutes (see /health/ for what each worker proved)."
    )

    waiting = client.get(reverse("bots:league", args=[league.pk])).content.decode()
    worker_probe_record(worker="celery@good", hostname="good", result=probe())
    proven = client.get(reverse("bots:league", args=[league.pk])).content.decode()

    assert message in waiting
    assert message not in proven and "sandbox-waiting" not in proven


def test_a_replay_steps_through_the_match(client, staff, no_broker):
    league = played_league(staff, make_bots(staff), target_value=1)
    fixture = Fixture.objects.filter(league=league).select_related("match").first()
    record = fixture.match.record_json()
    url = reverse("bots:replay", args=[fixture.match_id])

    start = client.get(url).content.decode()
    second = client.get(url, {"step": 2, "fragment": 1}).content.decode()
    beyond = client.get(url, {"step": 10**6}).content.decode()

    assert 'Step <strong id="step-number">0</strong>' in start
    assert f"of {len(record['events'])}" in start
    assert 'data-step="2"' in second and "<html" not in second
    assert f'data-step="{len(record["events"])}"' in beyond


def test_a_record_that_does_not_replay_shows_the_first_bad_event(client, staff, no_broker):
    league = played_league(staff, make_bots(staff), target_value=1)
    match = Fixture.objects.filter(league=league).select_related("match").first().match
    record = match.record_json()
    index = next(i for i, (kind, _) in enumerate(record["events"]) if kind == "m")
    seat = next(iter(record["events"][index][1]))
    record["events"][index][1][seat] = "fly away"
    match.record = Match.compress_record(record)
    match.save(update_fields=["record"])
    url = reverse("bots:replay", args=[match.pk])

    before = client.get(url, {"step": index})
    at = client.get(url, {"step": index + 1})

    assert before.status_code == 200
    assert at.status_code == 409
    message = f"event {index}: seat {seat}: &#x27;fly away&#x27; is not a legal action now"
    assert message in at.content.decode()


@pytest.mark.parametrize(
    ("game_id", "players", "picture"),
    [
        ("nacho_pile", 4, 'class="drawing nacho"'),
        ("nobody_but_us_chickens", 4, 'class="coop"'),
        ("chicken_foot", 4, 'class="layout"'),
        ("chickie_nuggs", 4, 'class="tray"'),
    ],
)
def test_every_step_of_every_game_draws(game_id, players, picture):
    record = play_match(game_id, players, ["random"] * players, 17)
    names = [f"Bot {seat}" for seat in range(players)]

    for step in range(len(record["events"]) + 1):
        frame, total = replay_frame(record, names, step)
        assert picture in frame.drawing
        assert frame.step == step and total == len(record["events"])
        assert frame.caption


def test_a_bot_matchs_page_links_to_its_replay(client, staff, no_broker):
    league = played_league(staff, make_bots(staff), target_value=1)
    fixture = Fixture.objects.filter(league=league).first()

    page = client.get(f"/matches/{fixture.match_id}/").content.decode()

    assert f'href="{reverse("bots:replay", args=[fixture.match_id])}">Replay move by move</a>' in page


def test_replay_captions_name_the_bots_and_read_the_table_after_the_move():
    record = play_match("nacho_pile", 2, ["random", "random"], 5)
    names = ["Ada", "Bert"]
    last, total = replay_frame(record, names, 10**6)
    first_decision = next(i for i, (kind, _) in enumerate(record["events"], start=1) if kind == "m")

    assert last.step == total
    assert "one chip is left in the bag" in last.caption and last.caption.endswith("the game ends")
    assert replay_frame(record, names, first_decision)[0].caption.startswith("Ada: ")


def test_a_control_of_a_missing_league_is_a_404(client, staff):
    client.force_login(staff)
    response = client.post(reverse("bots:league-control", args=[4040, "start"]))
    assert response.status_code == 404


def test_a_replay_says_why_a_seat_forfeited_in_words_from_its_code(client, staff, no_broker):
    bots = make_bots(staff, (("Faller", "raises", {}), ("Cheater", "illegal", {}), ("Plain", "random", {})))
    league = played_league(staff, bots, target_value=1, sittings_per_round=1)
    fixture = Fixture.objects.get(league=league)
    record = fixture.match.record_json()
    names = [seat.player.name for seat in fixture.match.seats.order_by("seat")]

    page = client.get(reverse("bots:replay", args=[fixture.match_id])).content.decode()

    words = {"Faller": "the bot crashed", "Cheater": "an illegal action"}
    for forfeit in record["end"]["forfeits"]:
        seat, event = forfeit["seat"], forfeit["event"]
        line = (
            f'<li><a href="?step={event}">Seat {seat + 1} (protocol seat {seat}) forfeited at event '
            f"{event + 1}</a>: {words[names[seat]]}</li>"
        )
        assert line in page
    assert "fell over" not in page
