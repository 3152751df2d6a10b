"""The OpenAPI schema's error responses, added by operation kind in one place instead of on every view.

Each operation documents the errors it really answers, all with the one error body (`league.api.errors`):

- every operation: 401 (a wrong token: `authentication_failed`; an expired one: `token_expired`) and 429
  (throttled, with Retry-After);
- a write (POST, PUT, PATCH, DELETE): 400 (bad input, or a request its object's state refuses), 401 also as
  `not_authenticated` (no user), 403 (the user may not) and 413 (a body over its cap, league.core.bodies);
  with a request body also 415 (a Content-Type the API does not parse); on a tournament's paths also 409
  (a cancelled tournament refuses its organizers' writes);
- an operation with a path parameter (`/api/matches/{id}/`): 404 (no such object, or an id that is not one);
- an operation with query parameters: 400 (a filter or ordering value that makes no sense) and, where it is
  paginated (`page`), 404 for a page that does not exist.

What only some operations answer stays on the view (`extend_schema`), e.g. a result submission's 409
`VersionConflict`; a response a view documents itself is never replaced.
"""

from __future__ import annotations

from drf_spectacular import openapi

from league.api.errors import ERROR

WRITE_METHODS = {"POST", "PUT", "PATCH", "DELETE"}
DESCRIPTIONS = {
    400: "Bad input (`errors` names each field at fault), or a request the object's state refuses",
    401: "No user (`not_authenticated`) where one is needed, a wrong token (`authentication_failed`) "
    "or an expired one (`token_expired`)",
    403: "The user may not do this (`forbidden`)",
    404: "No such object, or no such page (`not_found`)",
    413: "The body is too large (`payload_too_large`)",
    409: "The object's state refuses the request (`conflict`), e.g. a write to a cancelled tournament",
    415: "The body's Content-Type is not one the API parses (`unsupported_media_type`)",
    429: "Too many requests (`throttled`): wait for Retry-After seconds",
}
HEADERS = {
    401: {"WWW-Authenticate": {"schema": {"type": "string"}, "description": "How to authenticate: `Token`"}},
    429: {
        "Retry-After": {"schema": {"type": "integer"}, "description": "Seconds to wait before trying again"}
    },
}


class AutoSchema(openapi.AutoSchema):
    """drf-spectacular's AutoSchema plus the error responses of each operation's kind (module docstring)."""

    def get_operation(self, path, path_regex, path_prefix, method, registry):
        operation = super().get_operation(path, path_regex, path_prefix, method, registry)
        if operation is None:
            return None
        error = {"application/json": {"schema": self.resolve_serializer(ERROR, "response").ref}}
        responses = operation["responses"]
        for status in error_statuses(self.method, operation, path):
            responses.setdefault(
                str(status),
                {
                    "description": DESCRIPTIONS[status],
                    **({"headers": HEADERS[status]} if status in HEADERS else {}),
                    "content": error,
                },
            )
        operation["responses"] = dict(sorted(responses.items()))
        return operation


def error_statuses(method: str, operation: dict, path: str = "") -> set[int]:
    """The error statuses an operation answers, from its method, path, parameters and request body."""
    statuses = {401, 429}
    if method in WRITE_METHODS:
        statuses |= {400, 403, 413} | ({415} if "requestBody" in operation else set())
        if path.startswith("/api/tournament"):  # a cancelled tournament refuses its writes (409)
            statuses.add(409)
    parameters = operation.get("parameters", [])
    if any(parameter["in"] == "path" for parameter in parameters):
        statuses.add(404)
    query = {parameter["name"] for parameter in parameters if parameter["in"] == "query"}
    if query - {"page"}:
        statuses.add(400)
    if "page" in query:
        statuses.add(404)
    return statuses
