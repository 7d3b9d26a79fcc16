"""The dice tower's link as the ``[tower]`` part: "serial" opens the tower by path or USB id, "virtual" a virtual
tower on a pty that the same link opens by its path (the simulated table). Both prime the link with the rolls
already journaled, so a roll whose ACK the tower never heard is not played twice. The options are the
``[tower]`` section (companion.config.TowerConfig); this module imports nothing above the registry."""

from __future__ import annotations

from typing import Any

from companion.sources import Opened, SourceContext


def start_serial(options: Any, context: SourceContext) -> Opened:
    """The tower on USB serial: ``port``, or found by ``usb_id`` (and waited for while absent)."""
    port = options.port or None
    return _link(options, context, port, port or "auto")


def start_virtual(options: Any, context: SourceContext) -> Opened:
    """A virtual tower on a pty, opened by the real link; scripts and the laptop window throw dice into it."""
    from firmware_bridge.virtual import VirtualTower  # pyserial and the pty: only for the simulated table

    tower = VirtualTower()
    try:
        opened = _link(options, context, tower.path, tower.path)
    except BaseException:
        tower.close()
        raise
    context.parts["tower-device"] = tower
    return Opened(opened.part, opened.word, (tower.close, opened.close))


def _link(options: Any, context: SourceContext, port: str | None, word: str) -> Opened:
    from firmware_bridge.link import IDLE_READ_TIMEOUT, TowerLink  # pyserial: only for a box with a tower

    link = TowerLink(context.inbox, port, read_timeout=IDLE_READ_TIMEOUT, usb_id=options.usb_id,
                     baudrate=options.baud)
    link.prime(context.rolls()).start()
    context.parts["link"] = link
    return Opened(link, word, (link.stop,))


def describe(options: Any, opened: Opened) -> str:
    return opened.word
