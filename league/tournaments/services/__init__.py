"""Writes for tournaments. Each function checks first (raising a `UserError`: 400 bad input, 403 not an
organizer, 409 wrong state) and only then writes, inside one transaction holding the tournament row lock,
so two organizers clicking at once cannot both generate a round or publish it twice.

Results are entered through the league's result service (`league.results.services.result_submit`): a
tournament table's result is a version of its match, corrections included, and ratings follow from the
match's pool. Standings are never stored: they are computed from the results (`selectors`), so a correction
of an earlier round updates standings and tie-breaks at once.

The writes live in one module per part of a tournament (`settings`, `roles`, `lifecycle`, `registrations`,
`signup` and `batch`, `byes`, `rounds`, `tables`, `reports`, `brackets`, `timer`, `links`); this package
is their one entry point (the floor's writes, `floor`, are imported as their module), so callers write
`services.round_generate(...)` whichever module holds it.
"""

from league.tournaments.services.audit import audit
from league.tournaments.services.batch import (
    BatchEntry,
    BatchRefused,
    BatchResult,
    registrations_add_batch,
)
from league.tournaments.services.big_days import round_advance
from league.tournaments.services.byes import bye_cancel, bye_request
from league.tournaments.services.checks import top_cut_plan
from league.tournaments.services.lifecycle import (
    CANCEL_REASON_MAX_LENGTH,
    SHIFT_DAYS,
    SHIFT_HOURS,
    UNDO_MINUTES,
    tournament_cancel,
    tournament_cancel_undo,
    tournament_clone,
    tournament_delete,
    tournament_finish,
    tournament_open_registration,
    tournament_seed,
    tournament_start,
)
from league.tournaments.services.links import (
    IssuedPrivateLink,
    private_link_attach,
    private_link_email,
    private_link_issue,
    private_link_revoke,
    venue_address_approve,
    venue_address_set,
)
from league.tournaments.services.registrations import (
    SEED_BOUNDS,
    invitation_answer,
    invitation_withdraw,
    registration_add,
    registration_invite,
    registration_leave,
    registration_open,
)
from league.tournaments.services.reports import (
    table_confirm,
    table_dispute,
    table_report,
    table_report_withdraw,
)
from league.tournaments.services.roles import ROLES, organizer_add, role_add, role_remove
from league.tournaments.services.rounds import (
    round_complete,
    round_discard,
    round_generate,
    round_move,
    round_publish,
    round_swap,
)
from league.tournaments.services.seating import (
    registration_seating,
    table_fix,
    tournament_private_data_delete,
)
from league.tournaments.services.settings import (
    CUT_SETTINGS,
    DAY2_POINTS_LIMIT,
    SCHEDULE,
    SETTING_BOUNDS,
    SETTINGS,
    check_settings_open,
    cut_settings_open,
    tournament_create,
    tournament_names_set,
    tournament_schedule,
    tournament_update,
)
from league.tournaments.services.signup import (
    CAPACITY_BOUNDS,
    SIGNUP_SETTINGS,
    registration_check_in,
    registration_decide,
    registration_join,
    registration_withdraw,
    signup_configure,
)
from league.tournaments.services.tables import table_close, table_close_undo, table_result
from league.tournaments.services.timer import (
    EXTEND_MINUTES,
    TIMER_MINUTES,
    round_timer_extend,
    round_timer_pause,
    round_timer_reset,
    round_timer_resume,
    round_timer_start,
)

__all__ = [
    "round_advance",
    "BatchEntry",
    "BatchRefused",
    "BatchResult",
    "CAPACITY_BOUNDS",
    "EXTEND_MINUTES",
    "IssuedPrivateLink",
    "ROLES",
    "SCHEDULE",
    "SEED_BOUNDS",
    "SETTING_BOUNDS",
    "DAY2_POINTS_LIMIT",
    "SETTINGS",
    "SIGNUP_SETTINGS",
    "TIMER_MINUTES",
    "UNDO_MINUTES",
    "CANCEL_REASON_MAX_LENGTH",
    "SHIFT_DAYS",
    "SHIFT_HOURS",
    "audit",
    "bye_cancel",
    "bye_request",
    "CUT_SETTINGS",
    "check_settings_open",
    "cut_settings_open",
    "invitation_answer",
    "invitation_withdraw",
    "organizer_add",
    "private_link_attach",
    "private_link_email",
    "private_link_issue",
    "private_link_revoke",
    "registration_add",
    "registration_check_in",
    "registration_decide",
    "registration_invite",
    "registration_join",
    "registration_leave",
    "registration_open",
    "registration_seating",
    "registration_withdraw",
    "registrations_add_batch",
    "role_add",
    "role_remove",
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
    "table_fix",
    "table_close_undo",
    "table_confirm",
    "table_dispute",
    "table_report_withdraw",
    "top_cut_plan",
    "table_report",
    "table_result",
    "tournament_cancel",
    "tournament_cancel_undo",
    "tournament_clone",
    "tournament_create",
    "tournament_delete",
    "tournament_finish",
    "tournament_open_registration",
    "tournament_private_data_delete",
    "tournament_schedule",
    "tournament_seed",
    "tournament_start",
    "tournament_names_set",
    "tournament_update",
    "venue_address_approve",
    "venue_address_set",
]
