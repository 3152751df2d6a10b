"""API error bodies: one shape for every error under /api/, and its one schema.

Every 4xx and 5xx answer under /api/ is JSON of one shape (`ERROR` in the schema):

    {"code": "required", "detail": "This field is required.", "field": "name",
     "errors": [{"field": "name", "code": "required", "detail": "This field is required."}]}

`code` is one of `ErrorCode` (stable: clients branch on it) and `detail` is written for the person. `errors`
lists every fault of the request's input, each with its `field` (a dotted path; absent for a fault of the body
as a whole), `code` and `detail`; `code`, `detail` and `field` at the top are those of the first, so a client
that shows one message shows that. An error that is no input's fault (a missing object, a refused permission,
a state that does not allow the request) has no `field` and an empty `errors`.
A version conflict adds `current_version`, the result version now stored; a second report of a table adds
`open_report`, the report already waiting for confirmation.

The sources: a service's `UserError` (its status: 400, 403, 404, 409, and 429 with Retry-After); DRF's own
errors — validation (nested
serializer errors flattened to dotted field paths, list indexes included: `players.1`), authentication (401;
`token_expired` for an expired token, `TokenExpired`),
permission (403), lookups and pagination (404), methods (405), content negotiation (406), media types (415),
throttles (429 with Retry-After), malformed bodies (400); too many query or form fields (400, Django's
DATA_UPLOAD_MAX_NUMBER_FIELDS), a body larger than its view's cap (413, `BodySizeLimit`, on pages too); and,
through the URL map's handler404 and handler500, a URL that matches no route (404) and a bug (500, without
internals: the traceback goes to the log). Pages keep their HTML error pages.
"""

from __future__ import annotations

from django.conf import settings
from django.core.exceptions import PermissionDenied, TooManyFieldsSent, TooManyFilesSent
from django.http import Http404, HttpResponse, JsonResponse
from django.template import loader
from django.views import defaults
from drf_spectacular.utils import inline_serializer
from rest_framework import exceptions, serializers
from rest_framework.response import Response
from rest_framework.settings import api_settings
from rest_framework.views import exception_handler as drf_exception_handler

from league.api.throttling import TokenExpired
from league.core.bodies import CappedStream, body_limit, declared_length, size_in_words
from league.core.errors import ErrorCode, UserError

API_PREFIX = "/api/"

# The codes of DRF's exceptions other than validation (and of the Django ones DRF converts); the first match
# wins.
DRF_CODES = {
    exceptions.ParseError: ErrorCode.PARSE_ERROR,
    TokenExpired: ErrorCode.TOKEN_EXPIRED,
    exceptions.AuthenticationFailed: ErrorCode.AUTHENTICATION_FAILED,
    exceptions.NotAuthenticated: ErrorCode.NOT_AUTHENTICATED,
    exceptions.PermissionDenied: ErrorCode.FORBIDDEN,
    PermissionDenied: ErrorCode.FORBIDDEN,
    exceptions.NotFound: ErrorCode.NOT_FOUND,
    Http404: ErrorCode.NOT_FOUND,
    exceptions.MethodNotAllowed: ErrorCode.METHOD_NOT_ALLOWED,
    exceptions.NotAcceptable: ErrorCode.NOT_ACCEPTABLE,
    exceptions.UnsupportedMediaType: ErrorCode.UNSUPPORTED_MEDIA_TYPE,
    exceptions.Throttled: ErrorCode.THROTTLED,
}
# The codes of DRF's field errors that keep their name here; every other one (max_length, min_value, ...) is
# `invalid`, so that the codes stay few and stable whatever DRF adds.
FIELD_CODES: dict[str | None, ErrorCode] = {ErrorCode.REQUIRED.value: ErrorCode.REQUIRED}
SERVER_ERROR_DETAIL = "the server failed to answer this request: the error is logged; try again or report it"

ERROR_CODES = [code.value for code in ErrorCode]  # named "ErrorCode" in the schema (ENUM_NAME_OVERRIDES)
_CODE = serializers.ChoiceField(choices=ERROR_CODES, help_text="Stable: branch on it")
_DETAIL = serializers.CharField(help_text="For the person: what is wrong and how to fix it")
FIELD_ERRORS = inline_serializer(
    "FieldError",
    fields={
        "field": serializers.CharField(
            required=False,
            help_text="The input at fault as a dotted path (`players.1`); absent for the whole body",
        ),
        "code": _CODE,
        "detail": _DETAIL,
    },
    many=True,
    help_text="Every fault of the request's input, the first one first; empty when the error is no input's",
)
_ERROR_FIELDS: dict[str, serializers.Field] = {
    "code": _CODE,
    "detail": _DETAIL,
    "field": serializers.CharField(required=False, help_text="The input at fault, where there is one"),
    "errors": FIELD_ERRORS,
}
ERROR = inline_serializer(
    "Error",
    fields={
        **_ERROR_FIELDS,
        "current_version": serializers.IntegerField(
            required=False, help_text="With version_conflict: the result version now stored"
        ),
        "open_report": serializers.DictField(
            required=False,
            help_text="A report of a table that has one open already: the open report (as the table's "
            "reports list it)",
        ),
    },
)
VERSION_CONFLICT = inline_serializer(
    "VersionConflict",
    fields={
        **_ERROR_FIELDS,
        "current_version": serializers.IntegerField(
            required=False,
            help_text="The match's result version now, when someone else was first (`version_conflict`); "
            "absent when the match's result goes through its owner instead (`conflict`)",
        ),
    },
)


def error_body(code: ErrorCode, detail: str, errors: list[dict] | None = None, **extra) -> dict:
    """The error body: `code` and `detail`, `field` where the first error names one, `errors` and `extra`."""
    body = {"code": code.value, "detail": str(detail)}
    if errors and "field" in errors[0]:
        body["field"] = errors[0]["field"]
    return {**body, "errors": errors or [], **extra}


def field_error(field: str | None, code: ErrorCode, detail: str) -> dict:
    """One entry of `errors`; `field` None for a fault of the whole body."""
    entry = {"field": field} if field else {}
    return {**entry, "code": code.value, "detail": str(detail)}


def field_errors(detail, path: tuple[str, ...] = ()) -> list[dict]:
    """DRF's validation detail as `errors` entries, in its order, each naming its field by a dotted path.

    DRF nests a serializer's errors as {field: [messages]}, a list field's as {index: [messages]}, a many=True
    serializer's as [{...} per item]; a serializer's own (non-field) errors sit under NON_FIELD_ERRORS_KEY and
    belong to the object that holds them.
    """
    if isinstance(detail, dict):
        return [
            entry
            for key, value in detail.items()
            for entry in field_errors(
                value, path if key == api_settings.NON_FIELD_ERRORS_KEY else (*path, str(key))
            )
        ]
    if isinstance(detail, list):
        return [
            entry
            for index, value in enumerate(detail)
            for entry in field_errors(value, (*path, str(index)) if isinstance(value, dict | list) else path)
        ]
    code = FIELD_CODES.get(getattr(detail, "code", None), ErrorCode.INVALID)
    return [field_error(".".join(path) or None, code, detail)]


def user_error_body(error: UserError) -> dict:
    """A service error's body: its code and message, its field's entry (or, for an error with several
    faults, such as a batch's bad lines, one entry per fault), and the extra keys of `as_dict`."""
    faults = getattr(error, "faults", None)
    if faults:
        errors = [field_error(path, error.code, message) for path, message in faults]
    else:
        errors = [field_error(error.field, error.code, error.message)] if error.field else []
    extra = {key: value for key, value in error.as_dict().items() if key not in ("code", "detail", "field")}
    return error_body(error.code, error.message, errors, **extra)


def exception_handler(exc, context):
    """DRF's EXCEPTION_HANDLER: every error a view raises as the one error body; None (a 500) for a bug."""
    if isinstance(exc, UserError):
        retry_after = getattr(exc, "retry_after", None)
        headers = {"Retry-After": str(retry_after)} if retry_after is not None else None
        return Response(user_error_body(exc), status=exc.status, headers=headers)
    if isinstance(exc, TooManyFieldsSent | TooManyFilesSent):
        detail = f"the request has more than {settings.DATA_UPLOAD_MAX_NUMBER_FIELDS} query or form fields"
        return Response(error_body(ErrorCode.TOO_MANY_FIELDS, detail), status=400)
    response = drf_exception_handler(exc, context)
    if response is None:
        return None
    if response.status_code >= 500:
        response.data = error_body(ErrorCode.SERVER_ERROR, SERVER_ERROR_DETAIL)
    elif isinstance(exc, exceptions.ValidationError):
        errors = field_errors(exc.detail) or [field_error(None, ErrorCode.INVALID, "the input is invalid")]
        response.data = error_body(ErrorCode(errors[0]["code"]), errors[0]["detail"], errors)
    else:
        code = next((code for kind, code in DRF_CODES.items() if isinstance(exc, kind)), ErrorCode.INVALID)
        response.data = error_body(code, response.data["detail"])
    return response


def is_api(request) -> bool:
    return request.path_info.startswith(API_PREFIX)


class BodySizeLimit:
    """Middleware, first in MIDDLEWARE: every request body capped before anything reads or spools it
    (`league.core.bodies`). A Content-Length over the view's cap answers 413 at once, without reading; a body
    without one (chunked) is read through a `CappedStream` and answers 413 once it passes the cap. The 413 is
    the error body under /api/ (`payload_too_large`) and the site's error page (413.html) elsewhere.
    """

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        limit = body_limit(request)
        length = declared_length(request)
        if length is not None and length > limit:
            return body_too_large(request, limit)
        raw = request.META.get("wsgi.input")
        if raw is None:  # not a WSGI request (the service runs under WSGI alone)
            return self.get_response(request)
        stream = CappedStream(raw, limit)
        request.META["wsgi.input"] = stream
        if length is None and request.META.get("wsgi.input_terminated"):
            # A chunked body that the server (gunicorn) de-chunks and ends: Django reads a body only through
            # the stream it made from the Content-Length, none here, so it reads this one through the cap.
            request._stream = stream
        response = self.get_response(request)
        if stream.exceeded:  # whoever read past the cap, and whatever they answered then
            return body_too_large(request, limit)
        return response


def body_too_large(request, limit: int) -> HttpResponse:
    detail = f"the request body is larger than {size_in_words(limit)}: send less"
    if is_api(request):
        return JsonResponse(error_body(ErrorCode.PAYLOAD_TOO_LARGE, detail), status=413)
    page = loader.get_template("413.html").render({"detail": detail, "limit": size_in_words(limit)})
    return HttpResponse(page, status=413)


def not_found(request, exception):
    """handler404: under /api/ the error body for a URL that no route matches (e.g. a malformed id)."""
    if is_api(request):
        detail = "no such resource: the URL matches no route of the API (see /api/schema/)"
        return JsonResponse(error_body(ErrorCode.NOT_FOUND, detail), status=404)
    return defaults.page_not_found(request, exception)


def server_error(request):
    """handler500: under /api/ the error body without internals (the traceback is in the log)."""
    if is_api(request):
        return JsonResponse(error_body(ErrorCode.SERVER_ERROR, SERVER_ERROR_DETAIL), status=500)
    return defaults.server_error(request)
