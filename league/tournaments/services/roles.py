"""A tournament's roles: who organizes it, who keeps its score and who judges it (answers calls, gives
extensions and penalties, enters and corrects results: `reach.may_judge`)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.db import transaction

from league.core.errors import ErrorCode, NotFound, UserError
from league.tournaments.errors import StateConflict
from league.tournaments.models import Tournament
from league.tournaments.services.audit import Action, audit
from league.tournaments.services.common import check_organizer, tournament_locked

ROLES = ("organizer", "scorekeeper", "judge")
HOLDERS = {"scorekeeper": "scorekeepers", "judge": "judges"}
ADDED = {"scorekeeper": Action.SCOREKEEPER_ADDED, "judge": Action.JUDGE_ADDED}
REMOVED = {
    "organizer": Action.ORGANIZER_REMOVED,
    "scorekeeper": Action.SCOREKEEPER_REMOVED,
    "judge": Action.JUDGE_REMOVED,
}
DOES = {"scorekeeper": "keeps score", "judge": "judges"}
ALSO = {"scorekeeper": "enter results", "judge": "judge"}


def organizer_add(*, tournament: Tournament, by: User, username: Any) -> User:
    """Add the user called `username` to the tournament's organizers (`role_add` with the organizer role)."""
    return role_add(tournament=tournament, by=by, username=username, role="organizer")


def role_add(*, tournament: Tournament, by: User, username: Any, role: Any) -> User:
    """Give the user called `username` a role in the tournament: `organizer` (everything), `scorekeeper`
    (enters and corrects results only) or `judge` (answers calls, gives extensions and penalties, enters and
    corrects results; never the settings). An organizer added as a scorekeeper or judge is refused
    (organizers do all that too); a scorekeeper or judge added as an organizer becomes one. One user may
    keep score and judge.

    The name is matched case-insensitively, as sign-up keeps names unique regardless of case.

    The right to add is checked before the name is looked up, so someone who may not add learns nothing
    about which accounts exist: the same 403 whatever the name."""
    check_organizer(user=by, tournament=tournament)
    if role not in ROLES:
        raise UserError(f"role is one of {', '.join(ROLES)}", field="role")
    if not isinstance(username, str) or not username.strip():
        raise UserError("name the user to add", field="username")
    name = username.strip()
    user = get_user_model().objects.filter(username__iexact=name).first()
    if user is None:
        raise UserError(f"no user called {name!r}", field="username")
    with transaction.atomic():
        tournament = tournament_locked(tournament)
        organizes = tournament.organizers.filter(pk=user.pk).exists()
        if role == "organizer":
            if not organizes:
                tournament.scorekeepers.remove(user)
                tournament.judges.remove(user)
                tournament.organizers.add(user)
                audit(tournament, by, Action.ORGANIZER_ADDED, user=user.get_username())
            return user
        holders = getattr(tournament, HOLDERS[role])
        if organizes:
            raise UserError(
                f"{user.get_username()} organizes this tournament: organizers {ALSO[role]} too",
                field="username",
            )
        if holders.filter(pk=user.pk).exists():
            raise UserError(
                f"{user.get_username()} {DOES[role]} here already", field="username", code=ErrorCode.DUPLICATE
            )
        holders.add(user)
        audit(tournament, by, ADDED[role], user=user.get_username())
    return user


def role_remove(*, tournament: Tournament, by: User, username: Any, role: Any) -> User:
    """Take a role away from the user called `username` (matched case-insensitively) and return them. A
    tournament keeps at least one organizer."""
    check_organizer(user=by, tournament=tournament)
    if role not in ROLES:
        raise UserError(f"role is one of {', '.join(ROLES)}", field="role")
    with transaction.atomic():
        tournament = tournament_locked(tournament)
        holders = tournament.organizers if role == "organizer" else getattr(tournament, HOLDERS[role])
        user = (
            holders.filter(username__iexact=username.strip()).first() if isinstance(username, str) else None
        )
        if user is None:
            raise NotFound(f"{username} is not a {role} of this tournament", field="username")
        if role == "organizer" and tournament.organizers.count() == 1:
            raise StateConflict("a tournament keeps at least one organizer: add another one first")
        holders.remove(user)
        audit(tournament, by, REMOVED[role], user=user.get_username())
    return user
