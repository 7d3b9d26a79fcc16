"""Pixels dice messages and advertisements to :class:`Reading`: pure functions.

The protocol is public in the vendor's JavaScript SDK. A message's first byte is its type; a roll
state is ``[3, state, face index]`` (face = index + 1). The state numbering changed with the
firmware: the current generation says ``rolled`` (1) after a proper throw and ``onFace`` (5) when
it rests without having been thrown; the legacy one had ``onFace`` as 1 and no ``rolled``. Both
resting states decode to ``settled``: whether that is a roll is the tracker's call (only after
``rolling``), so a die whose generation was guessed wrong still never turns a pick-up into a roll.
The advertisement carries the same state without a connection: manufacturer data of five bytes
(LED count, design with the die type in the high nibble, roll state, face index, battery with
the charging flag in its top bit).
"""

from __future__ import annotations

from dataclasses import dataclass

from hardware.smartdice.reading import Reading

SERVICE = "a6b90001-7a5a-43f2-a962-350c8edc9b5b"
NOTIFY = "a6b90002-7a5a-43f2-a962-350c8edc9b5b"
WRITE = "a6b90003-7a5a-43f2-a962-350c8edc9b5b"
LEGACY_SERVICE = "6e400001-b5a3-f393-e0a9-e50e24dcca9e"
"""Pixels firmware built before October 2024 uses the Nordic UART base id, with its own numbering:
the die notifies on characteristic 0x0001 (the same id as the service) and is written on 0x0002."""
LEGACY_NOTIFY = "6e400001-b5a3-f393-e0a9-e50e24dcca9e"
LEGACY_WRITE = "6e400002-b5a3-f393-e0a9-e50e24dcca9e"
SERVICES = (SERVICE, LEGACY_SERVICE)
"""Either one in an advertisement (or a die's GATT table) makes it a Pixels die."""
COMPANY_ID = 0x0D39
"""Systemic Games' Bluetooth company id, under which current dice put their manufacturer data."""
LEGACY_COMPANY_ID = 0xFFFF
"""What dice from before October 2024 used instead (the "no company" id)."""

ROLL_STATE = 3
ASK_ROLL_STATE = bytes([23])
"""requestRollState: the die answers with a roll state message (same number in both generations)."""

ROLL_STATES: dict[str, tuple[str, ...]] = {
    "current": ("unknown", "rolled", "handling", "rolling", "crooked", "onFace"),
    "legacy": ("unknown", "onFace", "handling", "rolling", "crooked"),
}
"""State names by number, per firmware generation."""
GENERATIONS = tuple(ROLL_STATES)

_MOTION = {"unknown": "none", "rolled": "settled", "onFace": "settled", "handling": "handling",
           "rolling": "rolling", "crooked": "crooked"}

DIE_TYPES = ("unknown", "d4", "d6", "d8", "d10", "d00", "d12", "d20", "d6pipped", "d6fudge")
"""The die type in the high nibble of the advertised design byte."""
KINDS = {"d6": "d6", "d8": "d8", "d6pipped": "d6"}
"""Die types the box can use, as the box's die kinds (a fudge die has no numbers)."""


def state_name(value: int, generation: str) -> str:
    """The name of roll state ``value`` in firmware ``generation``; "unknown" when out of range."""
    names = ROLL_STATES[generation]
    return names[value] if 0 <= value < len(names) else "unknown"


def _reading(state: int, index: int, generation: str, battery: int | None = None, charging: bool = False) -> Reading:
    name = state_name(state, generation)
    motion = _MOTION[name]
    face = index + 1 if motion in ("settled", "crooked") else None
    return Reading(motion, face=face, battery=battery, charging=charging, detail=name)


def decode(data: bytes, generation: str = "current") -> Reading:
    """One notification. Messages other than a roll state (and short ones) are ``none``."""
    data = bytes(data)
    if generation not in ROLL_STATES:
        raise ValueError(f"Pixels firmware generation must be one of {', '.join(GENERATIONS)}, not {generation!r}")
    if len(data) >= 3 and data[0] == ROLL_STATE:
        return _reading(data[1], data[2], generation)
    return Reading(detail=f"message type {data[0]}" if data else "empty message")


@dataclass(frozen=True)
class Advert:
    """What a Pixels die says in its advertisement."""

    led_count: int
    die_type: str
    reading: Reading

    @property
    def kind(self) -> str | None:
        """The box's die kind for this die, or None when it is one the games cannot use."""
        if self.die_type != "unknown":
            return KINDS.get(self.die_type)
        return {6: "d6", 8: "d8"}.get(self.led_count)  # older dice advertise no type: their LED count tells


def decode_advert(manufacturer_data: bytes, generation: str = "current") -> Advert | None:
    """The manufacturer data of a Pixels advertisement, or None when it is not the five-byte form."""
    data = bytes(manufacturer_data)
    if len(data) != 5:
        return None
    led_count, design, state, index, battery = data
    die_type = DIE_TYPES[design >> 4] if design >> 4 < len(DIE_TYPES) else "unknown"
    reading = _reading(state, index, generation, battery=battery & 0x7F, charging=bool(battery & 0x80))
    return Advert(led_count, die_type, reading)
