"""The tower link's settings and their defaults, declared once: the link takes them (``TowerLink``) and the
configuration's ``[tower]`` section is this dataclass with the section's ``type`` added. Kept apart from
``link.py`` so reading a configuration file imports no pyserial."""

from __future__ import annotations

from dataclasses import dataclass

from firmware_bridge.wire import BAUDRATE

DEFAULT_USB_ID = "2E8A:0005"
"""Raspberry Pi RP2040 running MicroPython (its default USB VID:PID): how a tower is found without a path."""


@dataclass(frozen=True, repr=False)  # compared, never printed
class TowerOptions:
    """Where the tower is: ``port`` (a path; empty means find it by ``usb_id``) and the line's speed."""

    port: str = ""
    baud: int = BAUDRATE
    usb_id: str = DEFAULT_USB_ID
