"""`games/` stands alone: nothing under it imports Django, Celery, Django REST framework or the league, neither in
its source (any import statement, at any depth, including `importlib.import_module("...")` with a literal name)
nor when every one of its modules is actually imported."""

import ast
import json
import subprocess
import sys
from pathlib import Path

from games.registry import GAME_PACKAGES

ROOT = Path(__file__).resolve().parents[2]
GAMES = ROOT / "games"
FORBIDDEN = ("django", "celery", "rest_framework", "league")


def forbidden_imports(source: str) -> list[tuple[int, str]]:
    """(line, module) of every import in `source` of a FORBIDDEN top-level package, wherever it stands."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            names = [node.module or ""] if node.level == 0 else []
        elif (
            isinstance(node, ast.Call)
            and (
                isinstance(node.func, ast.Name)
                and node.func.id == "__import__"
                or isinstance(node.func, ast.Attribute)
                and node.func.attr == "import_module"
            )
            and node.args
            and isinstance(node.args[0], ast.Constant)
            and isinstance(node.args[0].value, str)
        ):
            names = [node.args[0].value]
        else:
            continue
        found.extend((node.lineno, name) for name in names if name.split(".")[0] in FORBIDDEN)
    return found


def test_no_module_under_games_imports_the_service_side():
    sources = sorted(GAMES.rglob("*.py"))
    found = {
        f"{path.relative_to(ROOT)}:{line}": name
        for path in sources
        for line, name in forbidden_imports(path.read_text(encoding="utf-8"))
    }

    assert len(sources) > 30  # the whole package was read, not an empty folder
    assert found == {}


def test_the_checker_finds_imports_hidden_in_functions_and_import_calls():
    planted = (
        "import json\n"
        "from games.core import state\n"
        "from . import spec\n"
        "def load():\n"
        "    import django\n"
        "    from league.matches import models\n"
        "    class Inner:\n"
        "        def go(self):\n"
        "            import celery.app, os\n"
        "            return importlib.import_module('rest_framework.views'), __import__('djangorestframework')\n"
    )

    assert forbidden_imports(planted) == [(5, "django"), (6, "league.matches"), (9, "celery.app"),
                                          (10, "rest_framework.views")]  # fmt: skip


IMPORT_EVERYTHING = """
import importlib, json, pkgutil, sys
import games
imported = []
for module in pkgutil.walk_packages(games.__path__, "games."):
    if module.name.rsplit(".", 1)[-1] != "__main__":  # running the CLI is not importing it
        importlib.import_module(module.name)
        imported.append(module.name)
loaded = sorted(name for name in sys.modules if name.split(".")[0] in {forbidden})
print(json.dumps({{"imported": imported, "forbidden": loaded}}))
"""


def test_importing_every_module_under_games_loads_nothing_of_the_service_side():
    script = IMPORT_EVERYTHING.format(forbidden=set(FORBIDDEN))
    done = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, check=True, timeout=300
    )
    report = json.loads(done.stdout)

    assert {"games.cli", "games.core.runner", "games.bots.search", *GAME_PACKAGES} <= set(report["imported"])
    assert len(report["imported"]) > 30
    assert report["forbidden"] == []
