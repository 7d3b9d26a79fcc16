"""The udev rule for the dice tower: the tower by its USB serial number, and ModemManager kept off it.

The tower is a Raspberry Pi Pico under MicroPython, USB id 2E8A:0005, which every MicroPython RP2040
board shares; its USB serial number is the chip's unique flash id (16 hex digits), so only that picks
this tower out. ``companion tower pair`` reads it from the plugged-in tower and writes the rule (the
shipped file, systemd/99-dice-tower.rules, is this text with no tower paired yet: no board gets the
name /dev/dice-tower until then). Whatever the serial, ModemManager is told to leave every 2E8A:0005
port alone: it would otherwise probe the tower with AT commands when it is plugged in.
"""

from __future__ import annotations

RULES_PATH = "/etc/udev/rules.d/99-dice-tower.rules"
VENDOR, PRODUCT = "2e8a", "0005"
UNPAIRED = "not-paired-yet"
"""The serial in the shipped rule: no board has it, so no board is /dev/dice-tower before pairing."""


def valid_serial(serial: str) -> bool:
    """A USB serial udev can match literally: 1 to 64 letters and digits (the Pico's is 16 hex digits)."""
    return 0 < len(serial) <= 64 and serial.isascii() and serial.isalnum()


def rules_text(serial: str | None = None) -> str:
    """The rule file for the tower with USB serial ``serial`` (None: none paired yet)."""
    if serial is not None and not valid_serial(serial):
        raise ValueError(f"not a USB serial number: {serial!r}")
    match = f'SUBSYSTEM=="tty", ATTRS{{idVendor}}=="{VENDOR}", ATTRS{{idProduct}}=="{PRODUCT}"'
    said = (f"# The dice tower paired with this box: USB serial {serial}." if serial else
            "# No tower paired yet: `sudo companion tower pair` writes its serial number here.")
    return "\n".join([
        "# The dice tower (a Raspberry Pi Pico under MicroPython, USB id 2E8A:0005) for the storm companion.",
        "# Every MicroPython RP2040 board: ModemManager leaves it alone (no AT probe at plug-in).",
        f'{match}, ENV{{ID_MM_DEVICE_IGNORE}}="1"',
        said,
        f'{match}, ATTRS{{serial}}=="{serial or UNPAIRED}", SYMLINK+="dice-tower", GROUP="dialout", MODE="0660"',
        "",
    ])
