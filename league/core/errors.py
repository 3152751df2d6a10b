"""The two kinds of errors in the league: user errors, which pages and the API show as such, and invariant
violations, which are bugs.

A `UserError` is bad input or a wrong state that the person can fix: the form shows it next to `field`,
the API answers with `status` and its error body (`league/api/errors.py`: `code`, `detail`, `field` and
`errors`), where `code` is one of `ErrorCode` (stable: clients branch on it). `NotFound` is also Django's
`Http404`, so a page whose service finds no such object answers 404 like any other missing page, and the API
answers 404 with the same body as for its own misses.

An `InvariantViolation` is what can only happen through a bug (two rows the code just made disagree, a
caller naming a column that does not exist): it is never caught, so it surfaces as a 500 and in the logs.
"""

from __future__ import annotations

from enum import StrEnum

from django.http import Http404


class ErrorCode(StrEnum):
    """The stable `code` of every error body the API sends (the OpenAPI schema lists these values).

    The services raise the first nine and `throttled`; the API itself answers with the rest
    (league/api/errors.py).
    """

    INVALID = "invalid"  # bad input (400)
    UNKNOWN_GAME = "unknown_game"  # no registered game of that id (400)
    DUPLICATE = "duplicate"  # the name or entry exists already (400)
    PAIRING = "pairing"  # the pairing rules cannot draw this round (400)
    NOT_FOUND = "not_found"  # no such object (404)
    NOT_PLAYED = "not_played"  # the match exists but has no record yet (404)
    FORBIDDEN = "forbidden"  # the user may not do this (403)
    CONFLICT = "conflict"  # the request does not fit the object's current state (409)
    VERSION_CONFLICT = "version_conflict"  # a result names a version that is no longer the latest (409)
    THROTTLED = "throttled"  # too many requests: wait for the Retry-After seconds (429)
    REQUIRED = "required"  # a field the request must carry is missing (400)
    PARSE_ERROR = "parse_error"  # the body is not valid JSON or form data (400)
    TOO_MANY_FIELDS = "too_many_fields"  # more query or form fields than DATA_UPLOAD_MAX_NUMBER_FIELDS (400)
    NOT_AUTHENTICATED = "not_authenticated"  # the request needs a signed-in user and carries none (401)
    AUTHENTICATION_FAILED = "authentication_failed"  # the token or credentials are wrong (401)
    TOKEN_EXPIRED = "token_expired"  # the API token is right but expired: make a new one on /me/ (401)
    METHOD_NOT_ALLOWED = "method_not_allowed"  # the URL does not take this HTTP method (405)
    NOT_ACCEPTABLE = "not_acceptable"  # the API cannot answer in the format the request asks for (406)
    PAYLOAD_TOO_LARGE = "payload_too_large"  # the body is larger than its cap (413; league.core.bodies)
    UNSUPPORTED_MEDIA_TYPE = (
        "unsupported_media_type"  # the body's Content-Type is not JSON or form data (415)
    )
    SERVER_ERROR = "server_error"  # a bug: the server logged it (500)


class UserError(Exception):
    """Bad input or a wrong state, with a message written for the person who sent it."""

    status = 400
    code = ErrorCode.INVALID

    def __init__(self, message: str, *, field: str | None = None, code: ErrorCode | None = None):
        super().__init__(message)
        self.message = message
        self.field = field
        if code is not None:
            self.code = ErrorCode(code)

    def as_dict(self) -> dict:
        body = {"code": self.code.value, "detail": self.message}
        if self.field:
            body["field"] = self.field
        return body


class NotFound(UserError, Http404):
    """The object the request is about does not exist (404 on pages and in the API).

    An id inside submitted data that names nothing (a seat's player, a user to add) is bad input instead: a
    `UserError` naming its field.
    """

    status = 404
    code = ErrorCode.NOT_FOUND


class Forbidden(UserError):
    """The user may not do this (403)."""

    status = 403
    code = ErrorCode.FORBIDDEN


class Conflict(UserError):
    """The request does not fit the object's current state, e.g. a claim link that was used already (409)."""

    status = 409
    code = ErrorCode.CONFLICT


class TooMany(UserError):
    """The user did this too often lately: they may again after `retry_after` seconds (429)."""

    status = 429
    code = ErrorCode.THROTTLED

    def __init__(self, message: str, *, retry_after: int, field: str | None = None):
        super().__init__(message, field=field)
        self.retry_after = retry_after


class VersionConflict(UserError):
    """A result submission named a version that is no longer the latest."""

    status = 409
    code = ErrorCode.VERSION_CONFLICT

    def __init__(self, current_version: int | None, expected_version: int):  # None: the match is gone
        super().__init__(
            f"the result is at version {current_version}, not {expected_version}: "
            "someone entered a result meanwhile; review it and submit again with "
            f"expected_version {current_version}",
            field="expected_version",
        )
        self.current_version = current_version

    def as_dict(self) -> dict:
        return {**super().as_dict(), "current_version": self.current_version}


class InvariantViolation(Exception):
    """Something that cannot happen unless the code is wrong; never caught, never shown as a user error."""
