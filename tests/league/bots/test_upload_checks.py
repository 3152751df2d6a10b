"""An upload answers at once in state `checking`; a Celery task compiles its modules (`bot_check`) and makes
it ready or refused. Until ready it takes no seat and follows into no ladder; a refusal says why on the bot's
page and in its author's inbox; uploads are throttled per user (BOT_UPLOADS_PER_USER_HOUR)."""

from datetime import timedelta
from unittest import mock

import pytest
from django.conf import settings
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.utils import timezone
from kombu.exceptions import OperationalError
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from league.bots import selectors
from league.bots.matchmaking import ladder_members
from league.bots.models import BotDefinition, LadderEvent
from league.bots.services.challenges import challenge_create
from league.bots.services.ladders import ladder_create, ladder_enter
from league.bots.services.leagues import ladder_log, league_create, next_position
from league.bots.tasks import bot_check_task
from league.bots.uploads import CHECK_TASK, bot_check, bot_upload, uploads_recheck
from league.celery import app
from league.core.errors import UserError
from league.notifications.models import Notification
from tests.factories import UserFactory
from tests.league.bots.conftest import make_bots
from tests.league.bots.crafted import BOT, TOML, good_tar, zip_bytes
from tests.league.bots.workers import Worker, wait_until

FSTRING = b"x=f'" + b"{1}" * 50_000 + b"'\n"
BROKEN = zip_bytes({"bot.toml": TOML, "main.py": BOT, "lib/tables.py": b"TABLE = [1, 2,\n"})
REFUSAL = "lib/tables.py line 1: '[' was never closed"


@pytest.fixture
def eager():
    """Tasks run at once in this process, as a worker would run them."""
    before = (app.conf.task_always_eager, app.conf.task_eager_propagates)
    app.conf.task_always_eager, app.conf.task_eager_propagates = True, True
    yield
    app.conf.task_always_eager, app.conf.task_eager_propagates = before


def api(user) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.get_or_create(user=user)[0].key}")
    return client


def api_upload(client, data: bytes, name="Greedy", filename="bot.py"):
    return client.post(
        "/api/bots/upload/",
        {"game": "nacho_pile", "name": name, "file": SimpleUploadedFile(filename, data)},
        format="multipart",
    )


def checked(user, name="Greedy", data=BOT) -> BotDefinition:
    bot = bot_upload(by=user, game_id="nacho_pile", name=name, data=data)
    assert bot_check(bot_id=bot.pk) == "ready"
    bot.refresh_from_db()
    return bot


def test_the_upload_answers_checking_and_queues_the_check_after_its_commit(
    member, django_capture_on_commit_callbacks
):
    # A program that does not compile, and one that is quadratic to compile: the request compiles neither.
    with (
        mock.patch("league.bots.uploads.signature") as queued,
        django_capture_on_commit_callbacks(execute=True),
    ):
        broken = api_upload(api(member), b"def broken(:\n", name="Broken")
        slow = api_upload(api(member), FSTRING, name="Slow")
    assert (broken.status_code, slow.status_code) == (201, 201)
    bodies = [broken.json(), slow.json()]
    assert [(body["label"], body["state"], body["refusal"], body["checked_at"]) for body in bodies] == [
        ("Broken", "checking", "", None),
        ("Slow", "checking", "", None),
    ]
    assert queued.call_args_list == [
        mock.call(CHECK_TASK, args=(bodies[0]["id"],)),
        mock.call(CHECK_TASK, args=(bodies[1]["id"],)),
    ]
    assert queued.return_value.delay.call_count == 2
    # the worker's task: the verdict, once
    assert bot_check_task(bodies[0]["id"]) == "refused"
    assert BotDefinition.objects.get(pk=bodies[0]["id"]).refusal == "bot.py line 1: invalid syntax"
    assert bot_check_task(bodies[0]["id"]) == "refused"  # idempotent: a second run changes nothing


def test_a_check_the_broker_lost_is_queued_again_by_the_sweep(member, django_capture_on_commit_callbacks):
    with (
        mock.patch("league.bots.uploads.signature") as queued,
        django_capture_on_commit_callbacks(execute=True),
    ):
        queued.return_value.delay.side_effect = OperationalError("the broker does not answer")
        response = api_upload(api(member), BOT)
    assert (response.status_code, response.json()["state"]) == (201, "checking")
    lost = response.json()["id"]
    done = checked(member, name="Other", data=BOT + b"# other\n")
    with mock.patch("league.bots.uploads.signature") as queued:
        assert uploads_recheck() == []  # a check queued a moment ago is not lost yet
        BotDefinition.objects.update(created_at=timezone.now() - timedelta(minutes=11))
        assert uploads_recheck() == [lost]  # the ready one is never checked again
    assert queued.call_args_list == [mock.call(CHECK_TASK, args=(lost,))]
    assert BotDefinition.objects.get(pk=done.pk).state == "ready"


def test_the_check_task_runs_on_the_queue_that_make_runs_worker_consumes():
    route = app.amqp.router.route({}, CHECK_TASK)
    assert route["queue"].name == settings.CELERY_TASK_DEFAULT_QUEUE
    assert CHECK_TASK in app.tasks


def test_a_version_checking_or_refused_takes_no_seat_and_follows_into_no_ladder(member, staff):
    first = checked(member)
    others = make_bots(staff)[:2]
    ladder = ladder_create(name="Open ladder", game_id="nacho_pile", table_size=2, by=staff)
    for bot in (first, *others):
        ladder_enter(ladder_id=ladder.pk, bot_id=bot.pk, by=bot.created_by)

    def members() -> set[int]:
        ladder.refresh_from_db()
        return set(ladder_members(ladder_log(ladder), next_position(ladder)))

    second = bot_upload(by=member, game_id="nacho_pile", name="Greedy", data=BROKEN)
    assert (second.version, second.state, second.previous) == (2, "checking", first)
    assert members() == {first.pk, *(bot.pk for bot in others)}
    for attempt in (
        lambda: ladder_enter(ladder_id=ladder.pk, bot_id=second.pk, by=member),
        lambda: league_create(
            name="L", game_id="nacho_pile", bot_ids=[second.pk, others[0].pk], table_size=2, by=staff
        ),
        lambda: challenge_create(bot_id=second.pk, opponent_ids=[others[0].pk], matches=1, by=member),
        lambda: challenge_create(bot_id=others[0].pk, opponent_ids=[second.pk], matches=1, by=staff),
    ):
        with pytest.raises(UserError) as caught:
            attempt()
        assert caught.value.message == (
            "Greedy v2 is still being checked: only a bot whose check passed takes a seat"
        )
    # the first version is still the current one: it may still enter and be challenged
    assert list(selectors.current_versions().filter(name="Greedy")) == [first]
    assert league_create(
        name="L1", game_id="nacho_pile", bot_ids=[first.pk, others[0].pk], table_size=2, by=staff
    )

    assert bot_check(bot_id=second.pk) == "refused"
    second.refresh_from_db()
    assert (second.state, second.refusal) == ("refused", REFUSAL)
    assert members() == {first.pk, *(bot.pk for bot in others)}
    with pytest.raises(UserError) as caught:
        ladder_enter(ladder_id=ladder.pk, bot_id=second.pk, by=member)
    assert caught.value.message == (
        "Greedy v2 was refused by the check of uploads (its page says why): only a bot whose check passed "
        "takes a seat"
    )
    assert list(selectors.current_versions().filter(name="Greedy")) == [first]

    third = checked(member, data=good_tar())
    assert third.previous == second
    assert members() == {third.pk, *(bot.pk for bot in others)}
    events = LadderEvent.objects.filter(league=ladder, bot__name="Greedy").order_by("id")
    assert list(events.values_list("action", "bot__version", "reason")) == [
        ("enter", 1, ""),
        ("leave", 1, "replaced by Greedy v3"),
        ("enter", 3, ""),
    ]
    assert list(selectors.current_versions().filter(name="Greedy")) == [third]


def test_a_version_ready_after_a_newer_one_replaces_nothing(member, staff):
    first = checked(member)
    ladder = ladder_create(name="Open ladder", game_id="nacho_pile", table_size=2, by=staff)
    ladder_enter(ladder_id=ladder.pk, bot_id=first.pk, by=member)
    second = bot_upload(by=member, game_id="nacho_pile", name="Greedy", data=BOT + b"# 2\n")
    third = bot_upload(by=member, game_id="nacho_pile", name="Greedy", data=BOT + b"# 3\n")
    assert (bot_check(bot_id=third.pk), bot_check(bot_id=second.pk)) == ("ready", "ready")
    ladder.refresh_from_db()
    assert set(ladder_members(ladder_log(ladder), next_position(ladder))) == {third.pk}
    assert not LadderEvent.objects.filter(bot=second).exists()


def test_a_refusal_says_why_on_the_bots_page_to_its_author_and_in_their_inbox(
    member, eager, django_capture_on_commit_callbacks
):
    author = Client()
    author.force_login(member)
    with django_capture_on_commit_callbacks(execute=True):
        response = author.post(
            "/bots/bots/upload/",
            {"game": "nacho_pile", "name": "Greedy", "file": SimpleUploadedFile("bot.zip", BROKEN)},
        )
    bot = BotDefinition.objects.get()
    assert (response.status_code, response["Location"]) == (302, f"/bots/bots/{bot.pk}/")
    assert (bot.state, bot.refusal) == ("refused", REFUSAL)  # the eager worker checked it after the commit
    page = author.get(response["Location"]).content.decode()
    assert (
        "Refused by the check of uploads: lib/tables.py line 1: &#x27;[&#x27; was never closed. It takes no "
        "seat; upload a corrected version." in page
    )
    stranger = Client()
    stranger.force_login(UserFactory())
    page = stranger.get(response["Location"]).content.decode()
    refused = "Refused by the check of uploads. It takes no seat; its author can upload a corrected version."
    assert refused in page
    assert "never closed" not in page
    note = Notification.objects.get(user=member)
    assert (note.kind, note.text, note.link) == (
        "bot_checked",
        f"Greedy was refused by the check of uploads: {REFUSAL}",
        f"/bots/bots/{bot.pk}/",
    )
    inbox = author.get("/notifications/").content.decode()
    assert "Greedy was refused by the check of uploads: lib/tables.py line 1" in inbox
    mine = author.get("/bots/bots/mine/").content.decode()
    assert '<span class="badge refused"' in mine


def test_a_version_being_checked_says_so_and_a_ready_one_tells_its_author(
    member, eager, django_capture_on_commit_callbacks
):
    with mock.patch("league.bots.uploads.signature"), django_capture_on_commit_callbacks(execute=True):
        bot = bot_upload(by=member, game_id="nacho_pile", name="Greedy", data=BOT)
    page = Client().get(f"/bots/bots/{bot.pk}/").content.decode()
    assert (
        "Being checked: a worker compiles its modules and looks up its imports within the bounds of the "
        "check of uploads." in page
    )
    with django_capture_on_commit_callbacks(execute=True):
        assert bot_check(bot_id=bot.pk) == "ready"
    page = Client().get(f"/bots/bots/{bot.pk}/").content.decode()
    assert "Being checked" not in page and "Refused" not in page
    assert list(Notification.objects.filter(user=member).values_list("text", flat=True)) == [
        "Greedy passed the check of uploads: it can enter ladders, leagues and challenges now."
    ]


def test_the_api_shows_the_refusal_to_its_author_and_staff_only(member, staff):
    bot = bot_upload(by=member, game_id="nacho_pile", name="Greedy", data=BROKEN)
    bot_check(bot_id=bot.pk)
    for reader, refusal in ((member, REFUSAL), (staff, REFUSAL), (UserFactory(), "")):
        body = api(reader).get(f"/api/bots/{bot.pk}/").json()
        assert (body["state"], body["refusal"]) == ("refused", refusal)
    assert api(member).get("/api/bots/mine/").json()["results"][0]["refusal"] == REFUSAL


def test_uploads_are_throttled_per_user_and_hour(member, settings):
    settings.BOT_UPLOADS_PER_USER_HOUR = 2
    client = api(member)
    now = timezone.now()
    with mock.patch("django.utils.timezone.now", return_value=now):  # the clock stands still
        assert [api_upload(client, BOT + f"# {n}\n".encode()).status_code for n in range(2)] == [201, 201]
        response = api_upload(client, BOT + b"# 3\n")
    assert (response.status_code, response["Retry-After"]) == (429, "3600")
    assert response.json() == {
        "code": "throttled",
        "detail": "you have uploaded 2 versions in the last hour, the most allowed: try again in 60 minutes",
        "field": "file",
        "errors": [
            {
                "field": "file",
                "code": "throttled",
                "detail": "you have uploaded 2 versions in the last hour, the most allowed: try again in 60 "
                "minutes",
            }
        ],
    }
    page = Client()
    page.force_login(member)
    response = page.post(
        "/bots/bots/upload/",
        {"game": "nacho_pile", "name": "Greedy", "file": SimpleUploadedFile("bot.py", BOT + b"# 3\n")},
    )
    assert response.status_code == 400
    assert "you have uploaded 2 versions in the last hour, the most allowed" in response.content.decode()
    assert BotDefinition.objects.filter(created_by=member).count() == 2
    # another author is not held back; and an hour later, this one may upload again
    assert api_upload(api(UserFactory()), BOT + b"# other\n", name="Other").status_code == 201
    oldest = BotDefinition.objects.filter(created_by=member).order_by("created_at").first()
    BotDefinition.objects.filter(pk=oldest.pk).update(created_at=timezone.now() - timedelta(minutes=61))
    assert api_upload(client, BOT + b"# 3\n").status_code == 201


@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
def test_a_real_worker_checks_an_upload_on_the_embedded_broker(member):
    worker = Worker("checks", 1)
    try:
        author = Client()
        author.force_login(member)
        for name, data in (("Good", BOT), ("Broken", BROKEN)):
            response = author.post(
                "/bots/bots/upload/",
                {"game": "nacho_pile", "name": name, "file": SimpleUploadedFile("upload", data)},
            )
            assert response.status_code == 302
        wait_until(
            lambda: not BotDefinition.objects.filter(state="checking").exists(),
            "the worker checks both uploads",
        )
    finally:
        worker.stop()
    assert list(BotDefinition.objects.order_by("name").values_list("name", "state", "refusal")) == [
        ("Broken", "refused", REFUSAL),
        ("Good", "ready", ""),
    ]


def test_a_worker_checks_a_waiting_upload_between_two_slices_of_play(member):
    """The play tasks check the oldest waiting upload between slices (`work_shared(between_slices=...)`):
    an author's check is not queued behind minutes of play. One per slice boundary, oldest first; a check
    this machine cannot run is left to its task and does not hold back the next upload."""
    from league.bots import uploads
    from league.bots.services.work import work_shared
    from league.programs.checking import CheckUnavailable

    uploads._NOT_HERE.clear()
    with mock.patch("league.bots.uploads.signature"):  # the check tasks are queued, never run here
        first = bot_upload(by=member, game_id="nacho_pile", name="First", data=BOT)
        second = bot_upload(by=member, game_id="nacho_pile", name="Second", data=BOT + b"# two\n")
        third = bot_upload(by=member, game_id="nacho_pile", name="Third", data=BOT + b"# three\n")

    def states():
        return [BotDefinition.objects.get(pk=bot.pk).state for bot in (first, second, third)]

    assert work_shared(worker="w1", between_slices=uploads.upload_check_waiting) == {}  # no play waiting
    assert states() == ["ready", "checking", "checking"]
    real_check = uploads.bot_check

    def unavailable_for_second(*, bot_id):
        if bot_id == second.pk:
            raise CheckUnavailable("no sandbox here")
        return real_check(bot_id=bot_id)

    with mock.patch("league.bots.uploads.bot_check", side_effect=unavailable_for_second):
        assert uploads.upload_check_waiting() is None  # the second: left to its task
        assert uploads.upload_check_waiting() == "ready"  # the third is not held back
    assert states() == ["ready", "checking", "ready"]
    assert uploads.upload_check_waiting() is None  # the second waits for its task (here: for 10 minutes)
    assert bot_check_task(second.pk) == "ready"
    uploads._NOT_HERE.clear()
