"""`games/` stands alone: nothing under it imports Django, Celery, Django REST framework or the league.

The static half is an import-linter contract (`pyproject.toml`, "games/ stands alone", run by `.ci/run` and
pre-commit); this is the run-time half: importing every module under `games/` loads none of them."""

import json
import subprocess
import sys
from pathlib import Path

from games.registry import GAME_PACKAGES

ROOT = Path(__file__).resolve().parents[2]
FORBIDDEN = ("django", "celery", "rest_framework", "league")


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
