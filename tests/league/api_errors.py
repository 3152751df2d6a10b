"""The API's error body as tests expect it, written out (see docs/league.md, "Errors")."""


def field_error_body(field: str, detail: str, code: str = "invalid") -> dict:
    """The body of a 4xx whose one error names `field`."""
    return {
        "code": code,
        "detail": detail,
        "field": field,
        "errors": [{"field": field, "code": code, "detail": detail}],
    }


def body_error(detail: str, code: str) -> dict:
    """The body of a 4xx about the request as a whole (no field)."""
    return {"code": code, "detail": detail, "errors": []}
