"""``start_smartdice(config, queue)``: the smart dice as one more source of the box, ready to wire.

It reads the ``[dice]`` section and the pairing file it names and starts :class:`SmartDice` on
them. Whatever keeps the dice from running (the section off, no die paired, bleak not installed, a
damaged pairing file) is said once as a ``SourceStatus("smartdice", "off", why)`` and the box goes
on with its tower and buttons: smart dice are an extra, never a reason not to start.
"""

from __future__ import annotations

import logging
import queue
from typing import Any, Protocol

from companion.errors import CompanionError
from companion.inputs import SourceStatus

log = logging.getLogger(__name__)

SOURCE = "smartdice"


class Closeable(Protocol):
    def close(self) -> None: ...


class _Off:
    """What start_smartdice returns when no die runs: closing it does nothing."""

    def __init__(self, why: str = "") -> None:
        self.why = why

    def close(self) -> None:
        return None


def describe(running: object) -> str:
    """The ready line's word on the smart dice: "on (N dice)" only when a die is being read."""
    dice = getattr(running, "dice", None)
    if isinstance(running, _Off) or not dice:
        return "off"
    return f"on ({len(dice)} dice)"


def start_smartdice(config: Any, events: queue.Queue[Any], **options: Any) -> Closeable:
    """Start the paired dice of ``config`` (a companion.config.Config, or its ``dice`` section).

    ``options`` go to :class:`hardware.smartdice.adapter.SmartDice` (tests pass bleak backends and
    a clock). Returns something to ``close()`` when the box stops.
    """
    section = getattr(config, "dice", config)

    def off(why: str) -> Closeable:
        events.put(SourceStatus(SOURCE, "off", why))
        return _Off(why)

    if not section.enabled:
        return off("smart dice not enabled ([dice] enabled = false)")
    from hardware.smartdice.store import load_pairing

    try:
        dice = load_pairing(section.pairing)
    except CompanionError as exc:
        log.warning("smart dice off: %s", exc)
        return off(str(exc))
    except (ValueError, OSError) as exc:  # not UTF-8, unreadable: one line, and the box runs on
        log.warning("smart dice off: %s: %s", section.pairing, exc)
        return off(f"{section.pairing}: cannot be read (not a pairing file)")
    if not dice:
        return off(f"no die paired yet (companion dice pair writes {section.pairing})")
    try:
        from hardware.smartdice.adapter import SmartDice
    except ImportError as exc:
        log.warning("smart dice off: %s", exc)
        return off("bleak is not installed (pip install 'storm-companion[ble]')")
    # the [dice] section's settings by their names there (read here, so the hardware never imports the configuration)
    settings = {"debounce": section.debounce_s, "retry": section.retry_s, "pixels_via": section.pixels}
    return SmartDice(events, dice, **{**settings, **options}).start()
