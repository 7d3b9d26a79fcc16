"""The stored states' tag follows a game's rules code and map data, not the box's version: an update that leaves a
game's rules alone keeps its snapshots (the first start after it resumes from them), one that changes them replays
from the first event, with the new rules."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.games.base import replay
from companion.journal import version
from companion.journal.version import ROOT, _code_digest, _package_sources, engine_version, rules_code
from tests.test_journal_snapshots import EVERY, every, played, resumed  # noqa: F401  (every: a fixture)


def tree(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)


TOY = {
    "dice.py": "class Choice: ...\n",
    "errors.py": "class RuleError(Exception): ...\n",
    "games/__init__.py": "",
    "games/base.py": "def replay(game, options, events): ...\n",
    "journal/__init__.py": "",
    "journal/codec.py": "def dumps(x): ...\n",
    "hexgrid.py": "class Hex: ...\n",
    "views/__init__.py": "",
    "views/palette.py": "RED = 1\n",
    "games/toy/__init__.py": "def load():\n    from companion.games.toy.engine import Toy\n    return Toy()\n",
    "games/toy/engine.py": ("from companion.errors import RuleError\n"
                            "from companion.games.toy import (\n    state,  # the state\n)\n"
                            "def f():\n    import companion.hexgrid\n"),
    "games/toy/state.py": "X = 1\n",
    "games/toy/painter.py": "from companion.views import palette\nfrom companion.games.toy.state import X\n",
}


@pytest.fixture
def toy(tmp_path: Path) -> Path:
    root = tmp_path / "companion"
    tree(root, TOY)
    return root


def toy_tag(root: Path) -> str:
    version._files.clear()
    package = root / "games" / "toy"
    return _code_digest("toy", [package / "__init__.py", package / "engine.py", package / "state.py"], root)


def test_the_rules_code_is_what_the_games_modules_import_never_the_drawing(toy: Path) -> None:
    package = toy / "games" / "toy"
    found = [p.relative_to(toy).as_posix() for p in rules_code([package / "__init__.py", package / "engine.py"], toy)]
    assert found == ["dice.py", "errors.py", "games/base.py", "games/toy/__init__.py", "games/toy/engine.py",
                     "games/toy/state.py", "hexgrid.py", "journal/codec.py"]


@pytest.mark.parametrize(("name", "kept"), [
    ("games/toy/painter.py", True), ("views/palette.py", True),  # drawing: the stored states still hold
    ("games/toy/state.py", False), ("games/toy/engine.py", False), ("hexgrid.py", False),  # imported at any depth
    ("dice.py", False), ("journal/codec.py", False), ("games/base.py", False),  # the events, the codec, the fold
])
def test_a_change_keeps_the_tag_only_when_it_leaves_the_rules_alone(toy: Path, name: str, kept: bool) -> None:
    before = toy_tag(toy)
    path = toy / name
    path.write_text(path.read_text() + "\n# changed\n")
    assert (toy_tag(toy) == before) is kept


def test_the_shipped_games_tags_leave_out_their_painters_and_risk_commands() -> None:
    from companion.games.registry import load_game, specs

    for key, spec in specs().items():
        load_game(key)
        found = {p.relative_to(ROOT).as_posix() for p in rules_code(_package_sources(key) or [])}
        assert f"games/{key}/engine.py" in found and "games/base.py" in found and "dice.py" in found, key
        assert not any(name.startswith("views/") for name in found), key
        for ref in (spec.painter, spec.risk_cli):
            if ref:
                module = ref.partition(":")[0].split(".")
                assert "/".join(module[1:]) + ".py" not in found, (key, ref)


def changed(monkeypatch: pytest.MonkeyPatch, name: str) -> None:
    """An update of the box that changes the module ``name`` (a path inside the package), as the tag sees it."""
    real = version._read
    target = ROOT / name

    def read(path: Path):
        digest, imports = real(path)
        return (digest + "-updated" if path == target else digest), imports

    monkeypatch.setattr(version, "_read", read)
    monkeypatch.setattr(version, "_sources", {})


@pytest.mark.parametrize(("name", "kept"), [("games/kansas/painter.py", True), ("views/oled.py", True),
                                            ("games/kansas/engine.py", False), ("hexgrid.py", False)])
def test_the_first_start_after_an_update_resumes_from_the_snapshot_unless_the_rules_changed(
        tmp_path, every, monkeypatch, name, kept) -> None:  # noqa: F811
    path = tmp_path / "j.sqlite"
    options = {"players": 4}
    game_id, events = played(path, "kansas", options, 2 * EVERY + 5)
    changed(monkeypatch, name)
    run, live = resumed(path, "kansas", game_id)
    with run.journal:
        assert (engine_version(run.game) == run.journal._db.execute(
            "SELECT version FROM snapshots WHERE game_id=? ORDER BY live DESC", (game_id,)).fetchone()[0]) is kept
        assert run.live.base == (2 * EVERY if kept else 0)  # from the stored state, or replayed from the first event
        assert run.state == replay(run.game, options, live) and len(run.live) == len(events)
