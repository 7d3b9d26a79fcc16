"""The box's buttons on gpiozero: presses and holds out as :mod:`companion.inputs` events on a queue.

Callbacks run in whatever thread drove the pin (the test's, with MockFactory; the pin
factory's, on a Pi), so the only thing they do is put a small event on a ``queue.Queue``
that the session's single loop consumes. Debounce is ours: gpiozero's MockPin ignores
``bounce_time``, and an explicit rule (ignore any edge within ``bounce_ms`` of the last
accepted edge of that button, press or release) is one we can test with an injected clock.

Holds are timed here too, not by gpiozero's ``Button``: its hold thread polls ten times a second
whether or not anything is held (one such thread per button with a hold was most of an idle box's
CPU). A hold is one :class:`threading.Timer` started on the accepted press edge and cancelled by the
accepted release edge, so a box nobody touches runs no thread for its buttons at all.
"""

from __future__ import annotations

import queue
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, fields
from typing import TYPE_CHECKING, Any

from companion.inputs import Hold, Press

if TYPE_CHECKING:
    from gpiozero import DigitalInputDevice


@dataclass(frozen=True, repr=False)  # compared, never printed (each generated method costs the start)
class ButtonPins:
    """BCM pin of each button (button to GND, internal pull-up). Avoids I2C (2, 3), SPI0 (7-11)
    and the OLED's SPI DC/RST (24, 25), so either OLED wiring fits beside them."""

    roll: int = 17
    up: int = 5
    down: int = 6
    left: int = 13
    right: int = 19
    ok: int = 26
    back: int = 16

    def items(self) -> list[tuple[str, int]]:
        """(NAME, bcm) pairs, names upper case as the events carry them (the pins only, also of a subclass that
        adds its own settings, as the configuration's ``[buttons]`` section does)."""
        return [(f.name.upper(), getattr(self, f.name)) for f in fields(ButtonPins)]

    def pins(self) -> ButtonPins:
        """The pins alone (of a subclass: without its other settings)."""
        return ButtonPins(**{f.name: getattr(self, f.name) for f in fields(ButtonPins)})


@dataclass(frozen=True, repr=False)
class ButtonTiming:
    """How presses are told from bounces and holds: the defaults :class:`Buttons` uses, declared once here (the
    configuration's ``[buttons]`` section takes them over)."""

    bounce_ms: float = 30.0
    """Edges of a button within this many milliseconds of its last accepted edge are contact bounce."""
    hold_s: float = 1.5
    """Seconds a hold button is down before it is a hold."""


BUTTON_NAMES = tuple(name for name, _ in ButtonPins().items())


class Buttons:
    """All the box's buttons, composed like a gpiozero CompositeDevice; events go to ``self.events``.

    A button without a hold sends :class:`~companion.inputs.Press` on its press edge (the cursor moves at
    once). A button with a hold means what gpiozero means by it: :class:`~companion.inputs.Hold` when it
    has been down for ``hold_time``, and :class:`~companion.inputs.Press` on release only if it was not
    held, so holding ROLL asks "Re-roll last?" without rolling first. If one pin cannot be claimed, the
    pins claimed before it are closed again and the error propagates, as gpiozero's composites do.
    """

    def __init__(self, pins: ButtonPins | None = None, events: queue.Queue[Any] | None = None, *,
                 bounce_ms: float = ButtonTiming.bounce_ms, hold_time: float = ButtonTiming.hold_s,
                 hold_names: tuple[str, ...] = ("BACK",),
                 clock: Callable[[], float] = time.monotonic, pin_factory: Any = None) -> None:
        self.pins = pins.pins() if pins is not None else ButtonPins()
        self.events: queue.Queue[Any] = events if events is not None else queue.Queue()
        self.bounce_s = bounce_ms / 1000
        self.hold_time = hold_time
        self._clock = clock
        self._last_edge: dict[str, float] = {}
        self._held: set[str] = set()
        self._timers: dict[str, threading.Timer] = {}
        """The hold timer of each hold button that is down now (none while nothing is pressed)."""
        self._lock = threading.Lock()
        """Edges come on the pin factory's thread, holds on their timer's: one decides at a time, so a
        release and a hold that fall together give a Hold or a Press, never both."""
        self.ignored = 0
        """Edges dropped as bounce (for tests and the status line)."""
        self.buttons: dict[str, DigitalInputDevice] = {}
        try:
            for name, bcm in self.pins.items():
                self.buttons[name] = self._make(name, bcm, name in hold_names, pin_factory)
        except BaseException:
            self.close()
            raise

    def _make(self, name: str, bcm: int, holds: bool, pin_factory: Any) -> DigitalInputDevice:
        # A plain gpiozero input for the edges, whether the button holds or not: the hold is our timer.
        # Imported here, for start-up time: the configuration imports this module for its defaults.
        from gpiozero import DigitalInputDevice

        button = DigitalInputDevice(bcm, pull_up=True, bounce_time=None, pin_factory=pin_factory)
        button.when_activated = self._edge_handler(name, pressed=True, holds=holds)
        button.when_deactivated = self._edge_handler(name, pressed=False, holds=holds)
        return button

    def _accept(self, name: str) -> float | None:
        now = self._clock()
        last = self._last_edge.get(name)
        if last is not None and now - last < self.bounce_s:
            self.ignored += 1
            return None
        self._last_edge[name] = now
        return now

    def _edge_handler(self, name: str, pressed: bool, holds: bool) -> Callable[[], None]:
        def handler() -> None:
            with self._lock:
                if self._accept(name) is None:
                    return
                if pressed:
                    self._held.discard(name)
                    if holds:
                        self._arm(name)
                    else:
                        self.events.put(Press(name))
                elif holds:
                    self._disarm(name)
                    if name not in self._held:  # released before its hold time: a press
                        self.events.put(Press(name))
        return handler

    def _arm(self, name: str) -> None:
        """Start ``name``'s hold timer (under the lock): it fires once, ``hold_time`` after this press edge."""
        self._disarm(name)
        timer = threading.Timer(self.hold_time, self._hold_fired, (name,))
        timer.name = f"hold {name}"
        timer.daemon = True
        self._timers[name] = timer
        timer.start()

    def _disarm(self, name: str) -> None:
        timer = self._timers.pop(name, None)
        if timer is not None:
            timer.cancel()

    def _hold_fired(self, name: str) -> None:
        with self._lock:
            if self._timers.get(name) is not threading.current_thread():
                return  # released (or pressed again) while this timer was waking: not this press's hold
            del self._timers[name]
            button = self.buttons.get(name)
            # The pin decides, as gpiozero's hold does: a release dropped as bounce left no timer
            # cancelled, but a button that is not down now was not held.
            if button is None or not button.is_active:
                return
            self._held.add(name)
            self.events.put(Hold(name))

    def close(self) -> None:
        with self._lock:
            timers = list(self._timers.values())
            self._timers.clear()
        for timer in timers:
            timer.cancel()
            timer.join()
        for button in self.buttons.values():
            button.close()
        self.buttons.clear()

    def __enter__(self) -> Buttons:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
