"""What the bot authors' docs on the site show (`league.web.bots.docs` renders it): the limits a program plays
under, read from the settings, the bots' model and the protocol's client (never written twice); the runtimes
an upload may name (`league.programs.archives.RUNTIMES`, the one list the checker reads); each game's
reference (`games.registry.reference`) with real messages the engine makes for a seeded match; and the starter
kits (`examples/kits/<game>/`, `BOT_KITS_DIR`) and the engines' package as zip files, built deterministically.

No user input reaches a path: a kit is found by a registered game's id and a language of `KIT_LANGUAGES`, and
each archive holds only the files named here.
"""

from __future__ import annotations

import io
import json
import zipfile
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any, cast

from django.conf import settings
from django.db.models import Field
from django.http import Http404
from django.template.loader import render_to_string

import games
from games import registry
from games.core.errors import UnknownGame
from games.core.protocol import MAX_ANSWER_BYTES, OUTPUT_LIMIT, TIME_BANK_SECONDS, Limits
from games.core.reference import Example, Reference, decisions
from league.bots import sandbox_selectors
from league.bots.models import BotDefinition
from league.bots.services.definitions import CPU_SECONDS, MEMORY_MB
from league.bots.services.definitions import TIME_BANK_SECONDS as TIME_BANK_BOUNDS
from league.programs.runtimes import BUILD_COMMAND, BUILD_LIBRARIES, NODE_ADDRESS_SPACE_MB, RUNTIMES
from league.programs.sandbox import FILE_SIZE_LIMIT
from league.programs.uploads import bots_python

EXAMPLE_SEED = 7  # the seeded match whose messages each game's page shows
EXAMPLE_PICKS = (1, 10)  # seat 0's first decision, and a later one with more on the table
ZIP_TIME = (1980, 1, 1, 0, 0, 0)  # every member's date: the same bytes whenever and wherever it is built


@dataclass(frozen=True)
class KitLanguage:
    """A starter kit's language: its key in URLs, its name, its program's file in `examples/kits/<game>/`,
    the runtime an upload's manifest names for it (offered when in `RUNTIMES`), how to build and run it."""

    key: str
    name: str
    source: str
    runtime: str
    build: str
    run: str


KIT_LANGUAGES = {
    kit.key: kit
    for kit in (
        KitLanguage("python", "Python", "bot.py", "python", "", "python3 bot.py"),
        KitLanguage("javascript", "JavaScript", "bot.js", "node", "", "node bot.js"),
        KitLanguage("c", "C", "bot.c", "c", "cc -std=c99 -O2 -o bot bot.c", "./bot"),
    )
}


@dataclass(frozen=True)
class BotLimits:
    """The limits an uploaded program plays under, as the league applies them."""

    move_seconds: float
    startup_seconds: float
    time_bank_seconds: float
    time_bank_low: float
    time_bank_high: float
    cpu_seconds: int
    cpu_seconds_max: int
    memory_mb: int
    memory_mb_max: int
    max_processes: int
    tmp_mb: int
    file_bytes: int
    answer_bytes: int
    log_bytes: int
    logs_kept: int
    upload_bytes: int
    upload_extracted_bytes: int
    quota_versions: int
    quota_bytes: int
    uploads_per_hour: int


def _default(field: str) -> Any:
    return cast("Field[Any, Any]", BotDefinition._meta.get_field(field)).default


def bot_limits() -> BotLimits:
    """The limits of an uploaded program: an upload's bot takes the model's defaults (its time bank is its
    author's choice within the bounds)."""
    return BotLimits(
        move_seconds=_default("move_seconds"),
        startup_seconds=Limits().startup_seconds,
        time_bank_seconds=TIME_BANK_SECONDS,
        time_bank_low=TIME_BANK_BOUNDS.low,
        time_bank_high=TIME_BANK_BOUNDS.high,
        cpu_seconds=_default("cpu_seconds"),
        cpu_seconds_max=int(CPU_SECONDS.high),
        memory_mb=_default("memory_mb"),
        memory_mb_max=int(MEMORY_MB.high),
        max_processes=settings.SANDBOX_MAX_PROCESSES,
        tmp_mb=settings.SANDBOX_TMPFS_MB,
        file_bytes=FILE_SIZE_LIMIT,
        answer_bytes=MAX_ANSWER_BYTES,
        log_bytes=OUTPUT_LIMIT,
        logs_kept=settings.BOT_LOG_MATCHES,
        upload_bytes=settings.BOT_UPLOAD_MAX_BYTES,
        upload_extracted_bytes=settings.BOT_UPLOAD_MAX_EXTRACTED_BYTES,
        quota_versions=settings.BOT_UPLOAD_QUOTA_VERSIONS,
        quota_bytes=settings.BOT_UPLOAD_QUOTA_BYTES,
        uploads_per_hour=settings.BOT_UPLOADS_PER_USER_HOUR,
    )


@dataclass(frozen=True)
class Runtime:
    """A kit's language and whether the league runs it: `offered` when an upload may name its runtime
    (`league.programs.runtimes.RUNTIMES`); `waiting` says so when no worker that proved its sandbox lately
    found the runtime in it (`sandbox_selectors.runtime_message`: its matches wait)."""

    language: KitLanguage
    offered: bool
    waiting: str


def runtimes() -> list[Runtime]:
    return [
        Runtime(
            language,
            offered := language.runtime in RUNTIMES,
            sandbox_selectors.runtime_message(language.runtime) if offered else "",
        )
        for language in KIT_LANGUAGES.values()
    ]


SERVER_BUILD = " ".join((*BUILD_COMMAND, "*.c", *BUILD_LIBRARIES))  # how the check compiles a C upload


@dataclass(frozen=True)
class GameSummary:
    id: str
    name: str
    summary: str


def game_summaries() -> list[GameSummary]:
    """Every game with a reference, in the registry's order."""
    return [
        GameSummary(spec.id, spec.name, spec.summary)
        for spec in registry.all_specs()
        if registry.reference(spec.id) is not None
    ]


@dataclass(frozen=True)
class DocsPage:
    """The docs' shared part: the limits, the runtimes (with the bots' Python version), the games, the kits'
    languages."""

    limits: BotLimits
    runtimes: list[Runtime]
    python_version: str
    node_extra_mb: int
    server_build: str
    games: list[GameSummary]
    languages: list[KitLanguage]
    example_start: str

    @property
    def offered_runtimes(self) -> str:
        """The runtimes an upload's manifest may name, as the manifest writes them: `"python3"`."""
        return " or ".join(f'"{runtime.language.runtime}"' for runtime in self.runtimes if runtime.offered)


def docs_page() -> DocsPage:
    """The docs' shared part; `example_start` is the `start` message of the first game's example."""
    summaries = game_summaries()
    return DocsPage(
        limits=bot_limits(),
        runtimes=runtimes(),
        python_version=bots_python(),
        node_extra_mb=NODE_ADDRESS_SPACE_MB,
        server_build=SERVER_BUILD,
        games=summaries,
        languages=list(KIT_LANGUAGES.values()),
        example_start=_line(game_example(summaries[0].id).start) if summaries else "",
    )


def pretty_json(value: Any, indent: int = 0, width: int = 76, before: int = 0) -> str:
    """`value` as JSON for reading: a value that fits on its line stays on one line, a longer object or list
    puts each member on a line of its own (the keys sorted, as the protocol's messages have them). `before` is
    how much of the line the value's key takes."""
    flat = json.dumps(value, sort_keys=True, separators=(", ", ": "), ensure_ascii=False)
    if indent + before + len(flat) <= width or not isinstance(value, dict | list) or not value:
        return flat
    inner = " " * (indent + 2)
    if isinstance(value, dict):
        members = []
        for key in sorted(value):
            name = json.dumps(key, ensure_ascii=False) + ": "
            members.append(inner + name + pretty_json(value[key], indent + 2, width, len(name)))
        return "{\n" + ",\n".join(members) + "\n" + " " * indent + "}"
    members = [inner + pretty_json(item, indent + 2, width) for item in value]
    return "[\n" + ",\n".join(members) + "\n" + " " * indent + "]"


@cache
def game_example(game_id: str) -> Example:
    """The seeded match's messages to seat 0 (computed once per process: the engine is deterministic)."""
    reference: Reference = registry.reference(game_id)
    return decisions(
        game_id, num_players=reference.example_players, seed=EXAMPLE_SEED, seat=0, picks=EXAMPLE_PICKS
    )


@dataclass(frozen=True)
class ExampleMessage:
    """One decision shown: its number, the `act` message and the answer, as JSON to read and as the line."""

    number: int
    act: str
    answer: str
    act_line: str
    answer_line: str
    legal_count: int


@dataclass(frozen=True)
class GameDocsPage:
    """A game's reference page: the game, its options, its reference and the example's messages."""

    id: str
    name: str
    summary: str
    min_players: int
    max_players: int
    options: list[dict[str, Any]]
    reference: Reference
    example: Example
    start: str
    example_messages: list[ExampleMessage]
    languages: list[KitLanguage]
    games: list[GameSummary]


def _line(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def game_docs_page(game_id: str) -> GameDocsPage:
    """`game_id`'s reference page; 404 for a game that is not registered or has no reference."""
    try:
        spec = registry.get_spec(game_id)
    except UnknownGame:
        raise Http404("no such game") from None
    reference = registry.reference(spec.id)
    if reference is None:
        raise Http404("this game has no reference")
    example = game_example(spec.id)
    return GameDocsPage(
        id=spec.id,
        name=spec.name,
        summary=spec.summary,
        min_players=spec.min_players,
        max_players=spec.max_players,
        options=[option.describe() for option in spec.options],
        reference=reference,
        example=example,
        start=pretty_json(example.start),
        example_messages=[
            ExampleMessage(
                number=decision.number,
                act=pretty_json(decision.act),
                answer=pretty_json(decision.answer),
                act_line=_line(decision.act),
                answer_line=_line(decision.answer),
                legal_count=len(decision.act["legal_actions"]),
            )
            for decision in example.decisions
        ],
        languages=list(KIT_LANGUAGES.values()),
        games=game_summaries(),
    )


def _zip(members: Iterable[tuple[str, bytes]]) -> bytes:
    """A zip of `members` (name, bytes) in name order, with fixed dates and modes: the same bytes always."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=9) as archive:
        for name, data in sorted(members):
            info = zipfile.ZipInfo(name, date_time=ZIP_TIME)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.create_system = 3  # Unix, so that the mode below is read
            info.external_attr = (0o100644 & 0xFFFF) << 16
            archive.writestr(info, data, compresslevel=9)
    return buffer.getvalue()


def kits_dir() -> Path:
    return Path(settings.BOT_KITS_DIR)


def _kit_source(game_id: str, language: KitLanguage) -> bytes:
    folder = kits_dir().resolve()
    path = (folder / game_id / language.source).resolve()
    if path.parent.parent != folder or not path.is_file() or path.is_symlink():
        raise Http404("this kit is not on this server")
    return path.read_bytes()


def kit_name(game_id: str, language: KitLanguage) -> str:
    return f"{game_id}-{language.key}-kit.zip"


def kit_archive(game_id: str, language_key: str) -> tuple[str, bytes]:
    """The starter kit of `game_id` in `language_key` as (file name, zip bytes): the program, a README and,
    where the league runs its language, the manifest (`bot.toml`) that makes the zip an upload as it is."""
    language = KIT_LANGUAGES.get(language_key)
    if language is None:
        raise Http404("no kit in this language")
    try:
        spec = registry.get_spec(game_id)
    except UnknownGame:
        raise Http404("no such game") from None
    source = _kit_source(spec.id, language)
    offered = language.runtime in RUNTIMES
    readme = render_to_string(
        "bots/docs/kit_readme.md",
        {
            "game_id": spec.id,
            "game_name": spec.name,
            "language": language,
            "offered": offered,
            "limits": bot_limits(),
            "others": range(max(spec.min_players, 3) - 1),  # a table of 3 where the game allows it
            "site": settings.SITE_URL.rstrip("/"),
        },
    )
    members = [(language.source, source), ("README.md", readme.encode())]
    if offered:
        manifest = f'entry = "{language.source}"\nruntime = "{language.runtime}"\n'
        members.append(("bot.toml", manifest.encode()))
    return kit_name(spec.id, language), _zip(members)


ENGINE_SUFFIXES = (".py", ".js", ".css")


@cache
def engines_archive() -> tuple[str, bytes]:
    """The engines' package `games/` (pure Python, its standard library only) as a zip: unpacked, `python -m
    games play ...` runs the local runner from the folder holding it. Its source files only, in a `games/`
    folder."""
    root = Path(games.__file__).resolve().parent
    members = []
    for path in sorted(root.rglob("*")):
        if path.is_symlink() or not path.is_file() or path.suffix not in ENGINE_SUFFIXES:
            continue
        relative = path.relative_to(root)
        if "__pycache__" in relative.parts:
            continue
        members.append(("games/" + relative.as_posix(), path.read_bytes()))
    return "pecking-order-games.zip", _zip(members)
