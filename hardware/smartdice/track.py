"""One die's readings to settled rolls, exactly once: a pure state machine on an injected clock.

The rules, the same for every family:

- a resting reading is a roll only after the die was seen ``rolling`` since its last rest: a die
  picked up and put down (Pixels "handling" then "onFace") is no roll, and a rest notified twice
  (BlueZ doubling callbacks after a reconnect) is one roll;
- a rest within ``debounce`` seconds of the die's last roll is the same throw settling again (a
  bounce), not a new one, and is dropped;
- when the link drops while the die is in the air, the roll is lost: :meth:`lost` says so, so the
  box can ask for the throw again; whatever rest comes after the reconnect is not taken for it.
"""

from __future__ import annotations

from dataclasses import dataclass

from hardware.smartdice.reading import Reading


@dataclass(frozen=True)
class Verdict:
    """What one reading meant: ``roll`` (with its face), ``crooked`` (throw again), ``dropped``
    (a rest that is not a new throw, with why), or ``none``."""

    kind: str = "none"
    face: int | None = None
    why: str = ""


NOTHING = Verdict()


class RollTracker:
    """Feed it a die's readings in order; it says which rests are rolls."""

    def __init__(self, debounce: float = 1.0) -> None:
        self.debounce = debounce
        self.in_flight = False
        """Seen rolling since the last rest: the next rest may be a roll."""
        self.rolling_since: float | None = None
        self.last_roll: float | None = None
        self.counts: dict[str, int] = {}

    def _count(self, what: str) -> None:
        self.counts[what] = self.counts.get(what, 0) + 1

    def feed(self, reading: Reading, now: float) -> Verdict:
        """The verdict on one reading that arrived at ``now`` (seconds, any monotonic clock)."""
        motion = reading.motion
        if motion == "rolling":
            if not self.in_flight or self.rolling_since is None:
                self.rolling_since = now
            self.in_flight = True
            return NOTHING
        if motion == "crooked":
            was, self.in_flight = self.in_flight, False
            if was:
                self._count("crooked")
                return Verdict("crooked", reading.face, "landed crooked")
            return NOTHING
        if motion == "still":
            # GoDice's fake/tilt/move-stable: it stopped without a proper throw; a real rest may follow.
            return NOTHING
        if motion != "settled":
            return NOTHING
        if not self.in_flight:
            self._count("not_thrown")
            return Verdict("dropped", reading.face, "not thrown (no rolling before it)")
        self.in_flight = False
        self.rolling_since = None
        if self.last_roll is not None and now - self.last_roll < self.debounce:
            self._count("debounced")
            return Verdict("dropped", reading.face, f"settled again within {self.debounce:g} s")
        self.last_roll = now
        self._count("rolls")
        return Verdict("roll", reading.face)

    def lost(self) -> bool:
        """The link dropped: True when a throw was in the air (that roll is lost and must be thrown again)."""
        was, self.in_flight, self.rolling_since = self.in_flight, False, None
        if was:
            self._count("lost")
        return was

    def stuck(self, now: float, after: float) -> bool:
        """True once when the die has been rolling for ``after`` seconds without a rest."""
        if self.in_flight and self.rolling_since is not None and now - self.rolling_since >= after:
            self.rolling_since = None
            return True
        return False
