"""One die's readings to settled rolls, exactly once: a pure state machine on an injected clock.

The rules, the same for every family:

- a resting reading is a roll only after the die was seen ``rolling`` since its last rest: a die
  picked up and put down (Pixels "handling" then "onFace") is no roll, and a rest notified twice
  (BlueZ doubling callbacks after a reconnect) is one roll;
- a rest within ``debounce`` seconds of the die's last roll is the same throw settling again (a
  bounce), not a new one, and is dropped;
- when the link drops while the die is in the air, the roll is lost: :meth:`lost` says so, so the
  box can ask for the throw again. That throw may still be tumbling when the link comes back
  (:meth:`back`): its landing, the first rest within ``window`` seconds of the link's return (or
  at any time before it), is not a roll, or one request would get two (the "throw again" and this).
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
        self.lost_throw = False
        """A throw was in the air when the link dropped: its landing is not a roll."""
        self.lost_throw_until: float | None = None
        """When that stops applying (None: the link is not back yet)."""
        self.counts: dict[str, int] = {}

    def _count(self, what: str) -> None:
        self.counts[what] = self.counts.get(what, 0) + 1

    def feed(self, reading: Reading, now: float) -> Verdict:
        """The verdict on one reading that arrived at ``now`` (seconds, any monotonic clock)."""
        motion = reading.motion
        if self.lost_throw and self.lost_throw_until is not None and now >= self.lost_throw_until:
            self.lost_throw = False  # it landed while the link was away: what follows is a new throw
        if motion == "rolling":
            if not self.in_flight or self.rolling_since is None:
                self.rolling_since = now
            self.in_flight = True
            return NOTHING
        if motion == "crooked":
            was, self.in_flight = self.in_flight, False
            if self.lost_throw:
                self.lost_throw = False
                self._count("lost_throw_landed")
                return Verdict("dropped", reading.face, "the throw whose link dropped landed")
            if was:
                self._count("crooked")
                return Verdict("crooked", reading.face, "landed crooked")
            return NOTHING
        if motion == "still":
            # GoDice's fake/tilt/move-stable: it stopped without a proper throw; a real rest may follow.
            return NOTHING
        if motion != "settled":
            return NOTHING
        if self.lost_throw:
            self.lost_throw = self.in_flight = False
            self.rolling_since = None
            self._count("lost_throw_landed")
            return Verdict("dropped", reading.face, "the throw whose link dropped landed")
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

    def lost(self, now: float | None = None) -> bool:
        """The link dropped: True when a throw was in the air (that roll is lost and must be thrown again)."""
        was, self.in_flight, self.rolling_since = self.in_flight, False, None
        if was:
            self._count("lost")
            self.lost_throw, self.lost_throw_until = True, None
        return was

    def back(self, now: float, window: float) -> None:
        """The link is back at ``now``: a throw lost mid-air that has not landed within ``window`` s
        had landed while the link was away, and the next rest is a new throw."""
        if self.lost_throw and self.lost_throw_until is None:
            self.lost_throw_until = now + window

    def stuck(self, now: float, after: float) -> bool:
        """True once when the die has been rolling for ``after`` seconds without a rest."""
        if self.in_flight and self.rolling_since is not None and now - self.rolling_since >= after:
            self.rolling_since = None
            return True
        return False
