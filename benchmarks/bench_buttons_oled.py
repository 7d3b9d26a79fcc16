"""Button edge to OLED: from ``drive_low`` on gpiozero's mock ROLL pin to the image through luma's ssd1306 driver.

The whole path the box takes, in one thread and without the loop's waiting: the Buttons callback
(our debounce) puts the press on the queue, the session takes it (then
``Session.handle``: the Kansas engine rolls with the OS generator, the journal commits the roll to
SQLite), the OLED screen is rendered from the panel and handed to ``Display.show``. Each roll is
undone between samples (untimed), so every press answers the same first request. Also the screen
render alone, the figure that dominates on a Pi.
"""

from __future__ import annotations

import tempfile
import time
from pathlib import Path

from benchmarks._table import Row, summary, time_calls

AREA = "buttons_oled"
PRESSES = 200


def run() -> list[Row]:
    from gpiozero import Device
    from gpiozero.pins.mock import MockFactory
    from luma.core.interface.serial import noop
    from luma.oled.device import ssd1306

    from companion.journal import Journal
    from companion.session import Session
    from companion.views.oled import render
    from hardware.buttons import ButtonPins, Buttons
    from hardware.oled import Display

    factory = MockFactory()
    previous = Device.pin_factory
    Device.pin_factory = factory
    fake_now = [0.0]
    device = ssd1306(noop())
    display = Display(device=device, background=False)
    samples: list[float] = []
    try:
        with tempfile.TemporaryDirectory() as tmp, Journal(Path(tmp) / "journal.sqlite") as journal, \
                Buttons(clock=lambda: fake_now[0], hold_time=60.0) as buttons:
            session = Session(journal)
            session.start("kansas", {"players": 4, "turn": 2}, resume=False)
            pin = factory.pin(ButtonPins().roll)
            render(session.panel)  # font load outside the timing
            for _ in range(PRESSES):
                start = time.perf_counter()
                pin.drive_low()
                session.handle(buttons.events.get(timeout=1))
                if not display.show(render(session.panel)):
                    raise RuntimeError("the ssd1306 driver refused an image")
                samples.append((time.perf_counter() - start) * 1000)
                if session.current is None or len(session.current.live) != 1:
                    raise RuntimeError(f"the press did not roll: {session.panel.message!r}")
                fake_now[0] += 0.1
                pin.drive_high()
                fake_now[0] += 0.1
                session.undo()
            panel = session.panel
        render_ms = time_calls(lambda: render(panel), PRESSES)
    finally:
        factory.reset()
        Device.pin_factory = previous
    return [*summary(AREA, "button edge -> OLED image through ssd1306", samples, "50 on a Pi 4 (4x)", p99=12.5),
            *summary(AREA, "render prompt screen", render_ms)]
