"""One lifecycle for a new version: checking → validating → ready | refused | failing. A version that
passed its check plays one unrated match per seat at the smallest and the largest table of the ladders it
would enter, against random bots, as leased work of kind "validation"; it enters ladders only when ready."""

from unittest import mock

import pytest
from django.test import Client
from django.utils.html import escape
from rest_framework.test import APIClient

from league.bots.models import BotDefinition, LadderEvent, ValidationMatch, VerificationWork
from league.bots.services.ladders import ladder_enter
from league.bots.services.leases import KINDS, Kind
from league.bots.services.validations import validation_seed
from league.bots.services.work import work_play
from league.bots.uploads import bot_check, bot_upload
from league.core.errors import UserError
from league.matches.models import Match
from league.matches.services import matches_unverified
from league.notifications.models import Notification
from league.notifications.services import notify_bot_checked
from tests.league.bots.crafted import BOT
from tests.league.bots.test_ladders import make_ladder

CRASHES_AT_3 = b"""import json, sys
decisions = 0
for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "act":
        decisions += 1
        if decisions == 3:
            raise SystemExit(1)
        print(json.dumps({"action": message["legal_actions"][0]}), flush=True)
"""


@pytest.fixture
def validating(settings):
    settings.BOT_VALIDATION = True


def upload(user, name="Hen Pecker", data=BOT):
    with mock.patch("league.bots.uploads.signature"):
        bot = bot_upload(by=user, game_id="nacho_pile", name=name, data=data)
    with mock.patch("league.bots.services.challenges.signature"):
        bot_check(bot_id=bot.pk)
    bot.refresh_from_db()
    return bot


def test_a_checked_version_is_validating_with_a_match_per_seat_at_the_smallest_and_largest_table(
    member, validating
):
    bot = upload(member)
    assert bot.state == "validating"
    page = Client().get(f"/bots/bots/{bot.pk}/").content.decode()
    assert (
        "Being validated: it plays one unrated match in each seat of the smallest and the largest table"
        in page
    )
    rows = list(ValidationMatch.objects.filter(bot=bot).select_related("match").order_by("index"))
    # Nacho Pile seats 2 to 6: its seat at a table of 2, then each of the 6 at a table of 6.
    assert [(row.match.seats.count(), row.seat) for row in rows] == [
        (2, 0),
        (2, 1),
        (6, 0),
        (6, 1),
        (6, 2),
        (6, 3),
        (6, 4),
        (6, 5),
    ]
    assert [row.seed for row in rows] == [validation_seed(bot.pk, index) for index in range(8)]
    for row in rows:
        match = row.match
        seated = list(match.seats.order_by("seat").values_list("player__name", flat=True))
        assert seated[row.seat] == "Hen Pecker"
        assert sorted(seated[: row.seat] + seated[row.seat + 1 :]) == [
            f"Validator {number}" for number in range(1, len(seated))
        ]
        assert (match.owner, match.rated, match.visibility) == ("validation", False, "private")
        assert list(match.viewers.values_list("user_id", flat=True)) == [member.pk]
    validators = BotDefinition.objects.filter(name__startswith="Validator ")
    assert {(v.strategy, v.created_by_id) for v in validators} == {("random", None)}
    assert KINDS[Kind.VALIDATION].model is ValidationMatch


def test_a_validating_version_enters_no_ladder(member, staff, validating):
    bot = upload(member)
    ladder = make_ladder(staff)
    with pytest.raises(UserError) as caught:
        ladder_enter(ladder_id=ladder.pk, bot_id=bot.pk, by=member)
    assert caught.value.message == (
        "Hen Pecker is still playing its validation matches: only a bot whose check passed takes a seat"
    )
    assert not LadderEvent.objects.filter(league=ladder).exists()


@pytest.mark.sandbox
def test_a_sound_program_plays_its_validation_and_is_ready(
    member, validating, django_capture_on_commit_callbacks
):
    bot = upload(member)
    with (
        mock.patch("league.bots.services.challenges.signature"),
        mock.patch("league.matches.services.signature"),
    ):
        assert work_play(worker="test-validation") == 8
    bot.refresh_from_db()
    assert (bot.state, bot.refusal) == ("ready", "")
    assert set(Match.objects.filter(owner="validation").values_list("status", flat=True)) == {"finished"}
    # Their records are verified as leased work, not by the sweep.
    validated = sorted(ValidationMatch.objects.filter(bot=bot).values_list("match_id", flat=True))
    assert sorted(VerificationWork.objects.values_list("match_id", flat=True)) == validated
    assert matches_unverified() == []


@pytest.mark.sandbox
def test_a_program_that_crashes_at_its_third_decision_fails_its_validation_and_its_author_is_told(
    member, validating, django_capture_on_commit_callbacks
):
    bot = upload(member, data=CRASHES_AT_3)
    with (
        mock.patch("league.bots.services.challenges.signature"),
        mock.patch("league.matches.services.signature"),
        mock.patch("league.notifications.receivers.notify_task") as notify,
        django_capture_on_commit_callbacks(execute=True),
    ):
        work_play(worker="test-validation")
    bot.refresh_from_db()
    first = ValidationMatch.objects.get(bot=bot, index=0)
    assert bot.state == "failing"
    assert bot.refusal == (
        f"validation match {first.match_id} (seat 1 (protocol seat 0) of 2): At decision 3, your program "
        "exited with status 1 before answering"
    )
    notify.delay.assert_called_once_with("bot_checked", {"bot_id": bot.pk})
    author = Client()
    author.force_login(member)
    page = author.get(f"/bots/bots/{bot.pk}/").content.decode()
    assert (
        f"Failed its validation matches: {escape(bot.refusal)}. It takes no seat; upload a corrected version."
        in page
    )
    assert '<span class="badge refused"' in author.get("/bots/bots/mine/").content.decode()
    notify_bot_checked(bot_id=bot.pk)
    assert list(Notification.objects.filter(user=member).values_list("text", flat=True)) == [
        f"Hen Pecker failed its validation matches: {bot.refusal}"
    ]


def test_the_generic_result_entry_refuses_a_validation_match(member, staff, validating):
    bot = upload(member)
    match_id = ValidationMatch.objects.filter(bot=bot).order_by("index")[0].match_id
    api = APIClient()
    api.force_authenticate(staff)
    answer = api.post(
        f"/api/matches/{match_id}/results/", {"expected_version": 0, "places": [1, 2]}, format="json"
    )
    detail = f"match {match_id} validates a new bot version: its result is the record its workers play"
    assert (answer.status_code, answer.json()) == (409, {"code": "conflict", "detail": detail, "errors": []})


# In seat 2 of 2 it outlasts its first answer's allowance (6 s) and the whole of its time bank (10 s).
SLOW_IN_SEAT_2_OF_2 = b"""import json, sys, time
slow = False
for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "start":
        slow = message["seat"] == 1 and message["num_players"] == 2
    elif message["type"] == "act":
        if slow:
            time.sleep(60)
        print(json.dumps({"action": message["legal_actions"][0]}), flush=True)
"""


@pytest.mark.sandbox
def test_a_time_out_is_played_once_more_before_it_counts(member, validating):
    bot = upload(member, data=SLOW_IN_SEAT_2_OF_2)
    with (
        mock.patch("league.bots.services.challenges.signature"),
        mock.patch("league.matches.services.signature"),
    ):
        work_play(worker="test-validation")
    bot.refresh_from_db()
    first = ValidationMatch.objects.get(bot=bot, index=1)
    replay = ValidationMatch.objects.get(bot=bot, replay_of=first)
    assert (replay.index, replay.seat, replay.seed) == (8, 1, first.seed)
    assert ValidationMatch.objects.filter(bot=bot).count() == 9
    assert bot.state == "failing"
    assert bot.refusal == (
        f"validation match {replay.match_id} (seat 2 (protocol seat 1) of 2): At decision 1, your program "
        "gave no answer within 6 s and the 10.000 s left in its time bank (killed): 1 s a move, and 5 s more "
        "for the first answer (the program's start-up)"
    )
