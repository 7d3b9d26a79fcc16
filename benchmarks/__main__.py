"""Run benchmarks: ``python -m benchmarks [--pin CPU] [NAME ...]`` (names like ``kansas_risk``); prints one table.

Each row with a target says "ok" or "MISS"; the exit status is 1 when any row misses (2 for bad
arguments). ``--pin 1`` runs the whole set, and every process it starts, on CPU 1 alone (as
``taskset -c 1`` does): on a machine shared with other work the figures then show what one core
does, the way a Pi's single busy core would.
"""

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
from benchmarks._table import misses, print_table


def main(argv: list[str]) -> int:
    names = sorted(m.name[len("bench_"):] for m in pkgutil.iter_modules(benchmarks.__path__)
                   if m.name.startswith("bench_"))
    if argv[:1] == ["--pin"]:
        if len(argv) < 2 or not argv[1].isdigit():
            print("benchmarks: --pin takes a CPU number", file=sys.stderr)
            return 2
        os.sched_setaffinity(0, {int(argv[1])})
        argv = argv[2:]
    chosen = argv or names
    unknown = set(chosen) - set(names)
    if unknown:
        print(f"benchmarks: unknown {', '.join(sorted(unknown))} (known: {', '.join(names)})", file=sys.stderr)
        return 2
    print(f"cpus: {sorted(os.sched_getaffinity(0))}", flush=True)
    rows = []
    for name in chosen:
        module = importlib.import_module(f"benchmarks.bench_{name}")
        rows.extend(module.run())
    print_table(rows)
    missed = misses(rows)
    if missed:
        print(f"{len(missed)} figure(s) miss their target: " + "; ".join(f"{r.area} {r.measure}" for r in missed),
              file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
