"""Rate limits on joining: a token bucket per client address and one for the whole box.

A join code is six letters from 25 (about 2.4e8 codes); at a few tries per minute per address and a box-wide
ceiling, guessing it takes years, while a table joining eight phones at once is never held up.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

MAX_ADDRESSES = 1024
"""Addresses remembered at once (oldest forgotten first), so a flood from many addresses stays bounded."""


@dataclass
class Bucket:
    capacity: float
    rate: float
    """Tokens back per second."""
    tokens: float
    stamp: float

    def take(self, now: float) -> bool:
        self.tokens = min(self.capacity, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        return False


class JoinLimits:
    """``allow(address)``: whether a join attempt from ``address`` may be tried now (right or wrong code); the
    box-wide bucket counts every try, an address's only its wrong ones (:meth:`joined`)."""

    def __init__(self, *, per_address: int = 6, per_address_rate: float = 0.1, overall: int = 30,
                 overall_rate: float = 1.0, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._per = (per_address, per_address_rate)
        self._overall = Bucket(overall, overall_rate, overall, clock())
        self._addresses: dict[str, Bucket] = {}
        self.refused = 0

    def allow(self, address: str) -> bool:
        now = self._clock()
        bucket = self._addresses.pop(address, None)
        if bucket is None:
            bucket = Bucket(self._per[0], self._per[1], self._per[0], now)
        self._addresses[address] = bucket  # most recent last
        while len(self._addresses) > MAX_ADDRESSES:
            del self._addresses[next(iter(self._addresses))]
        ok = bucket.take(now) and self._overall.take(now)
        if not ok:
            self.refused += 1
        return ok

    def joined(self, address: str) -> None:
        """A try from ``address`` had the right code: it is given back, so a table whose phones share an
        address (a guest network's NAT) all join; only wrong codes use an address's allowance up."""
        bucket = self._addresses.get(address)
        if bucket is not None:
            bucket.tokens = min(bucket.capacity, bucket.tokens + 1.0)
