"""The tournament app's user errors beyond 400: a wrong state (409) and a missing right (403).

Both are `UserError`s, so the API's error handler answers with their status and `{"code", "detail"}`, and
pages show their message with the same status.
"""

from league.core.errors import ErrorCode, Forbidden, UserError


class StateConflict(UserError):
    """The request does not fit the tournament's or the round's current state (e.g. a round is still open)."""

    status = 409
    code = ErrorCode.CONFLICT


class NotOrganizer(Forbidden):
    """The user is neither an organizer of this tournament nor site staff."""

    def __init__(self, message: str = "only the tournament's organizers (and site staff) can do this"):
        super().__init__(message)
