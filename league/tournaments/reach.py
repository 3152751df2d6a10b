"""Reach: which players a user may put into a tournament, or act for, without asking them. One rule, read by
registration (one by one, in batch, on the pages and in the API), by claim links (`league.accounts`), and by
whatever later gives people power over players (clubs), and judges: `may_judge` is who judges an event,
`judge_reaches` whom they may penalize.

An organizer of a tournament reaches:
- a walk-in they create now (a name nobody has: `registration_add` makes the player);
- a walk-in (a person-player without an account) first registered in an event they organize;
- a player who asked to join that tournament themselves (waitlisted, pending or declined there).

Nobody else: a player with an account, a bot, a walk-in first registered in someone else's event or in no
event at all. They take part only by accepting an invitation (a registration in the `invited` state, which
they accept or decline on their page). Site staff reach every player.
"""

from __future__ import annotations

from django.contrib.auth.models import AnonymousUser, User

from league.players.models import Player
from league.tournaments.models import Registration, Tournament
from league.tournaments.selectors import is_judge, is_organizer

ASKED = (Registration.Status.WAITLISTED, Registration.Status.PENDING, Registration.Status.DECLINED)


def first_event(player: Player) -> Tournament | None:
    """The tournament the player was first registered in (invitations not counted), or None."""
    first = (
        Registration.objects.select_related("tournament")
        .filter(player=player)
        .exclude(status=Registration.Status.INVITED)
        .order_by("created_at", "id")
        .first()
    )
    return first.tournament if first is not None else None


def is_walk_in(player: Player) -> bool:
    """A person-player nobody has claimed: someone an organizer entered by name."""
    return player.kind == Player.Kind.PERSON and player.user_id is None


def reaches(user: User | AnonymousUser | None, player: Player, tournament: Tournament | None = None) -> bool:
    """Whether `user` may act for `player` without asking them (see the module docstring): with a tournament,
    as an organizer of that tournament (register the player there); without one, as an organizer of the event
    the player was first registered in (issue a claim link for them)."""
    if user is None or not user.is_authenticated:
        return False
    if user.is_staff:
        return True
    if tournament is not None:
        if not is_organizer(user, tournament):
            return False
        if tournament.registrations.filter(player=player, status__in=ASKED).exists():
            return True
    return is_walk_in(player) and organizes_first_event(user, player)


def organizes_first_event(user: User | AnonymousUser | None, player: Player) -> bool:
    """Whether `user` is staff or an organizer of the event the player was first registered in: the half of
    the rule that does not look at the player's kind and account (a claim link says "a bot" or "claimed
    already" to such an issuer, and refuses anyone else first)."""
    if user is None or not user.is_authenticated:
        return False
    first = first_event(player)
    return user.is_staff or (first is not None and is_organizer(user, first))


def out_of_reach_message(player: Player) -> str:
    """The refusal of an organizer's entry of a player they do not reach."""
    return (
        f"a player called {player.name} already exists and is not one of your walk-ins: add a distinguishing "
        "word, or invite them by user name"
    )


def may_judge(user: User | AnonymousUser | None, tournament: Tournament) -> bool:
    """Whether `user` judges `tournament`: answers its judge calls, gives its tables extra time and its
    players penalties (and enters and corrects its results). Its judges, its organizers and site staff: a
    judge of one event has no power in another, and never over the event's settings."""
    if user is None or not user.is_authenticated:
        return False
    return is_organizer(user, tournament) or is_judge(user, tournament)


def judge_reaches(user: User | AnonymousUser | None, player: Player, tournament: Tournament) -> bool:
    """Whether `user` may penalize `player` in `tournament`: they judge it (`may_judge`) and the player is
    registered there (in any state but an invitation)."""
    return (
        may_judge(user, tournament)
        and tournament.registrations.filter(player=player)
        .exclude(status=Registration.Status.INVITED)
        .exists()
    )
