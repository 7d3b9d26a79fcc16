"""The shared result row and table printer for all benchmarks.

A row may carry the team's target as a limit (``most`` or ``least``); the table prints it beside the
figure with "ok" or "MISS", and ``python -m benchmarks`` exits non-zero when any row misses.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True)
class Row:
    area: str
    measure: str
    value: float
    unit: str
    target: str = ""
    """The target in words when it is no plain limit (or a note); a limit prints its own."""
    most: float | None = None
    """The figure must be at most this."""
    least: float | None = None
    """The figure must be at least this."""

    @property
    def limit(self) -> str:
        if self.most is not None:
            return f"<= {self.most:g}"
        if self.least is not None:
            return f">= {self.least:g}"
        return self.target

    @property
    def ok(self) -> bool | None:
        """True or False against the limit; None when the row has none."""
        if self.most is not None:
            return self.value <= self.most
        if self.least is not None:
            return self.value >= self.least
        return None


def percentile(samples: list[float], pct: float) -> float:
    ordered = sorted(samples)
    index = min(len(ordered) - 1, max(0, round(pct / 100 * (len(ordered) - 1))))
    return ordered[index]


def time_calls(fn: Callable[[], object], repeat: int) -> list[float]:
    """Wall time of each of ``repeat`` calls, in milliseconds."""
    samples = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        samples.append((time.perf_counter() - start) * 1000)
    return samples


def summary(area: str, what: str, samples_ms: list[float], target: str = "", *,
            p99: float | None = None) -> list[Row]:
    """p50/p99/mean rows for a list of millisecond samples; ``p99`` is the limit on the p99 row."""
    return [
        Row(area, f"{what} p50", percentile(samples_ms, 50), "ms"),
        Row(area, f"{what} p99", percentile(samples_ms, 99), "ms", target, most=p99),
        Row(area, f"{what} mean", statistics.fmean(samples_ms), "ms"),
    ]


def print_table(rows: list[Row]) -> None:
    headers = ("area", "measure", "value", "unit", "target", "")
    cells = [(r.area, r.measure, f"{r.value:.4g}", r.unit, r.limit,
              {True: "ok", False: "MISS", None: ""}[r.ok]) for r in rows]
    widths = [max(len(h), *(len(c[i]) for c in cells)) if cells else len(h) for i, h in enumerate(headers)]
    line = " | ".join(h.ljust(w) for h, w in zip(headers, widths, strict=True))
    print(line.rstrip())
    print("-+-".join("-" * w for w in widths))
    for c in cells:
        print(" | ".join(v.ljust(w) for v, w in zip(c, widths, strict=True)).rstrip(), flush=True)


def misses(rows: list[Row]) -> list[Row]:
    return [r for r in rows if r.ok is False]
