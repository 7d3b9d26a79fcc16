"""The files the box writes for itself (the calibration, the group's board) are written whole or not at all, a
killed save leaves the old file and, by the next save, nothing beside it; a calibration that does not read is
found by ``companion config check`` (naming it) and does not keep the box from starting (the map drawn flat)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
from dataclasses import replace
from pathlib import Path

import pytest

from companion.cli import main
from companion.config import ProjectorConfig
from companion.views.projector.warp import load_calibration, write_calibration

PAIRS = [(0.0, 0.0, 10.0, 10.0), (100.0, 0.0, 110.0, 12.0), (100.0, 80.0, 108.0, 90.0), (0.0, 80.0, 12.0, 88.0)]
PLACES = ["Goodland", "Kansas City", "Pittsburg", "Liberal"]
SIZE = (1920, 1080)
REPO = Path(__file__).resolve().parent.parent


def calibration(folder: Path) -> Path:
    path = folder / "calibration.toml"
    write_calibration(path, "kansas", PAIRS, SIZE, PLACES)
    return path


def config_naming(folder: Path, calibration_path: Path) -> Path:
    config = folder / "config.toml"
    config.write_text(f'[projector]\ncalibration = "{calibration_path}"\n[dice]\npairing = "{folder}/dice.toml"\n')
    return config


@pytest.mark.parametrize("damage", ["empty", "half", "not UTF-8"])
def test_config_check_names_a_calibration_that_does_not_read(tmp_path, capsys, damage):
    """Before: `config check` said "ok" while every start of the box exited 2 on this file."""
    path = calibration(tmp_path)
    whole = path.read_bytes()
    path.write_bytes({"empty": b"", "half": whole[: len(whole) // 2],
                      "not UTF-8": whole.replace(b"Goodland", b"G\xf6odland")}[damage])
    config = config_naming(tmp_path, path)
    assert main(["config", "check", str(config)]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1 and err.startswith(f"companion: {path}: ")


def test_config_check_lists_the_files_it_read(tmp_path, capsys):
    path = calibration(tmp_path)
    (tmp_path / "dice.toml").write_text('[[die]]\nfamily = "godice"\naddress = "AA:BB"\nkind = "d6"\n'
                                        'colour = "red"\n')
    own = tmp_path / "config" / "maps"
    own.mkdir(parents=True)
    (own / "kansas.toml").write_text((REPO / "maps" / "kansas.toml").read_text())
    assert main(["config", "check", str(config_naming(tmp_path, path))]) == 0
    assert capsys.readouterr().out == (f"ok\n  calibration: {path}\n  paired dice: {tmp_path}/dice.toml\n"
                                       f"  the group's board: {own}/kansas.toml\n")
    (tmp_path / "dice.toml").write_bytes(b'[[die]]\nfamily = "godice"\xff\n')
    assert main(["config", "check", str(config_naming(tmp_path, path))]) == 2
    assert capsys.readouterr().err.startswith(f"companion: {tmp_path}/dice.toml: line 2: not UTF-8 text")
    (tmp_path / "dice.toml").unlink()
    (own / "kansas.toml").write_text((REPO / "maps" / "stormfury.toml").read_text())
    assert main(["config", "check", str(config_naming(tmp_path, path))]) == 2
    assert capsys.readouterr().err.startswith(f"companion: {own}/kansas.toml: ")


def test_the_box_starts_without_a_calibration_that_does_not_read(tmp_path, caplog):
    """Before: the projector's start raised the DataError and `companion run` exited 2 at every start."""
    from companion.views.projector.outputs import open_projector

    path = tmp_path / "calibration.toml"
    path.write_bytes(b"")
    said: list[str] = []
    view = open_projector(replace(ProjectorConfig(), driver="offscreen", calibration=str(path), width=320,
                                  height=240, fullscreen=False), said.append, framebuffer=False)
    assert view is not None
    try:
        assert view.table is None
        assert said == ["projector: calibration unreadable, map drawn flat"]
        assert any(str(path) in r.getMessage() and "drawn without calibration" in r.getMessage()
                   for r in caplog.records)
    finally:
        view.close()
    write_calibration(path, "kansas", PAIRS, (320, 240), PLACES)  # a sound file: drawn onto the board again
    view = open_projector(replace(ProjectorConfig(), driver="offscreen", calibration=str(path), width=320,
                                  height=240, fullscreen=False), said.append, framebuffer=False)
    assert view is not None
    try:
        assert view.table is not None and len(said) == 1
    finally:
        view.close()


KILLED_SAVE = """
import os, signal, sys
from pathlib import Path
real_fsync = os.fsync
def fsync(fd):
    real_fsync(fd)
    os.kill(os.getpid(), signal.SIGKILL)  # the temporary file is whole on disk; the rename never comes
os.fsync = fsync
"""


def killed(code: str) -> None:
    """Run ``code`` in a process of its own that is killed by SIGKILL at its first fsync (in the save)."""
    run = subprocess.run([sys.executable, "-c", textwrap.dedent(KILLED_SAVE) + textwrap.dedent(code)],
                         cwd=REPO, capture_output=True, text=True, timeout=120)
    assert run.returncode == -signal.SIGKILL, run.stderr


def age(folder: Path) -> None:
    """Make every file in ``folder`` a few minutes old: the leftovers of a save killed long ago."""
    for path in folder.iterdir():
        os.utime(path, (path.stat().st_atime - 600, path.stat().st_mtime - 600))


def test_a_calibration_save_killed_keeps_the_old_file_and_the_next_save_leaves_nothing(tmp_path):
    path = calibration(tmp_path)
    old = path.read_bytes()
    killed(f"""
        from companion.views.projector.warp import write_calibration
        write_calibration(Path({str(path)!r}), "stormfury", {PAIRS[::-1]!r}, {SIZE!r}, ["A", "B", "C", "D"])
    """)
    assert path.read_bytes() == old
    assert load_calibration(str(path), SIZE).pairs.keys() == {"kansas"}
    left = [p.name for p in tmp_path.iterdir() if p != path]
    assert len(left) == 1 and left[0].startswith(".calibration.toml.") and left[0].endswith(".tmp")
    age(tmp_path)
    write_calibration(path, "stormfury", PAIRS[::-1], SIZE, ["A", "B", "C", "D"])
    assert [p.name for p in tmp_path.iterdir()] == ["calibration.toml"]
    assert load_calibration(str(path), SIZE).pairs.keys() == {"kansas", "stormfury"}


def test_a_board_save_killed_keeps_the_old_board_and_the_next_save_leaves_nothing(tmp_path, monkeypatch):
    """Before: the editor wrote .kansas.toml.new beside the board, and 127 of 200 kills left it there."""
    from companion.board_editor.files import save, sheet_for, start_doc
    from companion.board_editor.model import Editor

    monkeypatch.setenv("COMPANION_CONFIG_DIR", str(tmp_path / "etc"))
    monkeypatch.delenv("COMPANION_MAPS", raising=False)
    folder = tmp_path / "etc" / "maps"
    sheet = sheet_for("kansas")
    editor = Editor(sheet, start_doc(sheet)[0])
    board = save(editor, folder)
    old = board.read_bytes()
    (folder / ".kansas.toml.new").write_text("a trial file an earlier version left\n")
    killed(f"""
        os.environ["COMPANION_CONFIG_DIR"] = {str(tmp_path / "etc")!r}
        os.environ.pop("COMPANION_MAPS", None)
        from companion.board_editor.files import save, sheet_for, start_doc
        from companion.board_editor.model import Editor
        sheet = sheet_for("kansas")
        editor = Editor(sheet, start_doc(sheet)[0])
        editor.doc["path_key"]["7"] = "SE"
        save(editor, Path({str(folder)!r}))
    """)
    assert board.read_bytes() == old
    age(folder)
    editor.doc["path_key"]["7"] = "SE"
    save(editor, folder)
    assert [p.name for p in folder.iterdir()] == ["kansas.toml"]
    assert 'path_key' in board.read_text() and board.read_bytes() != old


def test_a_refused_board_writes_nothing(tmp_path):
    """The loader judges the text in memory: a refused board leaves no file at all, not even a trial one."""
    from companion.board_editor.files import save, sheet_for, start_doc
    from companion.board_editor.model import Editor
    from companion.errors import DataError

    sheet = sheet_for("kansas")
    editor = Editor(sheet, start_doc(sheet)[0])
    editor.doc["path_key"]["7"] = "E"
    folder = tmp_path / "maps"
    with pytest.raises(DataError, match=rf"^{folder / 'kansas.toml'}: path_key\.7: expected one of"):
        save(editor, folder)
    assert list(folder.iterdir()) == []
