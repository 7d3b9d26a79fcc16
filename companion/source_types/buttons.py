"""The box's buttons as the ``[buttons]`` part: "gpio" on the machine's own pin factory, "mock" on gpiozero's
MockFactory pins driven by the laptop's keys (the simulated table). The options are the ``[buttons]`` section
(companion.config.ButtonsConfig, which is the part's own ButtonPins and ButtonTiming); a pin that cannot be
claimed leaves the box running on its other inputs, said once."""

from __future__ import annotations

import logging
import warnings
from typing import Any

from companion.sources import Opened, SourceContext

log = logging.getLogger("companion.sim")

HOLD_NAMES = ("BACK", "ROLL", "RIGHT")
"""The buttons with a hold: BACK (undo), ROLL (re-roll the last), RIGHT."""


def start_gpio(options: Any, context: SourceContext) -> Opened:
    return _start(options, context, None)


def start_mock(options: Any, context: SourceContext) -> Opened:
    """MockFactory pins, pressed by keys (hardware.keys) and by scripts (the table's driver)."""
    from gpiozero.pins.mock import MockFactory  # gpiozero: only for a table with buttons

    from hardware.keys import KeyboardButtons

    factory = MockFactory()
    opened = _start(options, context, factory)
    if opened.part is None:
        factory.close()
        return opened
    context.parts["keys"] = KeyboardButtons(factory, options.pins())
    return Opened(opened.part, "mock pins (keys)", (opened.close, factory.close))


def _start(options: Any, context: SourceContext, factory: Any) -> Opened:
    from gpiozero.exc import GPIOZeroError  # gpiozero: only for a table with buttons

    from hardware.buttons import Buttons

    # gpiozero warns once per pin factory it could not load, over several lines each; the log gets one line.
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            buttons = Buttons(options.pins(), context.inbox, bounce_ms=options.bounce_ms, hold_time=options.hold_s,
                              hold_names=HOLD_NAMES, pin_factory=factory)
        except (GPIOZeroError, OSError) as exc:
            buttons = None
            failure = str(exc) or type(exc).__name__
    notes = "; ".join(str(w.message) for w in caught)
    if buttons is None:
        # No GPIO here (no pin factory loads: lgpio missing, not a Pi) or a pin taken by another program:
        # the box runs on with the tower, a gamepad and typed dice, and says so once.
        log.warning("buttons: not available (%s)%s", failure, f" [{notes}]" if notes else "")
        # players read what to do, not gpiozero's words ("Unable to load any default pin factory!"): the log has them
        context.notice("buttons: not available (companion doctor says why)")
        return Opened(None, "absent")
    if notes:
        log.info("buttons: %s", notes)
    return Opened(buttons, "gpio", (buttons.close,))


def describe(options: Any, opened: Opened) -> str:
    return opened.word
