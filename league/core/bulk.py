"""Many rows in one statement, for the write paths where Django's per-object machinery costs more than the
work itself: a bot league's worker stores a match in a few hundred microseconds of database time, and
`bulk_create` / `bulk_update` (model instances, `pre_save`, a CASE expression per field and row) would
double that.

Rows are plain tuples in the order of `columns` (field attnames such as `match_id`). Values of plain fields
(numbers, text, booleans, bytes) go to the driver as they are; any other field's values (dates, JSON) pass
through the field's `get_db_prep_save`, as the ORM would. On PostgreSQL one array per column is sent and
`unnest` turns them into rows (a handful of parameters whatever the number of rows), bound on the server
in binary: Django's default cursor quotes every value into the SQL text instead, which for a few thousand
numbers costs three times the insert itself. On SQLite, which runs in-process, a VALUES list in chunks
under its parameter limit.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from functools import cache
from typing import Any, cast

from django.db import DEFAULT_DB_ALIAS, connections
from django.db.models import Field, ForeignKey, Model

from league.core.errors import InvariantViolation

PLAIN_TYPES = frozenset(
    {
        "AutoField",
        "BigAutoField",
        "SmallAutoField",
        "IntegerField",
        "BigIntegerField",
        "SmallIntegerField",
        "PositiveIntegerField",
        "PositiveBigIntegerField",
        "PositiveSmallIntegerField",
        "FloatField",
        "BooleanField",
        "CharField",
        "TextField",
        "BinaryField",
    }
)
SQLITE_PARAMETERS = 30_000  # SQLite 3.32+ allows 32,766 parameters a statement


@cache
def _field(model: type[Model], column: str) -> Field:
    meta = model._meta
    if column in ("pk", meta.pk.attname):
        return meta.pk
    for field in meta.concrete_fields:
        if column in (field.attname, field.name):
            return field
    raise InvariantViolation(f"{model.__name__} has no column {column!r}")


def _column(field: Field) -> str:
    """The column of a field `_field` found: a concrete field, so it has one."""
    return cast(str, field.column)


def _is_plain(field: Field) -> bool:
    # A concrete field that is a relation is a ForeignKey (or a OneToOneField, one of those).
    target = cast(ForeignKey, field).target_field if field.is_relation else field
    return target.get_internal_type() in PLAIN_TYPES


def _prepared(fields: Sequence[Field], rows: Sequence[tuple], connection) -> list[list[Any]]:
    """One list of values per column, converted where the field needs it."""
    columns = [list(values) for values in zip(*rows, strict=True)]
    for index, field in enumerate(fields):
        if not _is_plain(field):
            columns[index] = [field.get_db_prep_save(value, connection) for value in columns[index]]
    return columns


def _pg_cursor(connection):
    """A cursor of `connection` that binds parameters on the server (`%b`: binary), wrapped like any other
    (database errors translated, execute wrappers and query logging applied)."""
    from django.db.backends.postgresql.base import ServerBindingCursor

    connection.ensure_connection()
    cursor = ServerBindingCursor(connection.connection)
    return (
        connection.make_debug_cursor(cursor) if connection.queries_logged else connection.make_cursor(cursor)
    )


def insert(
    model: type[Model],
    columns: Sequence[str],
    rows: Sequence[tuple],
    *,
    returning: Sequence[str] = (),
    **constants: Any,
) -> list[tuple]:
    """INSERT `rows` into `model`'s table, with the `constants` (field attname = value) in every row; the
    `returning` columns of the new rows (in no set order)."""
    if not rows:
        return []
    connection = connections[DEFAULT_DB_ALIAS]
    quote = connection.ops.quote_name
    fields = [_field(model, column) for column in columns]
    constant_fields = [_field(model, name) for name in constants]
    constant_values = [
        field.get_db_prep_save(value, connection)
        for field, value in zip(constant_fields, constants.values(), strict=True)
    ]
    values = _prepared(fields, rows, connection)
    targets = ", ".join(quote(_column(field)) for field in (*fields, *constant_fields))
    head = f"INSERT INTO {quote(model._meta.db_table)} ({targets}) "
    tail = f" RETURNING {', '.join(quote(_column(_field(model, c))) for c in returning)}" if returning else ""
    result: list[tuple] = []
    if connection.vendor == "postgresql":
        arrays = ", ".join(f"%b::{field.cast_db_type(connection)}[]" for field in fields)
        fixed = "".join(f", %b::{field.cast_db_type(connection)}" for field in constant_fields)
        with _pg_cursor(connection) as cursor:
            cursor.execute(f"{head}SELECT *{fixed} FROM unnest({arrays}){tail}", [*constant_values, *values])
            result = cursor.fetchall() if returning else []
        return _converted(model, returning, result, connection)
    by_row = [(*row, *constant_values) for row in zip(*values, strict=True)]
    width = len(fields) + len(constant_fields)
    row_sql = "(" + ", ".join(["%s"] * width) + ")"
    with connection.cursor() as cursor:
        if returning and not connection.features.can_return_rows_from_bulk_insert:  # SQLite before 3.35
            ids = []
            for row in by_row:
                cursor.execute(f"{head}VALUES {row_sql}", row)
                ids.append(cursor.lastrowid)
            manager = model.objects  # type: ignore[attr-defined]  # ModelBase gives every model class one
            found_rows = manager.filter(pk__in=ids).values_list("pk", *returning)
            found = {row[0]: tuple(row[1:]) for row in found_rows}
            return [found[pk] for pk in ids]
        size = max(1, _parameter_limit(connection) // width)
        for start in range(0, len(by_row), size):
            chunk = by_row[start : start + size]
            cursor.execute(
                f"{head}VALUES {', '.join([row_sql] * len(chunk))}{tail}",
                [value for row in chunk for value in row],
            )
            if returning:
                result.extend(cursor.fetchall())
    return _converted(model, returning, result, connection)


def _parameter_limit(connection) -> int:
    """Parameters SQLite takes in one statement (999 before 3.32, 32,766 since), with room to spare."""
    connection.ensure_connection()
    limit = connection.connection.getlimit(sqlite3.SQLITE_LIMIT_VARIABLE_NUMBER)
    return min(SQLITE_PARAMETERS, limit - 16)


def _converted(model: type[Model], columns: Sequence[str], rows: list[tuple], connection) -> list[tuple]:
    """Rows read back as the ORM would give them (SQLite returns dates as text, say)."""
    converters = []
    for index, column in enumerate(columns):
        expression = _field(model, column).get_col(model._meta.db_table)
        functions = connection.ops.get_db_converters(expression) + expression.get_db_converters(connection)
        if functions:
            converters.append((index, expression, functions))
    if not converters or not rows:
        return rows
    converted = []
    for row in rows:
        values = list(row)
        for index, expression, functions in converters:
            for function in functions:
                values[index] = function(values[index], expression, connection)
        converted.append(tuple(values))
    return converted


def update(
    model: type[Model],
    columns: Sequence[str],
    rows: Sequence[tuple],
    *,
    key: Sequence[str] = ("pk",),
    **constants: Any,
) -> None:
    """UPDATE rows of `model` in one statement: each row is (key values..., value per column); the
    `constants` are set on every row matched. Rows whose key matches nothing are ignored."""
    if not rows:
        return
    connection = connections[DEFAULT_DB_ALIAS]
    quote = connection.ops.quote_name
    table = quote(model._meta.db_table)
    key_fields = [_field(model, column) for column in key]
    fields = [*key_fields, *(_field(model, column) for column in columns)]
    names = [f"k{index}" for index in range(len(key_fields))] + [f"c{index}" for index in range(len(columns))]
    values = _prepared(fields, rows, connection)
    assignments = [
        f"{quote(_column(field))} = v.{name}"
        for field, name in zip(fields[len(key) :], names[len(key) :], strict=True)
    ]
    postgresql = connection.vendor == "postgresql"
    constant_params = []
    for name, value in constants.items():
        field = _field(model, name)
        assignments.append(f"{quote(_column(field))} = {'%b' if postgresql else '%s'}")
        constant_params.append(field.get_db_prep_save(value, connection))
    where = " AND ".join(
        f"{table}.{quote(_column(field))} = v.{name}" for field, name in zip(key_fields, names, strict=False)
    )
    if postgresql:
        arrays = ", ".join(f"%b::{field.cast_db_type(connection)}[]" for field in fields)
        with _pg_cursor(connection) as cursor:
            cursor.execute(
                f"UPDATE {table} SET {', '.join(assignments)} "
                f"FROM unnest({arrays}) AS v({', '.join(names)}) WHERE {where}",
                [*constant_params, *values],
            )
        return
    with connection.cursor() as cursor:
        by_row = list(zip(*values, strict=True))
        size = max(1, (_parameter_limit(connection) - len(constant_params)) // len(fields))
        row_sql = "(" + ", ".join(["%s"] * len(fields)) + ")"
        for start in range(0, len(by_row), size):
            chunk = by_row[start : start + size]
            cursor.execute(
                f"WITH v({', '.join(names)}) AS (VALUES {', '.join([row_sql] * len(chunk))}) "
                f"UPDATE {table} SET {', '.join(assignments)} FROM v WHERE {where}",
                [*(value for row in chunk for value in row), *constant_params],
            )
