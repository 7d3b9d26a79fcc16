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
    """Panel -> 128x64 image (companion.views.oled.render) -> the Display wrapper (luma device).

    The image is handed over with ``Display.submit``: on the box a writer thread of the Display's
    draws it and puts it on the bus, so the loop goes on to the projector at once instead of
    drawing the OLED first and waiting for the I2C write (about 90 ms for a whole frame at 100 kHz).
    A frame whose panel did not change (the map's state moved, the OLED's words did not) is neither
    rendered nor sent again. Without a writer thread (luma's dummy device on the simulated table)
    the image is drawn here, so ``image`` is the frame just shown."""

    def __init__(self, display: Any, render: Callable[[Any], Any]) -> None:
        self.display = display
        self._render = render
        self.image: Any = None
        self.shown = 0
        self._panel: Any = None

    def show(self, frame: Frame) -> None:
        if self._panel is None or frame.panel != self._panel:
            self._panel = panel = frame.panel
            if getattr(self.display, "background", False):
                self.display.submit(lambda: self._draw(panel))
            else:
                self._draw(panel)
                submit = getattr(self.display, "submit", None)
                (submit or self.display.show)(self.image)
        self.shown += 1

    def _draw(self, panel: Any) -> Any:
        self.image = image = self._render(panel)
        return image


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
