"""The audit log's one writer: every tournament service that changes what an organizer controls calls
`audit(...)` inside its own transaction, after its checks pass, so an entry is written exactly when the
change it records is (a refused or rolled-back change leaves none). Entries are never changed afterwards.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any

from django.contrib.auth.models import AnonymousUser, User

from league.tournaments.models import AuditEntry, Tournament
from league.tournaments.services.common import bump_public_version

Action = AuditEntry.Action


def _plain(value: Any) -> Any:
    """`value` as JSON holds it: instants as ISO 8601 text, tuples as lists."""
    if isinstance(value, datetime):
        return value.isoformat()
    if isinstance(value, Mapping):
        return {str(key): _plain(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(item) for item in value]
    return value


def audit(
    tournament: Tournament, actor: User | AnonymousUser | None, action: str, **details: Any
) -> AuditEntry:
    """Record that `actor` (None: the system) did `action` (an `AuditEntry.Action`) to `tournament`.
    Call inside the transaction of the change; an audited change changes the tournament's public state, so
    this bumps its public version too."""
    if action not in Action.values:
        raise ValueError(f"unknown audit action {action!r}")
    user = actor if actor is not None and actor.is_authenticated else None
    bump_public_version(tournament.pk)
    return AuditEntry.objects.create(
        tournament=tournament, actor=user, action=action, details=_plain(details)
    )


def diff(before: Mapping[str, Any], after: Mapping[str, Any]) -> dict[str, list[Any]]:
    """The settings that differ: {name: [old, new]} in `after`'s order."""
    return {name: [before.get(name), value] for name, value in after.items() if before.get(name) != value}
