"""Standings computed once per state of a tournament, not on every request.

A 10,000-player tournament's standings take seconds to compute (its whole history, then every tie-break),
and its page, live fragment, projector, embed and CSV all show them. `standings` computes them once for a
state of the tournament and keeps them in a `StandingsSnapshot`; the next request in the same state reads
them back.

The state is fingerprinted (`fingerprint`) from everything the standings are computed from, read afresh on
each request, so no write has to remember to clear anything: the tournament's settings, its rounds (status,
byes, requested byes, sit-outs, walkovers), its registrations (player, status, seed, round entered, round
left), and its tables with their matches (how many, the newest, how many closed, and the sum of the
matches' result versions: every result, correction, void, no-show, forfeit and bracket reset adds a
version). A result entered on the match's own page, an admin edit or a drop changes it just the same.

Names are not stored: rows are turned into `selectors.StandingRow`s with the players' current names for the
rows a page shows (`StandingsList`).
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import fields

from django.db import IntegrityError, transaction
from django.db.models import Count, Max, Q, Sum

from league.pairing import Standing
from league.tournaments import seam, selectors
from league.tournaments.models import Registration, StandingsSnapshot, Table, Tournament

PAGE_LOOKUP = 500  # rows up to which names are read for those players only (else for everyone)
FIELDS = tuple(item.name for item in fields(Standing))


def fingerprint(tournament: Tournament) -> str:
    """A digest of every input of the tournament's standings, as stored now (four queries)."""
    settings = [(item.attname, getattr(tournament, item.attname)) for item in Tournament._meta.concrete_fields]
    rounds = list(
        tournament.round_set.order_by("number").values_list(
            "id", "number", "status", "byes", "requested_byes", "sat_out", "advanced", "final"
        )
    )
    registrations = list(
        tournament.registrations.order_by("id").values_list(
            "player_id", "status", "seed", "entered_round", "left_after_round"
        )
    )
    tables = Table.objects.filter(round__tournament=tournament).aggregate(
        count=Count("id"),
        newest=Max("id"),
        matches=Count("match"),
        closed=Count("id", filter=~Q(closed_as=Table.Closed.NO)),
        versions=Sum("match__result_version"),
    )
    digest = hashlib.blake2b(digest_size=20)
    for part in (settings, rounds, registrations, sorted(tables.items())):
        digest.update(repr(part).encode())
        digest.update(b"\0")
    return digest.hexdigest()


def standings(tournament: Tournament, history: seam.History | None = None) -> list[Standing]:
    """The tournament's standings (`seam.standings`), from its snapshot when the fingerprint still matches;
    otherwise computed (from `history` when given, else loaded) and stored. A state that changes while they
    are computed is not stored (the next request computes again)."""
    key = fingerprint(tournament)
    stored = StandingsSnapshot.objects.filter(tournament=tournament).values_list("key", "rows").first()
    if stored is not None and stored[0] == key:
        return [Standing(*row) for row in stored[1]]
    computed = seam.standings(history if history is not None else seam.load_facts(tournament))
    if fingerprint(tournament) == key:
        rows = [[getattr(standing, name) for name in FIELDS] for standing in computed]
        try:
            with transaction.atomic():
                StandingsSnapshot.objects.update_or_create(tournament=tournament, defaults={"key": key, "rows": rows})
        except IntegrityError:  # another request stored the same state first
            pass
    return computed


class StandingsList(Sequence):
    """The standings as `selectors.StandingRow`s, built only for the rows asked for (a page of them reads
    the names and statuses of those players alone); `len` is the number of rows."""

    def __init__(self, tournament: Tournament, ordered: list[Standing]):
        self.tournament = tournament
        self.ordered = ordered

    def __len__(self) -> int:
        return len(self.ordered)

    def __getitem__(self, index):
        if isinstance(index, slice):
            return self._rows(self.ordered[index])
        return self._rows([self.ordered[index]])[0]

    def __iter__(self):
        return iter(self._rows(self.ordered))

    def _rows(self, chosen: list[Standing]) -> list[selectors.StandingRow]:
        registrations = Registration.objects.filter(tournament=self.tournament).select_related("player")
        if len(chosen) <= PAGE_LOOKUP:
            registrations = registrations.filter(player_id__in=[standing.id for standing in chosen])
        return selectors.standing_rows(chosen, {reg.player_id: reg for reg in registrations})


def standings_list(tournament: Tournament, history: seam.History | None = None) -> StandingsList:
    """The standings of `standings` as a `StandingsList` (what pages paginate)."""
    return StandingsList(tournament, standings(tournament, history))
