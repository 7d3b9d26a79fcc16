"""The one durable write: whole or nothing, no temporary file left behind."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from companion import atomicfile


def test_replaces_the_file_whole_with_the_given_mode(tmp_path: Path) -> None:
    target = tmp_path / "board.toml"
    target.write_text("old")
    atomicfile.write_atomic(target, "new text é", mode=0o640)
    assert target.read_text(encoding="utf-8") == "new text é"
    assert (target.stat().st_mode & 0o777) == 0o640
    assert sorted(p.name for p in tmp_path.iterdir()) == ["board.toml"]


def test_a_failed_write_keeps_the_old_file_and_leaves_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "calibration.toml"
    target.write_text("kept")

    def refuse(fd: int) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", refuse)
    with pytest.raises(OSError, match="No space"):
        atomicfile.write_atomic(target, b"half")
    assert target.read_text() == "kept"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["calibration.toml"]
