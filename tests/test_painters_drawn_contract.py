"""The painters-draw contract (pyproject.toml, checked in CI by import-linter) holds each game's painter to the
frame's data: a painter that imports one of its game's rule modules again breaks it. Checked on a copy of the
sources with that one import added, by import-linter itself."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import REPO

LINT = Path(sys.executable).with_name("lint-imports")


def copy_sources(to: Path) -> None:
    for package in ("companion", "hardware", "firmware_bridge"):
        shutil.copytree(REPO / package, to / package, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(REPO / "pyproject.toml", to / "pyproject.toml")


def lint(at: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(at)}  # the copy, not the installed tree
    return subprocess.run([str(LINT), "--no-cache", "--contract", "painters-draw", str(at / "pyproject.toml")],
                          cwd=at, env=env, capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize("painter, rule", [
    ("kansas/painter.py", "from companion.games.kansas import risk"),
    ("stormfury/painter.py", "from companion.games.stormfury.storm import walk"),
    ("industry/painter.py", "from companion.games.industry import ledger"),
    ("industry/painter.py", "from companion.games.industry.entries import card_label"),
    ("allegheny/painter.py", "from companion.games.allegheny import network"),
    ("allegheny/painter.py", "from companion.games.allegheny.engine import AlleghenyGame"),
    ("carcassonne/painter.py", "from companion.games.carcassonne.features import around"),
    ("carcassonne/painter.py", "from companion.games.carcassonne.scoring import cities_hit"),
])
def test_a_painter_importing_a_rule_module_again_breaks_the_contract(tmp_path, painter, rule):
    copy_sources(tmp_path)
    assert lint(tmp_path).returncode == 0  # the sources as they are keep it
    path = tmp_path / "companion" / "games" / painter
    source = path.read_text()
    head, _, rest = source.partition("\nimport pygame\n")
    path.write_text(f"{head}\nimport pygame\n{rule}  # noqa: F401\n{rest}")
    broken = lint(tmp_path)
    assert broken.returncode != 0
    module = "companion.games." + painter.removesuffix(".py").replace("/", ".")
    said = " ".join(broken.stdout.split())  # the report wraps at its own width
    assert f"{module} is not allowed to import" in said, broken.stdout
