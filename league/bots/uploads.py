"""Bots uploaded by their authors: any signed-in user registers a bot for a game by uploading a program, and
each upload of the same bot's name is its next version (docs/bot-leagues.md, "Uploading a bot").

The upload is checked by `league.programs.archives` under the caps of the settings (BOT_UPLOAD_*), stored once
by its SHA-256 (`Program`), and the version made is an external program's `BotDefinition` whose command is
derived from the entry point; the workers fetch its files by hash (`league.programs.program_cache`) and show
only them to its sandbox. A per-user quota bounds the versions and the bytes one author stores, and a
throttle the versions one author uploads in an hour (BOT_UPLOADS_PER_USER_HOUR).

The request never compiles the program (CPython's compiler is not linear in its input): the version is
stored in state `checking`, and a Celery task (`bot_check_task`, queued after the commit) compiles every
module in a bounded child process (`league.programs.checking`, BOT_CHECK_*). The version becomes `ready`, and
only then takes seats and follows its predecessor into its ladders; or `refused`, with the reason on its
page and in its author's inbox (the `bot_checked` event).

Each version is immutable and its own player: an upload never changes one that exists. Its logs (what its
program printed and why it forfeited) are the author's and staff's to read (`can_read_logs`).
"""

from __future__ import annotations

import logging
import math
import time
from datetime import timedelta
from typing import IO, Any, cast

from celery import signature
from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AnonymousUser, User
from django.db import IntegrityError, transaction
from django.db.models import Max, Sum
from django.utils import timezone
from kombu.exceptions import KombuError

from league.bots.budget import DEFAULT_MEMORY_MB, check_seat_memory
from league.bots.models import BotDefinition
from league.bots.services.definitions import (
    TIME_BANK_DEFAULT,
    TIME_BANK_SECONDS,
    bot_player_create,
    check_bot_description,
    check_bot_name,
)
from league.bots.services.ladders import ladders_follow_new_version
from league.bots.services.validations import validation_start
from league.core import events
from league.core.catalogue import game_spec
from league.core.errors import Conflict, ErrorCode, Forbidden, TooMany, UserError
from league.programs.archives import CheckedProgram, ProgramRefused, check_program
from league.programs.checking import compile_check, python_sources
from league.programs.models import Program
from league.programs.runtimes import PYTHON, RUNTIME_NAMES, RUNTIMES
from league.programs.services import program_checked, program_store
from league.programs.uploads import bots_python, check_limits, sandbox_check, upload_limits

CHECK_TASK = "league.bots.tasks.bot_check_task"
THROTTLE_WINDOW = timedelta(hours=1)
STALE_CHECK = timedelta(minutes=10)

logger = logging.getLogger(__name__)


class NotSignedIn(Forbidden):
    """The upload needs a signed-in user."""


def upload_body_limit() -> int:
    """The cap of an upload request's body (league.core.bodies): the upload's and the form's other fields."""
    return settings.BOT_UPLOAD_MAX_BYTES + settings.BOT_UPLOAD_FORM_BYTES


def read_upload(upload: IO[bytes] | None, *, field: str = "file") -> bytes:
    """An uploaded file's bytes, read no further than the upload cap (a UserError past it or if absent)."""
    if upload is None or isinstance(upload, str):
        raise UserError("choose a file to upload: a Python file, or a zip or tar archive", field=field)
    limit = settings.BOT_UPLOAD_MAX_BYTES
    size = getattr(upload, "size", None)
    if size is not None and size > limit:
        raise UserError(f"the upload is larger than {_size(limit)} ({size} bytes)", field=field)
    data = upload.read(limit + 1)
    if len(data) > limit:
        raise UserError(f"the upload is larger than {_size(limit)}", field=field)
    return data


def _size(number: int) -> str:
    if number and number % (1 << 20) == 0:
        return f"{number >> 20} MiB"
    if number and number % (1 << 10) == 0:
        return f"{number >> 10} KiB"
    return f"{number} bytes"


def upload_usage(user: User) -> tuple[int, int]:
    """(versions uploaded, bytes stored) by `user`: the bytes of each distinct upload, counted once."""
    versions = BotDefinition.objects.filter(created_by=user, program__isnull=False)
    stored = (
        Program.objects.filter(versions__in=versions).distinct().aggregate(total=Sum("size"))["total"] or 0
    )
    return versions.count(), stored


def check_quota(user: User, checked: CheckedProgram) -> None:
    versions, stored = upload_usage(user)
    if versions >= settings.BOT_UPLOAD_QUOTA_VERSIONS:
        raise UserError(
            f"you have uploaded {versions} versions, your quota: ask staff for more room", field="file"
        )
    already = BotDefinition.objects.filter(created_by=user, program__sha256=checked.sha256).exists()
    if not already and stored + checked.size > settings.BOT_UPLOAD_QUOTA_BYTES:
        raise UserError(
            f"this upload ({checked.size} bytes) would take your stored programs past your quota of "
            f"{_size(settings.BOT_UPLOAD_QUOTA_BYTES)} ({stored} bytes used)",
            field="file",
        )


def check_throttle(user: User) -> None:
    """Refuse (429) a user who uploaded BOT_UPLOADS_PER_USER_HOUR versions in the last hour."""
    since = timezone.now() - THROTTLE_WINDOW
    recent = list(
        BotDefinition.objects.filter(created_by=user, program__isnull=False, created_at__gt=since)
        .order_by("created_at")
        .values_list("created_at", flat=True)
    )
    limit = settings.BOT_UPLOADS_PER_USER_HOUR
    if len(recent) >= limit:
        wait = recent[len(recent) - limit] + THROTTLE_WINDOW - timezone.now()
        seconds = max(1, math.ceil(wait.total_seconds()))
        minutes = math.ceil(seconds / 60)
        raise TooMany(
            f"you have uploaded {len(recent)} versions in the last hour, the most allowed: "
            f"try again in {minutes} minute{'s' if minutes != 1 else ''}",
            retry_after=seconds,
            field="file",
        )


def _latest_version(by: User, game_id: str, name: Any) -> BotDefinition | None:
    """The latest version of `by`'s bot `name` for the game, or None."""
    if not isinstance(name, str):
        return None
    return (
        BotDefinition.objects.filter(created_by=by, game_id=game_id, name__iexact=name.strip())
        .order_by("-version")
        .select_related("program")
        .first()
    )


def bot_upload(
    *,
    by: User | AnonymousUser | None,
    game_id: Any,
    name: Any,
    data: bytes,
    description: str = "",
    time_bank_seconds: Any = TIME_BANK_DEFAULT,
    filename: str = "",
    runtime: Any = "",
) -> BotDefinition:
    """Register the next version of the bot `name` of `game_id` from an uploaded program (`data`, its bytes).

    A name none of the uploader's bots of the game has makes version 1 (the uploader is its author); the name
    of the uploader's own uploaded bot makes its next version (`previous` is the latest). Other authors' bots
    and people of the same name block nothing: a bot's identity is (author, game, name, version).
    The version is stored `checking`: its modules are compiled by `bot_check`, queued after the commit.
    `time_bank_seconds` is its time bank per match (0 to 60; docs/bot-protocol.md). Its runtime (python, node
    or c) is `runtime` if given, else its manifest's, else its entry point's extension (one file alone: its
    `filename`'s; `league.programs.archives`).
    """
    if by is None or not by.is_authenticated:
        raise NotSignedIn("sign in to upload a bot")
    check_throttle(by)
    spec = game_spec(game_id, field="game")
    runtime = check_runtime(runtime)
    bank = float(TIME_BANK_SECONDS.check(time_bank_seconds, "time_bank_seconds"))
    latest = _latest_version(by, spec.id, name)
    if latest is None:
        cleaned = check_bot_name(name, game_id=spec.id, by=by)
    elif not latest.is_uploaded:
        raise UserError(
            f"your bot {latest.name!r} for this game is not an upload (staff registered it): "
            "choose another name",
            field="name",
            code=ErrorCode.DUPLICATE,
        )
    else:
        cleaned = latest.name
    try:
        checked = check_program(data, upload_limits(), filename=filename or "", runtime=runtime)
    except ProgramRefused as exc:
        raise UserError(str(exc), field="file") from None
    # An uploaded version (checked above) has its program.
    if latest is not None and cast(Program, latest.program).sha256 == checked.sha256:
        raise UserError(
            f"this is the same program as {latest.label} (SHA-256 {checked.sha256[:12]}): change it first",
            field="file",
            code=ErrorCode.DUPLICATE,
        )
    stored = Program.objects.filter(sha256=checked.sha256).exclude(runtime=checked.runtime).first()
    if stored is not None:
        raise UserError(
            f"these bytes were uploaded before as a {RUNTIME_NAMES[stored.runtime]} program: "
            "choose that runtime, or change the program",
            field="runtime",
        )
    check_quota(by, checked)
    check_seat_memory(memory_mb=DEFAULT_MEMORY_MB, field=None)  # an upload runs with the default memory
    description = check_bot_description(description or checked.manifest.get("description", ""))
    try:
        with transaction.atomic():
            # The throttle again, under the user's lock: two requests at once cannot both pass it.
            get_user_model().objects.select_for_update().filter(pk=by.pk).first()
            check_throttle(by)
            program = program_store(checked, data)
            version = 1 if latest is None else latest.version + 1
            current = (
                BotDefinition.objects.filter(created_by=by, game_id=spec.id, name=cleaned).aggregate(
                    v=Max("version")
                )["v"]
                or 0
            )
            if current + 1 != version:
                raise IntegrityError("another version was uploaded meanwhile")
            player = bot_player_create(name=cleaned, version=version, author=by)
            uploaded = BotDefinition.objects.create(
                name=cleaned,
                version=version,
                game_id=spec.id,
                kind=BotDefinition.Kind.EXTERNAL,
                program=program,
                time_bank_seconds=bank,
                description=description,
                previous=latest,
                created_by=by,
                player=player,
                state=BotDefinition.State.CHECKING,
            )
            queue_check(uploaded.pk)
            return uploaded
    except IntegrityError:
        raise Conflict(
            f"another version of {cleaned!r} was uploaded at the same moment: "
            "look at your bots and try again",
            field="name",
        ) from None


def check_runtime(runtime: Any) -> str:
    """The runtime an upload chose ("" to let its manifest or extension say), or a UserError."""
    if runtime in (None, ""):
        return ""
    if runtime not in RUNTIMES:
        offered = ", ".join(f"{name} ({RUNTIME_NAMES[name]})" for name in RUNTIMES)
        raise UserError(f"the runtime must be one of {offered}, not {str(runtime)[:40]!r}", field="runtime")
    return str(runtime)


def queue_check(bot_id: int) -> None:
    """Queue the check of an uploaded version once the transaction commits. A broker that does not answer
    then fails neither the upload nor its answer: `uploads_recheck` queues the check again later."""

    def send() -> None:
        try:
            signature(CHECK_TASK, args=(bot_id,)).delay()
        except (KombuError, OSError):
            logger.warning(
                "could not queue the check of bot %s: the sweep queues it later", bot_id, exc_info=True
            )

    transaction.on_commit(send)


def uploads_recheck() -> list[int]:
    """Queue again the check of every version still `checking` STALE_CHECK after its upload (its task was
    lost, or the machine could not run it); their ids. Run by beat; a check queued twice is done once."""
    due = timezone.now() - STALE_CHECK
    ids = list(
        BotDefinition.objects.filter(state=BotDefinition.State.CHECKING, created_at__lt=due)
        .order_by("pk")
        .values_list("pk", flat=True)
    )
    for bot_id in ids:
        signature(CHECK_TASK, args=(bot_id,)).delay()
    return ids


# Versions whose check failed here between slices (the machine cannot run it now, or it broke): left to their
# tasks for NOT_HERE_SECONDS, so that one of them does not stand before every later upload.
_NOT_HERE: dict[int, float] = {}
NOT_HERE_SECONDS = 600.0


def upload_check_waiting() -> str | None:
    """Check the oldest version still `checking`, if any (`bot_check`), from a worker between two slices of
    play (`work_shared`): its check task waits in the queue behind the play tasks (each plays for up to a
    minute), and an author waited minutes for a verdict that takes a second. Its state after, or None with
    none waiting or when this machine cannot run its check now (`CheckUnavailable`: its task tries again).
    The task queued at the upload finds it checked and leaves it (`bot_check` is idempotent)."""
    now = time.monotonic()
    for failed, failed_at in list(_NOT_HERE.items()):
        if now - failed_at > NOT_HERE_SECONDS:
            del _NOT_HERE[failed]
    bot_id = (
        BotDefinition.objects.filter(state=BotDefinition.State.CHECKING)
        .exclude(pk__in=list(_NOT_HERE))
        .order_by("created_at", "pk")
        .values_list("pk", flat=True)
        .first()
    )
    if bot_id is None:
        return None
    try:
        return bot_check(bot_id=bot_id)
    except Exception:  # its own task, with its retries, checks it; the play goes on
        _NOT_HERE[bot_id] = now
        logger.warning("version %s: not checked between slices; its task tries again", bot_id, exc_info=True)
        return None


def bot_check(*, bot_id: int) -> str:
    """Check an uploaded version in state `checking`: read its stored program again; a Python one: compile
    every module and look up its imports in bounded child processes (`league.programs.checking`); a C one:
    compile it with `cc` in the sandbox and keep the executable, a JavaScript one: parse it with
    `node --check` there (`league.programs.building`), recording the runtime's version; the version becomes
    `validating` (its matches scheduled, `league.bots.services.validations`; with BOT_VALIDATION off, `ready`
    at once, following its predecessor into the ladders) or `refused` with the reason, and its author hears of
    it. Its state after.

    Idempotent: a version that is no longer checking is left as it is. The compiling happens outside any
    transaction; the verdict is written under the version's row lock. CheckUnavailable (the machine cannot
    run the check) propagates, and the version stays `checking` for a later try.
    """
    bot = BotDefinition.objects.filter(pk=bot_id).select_related("program").first()
    if bot is None or bot.state != BotDefinition.State.CHECKING:
        return bot.state if bot is not None else ""
    program = cast(Program, bot.program)  # a version that is checking is an upload, so it has its program
    version, build = "", b""
    try:
        checked = check_program(bytes(program.content), upload_limits(), runtime=program.runtime)
        if checked.runtime == PYTHON:
            refusal = compile_check(python_sources(checked.contents), check_limits())
            version = f"Python {bots_python()}" if bots_python() else ""
        else:  # C compiled, JavaScript parsed, in the sandbox
            built = sandbox_check(checked)
            refusal, version, build = built.refusal or None, built.version, built.binary
    except ProgramRefused as exc:  # the caps of the settings were lowered since the upload
        refusal = str(exc)
    with transaction.atomic():
        locked = BotDefinition.objects.select_for_update().get(pk=bot_id)
        if locked.state != BotDefinition.State.CHECKING:
            return locked.state
        if version or build:
            program_checked(program=program, version=version, build=build)
        if refusal is None and settings.BOT_VALIDATION:
            validation_start(bot=locked)  # its verdict, and its author's news, come with its matches
            return locked.state
        locked.state = BotDefinition.State.READY if refusal is None else BotDefinition.State.REFUSED
        locked.refusal = refusal or ""
        locked.checked_at = timezone.now()
        locked.save(update_fields=["state", "refusal", "checked_at"])
        if locked.is_ready:
            ladders_follow_new_version(bot=locked)  # it replaces its predecessor in the ladders
        events.emit(events.bot_checked, bot_id=locked.pk)
    return locked.state


def can_read_logs(user: User | AnonymousUser | None, bot: BotDefinition) -> bool:
    """Whether `user` may read `bot`'s program logs: its author (who registered or uploaded this version)
    and staff."""
    if user is None or not user.is_authenticated:
        return False
    return bool(user.is_staff or (bot.created_by_id is not None and bot.created_by_id == user.pk))
