"""A tournament's log in words: its organizers' actions (and the players' own sign-ups), each entry worded for
the log page (`league.web.tournaments.log`). Entries are written by the services (`services.audit`); this
module only words them."""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import datetime
from typing import Any

from league.core.bidi import isolated
from league.core.catalogue import game_name
from league.core.words import counted
from league.tournaments import clock
from league.tournaments.models import AuditEntry, Registration, Tournament

Action = AuditEntry.Action


def _value(name: str, value: Any, zone: str) -> str:
    """A setting's value as the log shows it."""
    if value is None or value == [] or value == {}:
        return "none"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if name.endswith("_at") and isinstance(value, str):
        return clock.show(datetime.fromisoformat(value), zone)
    if name == "round_times" and isinstance(value, list):
        return ", ".join(clock.show(datetime.fromisoformat(item), zone) if item else "–" for item in value)
    if isinstance(value, dict | list):
        return json.dumps(_whole(value), ensure_ascii=False, separators=(", ", ": "))
    return str(value)


def _whole(value: Any) -> Any:
    """Floats that are whole numbers as ints (points 3.0 → 3), inside lists and objects too."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, dict):
        return {key: _whole(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_whole(item) for item in value]
    return value


def _changes(details: dict, zone: str) -> str:
    """The changed settings in name order (PostgreSQL's JSON keeps no key order)."""
    return "; ".join(
        f"{name.replace('_', ' ')} {_value(name, old, zone)} → {_value(name, new, zone)}"
        for name, (old, new) in sorted(details.get("changes", {}).items())
    )


def _moved_up(details: dict) -> str:
    moved = details.get("moved_up")
    return f"; moved up from the waitlist: {', '.join(moved)}" if moved else ""


def _status(details: dict) -> str:
    return Registration.Status(details["status"]).label.lower() if details.get("status") else ""


def _role(details: dict, verb: str, role: str) -> str:
    return f"{verb} {details.get('user')} as {role}"


def _started(details: dict, zone: str) -> str:
    text = f"Started the tournament with {_count(details.get('players'), 'player')}"
    if details.get("no_shows"):
        text += f"; no-shows: {', '.join(details['no_shows'])}"
    if details.get("moved_up"):
        text += f"; moved up from the waitlist: {', '.join(details['moved_up'])}"
    return text


def _finished(details: dict, zone: str) -> str:
    if details.get("early"):
        return f"Finished the tournament after round {details.get('after_round')}"
    return f"The tournament finished with round {details.get('after_round')}"


def _registered(details: dict, zone: str) -> str:
    late = f", from round {details['entered_round']}" if details.get("entered_round", 1) > 1 else ""
    seed = f" (seed {details['seed']}{late})" if details.get("seed") else (f" ({late[2:]})" if late else "")
    return f"Registered {details.get('player')}{seed}"


def _swapped(details: dict, zone: str) -> str:
    first, second = details.get("first", {}), details.get("second", {})
    return (
        f"Round {details.get('round')} draft: swapped {first.get('player')} "
        f"(table {first.get('table')}, seat {first.get('seat')}) and {second.get('player')} "
        f"(table {second.get('table')}, seat {second.get('seat')})"
    )


def _moved(details: dict, zone: str) -> str:
    origin = f"table {details['from_table']}" if details.get("from_table") else "a bye"
    return (
        f"Round {details.get('round')} draft: moved {details.get('player')} from {origin} "
        f"to table {details.get('to_table')}"
    )


def _closed(details: dict, zone: str) -> str:
    label = f" ({details['label']})" if details.get("label") else ""
    kind = "no-show" if details.get("kind") == "no_show" else "forfeit"
    return (
        f"Closed round {details.get('round')}, table {details.get('table')}{label} as {kind}: "
        f"{', '.join(details.get('absent', []))} absent"
    )


def _reset(details: dict, zone: str) -> str:
    label = f" ({details['label']})" if details.get("label") else ""
    return f"Reset the result of round {details.get('round')}, table {details.get('table')}{label}"


def _table_of(details: dict) -> str:
    label = f" ({details['label']})" if details.get("label") else ""
    return f"round {details.get('round')}, table {details.get('table')}{label}"


def _count(value: object, noun: str) -> str:
    """A stored count with its noun in the right number ("1 table", "5 tables"); "? tables" when missing."""
    if isinstance(value, int):
        return counted(value, noun)
    return f"{value if value is not None else '?'} {noun}s"


def _voided(details: dict) -> str:
    voided = len(details.get("voided", []))
    return f" ({_count(voided, 'unplayed table')} voided)" if voided else ""


def _shift(details: dict) -> str:
    days, hours = details.get("shift_days") or 0, details.get("shift_hours") or 0
    parts = [_count(days, "day") if days else "", _count(hours, "hour") if hours else ""]
    shown = " and ".join(part for part in parts if part)
    return f", times moved by {shown}" if shown else ""


def _format_label(value: object) -> object:
    """A format's label, or the stored value itself when it is no longer a format."""
    return Tournament.Format(value).label if value in Tournament.Format.values else value


WORDING: dict[str, Callable[[dict, str], str]] = {
    Action.TOURNAMENT_CREATED: lambda d, z: (
        f"Created {d.get('name')}: {game_name(d.get('game', ''))}, {_format_label(d.get('format'))}"
    ),
    Action.SETTINGS_CHANGED: lambda d, z: f"Changed settings: {_changes(d, z)}{_moved_up(d)}",
    Action.REGISTRATION_OPENED: lambda d, z: "Opened registration",
    Action.SEEDED: lambda d, z: f"Seeded {_count(d.get('players'), 'player')} by {d.get('method')}",
    Action.STARTED: _started,
    Action.FINISHED: _finished,
    Action.ORGANIZER_ADDED: lambda d, z: _role(d, "Added", "an organizer"),
    Action.ORGANIZER_REMOVED: lambda d, z: _role(d, "Removed", "an organizer"),
    Action.SCOREKEEPER_ADDED: lambda d, z: _role(d, "Added", "a scorekeeper"),
    Action.SCOREKEEPER_REMOVED: lambda d, z: _role(d, "Removed", "a scorekeeper"),
    Action.REGISTRATION_ADDED: _registered,
    Action.REGISTRATION_WITHDRAWN: lambda d, z: f"Withdrew {d.get('player')}{_moved_up(d)}",
    Action.REGISTRATION_DROPPED: lambda d, z: f"Dropped {d.get('player')} after round {d.get('after_round')}",
    Action.REGISTRATION_NO_SHOW: lambda d, z: (
        f"Marked {d.get('player')} a no-show after round {d.get('after_round')}"
    ),
    Action.REGISTRATION_JOINED: lambda d, z: f"{d.get('player')} joined ({_status(d)})",
    Action.REGISTRATION_LEFT: lambda d, z: f"{d.get('player')} left{_moved_up(d)}",
    Action.REGISTRATION_APPROVED: lambda d, z: f"Approved the entry of {d.get('player')} ({_status(d)})",
    Action.REGISTRATION_DECLINED: lambda d, z: f"Declined the entry of {d.get('player')}",
    Action.REGISTRATION_INVITED: lambda d, z: f"Invited {d.get('player')} (user {d.get('user')})",
    Action.INVITATION_ACCEPTED: lambda d, z: f"{d.get('player')} accepted the invitation",
    Action.INVITATION_DECLINED: lambda d, z: f"{d.get('player')} declined the invitation",
    Action.INVITATION_WITHDRAWN: lambda d, z: f"Took back the invitation of {d.get('player')}",
    Action.CHECKED_IN: lambda d, z: (
        f"Checked {d.get('player')} in" if d.get("desk") else f"{d.get('player')} checked in"
    ),
    Action.CHECK_IN_UNDONE: lambda d, z: f"Undid the check-in of {d.get('player')}",
    Action.BYE_REQUESTED: lambda d, z: (
        f"{d.get('player')}: {'a bye' if d.get('kind') == 'bye' else 'sits out'} in round {d.get('round')}"
    ),
    Action.BYE_CANCELLED: lambda d, z: (
        f"{d.get('player')}: the request for round {d.get('round')} taken back"
    ),
    Action.ROUND_GENERATED: lambda d, z: (
        f"Generated round {d.get('round')} as a draft ({_count(d.get('tables'), 'table')})"
    ),
    Action.ROUND_DISCARDED: lambda d, z: f"Discarded the draft of round {d.get('round')}",
    Action.SEATS_SWAPPED: _swapped,
    Action.SEAT_MOVED: _moved,
    Action.ROUND_PUBLISHED: lambda d, z: (
        f"Published round {d.get('round')} ({_count(d.get('tables'), 'table')})"
    ),
    Action.ROUND_COMPLETED: lambda d, z: f"Completed round {d.get('round')}",
    Action.ROUND_WAITING: lambda d, z: _waiting(d),
    Action.TABLE_CLOSED: _closed,
    Action.RESULT_RESET: _reset,
    Action.RESULT_REPORTED: lambda d, z: f"{d.get('player')} reported the result of {_table_of(d)}",
    Action.RESULT_CONFIRMED: lambda d, z: (
        f"Stored the result of {_table_of(d)} reported by {d.get('reporter')}, confirmed by "
        f"{', '.join(d.get('confirmed_by', []))}"
    ),
    Action.RESULT_DISPUTED: lambda d, z: f"{d.get('player')} disputed the result of {_table_of(d)}",
    Action.CANCELLED: lambda d, z: f"Cancelled the tournament: {d.get('reason')}{_voided(d)}",
    Action.CANCEL_UNDONE: lambda d, z: (
        "Undid the cancel"
        + (f" ({_count(d.get('reopened', 0), 'table')} waiting again)" if d.get("reopened") else "")
    ),
    Action.CLONED: lambda d, z: f"Cloned from {d.get('source')}{_shift(d)}",
    Action.TABLE_CLOSE_UNDONE: lambda d, z: (
        f"Undid the closing of {_table_of(d)} as {'no-show' if d.get('kind') == 'no_show' else 'forfeit'}"
    ),
    Action.RESULT_CORRECTED: lambda d, z: (
        f"Corrected the result of {_table_of(d)} (version {d.get('version')}): {d.get('reason')}"
    ),
    Action.DISPUTE_SETTLED: lambda d, z: (
        f"Settled the dispute of {_table_of(d)} with result version {d.get('version')}"
    ),
    Action.RESULT_WITHDRAWN: lambda d, z: f"{d.get('player')} took back their report of {_table_of(d)}",
}


def _waiting(d: dict) -> str:
    """A round the tournament started by itself that waits for its organizers, and why."""
    if d.get("problem"):
        return f"Could not generate round {d.get('round')} by itself: {d.get('problem')}"
    reasons = []
    if d.get("warnings"):
        reasons.append(_count(d.get("warnings"), "warning"))
    if d.get("disputes"):
        reasons.append(_count(d.get("disputes"), "open dispute"))
    return f"Round {d.get('round')} waits as a draft ({' and '.join(reasons)})"


NAMED = ("player", "user", "reporter", "name")  # details that hold one name people typed
NAME_LISTS = ("confirmed_by", "moved_up", "no_shows", "absent")  # details that hold a list of them


def _isolated_names(details: dict) -> dict:
    """The details with every name between Unicode isolates (`league.core.bidi`), seats' players included."""
    shown = dict(details)
    for key in NAMED:
        if isinstance(shown.get(key), str):
            shown[key] = isolated(shown[key])
    for key in NAME_LISTS:
        if isinstance(shown.get(key), list):
            shown[key] = [isolated(name) for name in shown[key]]
    for key in ("first", "second"):
        if isinstance(shown.get(key), dict) and isinstance(shown[key].get("player"), str):
            shown[key] = {**shown[key], "player": isolated(shown[key]["player"])}
    return shown


def describe(entry: AuditEntry, zone: str, *, isolate: bool = False) -> str:
    """What the entry records, in a sentence for the log page; with `isolate`, its names between Unicode
    isolates (the page shows them in `<bdi>`)."""
    wording = WORDING.get(entry.action)
    details = _isolated_names(entry.details) if isolate else entry.details
    return wording(details, zone) if wording else entry.get_action_display()
