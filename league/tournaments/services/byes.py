"""Byes and breaks in Swiss: a registered player asks to miss a future Swiss round, either with a bye
(scored as the tournament's `requested_bye_score` says: a win, half a win or zero) or sitting it out
(unscored), and comes back the round after. A player asks for their own; an organizer asks for anyone.

A request is open until its round is generated: `round_generate` reads the requests of the round it draws,
leaves those players out and records them on the round, and from then on the request is history (a draft
discarded and generated again reads the requests again).
"""

from __future__ import annotations

from typing import Any, cast

from django.contrib.auth.models import AnonymousUser, User
from django.db import transaction

from league.core.checks import is_int
from league.core.errors import Forbidden, NotFound, UserError
from league.tournaments.errors import StateConflict
from league.tournaments.formats import is_swiss_round
from league.tournaments.models import ByeRequest, Registration, Tournament
from league.tournaments.selectors import is_organizer, player_of
from league.tournaments.services.audit import Action, audit
from league.tournaments.services.common import last_round, signed_in_player, tournament_locked


def _requester(tournament: Tournament, by: User | AnonymousUser | None, player_id: Any) -> int:
    """The player the request is for: the signed-in user's own (no `player_id`, or their own id), or anyone
    for an organizer. Permission is checked before anything about the player is looked up."""
    if player_id is None:
        return signed_in_player(by).pk
    own = player_of(by) if by is not None and by.is_authenticated else None
    if own is not None and own.pk == player_id:
        return player_id
    if by is None or not by.is_authenticated:
        raise Forbidden("sign in to take part in a tournament")
    if not is_organizer(by, tournament):
        raise Forbidden(
            "only the player themselves or the tournament's organizers (and site staff) can do this"
        )
    if not is_int(player_id):
        raise UserError("name the player by id", field="player")
    return player_id


def _check_round(tournament: Tournament, round_number: Any) -> int:
    """The round, if players may still ask to miss it: a Swiss round not generated yet."""
    if tournament.status == Tournament.Status.FINISHED:
        raise StateConflict("the tournament is finished", field="status")
    if not is_int(round_number) or round_number < 1:
        raise UserError("give the round as a whole number from 1", field="round")
    if not is_swiss_round(tournament, round_number):
        if tournament.format == Tournament.Format.STAGES and tournament.first_stage == "swiss":
            raise UserError(
                f"byes on request are for the Swiss rounds 1 to {tournament.rounds}", field="round"
            )
        raise UserError(
            "byes on request are for Swiss rounds: this format plays a fixed schedule", field="round"
        )
    if tournament.rounds is not None and round_number > tournament.rounds:
        raise UserError(f"the Swiss rounds run from 1 to {tournament.rounds}", field="round")
    last = last_round(tournament)
    if last is not None and round_number <= last.number:
        raise StateConflict(
            f"round {round_number} is already generated: a bye is asked for before that", field="round"
        )
    return round_number


def _active_registration(tournament: Tournament, player_id: int, *, own: bool) -> Registration:
    reg = tournament.registrations.select_related("player").filter(player_id=player_id).first()
    if reg is None or reg.status != Registration.Status.ACTIVE:
        raise NotFound(
            "you are not registered in this tournament"
            if own
            else f"player {player_id} is not registered in this tournament",
            field="player",
        )
    return reg


def bye_request(
    *,
    tournament: Tournament,
    by: User | AnonymousUser | None,
    round_number: Any,
    kind: Any = ByeRequest.Kind.BYE,
    player_id: Any = None,
) -> ByeRequest:
    """Ask for a bye (`kind` "bye") or to sit out ("sit_out") in a Swiss round not generated yet, for the
    signed-in user's own player or (organizers) for `player_id`. Asking again for the same round changes
    the kind. 403 for anyone else, 404 for a player who is not registered, 400 for a round that is not a
    Swiss round of the tournament, 409 once the round is generated or the tournament finished."""
    target = _requester(tournament, by, player_id)
    if kind not in ByeRequest.Kind.values:
        raise UserError(f"ask for one of {', '.join(ByeRequest.Kind.values)}", field="kind")
    with transaction.atomic():
        tournament = tournament_locked(tournament)
        number = _check_round(tournament, round_number)
        reg = _active_registration(tournament, target, own=player_id is None)
        audit(
            tournament,
            by,
            Action.BYE_REQUESTED,
            player=reg.player.name,
            player_id=reg.player_id,
            round=number,
            kind=kind,
        )
        request, _ = ByeRequest.objects.update_or_create(
            tournament=tournament,
            player_id=reg.player_id,
            round_number=number,
            # _requester let only a signed-in user through
            defaults={"kind": kind, "requested_by": cast(User, by)},
        )
    request.player = reg.player
    return request


def bye_cancel(
    *, tournament: Tournament, by: User | AnonymousUser | None, round_number: Any, player_id: Any = None
) -> None:
    """Take back a request for a round not generated yet (the player's own, or anyone's for organizers)."""
    target = _requester(tournament, by, player_id)
    with transaction.atomic():
        tournament = tournament_locked(tournament)
        number = _check_round(tournament, round_number)
        rows = ByeRequest.objects.select_related("player")
        request = rows.filter(tournament=tournament, player_id=target, round_number=number).first()
        if request is None:
            raise NotFound(f"no bye was asked for in round {number}", field="round")
        audit(
            tournament, by, Action.BYE_CANCELLED, player=request.player.name, player_id=target, round=number
        )
        request.delete()
