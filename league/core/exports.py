"""CSV downloads that spreadsheets open as intended.

- The file starts with a byte-order mark, so spreadsheet programs read it as UTF-8 and show names in any
  script unchanged ("李雷", "محمد علي", "Юлия").
- A text cell that starts with `=`, `+`, `-` or `@` and is not a plain number gets a `'` in front, so that a
  spreadsheet shows it as text instead of running it as a formula (CSV injection: a player named
  "=HYPERLINK(...)"). Numbers, negative ones included, stay numbers.
"""

from __future__ import annotations

import csv
from collections.abc import Iterable
from typing import Any

from django.http import HttpResponse
from django.utils.http import content_disposition_header

BOM = "\ufeff"
FORMULA_STARTS = ("=", "+", "-", "@")


def _is_number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


def safe_cell(value: Any) -> Any:
    """`value` as a CSV cell: a text that a spreadsheet would take for a formula is prefixed with `'`."""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS) and not _is_number(value):
        return f"'{value}"
    return value


class SafeWriter:
    """A `csv.writer` whose rows go through `safe_cell`."""

    def __init__(self, response: HttpResponse) -> None:
        self._writer = csv.writer(response)

    def writerow(self, row: Iterable[Any]) -> None:
        self._writer.writerow([safe_cell(value) for value in row])


def csv_download(filename: str) -> tuple[HttpResponse, SafeWriter]:
    """A CSV attachment (UTF-8 with a byte-order mark) and the writer of its rows."""
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = content_disposition_header(True, filename)  # filename*= for any script
    response.write(BOM)
    return response, SafeWriter(response)
