"""One write path per table: only `league/matches/services.py` writes `Match` and `MatchSeat` rows, and only
`league/results/services.py` writes `ResultVersion` rows. Every other module under `league/` (migrations
aside; admin, views, tasks and the owners' other modules included) calls those services.

The check reads each module's syntax tree and finds the writes it can name: manager and queryset writes
(`Match.objects.filter(...).update(...)`, `.create`, `.bulk_create`, `.delete`, ...), `.save()` and
`.delete()` on instances, `bulk.insert` / `bulk.update` of a guarded model, and raw SQL that inserts into,
updates or deletes from a guarded table. It follows what a name or attribute holds: a guarded model or its
manager, a name assigned from one (or looped over one, or annotated as one), a related manager or foreign
key of a guarded model (`match.seats`, `table.match`), and what a league function annotated to return one
gives back (`match_detail(pk)`). The admin is checked twice: its code by the same reading, and the
`ModelAdmin`s of guarded models for the writes Django's defaults would make.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from django.apps import apps
from django.contrib import admin
from django.contrib.auth import get_user_model
from django.test import RequestFactory

from league.matches.models import Match, MatchSeat
from league.results.models import ResultVersion

LEAGUE = Path(__file__).resolve().parents[2] / "league"
OWNERS = {
    Match: "league.matches.services",
    MatchSeat: "league.matches.services",
    ResultVersion: "league.results.services",
}
WRITES = frozenset(
    {"create", "update", "bulk_create", "bulk_update", "delete", "get_or_create", "update_or_create"}
)
MANAGERS = frozenset({"objects", "_default_manager", "_base_manager"})
CONTAINERS = frozenset({"list", "tuple", "sorted", "reversed", "set", "iter", "next"})
ANSWERS = frozenset(
    {"count", "exists", "aggregate", "contains", "explain"}
)  # queryset methods giving no rows
SQL_WRITE = r"\b(?:INSERT\s+INTO|UPDATE|DELETE\s+FROM)\s+[\"'`]?{table}\b"


@dataclass(frozen=True)
class Guard:
    """What the check knows of the guarded models: where they are defined and who owns them, the attributes
    that hold one (foreign keys and related managers), their tables, and
    the league functions returning one."""

    models: dict[str, str]  # model class name -> its models module
    owners: dict[str, str]  # model class name -> the one module that may write it
    attributes: dict[str, str] = field(default_factory=dict)  # attribute name -> model class name
    tables: dict[str, str] = field(default_factory=dict)  # table name -> model class name
    returns: dict[str, str] = field(default_factory=dict)  # "module.function" -> model class name


@dataclass(frozen=True)
class Write:
    module: str
    line: int
    model: str
    how: str

    def __str__(self) -> str:
        return f"{self.module}:{self.line}: {self.how} writes {self.model}"


def _module_name(path: Path) -> str:
    parts = path.relative_to(LEAGUE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def league_modules() -> list[Path]:
    return sorted(path for path in LEAGUE.rglob("*.py") if "migrations" not in path.parts)


def _returning(guard: Guard, tree: ast.Module, module: str) -> dict[str, str]:
    """This module's functions whose return annotation names a guarded model
    (a selector's `QuerySet[Match]`)."""
    found = {}
    pattern = re.compile(r"\b(" + "|".join(map(re.escape, guard.models)) + r")\b")
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.returns is not None:
            named = pattern.search(ast.unparse(node.returns))
            if named:
                found[f"{module}.{node.name}"] = named.group(1)
    return found


def real_guard() -> Guard:
    """The guard of this code base, from the models' metadata and the league's own annotations."""
    attributes = {}
    for model in apps.get_models():
        for relation in model._meta.get_fields():
            if relation.is_relation and relation.related_model in OWNERS:
                # a foreign key to a guarded model (`table.match`), or a guarded model's related manager
                # (`match.seats`: the reverse side of MatchSeat.match)
                name = relation.name if relation.concrete else relation.get_accessor_name()
                attributes[name] = relation.related_model.__name__
    guard = Guard(
        models={model.__name__: model.__module__ for model in OWNERS},
        owners={model.__name__: owner for model, owner in OWNERS.items()},
        attributes=attributes,
        tables={model._meta.db_table: model.__name__ for model in OWNERS},
    )
    for path in league_modules():
        guard.returns.update(_returning(guard, ast.parse(path.read_text(), str(path)), _module_name(path)))
    return guard


class _Reader(ast.NodeVisitor):
    """Finds the guarded writes of one module (see the module's docstring)."""

    def __init__(self, guard: Guard, module: str):
        self.guard = guard
        self.module = module
        self.imported: dict[str, str] = {}  # local name -> "module.name" of what it is
        self.scopes: list[dict[str, str]] = [{}]  # names holding a guarded model, per function
        self.writes: list[Write] = []

    # ------------------------------------------------------------------------------------------ names

    def visit_Import(self, node: ast.Import) -> None:
        for alias in node.names:
            if alias.asname:
                self.imported[alias.asname] = alias.name
            else:
                top = alias.name.split(".")[0]
                self.imported[top] = top

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        if node.module is None or node.level:
            return
        for alias in node.names:
            self.imported[alias.asname or alias.name] = f"{node.module}.{alias.name}"

    def _qualified(self, node: ast.expr) -> str | None:
        """The dotted name an expression stands for, through imports
        (`bulk.insert` -> league.core.bulk.insert)."""
        if isinstance(node, ast.Name):
            return self.imported.get(node.id, f"{self.module}.{node.id}")
        if isinstance(node, ast.Attribute):
            head = self._qualified(node.value)
            return None if head is None else f"{head}.{node.attr}"
        return None

    def _model_class(self, node: ast.expr) -> str | None:
        qualified = self._qualified(node)
        if qualified is None:
            return None
        module, _, name = qualified.rpartition(".")
        return name if self.guard.models.get(name) == module else None

    def holds(self, node: ast.expr) -> str | None:
        """The guarded model an expression holds (class, manager, queryset, instance or a list of them)."""
        if isinstance(node, ast.Name):
            for scope in reversed(self.scopes):
                if node.id in scope:
                    return scope[node.id]
            return self._model_class(node)
        if isinstance(node, ast.Attribute):
            if node.attr in MANAGERS:
                return self.holds(node.value)
            if node.attr in self.guard.attributes:
                return self.guard.attributes[node.attr]
            return self._model_class(node)
        if isinstance(node, ast.Subscript):
            return self.holds(node.value)
        if isinstance(node, ast.Call):
            if isinstance(
                node.func, ast.Attribute
            ):  # queryset methods keep the model: filter, get, first, ...
                return None if node.func.attr in ANSWERS else self.holds(node.func.value)
            if isinstance(node.func, ast.Name) and node.func.id in CONTAINERS and node.args:
                return self.holds(node.args[0])
            made = self._model_class(node.func)  # Match(...)
            if made:
                return made
            qualified = self._qualified(node.func)
            return self.guard.returns.get(qualified) if qualified else None
        if isinstance(node, ast.IfExp | ast.BoolOp):
            values = [node.body, node.orelse] if isinstance(node, ast.IfExp) else node.values
            return next(filter(None, map(self.holds, values)), None)
        return None

    def _annotated(self, annotation: ast.expr | None) -> str | None:
        """The guarded model an annotation names (`Match`, `Match | None`, `QuerySet[MatchSeat]`)."""
        if annotation is None:
            return None
        text = ast.unparse(annotation)
        for name, home in self.guard.models.items():
            known = self.imported.get(name) == f"{home}.{name}" or self.module == home
            if known and re.search(rf"\b{name}\b", text):
                return name
        return None

    def _bind(self, target: ast.expr, model: str | None) -> None:
        if model is None:
            return
        for name in ast.walk(target):
            if isinstance(name, ast.Name):
                self.scopes[-1][name.id] = model

    def _function(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        self.scopes.append({})
        arguments = node.args
        for argument in [*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs]:
            self._bind(ast.Name(argument.arg), self._annotated(argument.annotation))
        self._bind_all(node)
        for statement in node.body:
            self.visit(statement)
        self.scopes.pop()

    def _bind_all(self, node: ast.AST) -> None:
        """Bind every name assigned in `node` to what it was assigned, wherever in the function (a name
        assigned from a guarded query holds it everywhere); repeated, so that a name bound from another
        name bound further on is found too."""
        for _ in range(3):
            for child in ast.walk(node):
                if isinstance(child, ast.Assign):
                    for target in child.targets:
                        self._bind(target, self.holds(child.value))
                elif isinstance(child, ast.AnnAssign):
                    held = self._annotated(child.annotation)
                    self._bind(child.target, held or (self.holds(child.value) if child.value else None))
                elif isinstance(child, ast.For | ast.comprehension):
                    self._bind(child.target, self.holds(child.iter))
                elif isinstance(child, ast.withitem) and child.optional_vars is not None:
                    self._bind(child.optional_vars, self.holds(child.context_expr))

    visit_FunctionDef = _function
    visit_AsyncFunctionDef = _function

    # ----------------------------------------------------------------------------------------- writes

    def _write(self, node: ast.AST, model: str, how: str) -> None:
        if self.guard.owners[model] != self.module:
            self.writes.append(Write(self.module, node.lineno, model, how))

    def visit_Call(self, node: ast.Call) -> None:
        func = node.func
        if isinstance(func, ast.Attribute) and func.attr in WRITES | {"save"}:
            model = self.holds(func.value)
            if model:
                self._write(node, model, f".{func.attr}()")
        qualified = self._qualified(func)
        if qualified in ("league.core.bulk.insert", "league.core.bulk.update") and node.args:
            model = self._model_class(node.args[0])
            if model:
                self._write(node, model, qualified.removeprefix("league.core."))
        self.generic_visit(node)

    def visit_Constant(self, node: ast.Constant) -> None:
        if isinstance(node.value, str):
            for table, model in self.guard.tables.items():
                if re.search(SQL_WRITE.format(table=re.escape(table)), node.value, re.IGNORECASE):
                    self._write(node, model, "raw SQL")


def writes_in(source: str, *, module: str, guard: Guard) -> list[Write]:
    """The writes of guarded models in `source` (the module `module`)
    that its owner's services do not make."""
    reader = _Reader(guard, module)
    tree = ast.parse(source)
    for node in ast.walk(tree):  # imports first, wherever they are (inside functions too)
        if isinstance(node, ast.Import | ast.ImportFrom):
            reader.visit(node)
    module_level = ast.Module(
        body=[node for node in tree.body if not isinstance(node, ast.FunctionDef | ast.ClassDef)],
        type_ignores=[],
    )
    reader._bind_all(module_level)
    reader.visit(tree)
    return reader.writes


@pytest.fixture(scope="module")
def guard() -> Guard:
    return real_guard()


# ------------------------------------------------------------------------------------------- the tree


def test_only_the_owners_services_write_matches_seats_and_result_versions(guard):
    found = [
        write
        for path in league_modules()
        for write in writes_in(path.read_text(), module=_module_name(path), guard=guard)
    ]
    assert [str(write) for write in found] == []


def test_the_owners_services_are_seen_writing(guard):
    """The reading finds the owners' own writes, so an empty list above is not a blind check."""
    seen = {}
    for owner in sorted(set(guard.owners.values())):
        path = LEAGUE.parent / (owner.replace(".", "/") + ".py")
        stranger = Guard(
            guard.models, dict.fromkeys(guard.owners, "nobody"), guard.attributes, guard.tables, guard.returns
        )
        seen[owner] = sorted(
            {write.model for write in writes_in(path.read_text(), module=owner, guard=stranger)}
        )
    assert seen == {
        "league.matches.services": ["Match", "MatchSeat"],
        "league.results.services": ["ResultVersion"],
    }


@pytest.mark.django_db
def test_the_admin_of_guarded_models_writes_only_through_services():
    """Django's defaults write: `save_model` saves the form's instance, `delete_model` deletes it, an inline's
    formset saves its rows. An admin of a guarded model overrides what it allows,
    and allows no inline edit."""
    request = RequestFactory().get("/admin/")
    request.user = get_user_model().objects.create_superuser("root", "root@example.invalid", "pw-root-1")
    admins, inlines = [], []
    for model, model_admin in admin.site._registry.items():
        for inline in model_admin.get_inline_instances(request, model()):
            if inline.model in OWNERS:
                assert not inline.has_add_permission(request, None), inline
                assert not inline.has_change_permission(request, None), inline
                assert not (inline.can_delete and inline.has_delete_permission(request, None)), inline
                inlines.append(f"{model.__name__}: {inline.model.__name__}")
        if model in OWNERS:
            if model_admin.has_add_permission(request) or model_admin.has_change_permission(request):
                assert type(model_admin).save_model is not admin.ModelAdmin.save_model, model
            assert not model_admin.has_delete_permission(request), model
            admins.append(model.__name__)
    assert (sorted(admins), sorted(inlines)) == (
        ["Match", "ResultVersion"],
        ["Match: MatchSeat", "Match: ResultVersion"],
    )


# ---------------------------------------------------------------------- the reading, on planted writes


PLANTED = [
    ("Match.objects.filter(pk=1).update(status='void')", "Match", ".update()"),
    ("Match.objects.select_for_update().get(pk=1).save()", "Match", ".save()"),
    ("MatchSeat.objects.bulk_create([])", "MatchSeat", ".bulk_create()"),
    ("ResultVersion.objects.create(match_id=1, version=1, places=[1, 2])", "ResultVersion", ".create()"),
    ("models.ResultVersion.objects.filter(match_id=1).delete()", "ResultVersion", ".delete()"),
    ("bulk.update(Match, ('record',), rows, status='finished')", "Match", "bulk.update"),
    ("insert(MatchSeat, ('match_id', 'seat', 'player_id'), rows)", "MatchSeat", "bulk.insert"),
    (
        "match = Match.objects.get(pk=1)\nmatch.status = 'void'\nmatch.save(update_fields=['status'])",
        "Match",
        ".save()",
    ),
    ("def f(match: Match):\n    match.delete()", "Match", ".delete()"),
    ("def f(table):\n    table.match.save()", "Match", ".save()"),
    ("def f(match):\n    match.seats.update(place=None)", "MatchSeat", ".update()"),
    (
        "def f(match):\n    for version in match.result_versions.all():\n        version.save()",
        "ResultVersion",
        ".save()",
    ),
    (
        "def f():\n    seats = list(MatchSeat.objects.filter(match_id=1))\n"
        "    for seat in seats:\n        seat.save()",
        "MatchSeat",
        ".save()",
    ),
    ("def f(pk):\n    match_detail(pk).save()", "Match", ".save()"),
    (
        "def f(cursor):\n    cursor.execute('UPDATE matches_match SET status = %s', ['void'])",
        "Match",
        "raw SQL",
    ),
    (
        "def f(cursor):\n    cursor.execute('DELETE FROM \"results_resultversion\"')",
        "ResultVersion",
        "raw SQL",
    ),
]
HEADER = """
from league.core import bulk
from league.core.bulk import insert
from league.matches.models import Match, MatchSeat
from league.results import models
from league.results.models import ResultVersion
from league.results.selectors import match_detail
"""


@pytest.mark.parametrize(("code", "model", "how"), PLANTED)
def test_a_planted_write_outside_the_owner_is_found(guard, code, model, how):
    found = writes_in(HEADER + code, module="league.tournaments.services", guard=guard)

    assert [(write.model, write.how) for write in found] == [(model, how)]


@pytest.mark.parametrize(("code", "model", "how"), PLANTED)
def test_the_owner_may_write_in_its_services_only(guard, code, model, how):
    owner = guard.owners[model]
    elsewhere = owner.replace(".services", ".admin")

    assert writes_in(HEADER + code, module=owner, guard=guard) == []
    assert [(w.model, w.how) for w in writes_in(HEADER + code, module=elsewhere, guard=guard)] == [
        (model, how)
    ]


def test_reads_and_other_models_writes_are_not_writes(guard):
    code = HEADER + (
        "from league.bots.models import Fixture\n"
        "def f(match: Match, seats):\n"
        "    Match.objects.filter(pk=1).exists()\n"
        "    list(MatchSeat.objects.filter(match=match).values_list('place', flat=True))\n"
        "    Fixture.objects.filter(match=match).update(done=True)\n"
        "    bulk.update(Fixture, ('seconds',), [])\n"
        "    seats.update({1: 2})\n"
        "    match.rating_pool.save()\n"
        "    return 'SELECT * FROM matches_match'\n"
    )
    assert writes_in(code, module="league.bots.services.work", guard=guard) == []


# ------------------------------------------------------------------------------------ a match's owner

SCHEDULERS = frozenset({"matches_schedule", "matches_create"})


def _called(function: ast.AST) -> set[str]:
    return {
        node.func.id if isinstance(node.func, ast.Name) else node.func.attr
        for node in ast.walk(function)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name | ast.Attribute)
    }


def test_every_function_that_schedules_owned_matches_checks_their_owner_before_linking():
    """On SQLite `check_owned` is the guard of a link's kind (PostgreSQL adds a composite foreign key): every
    function outside the matches and results services that schedules owned matches calls it too."""
    linking = {}
    for path in league_modules():
        module = _module_name(path)
        if module in ("league.matches.services", "league.results.services"):
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.FunctionDef) and _called(node) & SCHEDULERS:
                linking[f"{module}.{node.name}"] = "check_owned" in _called(node)
    assert linking == {
        "league.bots.services.challenges.challenge_create": True,
        "league.bots.services.leagues._store_round": True,
        "league.bots.services.validations._schedule": True,
        "league.tournaments.services.brackets._open": True,
        "league.tournaments.services.rounds.publish_round": True,
    }


def test_no_code_changes_the_owner_of_a_match():
    """`Match.owner` is written once, when the match is scheduled: no update names it."""
    changes = []
    for path in league_modules():
        for node in ast.walk(ast.parse(path.read_text())):
            if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Attribute):
                continue
            if node.func.attr == "update" and any(keyword.arg == "owner" for keyword in node.keywords):
                changes.append(f"{_module_name(path)}:{node.lineno}")
            if node.func.attr == "update" and "'owner'" in ast.unparse(
                node.args[1] if len(node.args) > 1 else node
            ):
                changes.append(f"{_module_name(path)}:{node.lineno}")
    assert changes == []
