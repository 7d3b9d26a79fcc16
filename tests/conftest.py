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
