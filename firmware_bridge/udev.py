"""The udev rules for the dice tower: the tower by its USB serial number, and ModemManager kept off it.

The tower is a Raspberry Pi Pico under MicroPython, USB id 2E8A:0005, which every MicroPython RP2040
board shares; its USB serial number is the chip's unique flash id (16 hex digits), so only that picks
this tower out. Two files:

- the shipped rule (systemd/99-dice-tower.rules, installed to /etc/udev/rules.d/) tells ModemManager
  to leave every 2E8A:0005 port alone (it would probe the tower with AT commands when it is plugged
  in) and names ``/dev/dice-tower`` the port marked as the paired tower;
- ``companion tower pair`` reads the serial from the plugged-in tower and writes the one rule that
  marks it (SERIAL_RULES_PATH, read before the shipped one). Reinstalling the box replaces the
  shipped file and leaves the pairing alone; before any pairing no board is /dev/dice-tower.
"""

from __future__ import annotations

RULES_PATH = "/etc/udev/rules.d/99-dice-tower.rules"
SERIAL_RULES_PATH = "/etc/udev/rules.d/98-dice-tower-serial.rules"
VENDOR, PRODUCT = "2e8a", "0005"
MARK = "COMPANION_DICE_TOWER"
"""The udev property the pairing rule sets on the tower's port."""
_MATCH = f'SUBSYSTEM=="tty", ATTRS{{idVendor}}=="{VENDOR}", ATTRS{{idProduct}}=="{PRODUCT}"'


def valid_serial(serial: str) -> bool:
    """A USB serial udev can match literally: 1 to 64 letters and digits (the Pico's is 16 hex digits)."""
    return 0 < len(serial) <= 64 and serial.isascii() and serial.isalnum()


def shipped_rules() -> str:
    """The text of systemd/99-dice-tower.rules."""
    return "\n".join([
        "# The dice tower (a Raspberry Pi Pico under MicroPython, USB id 2E8A:0005) for the storm companion.",
        "# Every MicroPython RP2040 board: ModemManager leaves it alone (no AT probe at plug-in).",
        f'{_MATCH}, ENV{{ID_MM_DEVICE_IGNORE}}="1"',
        f"# The paired tower only, marked by {SERIAL_RULES_PATH} (`sudo companion tower pair` writes it):",
        f'SUBSYSTEM=="tty", ENV{{{MARK}}}=="1", SYMLINK+="dice-tower", GROUP="dialout", MODE="0660"',
        "",
    ])


def serial_rule(serial: str) -> str:
    """The text of SERIAL_RULES_PATH for the tower with USB serial ``serial``."""
    if not valid_serial(serial):
        raise ValueError(f"not a USB serial number: {serial!r}")
    return "\n".join([
        f"# The dice tower paired with this box (USB serial {serial}); written by `companion tower pair`.",
        f'{_MATCH}, ATTRS{{serial}}=="{serial}", ENV{{{MARK}}}="1"',
        "",
    ])
