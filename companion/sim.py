"""The table, assembled: inputs, session, loop and views, from a configuration.

``build_table`` wires what the configuration names into one :class:`Table`, each part found by its section's
``type`` in the registry (companion.sources), as kvmd finds its plugins: the tower link, the buttons, the
``[sources.NAME]`` inputs, the OLED, the projector and the ``[outputs.NAME]`` outputs. The simulated table is a
configuration too (:func:`sim_config`): the same code over each library's own stand-in, a virtual tower on a pty
opened by the real link, buttons on gpiozero's MockFactory pins driven by keys, the OLED as luma's dummy
device drawn beside the map in the laptop window (or written as PNG frames when headless). A part that does not
open is said once (the OLED and the log) and "disabled"; the rest of the box runs.
"""

from __future__ import annotations

import dataclasses
import logging
import queue
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from companion import sources
from companion.config import Config, GameConfig, ProjectorConfig
from companion.dice import DiceRolled
from companion.inputs import Hold, Press, Roll
from companion.journal import Journal
from companion.journal.recent_rolls import journaled_rolls
from companion.session import collector
from companion.session.core import Session
from companion.session.loop import REST_TICK, Loop, View

log = logging.getLogger(__name__)


class ScriptDriver:
    """How a script touches the box: dice go into the virtual tower when there is one (over the pty, through the
    real link), presses onto the mock pins when there are some (the real Buttons code debounces and queues
    them); otherwise straight onto the queue, as a part that is absent would have put them."""

    def __init__(self, inbox: queue.Queue[Any], parts: dict[str, Any]) -> None:
        self.inbox = inbox
        self._parts = parts

    def throw(self, dice: DiceRolled) -> None:
        tower = self._parts.get("tower-device")
        if tower is None:
            self.inbox.put(Roll.of(dice))
            return
        tower.roll([(d.kind, d.value) for d in dice.dice])

    def press(self, button: str) -> None:
        keys = self._parts.get("keys")
        if keys is None or button not in keys.pins:
            self.inbox.put(Press(button))
            return
        keys.press(button)
        keys.release(button)

    def hold(self, button: str) -> None:
        self.inbox.put(Hold(button))


@dataclass(eq=False, repr=False)  # one per box, never compared or printed
class Table:
    """A running box: its queue, session and loop, how a script touches it, and what to close."""

    inbox: queue.Queue[Any]
    session: Session
    loop: Loop
    closers: list[Callable[[], None]] = field(default_factory=list)
    parts: dict[str, Any] = field(default_factory=dict)
    driver: ScriptDriver = field(init=False)

    def __post_init__(self) -> None:
        self.driver = ScriptDriver(self.inbox, self.parts)

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

HEADLESS_SIZE = (960, 540)
"""Headless frames of the simulated table without a configuration of its own: a quarter of 1080p keeps a frames
folder quick to write (every change is a PNG) and still reads; `companion snapshot` renders 1080p."""


def sim_config(base: Config | None = None, *, headless: bool = False, out: Path | None = None) -> Config:
    """The simulated table: ``base`` (every default when None) with each part's stand-in type: a virtual tower,
    MockFactory pins driven by keys (contacts that do not bounce), luma's dummy OLED, no smart dice (no radio),
    and the map in the laptop window, or drawn off screen when ``headless`` (written to ``out`` if given).
    ``companion run --sim`` and ``companion demo`` load it."""
    if base is None:
        base = Config(game=GameConfig(players=None), projector=ProjectorConfig(width=HEADLESS_SIZE[0],
                                                                               height=HEADLESS_SIZE[1]))
    return dataclasses.replace(
        screen_config(base, headless=headless, out=out, window=True),
        tower=dataclasses.replace(base.tower, type="virtual"),
        buttons=dataclasses.replace(base.buttons, type="mock", bounce_ms=0.0),
        oled=dataclasses.replace(base.oled, type="dummy"),
        dice=dataclasses.replace(base.dice, enabled=False))


def screen_config(config: Config, *, headless: bool, out: Path | None = None, window: bool = False) -> Config:
    """``config`` with the map where the command line puts it: drawn off screen when ``headless`` (and written with
    the OLED's image to ``out``), in the laptop window when ``window``, else as the configuration says. A
    disabled projector stays disabled."""
    if not config.projector.enabled:
        return config
    if headless:
        projector = dataclasses.replace(config.projector, type="frames", frames=str(out) if out else "")
    elif window:
        projector = dataclasses.replace(config.projector, type="window")
    else:
        return config
    return dataclasses.replace(config, projector=projector)


def build_table(journal: Journal, config: Config, *, maps: Path | None = None, views: list[View] | None = None,
                tick: float = 0.5, watchdog: Callable[[], object] | None = None,
                loader: Callable[[str, Path | None], Any] | None = None,
                game_keys: tuple[str, ...] | None = None) -> Table:
    """Assemble a table from ``config`` (:func:`sim_config` for the simulated one); ``views`` replaces the
    configured outputs (tests pass their own)."""
    inbox: queue.Queue[Any] = queue.Queue()
    extra: dict[str, Any] = {}
    if loader is not None:
        extra["loader"] = loader
    if game_keys is not None:
        extra["game_keys"] = game_keys
    if config.game.players is not None:
        extra["preferred"] = {"players": config.game.players}
    session = Session(journal, maps=maps, **extra)
    journal.write_behind = True  # the loop draws while a roll's COMMIT reaches the disk (Loop.show)
    loop = Loop(session, inbox, [], watchdog=watchdog, tick=tick, rest_tick=REST_TICK)
    table = Table(inbox, session, loop)
    switch = sys.getswitchinterval()
    sys.setswitchinterval(SWITCH_INTERVAL)
    table.closers.append(lambda: sys.setswitchinterval(switch))
    table.closers.append(collector.take_over())  # the loop collects garbage in its quiet turns
    try:
        # Inputs first: the laptop window (an output) shows and drives the parts they leave in table.parts.
        attach(table, "tower", config.tower)
        attach(table, "buttons", config.buttons)
        if config.dice.enabled:
            attach(table, "smartdice", config.dice, role="source", type_name="smartdice")
        if config.camera.enabled:
            attach(table, "camera", config.camera, role="source", type_name="camera")
        for entry in config.sources:
            _attach_entry(table, entry, "source")
        if views is not None:
            loop.views.extend(views)
        else:
            attach(table, "oled", config.oled)
            attach(table, "projector", config.projector)
            for entry in config.outputs:
                _attach_entry(table, entry, "output")
        if config.remote.enabled:  # the phones' page: last, over every view
            from companion.remote.wiring import attach_remote

            attach_remote(table, config.remote)
    except BaseException:
        table.close()
        raise
    return table


def _attach_entry(table: Table, entry: Any, role: str) -> None:
    if not entry.enabled:
        table.parts[entry.name] = sources.DISABLED
        return
    attach(table, entry.name, entry.options, role=role, type_name=entry.type)


def context_for(table: Table) -> sources.SourceContext:
    """What a part may use of the table (companion.sources.SourceContext)."""
    return sources.SourceContext(
        table.inbox, lambda: table.session.wanted(), lambda label, action: table.session.extras.append((label, action)),
        add_view=table.loop.views.append,
        add_pump=lambda pump, polled: table.loop.add_pump(pump, polled=polled),
        say=lambda text: _say_once(table, text), notice=table.session.notice, tell=lambda text: _tell(table, text),
        rolls=lambda: journaled_rolls(table.session.journal), parts=table.parts)


def attach(table: Table, name: str, options: Any, *, role: str | None = None, type_name: str | None = None) -> Any:
    """Start one part: the section ``name`` (its role) with its ``type``, or a ``[sources.NAME]`` /
    ``[outputs.NAME]`` entry of ``role`` and ``type_name``. Returns what it opened (a view, a link), or None:
    disabled, or it did not open, which is said once on the OLED and in the log while the box runs on."""
    kind = type_name if type_name is not None else options.type
    if kind == sources.DISABLED:
        table.parts[name] = sources.DISABLED
        return None
    started = sources.start_source(name, sources.get(kind, role or name), options, context_for(table))
    table.parts[name] = started.word
    if started.part is None:
        table.session.notice(f"{name}: {started.why}")
        return None
    table.closers.append(started.close)
    return started.part.part if isinstance(started.part, sources.Opened) else started.part


def _say_once(table: Table, text: str) -> None:
    """A lasting condition: one session notice (shown on the OLED and the map) and one log line."""
    if table.session.notice(text):
        log.warning("%s", text)


def _tell(table: Table, text: str) -> None:
    """A passing event ("projector back"): the OLED's message until the next input, shown by the loop's next
    housekeeping (within a second); unlike a notice it may come again. The part logs its own details."""
    table.session.message = text
