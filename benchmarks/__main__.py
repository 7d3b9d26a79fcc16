"""Run benchmarks: ``python -m benchmarks [NAME ...]`` (names like ``kansas_risk``); prints one table."""

from __future__ import annotations

import importlib
import os
import pkgutil
import sys

os.environ.setdefault("SDL_VIDEODRIVER", "offscreen")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("GPIOZERO_PIN_FACTORY", "mock")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import benchmarks
from benchmarks._table import print_table


def main(argv: list[str]) -> int:
    names = sorted(m.name[len("bench_"):] for m in pkgutil.iter_modules(benchmarks.__path__)
                   if m.name.startswith("bench_"))
    chosen = argv or names
    unknown = set(chosen) - set(names)
    if unknown:
        print(f"benchmarks: unknown {', '.join(sorted(unknown))} (known: {', '.join(names)})", file=sys.stderr)
        return 2
    rows = []
    for name in chosen:
        module = importlib.import_module(f"benchmarks.bench_{name}")
        rows.extend(module.run())
    print_table(rows)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
