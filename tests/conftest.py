"""Test-wide setup: the libraries' own mock backends, chosen before anything imports them.

- pygame: SDL's offscreen video driver and a dummy audio driver (set before pygame is imported).
- gpiozero: its MockFactory, reset between tests so pins never leak from one test to another.
"""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "offscreen")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("GPIOZERO_PIN_FACTORY", "mock")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import logging
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent


@pytest.fixture
def mock_factory():
    """gpiozero's MockFactory as the pin factory, reset after the test."""
    from gpiozero import Device
    from gpiozero.pins.mock import MockFactory

    factory = MockFactory()
    previous = Device.pin_factory
    Device.pin_factory = factory
    try:
        yield factory
    finally:
        factory.reset()
        Device.pin_factory = previous


@pytest.fixture
def maps_dir() -> Path:
    return REPO / "maps"


@pytest.fixture(autouse=True)
def own_configuration_folder(tmp_path, monkeypatch):
    """The group's own boards live in the configuration directory and win over maps/: every test reads the
    shipped boards only, whatever a machine has in /etc/companion (a test that edits a board sets its own)."""
    monkeypatch.setenv("COMPANION_CONFIG_DIR", str(tmp_path / "config"))


def edit_map(folder: Path, name: str, old: str, new: str) -> None:
    """Replace the first ``old`` in the copied data file ``folder/name`` (which must hold it) with ``new``:
    how the data tests make one mistake at a time."""
    path = folder / name
    text = path.read_text()
    assert old in text, old
    path.write_text(text.replace(old, new, 1))


@pytest.fixture
def restore_logging():
    """`companion run` in-process sets the root logger up for journald; put back pytest's handlers after."""
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    yield
    root.handlers[:] = handlers
    root.setLevel(level)
