"""What a decoder makes of one message from a die: the same small value for every family."""

from __future__ import annotations

from dataclasses import dataclass

MOTIONS = ("rolling", "handling", "settled", "still", "crooked", "none")
"""rolling: in the air; handling: picked up, shaken in a hand; settled: resting on a face after a
movement (a candidate roll); still: resting but the die itself says it was no throw (GoDice's fake,
tilt and move-stable); crooked: stopped on no face; none: a message that says nothing of motion."""


@dataclass(frozen=True)
class Reading:
    """One decoded message: its motion, the face up when resting, and the battery when it says so."""

    motion: str = "none"
    face: int | None = None
    battery: int | None = None
    """Battery charge in percent, when the message carries it."""
    charging: bool = False
    detail: str = ""
    """What the message was, in words for the log ("fake stable", "colour blue")."""

    def __post_init__(self) -> None:
        if self.motion not in MOTIONS:
            raise ValueError(f"unknown motion {self.motion!r}")


LOW_BATTERY = 15
"""Percent at or below which a die's status says its battery is low."""


def battery_detail(percent: int | None, charging: bool = False) -> str:
    """The status detail for a battery level: "battery 80 %", "battery low (9 %)", "" when unknown."""
    if percent is None:
        return ""
    if charging:
        return f"charging ({percent} %)"
    if percent <= LOW_BATTERY:
        return f"battery low ({percent} %)"
    return f"battery {percent} %"
