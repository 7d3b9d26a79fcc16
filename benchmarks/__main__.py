"""Run benchmarks: ``python -m benchmarks [--pin CPU] [NAME ...]`` (names like ``kansas_risk``); prints one table.

Each row with a target says "ok" or "MISS"; the exit status is 1 when any row misses or an area fails (2 for
bad arguments). ``--pin 1`` runs the whole set, and every process it starts, on CPU 1 alone (as
``taskset -c 1`` does): on a machine shared with other work the figures then show what one core
does, the way a Pi's single busy core would.

Each area runs in a fresh Python process of its own (``--area NAME FILE``, which writes the area's rows to
FILE as JSON), as the box runs alone in its own: run one after another in a single process, an area would
carry what the areas before it left (the journal area's 10,000-event games and replays, numpy and the risk
tables, the projector area's 1080p surfaces: their heap and the collector's generations) into its samples.
How much that moved the figures is within this machine's noise (docs/performance.md gives two interleaved
pairs of the roll's latency); the point is that no area's figure can depend on which areas ran before it.
"""

from __future__ import annotations

import dataclasses
import importlib
import json
import os
import pkgutil
import subprocess
import sys
import tempfile
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "offscreen")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("GPIOZERO_PIN_FACTORY", "mock")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import benchmarks
from benchmarks._table import Row, misses, print_table

ROOT = Path(__file__).resolve().parent.parent
"""The checkout the benchmarks package is in: each area's process imports it from there."""


def main(argv: list[str]) -> int:
    names = sorted(m.name[len("bench_"):] for m in pkgutil.iter_modules(benchmarks.__path__)
                   if m.name.startswith("bench_"))
    if argv[:1] == ["--area"]:
        if len(argv) != 3 or argv[1] not in names:
            print("benchmarks: --area takes a known area and a file for its rows", file=sys.stderr)
            return 2
        return run_here(argv[1], Path(argv[2]))
    if argv[:1] == ["--pin"]:
        if len(argv) < 2 or not argv[1].isdigit():
            print("benchmarks: --pin takes a CPU number", file=sys.stderr)
            return 2
        os.sched_setaffinity(0, {int(argv[1])})  # inherited by every area's process
        argv = argv[2:]
    chosen = argv or names
    unknown = set(chosen) - set(names)
    if unknown:
        print(f"benchmarks: unknown {', '.join(sorted(unknown))} (known: {', '.join(names)})", file=sys.stderr)
        return 2
    print(f"cpus: {sorted(os.sched_getaffinity(0))}", flush=True)
    rows: list[Row] = []
    failed: list[str] = []
    for name in chosen:
        got = run_apart(name)
        if got is None:
            failed.append(name)
        else:
            rows.extend(got)
    print_table(rows)
    missed = misses(rows)
    if missed:
        print(f"{len(missed)} figure(s) miss their target: " + "; ".join(f"{r.area} {r.measure}" for r in missed),
              file=sys.stderr)
    if failed:
        print(f"benchmarks: {', '.join(failed)} failed (see above)", file=sys.stderr)
    return 1 if missed or failed else 0


def run_here(name: str, out: Path) -> int:
    """One area in this process; its rows written to ``out``."""
    module = importlib.import_module(f"benchmarks.bench_{name}")
    rows = module.run()
    out.write_text(json.dumps([dataclasses.asdict(row) for row in rows]))
    return 0


def run_apart(name: str) -> list[Row] | None:
    """One area in a fresh process of its own (see the module's docstring); its rows, or None when it failed
    (what it said is on stderr)."""
    with tempfile.TemporaryDirectory(prefix="bench-rows-") as tmp:
        out = Path(tmp) / "rows.json"
        done = subprocess.run([sys.executable, "-m", "benchmarks", "--area", name, str(out)], cwd=ROOT)
        if done.returncode != 0 or not out.exists():
            return None
        return [Row(**row) for row in json.loads(out.read_text())]


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
