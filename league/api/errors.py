"""API error bodies, and their one schema.

A service's `UserError` becomes its status (400, 403, 404, 409) with `{"code", "detail", "field"}` (plus
`current_version` for a version conflict) and, like DRF's own field errors, `{field: [detail]}`. A missing
object, a refused permission or a throttled request found by DRF itself (a `get_object_or_404`, a permission
class, a throttle: 429 with Retry-After) gets the same `code` and `detail`, so a client reads every 403, 404
and 429 alike. DRF's validation errors keep their field-by-field bodies.
"""

from django.core.exceptions import PermissionDenied
from django.http import Http404
from drf_spectacular.utils import inline_serializer
from rest_framework import exceptions, serializers
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from league.core.errors import ErrorCode, UserError

DRF_CODES = {
    Http404: ErrorCode.NOT_FOUND,
    exceptions.NotFound: ErrorCode.NOT_FOUND,
    PermissionDenied: ErrorCode.FORBIDDEN,
    exceptions.PermissionDenied: ErrorCode.FORBIDDEN,
    exceptions.Throttled: ErrorCode.THROTTLED,
}

ERROR_CODES = [code.value for code in ErrorCode]  # named "ErrorCode" in the schema (ENUM_NAME_OVERRIDES)
_ERROR_FIELDS = {
    "code": serializers.ChoiceField(choices=ERROR_CODES, help_text="Stable: branch on it"),
    "detail": serializers.CharField(help_text="For the person: what is wrong and how to fix it"),
    "field": serializers.CharField(required=False, help_text="The input at fault, where there is one"),
}
ERROR = inline_serializer(
    "Error",
    fields={
        **_ERROR_FIELDS,
        "current_version": serializers.IntegerField(
            required=False, help_text="With version_conflict: the result version now stored"
        ),
    },
)
VERSION_CONFLICT = inline_serializer(
    "VersionConflict", fields={**_ERROR_FIELDS, "current_version": serializers.IntegerField()}
)


def exception_handler(exc, context):
    if isinstance(exc, UserError):
        body = exc.as_dict()
        if exc.field:
            body[exc.field] = [exc.message]
        return Response(body, status=exc.status)
    response = drf_exception_handler(exc, context)
    code = next((code for kind, code in DRF_CODES.items() if isinstance(exc, kind)), None)
    if response is not None and code is not None and isinstance(response.data, dict):
        response.data = {"code": code.value, **response.data}
    return response
