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
    the image is drawn here, so ``image`` is the frame just shown. On the box the loop asks for the image
    before the frame is shown (:meth:`prepare`, while the journal's write reaches the disk), so once shown
    the writer thread only packs it and puts it on the bus."""

    def __init__(self, display: Any, render: Callable[[Any], Any]) -> None:
        self.display = display
        self._render = render
        self.image: Any = None
        self.shown = 0
        self._panel: Any = None
        self._ready: tuple[Any, Any] | None = None
        """A panel and its image drawn by :meth:`prepare`, not handed over yet."""

    def prepare(self, frame: Frame) -> None:
        """With a writer thread and a panel present: draw the new image now, while the loop waits for the
        journal's write anyway (Loop.show), so the writer thread has only the bus left to do once shown."""
        panel = frame.panel
        if (getattr(self.display, "background", False) and getattr(self.display, "present", False)
                and self._new(panel) and (self._ready is None or self._ready[0] is not panel)):
            self._ready = (panel, self._render(panel))

    def _new(self, panel: Any) -> bool:
        """``panel`` differs from the one last shown (an unchanged panel is neither drawn nor sent again)."""
        return self._panel is None or panel != self._panel

    def show(self, frame: Frame) -> None:
        if self._new(frame.panel):
            self._panel = panel = frame.panel
            ready, self._ready = self._ready, None
            if getattr(self.display, "background", False):
                if ready is not None and ready[0] is panel:
                    self.image = ready[1]
                    self.display.submit(ready[1])
                else:
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
