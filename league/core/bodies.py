"""The cap on request bodies: how many bytes a request may send, checked before anything reads or spools them.

Every request body is capped at REQUEST_BODY_MAX_BYTES; a view that takes more (a bot upload, a batch of
participants) says how much with `takes_body` (a DRF action too). The middleware
(`league.api.errors.BodySizeLimit`) answers 413 before the body is read when its Content-Length is over the
view's cap, and otherwise reads it through `CappedStream`, so that a body without a Content-Length
(chunked) is counted as it streams and stops at the cap: `BodyTooLarge`, which the middleware turns into
the same 413 whatever caught it on the way.

A body within the cap is never spooled to a temporary file: FILE_UPLOAD_MAX_MEMORY_SIZE is at least the
largest cap (the settings say so), so Django keeps every upload in memory.
"""

from __future__ import annotations

from collections.abc import Callable
from io import IOBase
from typing import Any

from django.conf import settings
from django.core.exceptions import RequestDataTooBig
from django.urls import Resolver404, resolve

LIMIT_ATTRIBUTE = "body_limit"


class BodyTooLarge(RequestDataTooBig):
    """A body read past its cap. Django answers a RequestDataTooBig with 400 where it escapes a view or a
    middleware; `BodySizeLimit` answers 413 instead."""

    def __init__(self, limit: int):
        super().__init__(f"the request body is larger than {limit} bytes")
        self.limit = limit


def takes_body(limit: Callable[[], int]) -> Callable[[Any], Any]:
    """View decorator: the view takes a body of up to `limit()` bytes (read at each request, so that tests
    and settings may change it) instead of REQUEST_BODY_MAX_BYTES. Put it closest to the view function (or
    the DRF action method), so that wrappers such as login_required copy it."""

    def mark(view):
        setattr(view, LIMIT_ATTRIBUTE, limit)
        return view

    return mark


def body_limit(request) -> int:
    """The cap of `request`'s body: that of the view its path resolves to (`takes_body`), else
    REQUEST_BODY_MAX_BYTES (a path that resolves to nothing included)."""
    default = settings.REQUEST_BODY_MAX_BYTES
    try:
        match = resolve(request.path_info, getattr(request, "urlconf", None))
    except Resolver404:
        return default
    view = match.func
    actions = getattr(view, "actions", None)  # a DRF viewset: the method's action decides
    if actions and hasattr(view, "cls"):
        view = getattr(view.cls, actions.get(request.method.lower(), ""), view)
    limit = getattr(view, LIMIT_ATTRIBUTE, None)
    return limit() if limit is not None else default


def declared_length(request) -> int | None:
    """The body's Content-Length; None when absent or not a number (Django then reads no body)."""
    try:
        length = int(request.META.get("CONTENT_LENGTH") or "")
    except ValueError:
        return None
    return length if length >= 0 else None


def size_in_words(number: int) -> str:
    """A byte count as people read it: 256 KiB, 1 MiB, else bytes."""
    if number and number % (1 << 20) == 0:
        return f"{number >> 20} MiB"
    if number and number % (1 << 10) == 0:
        return f"{number >> 10} KiB"
    return f"{number:,} bytes"


class CappedStream(IOBase):
    """A request's input read no further than `limit` bytes: reading past it raises BodyTooLarge (and
    `exceeded` stays True), whatever the reader asked for."""

    def __init__(self, stream, limit: int):
        self.stream = stream
        self.limit = limit
        self.count = 0
        self.exceeded = False

    def readable(self) -> bool:
        return True

    def _counted(self, data: bytes) -> bytes:
        self.count += len(data)
        if self.count > self.limit:
            self.exceeded = True
            raise BodyTooLarge(self.limit)
        return data

    def read(self, size: int | None = -1) -> bytes:
        if self.exceeded:
            raise BodyTooLarge(self.limit)
        if size is None or size < 0:
            # Never an unbounded read: one byte past the cap is enough to know.
            size = self.limit - self.count + 1
        return self._counted(self.stream.read(min(size, self.limit - self.count + 1)))

    def readline(self, size: int | None = -1) -> bytes:
        if self.exceeded:
            raise BodyTooLarge(self.limit)
        room = self.limit - self.count + 1
        return self._counted(self.stream.readline(room if size is None or size < 0 else min(size, room)))
