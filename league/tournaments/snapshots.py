"""Standings computed once per state of a tournament, not on every request.

A 10,000-player tournament's standings take seconds to compute (its whole history, then every tie-break),
and its page, live fragment, projector, embed and CSV all show them. `standings` computes them once for a
state of the tournament and keeps them in a `StandingsSnapshot`; the next request in the same state reads
them back.

The state is fingerprinted (`fingerprint`) from everything the standings are computed from, read afresh on
each request, so no write has to remember to clear anything: the tournament's settings, its rounds (status,
byes, requested byes, sit-outs, walkovers), its registrations (per status: how many, and sums of their
player ids alone and times their seed, round entered and round left, so that any player's change of
status, seed or rounds changes a sum), and its tables with their matches (how many, the newest, how many
closed, and the sum of the matches' result versions: every result, correction, void, no-show, forfeit and
bracket reset adds a version), and its points penalties (how many, the newest, their sum). A result
entered on the match's own page, an admin edit or a drop changes it just the same. Five aggregate queries,
whatever the size of the tournament.

Names are not stored: rows are turned into `selectors.StandingRow`s with the players' current names for the
rows a page shows (`StandingsList`).

Large events are refreshed in the background. Computing a 10,000-player field's standings takes about a
second, and while a round is played nearly every look comes after a new result. So the pages that only
show standings (the tournament page and its live fragment, the projector, the embed; `allow_stale=True`)
keep showing a snapshot of at least `STANDINGS_BACKGROUND_ROWS` rows that is at most
`STANDINGS_STALE_SECONDS` old, saying "as of" when, and queue one refresh (`tasks.standings_refresh_task`,
once per state). An older snapshot, or no worker to refresh it, falls back to
computing in the request. The CSV, the API and everything that decides anything read exact standings.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from contextlib import suppress
from dataclasses import fields
from datetime import datetime, timedelta

from celery import signature
from django.conf import settings
from django.core.cache import cache
from django.db import IntegrityError, transaction
from django.db.models import Count, F, Max, Q, Sum
from django.utils import timezone

from league.core.errors import UserError
from league.pairing import Standing
from league.tournaments import floor_selectors, ranking, selectors
from league.tournaments.history import History, entries_of, load_history
from league.tournaments.models import Registration, StandingsChunk, StandingsSnapshot, Table, Tournament

CHUNK = 100  # rows per stored chunk: a page of standings (views.STANDINGS_PER_PAGE) reads one
PAGE_LOOKUP = 500  # rows up to which names are read for those players only (else for everyone)
FIELDS = tuple(item.name for item in fields(Standing))


def fingerprint(tournament: Tournament) -> str:
    """A digest of every input of the tournament's standings, as stored now (four queries)."""
    settings = [
        (item.attname, getattr(tournament, item.attname)) for item in Tournament._meta.concrete_fields
    ]
    rounds = list(
        tournament.round_set.order_by("number").values_list(
            "id", "number", "status", "byes", "requested_byes", "sat_out", "advanced", "final"
        )
    )
    registrations = sorted(
        tournament.registrations.values("status")
        .annotate(
            count=Count("id"),
            players=Sum("player_id"),
            seeds=Sum(F("seed") * F("player_id")),
            entered=Sum(F("entered_round") * F("player_id")),
            left=Sum(F("left_after_round") * F("player_id")),
        )
        .values_list("status", "count", "players", "seeds", "entered", "left")
    )
    tables = Table.objects.filter(round__tournament=tournament).aggregate(
        count=Count("id"),
        newest=Max("id"),
        matches=Count("match"),
        closed=Count("id", filter=~Q(closed_as=Table.Closed.NO)),
        versions=Sum("match__result_version"),
    )
    penalties = floor_selectors.penalties_fingerprint(tournament.pk)
    digest = hashlib.blake2b(digest_size=20)
    for part in (settings, rounds, registrations, sorted(tables.items()), penalties):
        digest.update(repr(part).encode())
        digest.update(b"\0")
    return digest.hexdigest()


def current_standings(tournament: Tournament, history: History | None = None) -> list[Standing]:
    """The tournament's standings (`ranking.standings_of`), from its snapshot when the fingerprint still
    matches; otherwise computed (from `history` when given, else loaded) and stored."""
    return standings_list(tournament, history).lines(0, None)


def standings_list(
    tournament: Tournament, history: History | None = None, *, allow_stale: bool = False
) -> StandingsList:
    """The standings as a `StandingsList` (what pages paginate): the snapshot's when its key is the
    tournament's fingerprint now (one query; the rows are read when asked for), else computed and stored.
    A state that changes while they are computed is not stored (the next request computes again).
    With `allow_stale`, a large event's recent snapshot of an earlier state is shown meanwhile and a refresh
    queued (the module's docstring); its `as_of` says when it was computed."""
    key = fingerprint(tournament)
    stored = (
        StandingsSnapshot.objects.filter(tournament=tournament)
        .values_list("key", "count", "computed_at")
        .first()
    )
    if stored is not None and stored[0] == key:
        return StandingsList(tournament, key, stored[1])
    if allow_stale and stored is not None and _may_serve_stale(stored[1], stored[2]):
        refresh_soon(tournament.pk, key)
        return StandingsList(tournament, stored[0], stored[1], as_of=stored[2])
    computed = ranking.standings_of(history if history is not None else load_history(tournament, names=False))
    if fingerprint(tournament) == key:
        _store(tournament, key, [[getattr(standing, name) for name in FIELDS] for standing in computed])
    return StandingsList(tournament, key, len(computed), computed)


def _may_serve_stale(count: int, computed_at: datetime) -> bool:
    return count >= settings.STANDINGS_BACKGROUND_ROWS and timezone.now() - computed_at < timedelta(
        seconds=settings.STANDINGS_STALE_SECONDS
    )


# The task that refreshes a snapshot in the background, named rather than imported (its module imports this
# one).
REFRESH_TASK = "league.tournaments.tasks.standings_refresh_task"


def refresh_soon(tournament_id: int, key: str) -> bool:
    """Queue one background refresh of the tournament's snapshot (after the commit), unless one was queued
    for the same state (`key`) already; whether it queued one."""
    if not cache.add(f"standings-refresh:{tournament_id}:{key}", 1, timeout=settings.STANDINGS_STALE_SECONDS):
        return False
    transaction.on_commit(lambda: signature(REFRESH_TASK, args=(tournament_id,)).delay())
    return True


def warm(tournament_id: int) -> None:
    """Compute and store the standings of the tournament's state now, unless already stored: run after the
    commit of a write that changes many players' standings at once (a round completed), so
    that the crowd looking at the page next reads them instead of each computing them."""
    tournament = Tournament.objects.filter(pk=tournament_id).first()
    if tournament is None:
        return
    with suppress(UserError):  # the page shows the message
        standings_list(tournament)


def _store(tournament: Tournament, key: str, rows: list[list]) -> None:
    chunks = [
        StandingsChunk(tournament=tournament, key=key, index=index, rows=rows[start : start + CHUNK])
        for index, start in enumerate(range(0, len(rows), CHUNK))
    ]
    try:
        with transaction.atomic():
            StandingsChunk.objects.filter(tournament=tournament).exclude(key=key).delete()
            StandingsChunk.objects.bulk_create(chunks)
            StandingsSnapshot.objects.update_or_create(
                tournament=tournament, defaults={"key": key, "count": len(rows)}
            )
    except IntegrityError:  # another request stored the same state first
        pass


class StandingsList(Sequence):
    """The standings as `selectors.StandingRow`s, built only for the rows asked for: a slice reads the
    snapshot's chunks that hold it and the names and statuses of those players alone; `len` is the number of
    rows. Should the snapshot be replaced while it is read (another state stored), they are computed."""

    def __init__(
        self,
        tournament: Tournament,
        key: str,
        count: int,
        computed: list[Standing] | None = None,
        as_of: datetime | None = None,
    ):
        self.tournament = tournament
        self.key = key
        self.count_of_rows = count
        self.computed = computed
        self.as_of = as_of  # set when these are an earlier state's standings, being refreshed

    def __len__(self) -> int:
        return self.count_of_rows

    @property
    def stale_seconds(self) -> int | None:
        """How many seconds ago these earlier standings were computed (None: they are the current ones)."""
        return None if self.as_of is None else max(0, int((timezone.now() - self.as_of).total_seconds()))

    def __getitem__(self, index):
        if isinstance(index, slice):
            start, stop, step = index.indices(self.count_of_rows)
            chosen = self.lines(start, stop)[::step] if step != 1 else self.lines(start, stop)
            return self._rows(chosen)
        if not -self.count_of_rows <= index < self.count_of_rows:
            raise IndexError(index)
        index %= self.count_of_rows
        return self._rows(self.lines(index, index + 1))[0]

    def __iter__(self):
        return iter(self._rows(self.lines(0, None)))

    def lines(self, start: int, stop: int | None) -> list[Standing]:
        """Rows `start` to `stop` (None: to the end) as pairing's Standings."""
        stop = self.count_of_rows if stop is None else min(stop, self.count_of_rows)
        if self.computed is None and start < stop:
            chunks = StandingsChunk.objects.filter(
                tournament=self.tournament, key=self.key, index__range=(start // CHUNK, (stop - 1) // CHUNK)
            )
            rows = [row for chunk in chunks.order_by("index").values_list("rows", flat=True) for row in chunk]
            first = (start // CHUNK) * CHUNK
            if len(rows) == min(self.count_of_rows, ((stop - 1) // CHUNK + 1) * CHUNK) - first:
                return [Standing(*row) for row in rows[start - first : stop - first]]
            self.computed = ranking.standings_of(
                load_history(self.tournament, names=False)
            )  # replaced meanwhile
        return (self.computed or [])[start:stop]

    def _rows(self, chosen: list[Standing]) -> list[selectors.StandingRow]:
        registrations = Registration.objects.filter(tournament=self.tournament).order_by()
        if len(chosen) <= PAGE_LOOKUP:
            registrations = registrations.filter(player_id__in=[standing.id for standing in chosen])
        entries = entries_of(registrations, names=True)  # values, not model instances: a page has hundreds
        return selectors.standing_rows(chosen, {entry.player_id: entry for entry in entries})
