"""What the league's forms (pages and admin) share: JSON typed into a text field, a service's error shown
on the form."""

from __future__ import annotations

from django import forms

from league.core.errors import UserError
from league.core.json_input import parse_json


def json_object(raw: str | None, *, what: str, example: str = "") -> dict:
    """The JSON object typed into a text field, {} when it is empty; a ValidationError says what is wrong
    (`league.core.json_input.parse_json` refuses what no field could store: nesting beyond its bound, ...).

    `what` names the values in the message ("options are a JSON object"), `example` shows one.
    """
    raw = (raw or "").strip()
    if not raw:
        return {}
    hint = f", e.g. {example}" if example else ""
    try:
        value = parse_json(raw)
    except ValueError as exc:  # JSONDecodeError's msg leaves out the position its str adds
        raise forms.ValidationError(f"not valid JSON: {getattr(exc, 'msg', exc)}{hint}") from None
    if not isinstance(value, dict):
        raise forms.ValidationError(f"{what} are a JSON object{hint}")
    return value


def add_user_error(form: forms.BaseForm, exc: UserError) -> None:
    """Show a service's UserError on `form`: next to its field when the form has that field, else on top."""
    form.add_error(exc.field if exc.field in form.fields else None, exc.message)
