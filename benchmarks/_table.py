"""The shared result row and table printer for all benchmarks."""

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


def summary(area: str, what: str, samples_ms: list[float], target: str = "") -> list[Row]:
    """p50/p99/mean rows for a list of millisecond samples."""
    return [
        Row(area, f"{what} p50", percentile(samples_ms, 50), "ms", target),
        Row(area, f"{what} p99", percentile(samples_ms, 99), "ms", target),
        Row(area, f"{what} mean", statistics.fmean(samples_ms), "ms"),
    ]


def print_table(rows: list[Row]) -> None:
    headers = ("area", "measure", "value", "unit", "target")
    cells = [(r.area, r.measure, f"{r.value:.4g}", r.unit, r.target) for r in rows]
    widths = [max(len(h), *(len(c[i]) for c in cells)) if cells else len(h) for i, h in enumerate(headers)]
    line = " | ".join(h.ljust(w) for h, w in zip(headers, widths, strict=True))
    print(line)
    print("-+-".join("-" * w for w in widths))
    for c in cells:
        print(" | ".join(v.ljust(w) for v, w in zip(c, widths, strict=True)))
