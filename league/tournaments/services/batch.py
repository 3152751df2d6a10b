"""Registering many players at once (a pasted list or a CSV of participants): all or nothing.

Every line goes through `registration_add`, the one path of an organizer's entry, inside one transaction:
- a line that fails (a name no player can have, a name listed twice, a seed taken or out of bounds, a
  player already registered, an inactive player, ...) is reported with its line number, every bad line at
  once, and nothing is saved (`BatchRefused`, 400);
- a name nobody has yet would make a new player: unless the organizer confirmed the new players
  (`confirm_new`), nothing is saved and the answer lists each line, the new names marked new with the
  existing names that look like them ("Priyaa": did you mean "Priya"?), so that a typo does not silently
  make a second Priya;
- otherwise every line is registered, in order.
"""

from __future__ import annotations

import difflib
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction

from league.core.errors import UserError
from league.core.names import name_key
from league.players.models import Player
from league.players.services import clean_player_name
from league.tournaments.models import Tournament
from league.tournaments.services.common import check_organizer
from league.tournaments.services.registrations import registration_add

BATCH_LIMIT = 2_000
SUGGESTIONS = 3
SIMILARITY = 0.8  # difflib's ratio: "Priyaa" and "Priya" 0.91, "Priya" and "Maya" 0.67


@dataclass(frozen=True)
class BatchEntry:
    """One line of a batch: a name, an optional seed, and its line number (from 1) in what was sent."""

    name: str
    seed: Any = None  # as sent (a whole number, or anything else, which the service refuses)
    line: int = 0


@dataclass
class BatchLine:
    """What became of one line: the name as stored, whether it makes a new player (and the existing names
    that look like it), its error (empty when fine) and, once saved, the player's id."""

    line: int
    name: str
    seed: Any  # as sent (see `BatchEntry`)
    new: bool = False
    suggestions: list[str] = field(default_factory=list)
    error: str = ""
    player_id: int | None = None


@dataclass
class BatchResult:
    """The lines of a batch and whether they were saved (False: new players wait for a confirmation)."""

    lines: list[BatchLine]
    saved: bool

    @property
    def new(self) -> list[BatchLine]:
        return [line for line in self.lines if line.new]


class BatchRefused(UserError):
    """A batch with bad lines: nothing was saved. `lines` holds every line, each bad one with its error;
    `faults` the (field, message) of each bad line, for the API's `errors` (`entries.<index>`)."""

    def __init__(self, lines: list[BatchLine]):
        bad = [(index, line) for index, line in enumerate(lines) if line.error]
        count = len(bad)
        super().__init__(
            f"{count} line{'s' if count != 1 else ''} need{'' if count != 1 else 's'} fixing: "
            "nothing was registered",
            field=f"entries.{bad[0][0]}",
        )
        self.lines = lines
        self.faults = [(f"entries.{index}", f"line {line.line}: {line.error}") for index, line in bad]


class _Undo(Exception):
    """Rolls the batch's transaction back (bad lines, or new players not confirmed yet)."""


def _look_alikes(name: str, known: dict[str, str]) -> list[str]:
    """Existing players' names that look like `name` (difflib, ignoring case), closest first."""
    keys = difflib.get_close_matches(name_key(name), list(known), n=SUGGESTIONS, cutoff=SIMILARITY)
    return [known[key] for key in keys]


def registrations_add_batch(
    *, tournament: Tournament, by: User, entries: Sequence[BatchEntry], confirm_new: bool = False
) -> BatchResult:
    """Register every entry, or none (see the module docstring). Raises `BatchRefused` for bad lines."""
    check_organizer(user=by, tournament=tournament)
    if not entries:
        raise UserError("name at least one player", field="entries")
    if len(entries) > BATCH_LIMIT:
        raise UserError(f"a batch registers at most {BATCH_LIMIT:,} players", field="entries")
    lines = [BatchLine(entry.line or index, entry.name, entry.seed) for index, entry in enumerate(entries, 1)]
    known: dict[str, str] | None = None
    try:
        with transaction.atomic():
            first_line: dict[str, int] = {}
            for entry, line in zip(entries, lines, strict=True):
                try:
                    line.name = clean_player_name(entry.name)
                    key = name_key(line.name)
                    if key in first_line:
                        raise UserError(f"{line.name} is on line {first_line[key]} already")
                    first_line[key] = line.line
                    if not Player.objects.filter(kind=Player.Kind.PERSON, name_key=key).exists():
                        if known is None:
                            known = dict(
                                Player.objects.filter(kind=Player.Kind.PERSON).values_list("name_key", "name")
                            )
                        line.new, line.suggestions = True, _look_alikes(line.name, known)
                    with transaction.atomic():
                        registration = registration_add(
                            tournament=tournament, by=by, name=line.name, seed=entry.seed
                        )
                    line.player_id = registration.player_id
                except UserError as exc:
                    line.error = exc.message
            if any(line.error for line in lines) or (not confirm_new and any(line.new for line in lines)):
                raise _Undo
    except _Undo:
        for line in lines:
            line.player_id = None  # rolled back
        if any(line.error for line in lines):
            raise BatchRefused(lines) from None
        return BatchResult(lines, saved=False)
    return BatchResult(lines, saved=True)
