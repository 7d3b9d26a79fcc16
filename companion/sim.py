"""The table, assembled: inputs, session, loop and views, on real hardware or simulated.

``build_table`` wires what the box has into one :class:`Table`. With ``sim=True`` every part is
the real code over its library's own stand-in: a virtual tower on a pty opened by the real link,
buttons on gpiozero's MockFactory pins driven by keys, the OLED as luma's dummy device drawn beside
the map in the projector window (or written as PNG frames when headless). Without ``sim`` the same
wiring uses the devices named in the configuration.
"""

from __future__ import annotations

import importlib.util
import logging
import queue
import sys
import warnings
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from companion import sources
from companion.config import Config
from companion.config_hardware import button_options, button_pins, oled_settings
from companion.dice import DiceRolled
from companion.errors import CompanionError
from companion.inputs import Hold, Press, Roll, RollRef
from companion.journal import Journal
from companion.session import collector
from companion.session.core import Session
from companion.session.loop import REST_TICK, Loop, View
from companion.session.views import FrameFolder, OledView

log = logging.getLogger(__name__)


class InboxDriver:
    """Touches the box by putting inputs straight on its queue (used when a part is absent)."""

    def __init__(self, inbox: queue.Queue[Any]) -> None:
        self.inbox = inbox

    def throw(self, dice: DiceRolled) -> None:
        self.inbox.put(Roll.of(dice))

    def press(self, button: str) -> None:
        self.inbox.put(Press(button))

    def hold(self, button: str) -> None:
        self.inbox.put(Hold(button))


@dataclass(eq=False, repr=False)  # one per box, never compared or printed
class Table:
    """A running box: its queue, session and loop, how a script touches it, and what to close."""

    inbox: queue.Queue[Any]
    session: Session
    loop: Loop
    driver: Any
    closers: list[Callable[[], None]] = field(default_factory=list)
    parts: dict[str, Any] = field(default_factory=dict)

    def describe(self) -> str:
        """One line naming the parts in use ("tower /tmp/.../dice-tower, buttons mock pins, oled dummy")."""
        return ", ".join(f"{k} {v}" for k, v in self.parts.items() if isinstance(v, str)) or "no devices"

    def close(self) -> None:
        for close in reversed(self.closers):
            try:
                close()
            except Exception as exc:  # closing must go on for the other parts
                log.warning("closing: %s", exc)
        self.closers.clear()

    def __enter__(self) -> Table:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


SWITCH_INTERVAL = 0.0005
"""Seconds a thread waiting for the GIL waits before the thread holding it must let go (Python's default is
0.005). The table's other threads each need it only for moments, and need them soon: the journal's writer
to start a roll's COMMIT while the loop draws (companion.journal.writer), the tower's reader to queue a roll,
the OLED's writer to put an image on the bus. With five milliseconds a moment could come after the frame."""


def build_table(journal: Journal, *, sim: bool = True, headless: bool = False, out: Path | None = None,
                maps: Path | None = None, views: list[View] | None = None, tick: float = 0.5,
                watchdog: Callable[[], object] | None = None, config: Config | None = None,
                loader: Callable[[str, Path | None], Any] | None = None,
                game_keys: tuple[str, ...] | None = None) -> Table:
    """Assemble a table from the configuration (None: every section's defaults); ``views`` replaces the default
    views (tests pass their own)."""
    inbox: queue.Queue[Any] = queue.Queue()
    extra: dict[str, Any] = {}
    if loader is not None:
        extra["loader"] = loader
    if game_keys is not None:
        extra["game_keys"] = game_keys
    game = getattr(config, "game", None)
    if game is not None:
        extra["preferred"] = {"players": game.players}
    session = Session(journal, maps=maps, **extra)
    journal.write_behind = True  # the loop draws while a roll's COMMIT reaches the disk (Loop.show)
    loop = Loop(session, inbox, [], watchdog=watchdog, tick=tick, rest_tick=REST_TICK)
    table = Table(inbox, session, loop, InboxDriver(inbox))
    switch = sys.getswitchinterval()
    sys.setswitchinterval(SWITCH_INTERVAL)
    table.closers.append(lambda: sys.setswitchinterval(switch))
    table.closers.append(collector.take_over())  # the loop collects garbage in its quiet turns
    try:
        if views is not None:
            loop.views.extend(views)
        else:
            _attach_views(table, sim=sim, headless=headless, out=out, config=config)
        _attach_buttons(table, sim=sim, config=config)
        _attach_tower(table, sim=sim, config=config)
        _attach_smartdice(table, sim=sim, config=config)
        _attach_camera(table, config=config)
        _attach_sources(table, config=config)
        if sim and not headless and views is None:
            _attach_window(table)
        if getattr(getattr(config, "remote", None), "enabled", False):  # the phones' page: last, over every view
            from companion.remote.wiring import attach_remote

            attach_remote(table, config)
    except BaseException:
        table.close()
        raise
    return table


def _attach_sources(table: Table, *, config: Any) -> None:
    """Each enabled ``[sources.NAME]`` started through the registry (companion.sources) on the same queue; one
    that does not open is said on the OLED and in the log, and is a "disabled" part while the others run."""
    entries = getattr(config, "sources", ())
    if not entries:
        return
    for entry in entries:
        if not entry.enabled:
            table.parts[entry.name] = "disabled"
            continue
        _start_source(table, entry.name, sources.get(entry.type), entry.options)


def _start_source(table: Table, name: str, source_type: sources.SourceType, options: Any) -> None:
    """One source on the table's queue; one that does not open is said once (OLED and log) and "disabled"."""
    context = sources.SourceContext(table.inbox, lambda: table.session.wanted(),
                                    lambda label, action: table.session.extras.append((label, action)))
    started = sources.start_source(name, source_type, options, context)
    if started.part is None:
        table.session.notice(f"{name}: {started.why}")
    else:
        table.closers.append(started.close)
    table.parts[name] = started.word


def _attach_smartdice(table: Table, *, sim: bool, config: Any) -> None:
    """Paired smart dice over Bluetooth, on the box only (the simulated table has no radio), started through the
    source registry as type "smartdice": one more source on the same queue, and "Pair dice" in the main menu.
    Whatever keeps them off is said once by the source itself; the box runs on."""
    if sim or config is None or not getattr(getattr(config, "dice", None), "enabled", False):
        return
    _start_source(table, "smartdice", sources.get("smartdice"), config.dice)


def _attach_camera(table: Table, *, config: Any) -> None:
    """The camera over the tray when ``[camera]`` is enabled (a folder of photographs serves the simulated
    table), started through the source registry as any ``[sources.NAME]`` of type "camera" is; it reads only
    while the session wants dice."""
    section = getattr(config, "camera", None)
    if section is None or not section.enabled:
        return
    _start_source(table, "camera", sources.get("camera"), section)


def _attach_views(table: Table, *, sim: bool, headless: bool, out: Path | None, config: Any) -> None:
    """The OLED (luma's dummy device on the simulated table), the projector, and a frames folder when headless."""
    oled = _attach_oled(table, sim=sim, config=config)
    _attach_projector_and_frames(table, oled, sim=sim, headless=headless, out=out, config=config)


def _attach_oled(table: Table, *, sim: bool, config: Any) -> OledView | None:
    """The OLED view over luma: the configured panel on the box (absent is a state, not an error)."""
    if not sim and not _enabled(config, "oled"):
        table.parts["oled"] = "disabled"
        return None
    try:
        from hardware.oled import Display, OledSettings
    except ImportError as exc:
        table.session.notice(f"oled: not installed ({exc.name})")
        return None
    if importlib.util.find_spec("PIL") is None:  # the screens are drawn by Pillow: say so now, not at the first frame
        table.session.notice("oled: not installed (PIL)")
        return None
    settings = _oled_settings(config, OledSettings)
    if sim:
        from luma.core.device import dummy

        display = Display(settings, device=dummy(width=settings.width, height=settings.height, mode="1"))
        table.parts["oled"] = "dummy"
    else:
        display = Display(settings)
        table.parts["oled"] = settings.driver if display.present else "absent"
    oled = OledView(display, _render_oled)
    table.loop.views.append(oled)
    # An image held back by an OLED outage (or an OLED plugged in late) reaches the panel once its
    # backoff has passed, not at the next change of state, which on a quiet table may be minutes away.
    table.loop.add_pump(display.pump, polled=False)
    table.closers.append(display.close)
    return oled


def _render_oled(panel: Any) -> Any:
    """The OLED's screen for ``panel`` (:func:`companion.views.oled.render`), imported at the first image
    drawn: on the box that is on the Display's writer thread once a panel is there to take it, so Pillow
    and the screens' fonts are no part of the start-up of a box without its OLED."""
    from companion.views.oled import render

    return render(panel)


def _enabled(config: Any, section: str) -> bool:
    """The section's ``enabled`` key (true without a configuration) for the tower, the buttons and the
    OLED on the box. The simulated table always has them: they are stand-ins a laptop needs to play."""
    return bool(getattr(getattr(config, section, None), "enabled", True))


def _attach_projector_and_frames(table: Table, oled: OledView | None, *, sim: bool, headless: bool,
                                 out: Path | None, config: Any) -> None:
    projector = _attach_projector(table, sim=sim, headless=headless, out=out, config=config)
    if out is not None:
        images: dict[str, Callable[[], Any]] = {}
        if oled is not None:
            images["oled"] = lambda: oled.image
        if projector is not None:
            images["projector"] = lambda: projector.image
        table.loop.views.append(FrameFolder(out, images))
        table.parts["frames"] = str(out)


def _attach_projector(table: Table, *, sim: bool, headless: bool, out: Path | None, config: Any) -> Any:
    """The map: drawn off screen when headless (only if frames are written), in the laptop window on the
    simulated table (see _attach_window), fullscreen on the box. No screen: the OLED carries on alone,
    and the session and the log say so once."""
    section = getattr(config, "projector", None)
    if section is not None and not section.enabled:
        table.parts["projector"] = "disabled"
        return None
    if sim and not headless:
        table.parts["projector"] = "window"
        return None
    if headless and out is None:  # nothing would see the map: pygame and the renderer stay unloaded
        table.parts["projector"] = "headless"
        return None
    try:
        from companion.views.projector import ProjectorRenderer, ProjectorView, open_projector
    except ImportError as exc:
        _say_once(table, f"projector: not installed ({exc.name})")
        table.parts["projector"] = "none"
        return None
    if headless:
        table.parts["projector"] = "headless"
        size = (section.width, section.height) if section is not None else HEADLESS_SIZE
        view = ProjectorView(ProjectorRenderer(size))
    else:
        from companion.config import ProjectorConfig

        opened = open_projector(section if section is not None else ProjectorConfig(),
                                lambda text: _say_once(table, text))
        if opened is None:
            table.parts["projector"] = "none"
            return None
        view = opened
        if hasattr(view, "tell"):  # the framebuffer's output says when its device goes and comes back
            view.tell = lambda text: _tell(table, text)
        driver, full = (section.driver, section.fullscreen) if section is not None else ("auto", True)
        table.parts["projector"] = f"{driver} {'fullscreen' if full else 'window'}"
        from companion.session.gamepad import GamepadPump

        pads = GamepadPump(table.inbox)  # a USB gamepad as the buttons, through the same SDL
        table.loop.add_pump(pads, polled=pads.polled)
        table.loop.add_pump(view.pump, polled=False)  # drains SDL's queue: no one waits on it
        table.closers.append(view.close)
    table.loop.views.append(view)
    return view


HEADLESS_SIZE = (960, 540)
"""Headless frames when no configuration names a resolution: a quarter of 1080p keeps a frames
folder quick to write (every change is a PNG) and still reads; `companion snapshot` renders 1080p."""


def _say_once(table: Table, text: str) -> None:
    """A lasting condition: one session notice (shown on the OLED and the map) and one log line."""
    if table.session.notice(text):
        log.warning("%s", text)


def _tell(table: Table, text: str) -> None:
    """A passing event ("projector back"): the OLED's message until the next input, shown by the loop's next
    housekeeping (within a second); unlike a notice it may come again. The part logs its own details."""
    table.session.message = text


def _oled_settings(config: Any, default: Callable[[], Any]) -> Any:
    """The [oled] section as hardware settings; the defaults when no configuration was given."""
    section = getattr(config, "oled", None)
    return oled_settings(section) if section is not None else default()


def _attach_buttons(table: Table, *, sim: bool, config: Any) -> None:
    """gpiozero buttons putting presses on the queue: MockFactory pins driven by keys on the sim."""
    try:
        from gpiozero.exc import GPIOZeroError

        from hardware.buttons import ButtonPins, Buttons
    except ImportError as exc:
        table.session.notice(f"buttons: not installed ({exc.name})")
        return
    if not sim and not _enabled(config, "buttons"):
        table.parts["buttons"] = "disabled"
        return
    section = getattr(config, "buttons", None)
    pins = button_pins(section) if section is not None else ButtonPins()
    factory = None
    if sim:
        from gpiozero.pins.mock import MockFactory

        factory = MockFactory()
    # Keys and scripted presses do not bounce; real contacts do (the Buttons default debounce).
    extra: dict[str, Any] = {"bounce_ms": 0.0} if sim else (button_options(section) if section is not None else {})
    # gpiozero warns once per pin factory it could not load, over several lines each; the log gets one line.
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            buttons = Buttons(pins, table.inbox, hold_names=("BACK", "ROLL", "RIGHT"), pin_factory=factory, **extra)
        except (GPIOZeroError, OSError) as exc:
            buttons = None
            failure = str(exc) or type(exc).__name__
    notes = "; ".join(str(w.message) for w in caught)
    if buttons is None:
        # No GPIO here (no pin factory loads: lgpio missing, not a Pi) or a pin taken by another program:
        # the box runs on with the tower, a gamepad and typed dice, and says so once.
        log.warning("buttons: not available (%s)%s", failure, f" [{notes}]" if notes else "")
        # players read what to do, not gpiozero's words ("Unable to load any default pin factory!"): the log has them
        table.session.notice("buttons: not available (companion doctor says why)")
        table.parts["buttons"] = "absent"
        return
    if notes:
        log.info("buttons: %s", notes)
    table.closers.append(buttons.close)
    if factory is not None:
        table.closers.append(factory.close)
        from hardware.keys import KeyboardButtons

        keys = KeyboardButtons(factory, pins)
        table.parts["buttons"] = "mock pins (keys)"
        table.parts["keys"] = keys
        table.driver = PinDriver(table.inbox, keys)
    else:
        table.parts["buttons"] = "gpio"


def _attach_window(table: Table) -> None:
    """The laptop window: the map with the OLED image beside it, keys on the mock pins, T for a tower
    throw, O for the risk overlay, a gamepad."""
    from companion.session.window import OledWindow

    oled = next((v for v in table.loop.views if isinstance(v, OledView)), None)
    renderer = None
    if table.parts.get("projector") == "window":
        try:
            from companion.session.window import MAP_SIZE
            from companion.views.projector import ProjectorRenderer
        except ImportError as exc:
            _say_once(table, f"projector: not installed ({exc.name})")
        else:
            renderer = ProjectorRenderer(MAP_SIZE)
    window = OledWindow(table.inbox, table.parts.get("keys"), (lambda: oled.image if oled else None),
                        tower=table.parts.get("tower-device"), wanted=table.session.wanted, projector=renderer)
    table.loop.views.append(window)
    table.loop.add_pump(window.pump)
    table.closers.append(window.close)
    table.parts["window"] = "pygame"
    _warn_if_invisible()


def _warn_if_invisible() -> None:
    """SDL quietly falls back to an offscreen driver where there is no display (a server, an SSH
    session): the window then "works" and shows nothing. Say so once, with what to do instead."""
    import os

    from companion.views.projector.view import fell_back

    driver = fell_back(os.environ.get("SDL_VIDEODRIVER"))
    if driver:
        log.warning("window: no display here (SDL fell back to %s), nothing will show; "
                    "run with --headless --out DIR to get the frames as PNGs", driver)


def _attach_tower(table: Table, *, sim: bool, config: Any) -> None:
    """The tower link on its reader thread; on the sim a virtual tower on a pty that the link opens by path."""
    try:
        from firmware_bridge.link import IDLE_READ_TIMEOUT, TowerLink
    except ImportError as exc:
        table.session.notice(f"tower: not installed ({exc.name})")
        return
    if not sim and not _enabled(config, "tower"):
        table.parts["tower"] = "disabled"
        return
    section = getattr(config, "tower", None)
    port = getattr(section, "port", None) or None
    options: dict[str, Any] = {}
    if section is not None:
        options = {"usb_id": section.usb_id, "baudrate": section.baud}
    if sim:
        from firmware_bridge.virtual import VirtualTower

        tower = VirtualTower()
        table.closers.append(tower.close)
        port = tower.path
        table.parts["tower-device"] = tower
        driver = table.driver
        table.driver = TowerDriver(driver, tower)
    link = TowerLink(table.inbox, port, read_timeout=IDLE_READ_TIMEOUT, **options)
    link.prime(journaled_rolls(table.session.journal)).start()
    table.closers.append(link.stop)
    table.parts["tower"] = port or "auto"
    table.parts["link"] = link


PRIMED_ROLLS = 256
"""Roll references the tower link is primed with at start: the tower resends at most its outbox (32)."""
PRIMED_SCAN = 4096
"""Journal entries read at most to find them (a long night of button rolls holds none)."""


def journaled_rolls(journal: Journal, limit: int = PRIMED_ROLLS, scan: int = PRIMED_SCAN) -> list[RollRef]:
    """The source rolls of the latest journal entries, most recently played games first: the link is primed
    with them, so a roll journaled just before a stop, whose ACK the tower never heard, is not played again.
    A game whose entries do not read is passed over (its resume says why)."""
    found: list[RollRef] = []
    for record in sorted(journal.games(), key=lambda g: (g.updated, g.id), reverse=True):
        try:
            entries = journal.entries(record.id)
        except CompanionError:
            continue
        for entry in reversed(entries):
            found.extend(entry.rolls)
            scan -= 1
            if len(found) >= limit or scan <= 0:
                return found
    return found


class TowerDriver:
    """Dice go into the virtual tower (over the pty, through the real link); buttons as before."""

    def __init__(self, buttons: Any, tower: Any) -> None:
        self._buttons = buttons
        self.tower = tower

    def throw(self, dice: DiceRolled) -> None:
        self.tower.roll([(d.kind, d.value) for d in dice.dice])

    def press(self, button: str) -> None:
        self._buttons.press(button)

    def hold(self, button: str) -> None:
        self._buttons.hold(button)


class PinDriver(InboxDriver):
    """Presses buttons on the mock pins (the real Buttons code debounces and queues them)."""

    def __init__(self, inbox: queue.Queue[Any], keys: Any) -> None:
        super().__init__(inbox)
        self.keys = keys

    def press(self, button: str) -> None:
        if button not in self.keys.pins:
            super().press(button)
            return
        self.keys.press(button)
        self.keys.release(button)
