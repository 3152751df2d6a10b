"""Bots uploaded by their authors: any signed-in user registers a bot for a game by uploading a program, and
each upload of the same bot's name is its next version (docs/bot-leagues.md, "Uploading a bot").

The upload is checked by `league.bots.archives` under the caps of the settings (BOT_UPLOAD_*), stored once
by its SHA-256 (`Program`), and the version made is an external program's `BotDefinition` whose command is
derived from the entry point; the workers fetch its files by hash (`league.bots.program_cache`) and show
only them to its sandbox. A per-user quota bounds the versions and the bytes one author stores.

Each version is immutable and its own player: an upload never changes one that exists. Its logs (what its
program printed and why it forfeited) are the author's and staff's to read (`can_read_logs`).
"""

from __future__ import annotations

from typing import IO, Any

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.db import IntegrityError, transaction
from django.db.models import Max, Sum

from league.bots.archives import ArchiveLimits, CheckedProgram, ProgramRefused, check_program
from league.bots.ladders import ladders_follow_new_version
from league.bots.models import BotDefinition, Program
from league.bots.services import check_bot_description, check_bot_name
from league.core.catalogue import game_spec
from league.core.errors import Conflict, ErrorCode, Forbidden, UserError
from league.players.models import Player
from league.players.services import player_create


class NotSignedIn(Forbidden):
    """The upload needs a signed-in user."""


def upload_limits() -> ArchiveLimits:
    return ArchiveLimits(
        upload_bytes=settings.BOT_UPLOAD_MAX_BYTES,
        total_bytes=settings.BOT_UPLOAD_MAX_EXTRACTED_BYTES,
        entries=settings.BOT_UPLOAD_MAX_ENTRIES,
        entry_bytes=settings.BOT_UPLOAD_MAX_ENTRY_BYTES,
        ratio=settings.BOT_UPLOAD_MAX_RATIO,
    )


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


def upload_usage(user: AbstractBaseUser) -> tuple[int, int]:
    """(versions uploaded, bytes stored) by `user`: the bytes of each distinct upload, counted once."""
    versions = BotDefinition.objects.filter(created_by=user, program__isnull=False)
    stored = (
        Program.objects.filter(versions__in=versions).distinct().aggregate(total=Sum("size"))["total"] or 0
    )
    return versions.count(), stored


def check_quota(user: AbstractBaseUser, checked: CheckedProgram) -> None:
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


def _latest_version(game_id: str, name: Any) -> BotDefinition | None:
    if not isinstance(name, str):
        return None
    return (
        BotDefinition.objects.filter(game_id=game_id, name__iexact=name.strip())
        .order_by("-version")
        .select_related("program")
        .first()
    )


def bot_upload(
    *,
    by: AbstractBaseUser | None,
    game_id: Any,
    name: Any,
    data: bytes,
    description: str = "",
) -> BotDefinition:
    """Register the next version of the bot `name` of `game_id` from an uploaded program (`data`, its bytes).

    A name no bot of the game has makes version 1 (the uploader is its author); the name of the uploader's own
    uploaded bot makes its next version (`previous` is the latest); the name of anyone else's bot is refused.
    """
    if by is None or not by.is_authenticated:
        raise NotSignedIn("sign in to upload a bot")
    spec = game_spec(game_id, field="game")
    latest = _latest_version(spec.id, name)
    if latest is None:
        cleaned = check_bot_name(name, game_id=spec.id)
    elif latest.created_by_id != by.pk or not latest.is_uploaded:
        raise UserError(
            f"there is already a bot called {latest.name!r} for this game, by someone else: choose another name",
            field="name",
            code=ErrorCode.DUPLICATE,
        )
    else:
        cleaned = latest.name
    try:
        checked = check_program(data, upload_limits())
    except ProgramRefused as exc:
        raise UserError(str(exc), field="file") from None
    if latest is not None and latest.program.sha256 == checked.sha256:
        raise UserError(
            f"this is the same program as {latest.label} (SHA-256 {checked.sha256[:12]}): change it first",
            field="file",
            code=ErrorCode.DUPLICATE,
        )
    check_quota(by, checked)
    description = check_bot_description(description or checked.manifest.get("description", ""))
    try:
        with transaction.atomic():
            program = _store_program_with_content(checked, data)
            version = 1 if latest is None else latest.version + 1
            current = (
                BotDefinition.objects.filter(game_id=spec.id, name=cleaned).aggregate(v=Max("version"))["v"]
                or 0
            )
            if current + 1 != version:
                raise IntegrityError("another version was uploaded meanwhile")
            player = player_create(
                name=cleaned if version == 1 else f"{cleaned} v{version}", kind=Player.Kind.BOT
            )
            uploaded = BotDefinition.objects.create(
                name=cleaned,
                version=version,
                game_id=spec.id,
                kind=BotDefinition.Kind.EXTERNAL,
                program=program,
                description=description,
                previous=latest,
                created_by=by,
                player=player,
            )
            if latest is not None:
                ladders_follow_new_version(bot=uploaded)  # it replaces its predecessor in the ladders
            return uploaded
    except IntegrityError:
        raise Conflict(
            f"another version of {cleaned!r} was uploaded at the same moment: look at your bots and try again",
            field="name",
        ) from None


def _store_program_with_content(checked: CheckedProgram, data: bytes) -> Program:
    """The stored program of these bytes: the row that holds them already, or a new one."""
    program = Program.objects.filter(sha256=checked.sha256).first()
    if program is not None:
        return program
    try:
        with transaction.atomic():
            return Program.objects.create(
                sha256=checked.sha256,
                size=checked.size,
                format=checked.format,
                entry=checked.entry,
                manifest=checked.manifest,
                files=[file.as_list() for file in checked.files],
                extracted_bytes=checked.extracted_bytes,
                content=data,
            )
    except IntegrityError:  # the same bytes uploaded at the same moment by another request: one row
        return Program.objects.get(sha256=checked.sha256)


def can_read_logs(user: AbstractBaseUser | None, bot: BotDefinition) -> bool:
    """Whether `user` may read `bot`'s program logs: its author (who registered or uploaded this version)
    and staff."""
    if user is None or not user.is_authenticated:
        return False
    return bool(user.is_staff or (bot.created_by_id is not None and bot.created_by_id == user.pk))
