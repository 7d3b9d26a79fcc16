"""Button edge to OLED: from ``drive_low`` on gpiozero's mock ROLL pin to the image handed to luma's dummy device.

The session step is simulated minimally and honestly: take the ButtonPress off the queue,
``roll_for(prompt)`` with the OS generator, build the Panel, render the screen, Display.show.
Also the screen render alone, the figure that dominates on a Pi.
"""

from __future__ import annotations

import time

from benchmarks._table import Row, summary, time_calls

AREA = "buttons_oled"
PRESSES = 300


def run() -> list[Row]:
    from gpiozero import Device
    from gpiozero.pins.mock import MockFactory
    from luma.core.device import dummy

    from companion.dice import Prompt
    from companion.views.oled import render
    from companion.views.panel import Panel
    from hardware.buttons import ButtonPins, Buttons
    from hardware.oled import Display
    from hardware.rolling import roll_for

    factory = MockFactory()
    previous = Device.pin_factory
    Device.pin_factory = factory
    fake_now = [0.0]
    prompt = Prompt("Tornado 2 of 3: roll a D8", "Tornado 2/3: roll D8 north-south", dice=("d8",))
    device = dummy(mode="1")
    display = Display(device=device)
    samples: list[float] = []
    try:
        with Buttons(clock=lambda: fake_now[0], hold_time=60.0) as buttons:
            pin = factory.pin(ButtonPins().roll)
            render(Panel(prompt=prompt))  # font load outside the timing
            for _ in range(PRESSES):
                start = time.perf_counter()
                pin.drive_low()
                event = buttons.events.get(timeout=1)
                rolled = roll_for(prompt) if event.name == "ROLL" else None
                assert rolled is not None
                panel = Panel(game="Kansas Tornadoes", prompt=prompt, dice=rolled.dice, tower="connected")
                if not display.show(render(panel)):
                    raise RuntimeError("dummy device refused an image")
                samples.append((time.perf_counter() - start) * 1000)
                fake_now[0] += 0.1
                pin.drive_high()
                fake_now[0] += 0.1
        panel = Panel(game="Kansas Tornadoes", prompt=prompt, tower="connected")
        render_ms = time_calls(lambda: render(panel), PRESSES)
    finally:
        factory.reset()
        Device.pin_factory = previous
    return [*summary(AREA, "button edge -> OLED image", samples, "p99 < 50 ms on a Pi"),
            *summary(AREA, "render prompt screen", render_ms)]
