"""Thin view adapters: a frame in, the part's own drawing call out.

Each wraps one part written elsewhere (the OLED screens and display, the projector window) so the
loop only knows ``show(frame)``. They keep the last image they drew, which lets the simulated
table put the OLED's picture beside the map and a headless run write both to a folder.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from companion.session.core import Frame

if TYPE_CHECKING:
    from hardware.oled import Display


class OledView:
    """Panel -> 128x64 image (companion.views.oled.render) -> the Display wrapper (luma device).

    The image is handed over with ``Display.submit``: on the box a writer thread of the Display's
    puts it on the bus (and draws it too when it was not drawn ahead), so the loop goes on to the projector
    at once instead of waiting for the I2C write (about 90 ms for a whole frame at 100 kHz).
    A frame whose panel did not change (the map's state moved, the OLED's words did not) is neither
    rendered nor sent again. Without a writer thread (luma's dummy device on the simulated table)
    the image is drawn here, so ``image`` is the frame just shown. On the box the loop asks for the image
    before the frame is shown (:meth:`prepare`, while the journal's write reaches the disk) and it is handed
    to the writer thread at once with that write: the thread waits for the write to land, off the loop, and
    then puts the image on the bus, while the loop draws the projector's frame. So the OLED still never shows
    what the journal does not hold, and its packing and bus calls are no longer queued behind the projector's
    frame (they took the GIL after it: about half a millisecond of every roll)."""

    def __init__(self, display: Display, render: Callable[[Any], Any]) -> None:
        self.display = display
        self._render = render
        self.image: Any = None
        self.shown = 0
        self._panel: Any = None
        self._ready: tuple[Any, Any] | None = None
        """A panel and its image drawn by :meth:`prepare`, not handed over yet."""
        self._gated: Any = None
        """The write the image handed over by :meth:`prepare` waits for, until the frame is shown."""

    def prepare(self, frame: Frame, landing: Any = None) -> None:
        """With a writer thread and a panel present: draw the new image now, while the loop waits for the
        journal's write anyway (Loop.show). With ``landing`` (that write, still under way) the image goes to
        the writer thread now, which shows it once the write is on disk (and drops it if the write failed:
        the loop then shows the frame that says so)."""
        panel = frame.panel
        if (self.display.background and self.display.present
                and self._new(panel) and (self._ready is None or self._ready[0] is not panel)):
            self._ready = (panel, self._render(panel))
            if landing is not None:
                self._panel, self.image, self._gated = panel, self._ready[1], landing
                self._ready = None
                self.display.submit(self.image, after=landing)

    def _new(self, panel: Any) -> bool:
        """``panel`` differs from the one last shown (an unchanged panel is neither drawn nor sent again)."""
        return self._panel is None or panel != self._panel

    def show(self, frame: Frame) -> None:
        gated, self._gated = self._gated, None
        if gated is not None and gated.wait(0) is False:  # its write failed, so the writer dropped the image
            self._panel = None
        if self._new(frame.panel):
            self._panel = panel = frame.panel
            ready, self._ready = self._ready, None
            if self.display.background:
                if ready is not None and ready[0] is panel:
                    self.image = ready[1]
                    self.display.submit(ready[1])
                else:
                    self.display.submit(lambda: self._draw(panel))
            else:
                self.display.submit(self._draw(panel))  # no writer thread: shown here
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
