"""Thin view adapters: a frame in, the part's own drawing call out.

Each wraps one part written elsewhere (the OLED screens and display, the projector window) so the
loop only knows ``show(frame)``. They keep the last image they drew, which lets the simulated
table put the OLED's picture beside the map and a headless run write both to a folder.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from companion.session.core import Frame


class OledView:
    """Panel -> 128x64 image (companion.views.oled.render) -> the Display wrapper (luma device)."""

    def __init__(self, display: Any, render: Callable[[Any], Any]) -> None:
        self.display = display
        self._render = render
        self.image: Any = None
        self.shown = 0

    def show(self, frame: Frame) -> None:
        self.image = self._render(frame.panel)
        self.display.show(self.image)
        self.shown += 1


class FrameFolder:
    """Headless output: each shown frame's images written as numbered PNGs in ``out``."""

    def __init__(self, out: Path, sources: dict[str, Callable[[], Any]]) -> None:
        self.out = out
        self.out.mkdir(parents=True, exist_ok=True)
        self._sources = sources
        self.count = 0

    def show(self, frame: Frame) -> None:
        self.count += 1
        for name, source in self._sources.items():
            image = source()
            if image is not None:
                image.save(self.out / f"{name}-{self.count:05d}.png")
