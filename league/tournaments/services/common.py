"""What every tournament write shares: the organizer and scorekeeper checks, the signed-in player, the
tournament row lock, the last round, the public-state version and the list of the writes that bump it
(`PUBLIC_WRITES`), the site-wide names version."""

from __future__ import annotations

import time

from django.contrib.auth.models import AnonymousUser, User
from django.core.cache import cache
from django.db import transaction
from django.db.models import F

from league.core.errors import Forbidden
from league.players.models import Player
from league.tournaments.errors import NotOrganizer, StateConflict
from league.tournaments.models import Round, Tournament
from league.tournaments.selectors import can_score, is_organizer, player_of


def check_organizer(*, user: User | AnonymousUser | None, tournament: Tournament) -> None:
    """Raise NotOrganizer (403) unless `user` organizes `tournament` or is site staff, then StateConflict
    (409) when the tournament is cancelled (`check_not_cancelled`)."""
    if not is_organizer(user, tournament):
        raise NotOrganizer()
    check_not_cancelled(tournament)


def check_scorer(*, user: User | AnonymousUser | None, tournament: Tournament) -> None:
    """Raise NotOrganizer (403) unless `user` may enter the tournament's results (organizer or
    scorekeeper), then StateConflict (409) when the tournament is cancelled."""
    if not can_score(user, tournament):
        raise NotOrganizer("only the tournament's organizers and scorekeepers (and site staff) can do this")
    check_not_cancelled(tournament)


def check_not_cancelled(tournament: Tournament) -> None:
    """Raise StateConflict (409) when `tournament` is cancelled (read afresh: the caller's copy may be
    stale): nothing changes in it but the undo of the cancel (within its minutes) and its deletion while no
    round was published."""
    if Tournament.objects.filter(pk=tournament.pk, status=Tournament.Status.CANCELLED).exists():
        raise StateConflict(
            "the tournament is cancelled: undo the cancel (for 10 minutes after it) or clone the event",
            field="status",
        )


def signed_in_player(user: User | AnonymousUser | None) -> Player:
    """The signed-in user's own player; 403 for anonymous users and users without a player."""
    if user is None or not user.is_authenticated:
        raise Forbidden("sign in to take part in a tournament")
    player = player_of(user)
    if player is None:
        raise Forbidden("you have no player yet: create yours on your page (/me/) first")
    return player


def tournament_locked(tournament: Tournament) -> Tournament:
    """The tournament row, locked until the end of the transaction (call inside one)."""
    return Tournament.objects.select_for_update().get(pk=tournament.pk)


def last_round(tournament: Tournament) -> Round | None:
    """The tournament's latest round (of any status), or None before round 1."""
    return tournament.round_set.order_by("-number").first()


def bump_public_versions_of_player(player_id: int) -> None:
    """A player was renamed: every tournament they entered shows the new name, so each counts a change
    (`players.services.RENAME_HOOKS`, registered in `TournamentsConfig.ready`)."""
    Tournament.objects.filter(registrations__player_id=player_id).update(
        public_version=F("public_version") + 1
    )


def bump_public_version(tournament_id: int) -> None:
    """Count one more change to what the tournament's public pages show (results, corrections, drops,
    rounds, timers, settings, names): call inside the transaction of the change, so a refused or rolled-back
    change counts none. Every audited change bumps it (`audit`); the writes that are not audited (a
    result, a round's timer) call it themselves. An F() update: two writes at once both count."""
    Tournament.objects.filter(pk=tournament_id).update(public_version=F("public_version") + 1)


# --- What the shared renderings of the public pages depend on (league.web.tournaments.shared) -------------
#
# Every public function of the modules of `league.tournaments.services` is named in exactly one of the lists
# below; tests/league/tournaments/test_public_version.py fails on a function in none of them. A new write
# service that changes anything a visitor sees on an event's pages (results, rounds, tables, timers,
# registrations, settings, names, judge calls, penalties, ...) goes into PUBLIC_WRITES, and gets a scenario in
# that test's `CHANGES` (which checks that it bumps the version, and tests/league/tournaments/
# test_shared_pages.py that the shared pages change on the next look); a write no public page shows goes into
# PRIVATE_WRITES with the reason; a part of a listed write into PUBLIC_WRITE_STEPS; checks, reads and helpers
# into NOT_WRITES.

PUBLIC_WRITES: frozenset[str] = frozenset(
    {
        "bye_cancel",
        "bye_request",
        "invitation_answer",
        "invitation_withdraw",
        "judge_call_claim",
        "judge_call_open",
        "judge_call_resolve",
        "organizer_add",
        "penalty_give",
        "penalty_types_set",
        "registration_add",
        "registration_check_in",
        "registration_decide",
        "registration_invite",
        "registration_join",
        "registration_leave",
        "registration_seating",
        "registration_withdraw",
        "registrations_add_batch",
        "role_add",
        "role_remove",
        "round_advance",
        "round_complete",
        "round_discard",
        "round_generate",
        "round_move",
        "round_publish",
        "round_swap",
        "round_timer_extend",
        "round_timer_pause",
        "round_timer_reset",
        "round_timer_resume",
        "round_timer_start",
        "signup_configure",
        "table_close",
        "table_close_undo",
        "table_confirm",
        "table_dispute",
        "table_extend",
        "table_fix",
        "table_record",
        "table_report",
        "table_report_withdraw",
        "table_result",
        "tournament_cancel",
        "tournament_cancel_undo",
        "tournament_finish",
        "tournament_names_set",
        "tournament_open_registration",
        "tournament_private_data_delete",
        "tournament_schedule",
        "tournament_seed",
        "tournament_start",
        "tournament_update",
    }
)

# Parts of the writes above, called inside their transaction (the caller bumps): part -> a caller.
PUBLIC_WRITE_STEPS: dict[str, str] = {
    "bracket_sync": "table_record",
    "tables_reset": "table_record",
    "tables_forfeit_departed": "registration_leave",
    "close_table": "table_close",
    "generate_round": "round_generate",
    "publish_round": "round_publish",
    "complete_round": "round_complete",
    "physical_assign": "round_generate, round_swap, round_move, round_publish, table_fix",
    "audit": "every audited write (it bumps the version itself)",
}

# Writes whose change no public page of the event shows, and why.
PRIVATE_WRITES: dict[str, str] = {
    "private_link_attach": "a registration's private link shows on organizers' and its holder's pages only",
    "private_link_email": "as private_link_attach",
    "private_link_issue": "as private_link_attach",
    "private_link_revoke": "as private_link_attach",
    "venue_address_approve": "the venue's declared address shows on organizers' pages only",
    "venue_address_set": "as venue_address_approve",
    "tournament_create": "a new event: its pages start from its first version",
    "tournament_clone": "a new event too; the one cloned does not change",
    "tournament_delete": "the event and its pages are gone",
}

# Checks, reads and helpers: they write nothing a public page shows.
NOT_WRITES: frozenset[str] = frozenset(
    {
        "advance_when_every_table_is_in",
        "bump_names_version",
        "bump_public_version",
        "bump_public_versions_of_player",
        "check_advancing",
        "check_cut_fits",
        "check_decider",
        "check_floor",
        "check_judge",
        "check_not_cancelled",
        "check_organizer",
        "check_points",
        "check_scorer",
        "check_settings",
        "check_settings_open",
        "cut_settings_open",
        "day2_settings_open",
        "diff",
        "largest_top_cut",
        "last_round",
        "leavers_last",
        "may_create",
        "names_version",
        "registration_open",
        "signed_in_player",
        "top_cut_plan",
        "top_cut_problem",
        "tournament_locked",
        "undo_entry",
        "walk_ins",
    }
)

NAMES_VERSION_KEY = "tournaments:names-version"


def names_version() -> int:
    """The site-wide names version: every rename counts one (`bump_names_version`). Kept in the cache (shared
    by every web process); should the cache lose it, it starts again from the clock's milliseconds, above any
    value it had, so that no rendering stored under an earlier value is ever served again."""
    value = cache.get(NAMES_VERSION_KEY)
    if value is None:
        cache.add(NAMES_VERSION_KEY, int(time.time() * 1000), timeout=None)
        value = cache.get(NAMES_VERSION_KEY, 0)
    return int(value)


def bump_names_version(player_id: int) -> None:
    """A player was renamed (`players.services.RENAME_HOOKS`): once the rename commits, every shared
    rendering of any event's pages is of an earlier names version (a name shows on other events' pages too:
    a season's, a club's)."""
    transaction.on_commit(_count_rename)


def _count_rename() -> None:
    names_version()  # the key exists
    try:
        cache.incr(NAMES_VERSION_KEY)
    except ValueError:  # lost in between
        names_version()
