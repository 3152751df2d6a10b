"""What happens in the league that someone may want to hear about, as Django signals sent after commit.

The apps where these things happen (tournaments, results, bots) sit below the app that tells people about
them (`league.notifications`: the inbox, email and outbound webhooks), so they cannot call it. Instead they
call `emit(signal, **payload)` at the moment it happens, inside their transaction; the signal is sent once
that transaction commits (never for a rolled-back one), and receivers must not raise: a receiver that fails
is logged and the others still run (`send_robust`), so hearing about an action never breaks the action.

Every payload is keyword arguments of plain ids (and a few plain values), not model instances, so a
receiver reads the rows afresh and can hand the ids on to a Celery task as they are.

Each signal, when it is sent, and its payload:
- `table_ready`: tables get their players: a round is published, or a bracket match's players are known.
  `tournament_id`, `table_ids`.
- `result_recorded`: a result version is stored at a tournament table (organizer entry or confirmed report).
  `tournament_id`, `table_id`, `version_id`.
- `report_awaiting_confirmation`: a player reports a table's result and others must confirm it.
  `tournament_id`, `table_id`, `report_id`, `user_ids` (who must confirm).
- `result_disputed`: a seated player disputes a report or a stored result. `tournament_id`, `table_id`,
  `dispute_id`.
- `dispute_settled`: an organizer's entry settles open disputes of a match. `dispute_ids`.
- `player_invited`: an organizer invites a player into a tournament. `tournament_id`, `player_id`.
- `tournament_finished`: a tournament's status becomes finished. `tournament_id`.
- `round_waiting`: a round a tournament started by itself (big days' `auto_next_round`) waits for its
  organizers: its draft has warnings or a dispute is open, or it could not be generated (`problem`, the
  reason). `tournament_id`, `round_number`, `warnings`, `disputes` (counts), `problem`.
- `tournament_cancelled`: an organizer cancels a tournament (its reason stored on it). `tournament_id`.
- `league_round_rated`: every match of a bot-league round is played and rated. `league_id`, `round_number`.
- `bot_match_voided`: a league fixture's or challenge's match is voided because its workers were lost (its
  lease expired too often). `match_id`.
- `bot_checked`: the check of an uploaded bot version ends: ready, or refused (with the reason). `bot_id`.
- `season_table_changed`: what a season ranks changed other than a result (an event joined, its rules, its
  freeze). `season_id`. (A result recorded at one of its events changes it too: `result_recorded`.)
- `bot_forfeited`: a bot's seat forfeits a rated match of a league or ladder after one it played through (the
  first of a run), or a ladder withdraws it for forfeiting its `withdraw_after_forfeits` in a row. `bot_id`,
  `league_id`, `match_id` (the forfeited match), `streak` (forfeits in a row), `withdrawn`.
"""

from __future__ import annotations

import logging
from typing import Any

from django.db import transaction
from django.dispatch import Signal

log = logging.getLogger(__name__)

table_ready = Signal()
result_recorded = Signal()
report_awaiting_confirmation = Signal()
result_disputed = Signal()
dispute_settled = Signal()
player_invited = Signal()
tournament_finished = Signal()
round_waiting = Signal()
tournament_cancelled = Signal()
league_round_rated = Signal()
bot_match_voided = Signal()
bot_checked = Signal()
season_table_changed = Signal()
bot_forfeited = Signal()


def emit(signal: Signal, **payload: Any) -> None:
    """Send `signal` with `payload` once the current transaction commits (at once outside one)."""

    def send() -> None:
        for receiver, outcome in signal.send_robust(sender=None, **payload):
            if isinstance(outcome, Exception):
                log.error("receiver %r of an event failed", receiver, exc_info=outcome)

    transaction.on_commit(send)
