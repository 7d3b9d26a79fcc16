"""The OLED as the ``[oled]`` output: "luma" the configured panel (absent is a state, not an error), "dummy"
luma's dummy device (the simulated table, shown in the laptop window or written as frames). The options are
the ``[oled]`` section (companion.config.OledConfig, which is the part's own OledSettings)."""

from __future__ import annotations

import importlib.util
from typing import Any

from companion.sources import Opened, SourceContext


def start_luma(options: Any, context: SourceContext) -> Opened:
    from hardware.oled import Display

    _check_pillow()
    display = Display(options)
    return _attach(display, context, options.driver if display.present else "absent")


def start_dummy(options: Any, context: SourceContext) -> Opened:
    from luma.core.device import dummy  # luma: only for a table with an OLED

    from hardware.oled import Display

    _check_pillow()
    return _attach(Display(options, device=dummy(width=options.width, height=options.height, mode="1")), context,
                   "dummy")


def _check_pillow() -> None:
    """The screens are drawn by Pillow: say so now, not at the first frame."""
    if importlib.util.find_spec("PIL") is None:
        raise ImportError("No module named 'PIL'", name="PIL")


def _attach(display: Any, context: SourceContext, word: str) -> Opened:
    from companion.session.views import OledView

    oled = OledView(display, render_oled)
    context.add_view(oled)
    # An image held back by an OLED outage (or an OLED plugged in late) reaches the panel once its
    # backoff has passed, not at the next change of state, which on a quiet table may be minutes away.
    context.add_pump(display.pump, False)
    context.parts["oled-view"] = oled
    return Opened(oled, word, (display.close,))


def render_oled(panel: Any) -> Any:
    """The OLED's screen for ``panel`` (:func:`companion.views.oled.render`), imported at the first image
    drawn: on the box that is on the Display's writer thread once a panel is there to take it, so Pillow
    and the screens' fonts are no part of the start-up of a box without its OLED."""
    from companion.views.oled import render

    return render(panel)


def describe(options: Any, opened: Opened) -> str:
    return opened.word
