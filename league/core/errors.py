"""The user errors that services raise and that pages and the API show as such (never as a 500).

A `UserError` is bad input or a wrong state that the person can fix: the form shows it next to `field`,
the API answers with `status` and `{"code", "detail", "field"}`. Anything else that escapes a service is an
invariant violation, a bug.
"""

from __future__ import annotations


class UserError(Exception):
    """Bad input or a wrong state, with a message written for the person who sent it."""

    status = 400
    code = "invalid"

    def __init__(self, message: str, *, field: str | None = None, code: str | None = None):
        super().__init__(message)
        self.message = message
        self.field = field
        if code is not None:
            self.code = code

    def as_dict(self) -> dict:
        body = {"code": self.code, "detail": self.message}
        if self.field:
            body["field"] = self.field
        return body


class NotFound(UserError):
    status = 404
    code = "not_found"


class VersionConflict(UserError):
    """A result submission named a version that is no longer the latest."""

    status = 409
    code = "version_conflict"

    def __init__(self, current_version: int, expected_version: int):
        super().__init__(
            f"the result is at version {current_version}, not {expected_version}: "
            "someone entered a result meanwhile; review it and submit again with "
            f"expected_version {current_version}",
            field="expected_version",
        )
        self.current_version = current_version

    def as_dict(self) -> dict:
        return {**super().as_dict(), "current_version": self.current_version}
