"""API error bodies: service UserErrors become 400/404/409 with a stable code; DRF's own errors keep theirs,
except a throttled request: 429 `{"code": "throttled", "detail"}` (with Retry-After), like a service error."""

from rest_framework.exceptions import Throttled
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from league.core.errors import UserError


def exception_handler(exc, context):
    if isinstance(exc, UserError):
        body = exc.as_dict()
        if exc.field:
            body[exc.field] = [exc.message]
        return Response(body, status=exc.status)
    response = drf_exception_handler(exc, context)
    if isinstance(exc, Throttled):
        response.data = {"code": exc.default_code, "detail": str(exc.detail)}
    return response
