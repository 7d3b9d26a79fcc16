"""What a roll's milliseconds are made of, at the median and in its tail (``python -m benchmarks roll_parts``).

The service area's in-process Kansas game (:func:`benchmarks.bench_service.game_latency`: tower rolls through the
real link, the journal's fsync, luma's ssd1306 driver, the 1080p renderer) with each part of the loop's turn for a
roll timed, wall and the loop thread's CPU time: the session's handling (rules, the journal's statements, the
panel), the OLED's panel drawn, the projector's frame drawn, the wait for the journal's COMMIT, the frame put on the
screen. Wall minus CPU is time the loop thread was off the CPU: waiting for a core, for the GIL held by another of
the box's threads, or for the journal's COMMIT (its own row). The rows compare the median fifth of the rolls with
the slowest twentieth, on a quiet machine, on a busy one (two busy programs a core) as a plain process and under
the unit's scheduling, and with the risk overlay on (the tower's rolls: the button's take the same turn). No
targets here: the targets are the service area's; this says where its tail comes from.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from benchmarks._table import Row
from benchmarks.bench_service import BUSY_PER_CORE, busy, game_latency, unit_scheduling

AREA = "roll_parts"
ROLLS = int(os.environ.get("BENCH_ROLLS", "150"))
PARTS = ("handle", "OLED panel", "projector frame", "COMMIT wait", "put on screen")


@dataclass
class Turn:
    """One roll's turn of the loop: when its handling began, and each part's wall and CPU milliseconds."""

    began: float
    wall: dict[str, float] = field(default_factory=dict)
    cpu: dict[str, float] = field(default_factory=dict)
    ended: float = 0.0

    @property
    def total(self) -> float:
        return (self.ended - self.began) * 1000


@contextmanager
def timed_parts() -> Iterator[list[Turn]]:
    """Each roll's turn, its parts timed, while inside (the box's methods wrapped, put back after)."""
    from companion.dice import DiceRolled
    from companion.inputs import Roll
    from companion.session.core import Session
    from companion.session.views import OledView
    from companion.views.projector.view import ProjectorView

    turns: list[Turn] = []
    current: list[Turn | None] = [None]
    wrapped: list[tuple[type, str, Callable[..., Any]]] = []

    def wrap(cls: type, name: str, part: str) -> None:
        original = getattr(cls, name)

        def timed(self: Any, *args: Any, **kwargs: Any) -> Any:
            t0, c0 = time.perf_counter(), time.thread_time()
            if part == "handle":
                rolled = bool(args) and isinstance(args[0], Roll | DiceRolled)
                current[0] = Turn(t0) if rolled else None
            try:
                return original(self, *args, **kwargs)
            finally:
                t1, c1 = time.perf_counter(), time.thread_time()
                turn = current[0]
                if turn is not None:
                    turn.wall[part] = turn.wall.get(part, 0.0) + (t1 - t0) * 1000
                    turn.cpu[part] = turn.cpu.get(part, 0.0) + (c1 - c0) * 1000
                    if part == "put on screen":
                        turn.ended = t1
                        turns.append(turn)
                        current[0] = None

        wrapped.append((cls, name, original))
        setattr(cls, name, timed)

    wrap(Session, "handle", "handle")
    wrap(Session, "settle_writes", "COMMIT wait")
    wrap(OledView, "prepare", "OLED panel")
    wrap(ProjectorView, "prepare", "projector frame")
    wrap(ProjectorView, "show", "put on screen")
    try:
        yield turns
    finally:
        for cls, name, original in wrapped:
            setattr(cls, name, original)


def _mean(values: list[float]) -> float:
    return sum(values) / len(values) if values else 0.0


def case_rows(case: str, turns: list[Turn]) -> list[Row]:
    """Per part: the wall milliseconds in the slowest twentieth of the rolls, with its CPU and the median fifth's
    figures beside it; and the turn as a whole."""
    ranked = sorted(turns, key=lambda t: t.total)
    n = len(ranked)
    middle = ranked[max(0, n // 2 - n // 10): n // 2 + n // 10] or ranked
    tail = ranked[-max(1, n // 20):]
    rows = []
    for part in PARTS:
        rows.append(Row(AREA, f"{case}: {part}, slowest 5 %, wall", _mean([t.wall.get(part, 0.0) for t in tail]),
                        "ms", f"CPU {_mean([t.cpu.get(part, 0.0) for t in tail]):.2f}; median fifth "
                              f"{_mean([t.wall.get(part, 0.0) for t in middle]):.2f} / CPU "
                              f"{_mean([t.cpu.get(part, 0.0) for t in middle]):.2f}"))
    off = [t.total - sum(t.cpu.values()) for t in tail]
    rows.append(Row(AREA, f"{case}: the roll's turn, slowest 5 %, wall", _mean([t.total for t in tail]), "ms",
                    f"off the CPU {_mean(off):.2f}; median fifth {_mean([t.total for t in middle]):.2f}"))
    return rows


def run() -> list[Row]:
    load = BUSY_PER_CORE * len(os.sched_getaffinity(0))
    rows: list[Row] = []
    cases: list[tuple[str, bool, bool, bool]] = [
        ("quiet, overlay off", False, False, False), ("quiet, overlay on", True, False, False),
        (f"busy ({load} busy programs), overlay off", False, True, False),
        (f"busy ({load} busy programs), the unit's scheduling, overlay off", False, True, True)]
    for case, overlay, loaded, scheduled in cases:
        policy = unit_scheduling() if scheduled else None
        if scheduled and policy is None:
            continue
        try:
            with timed_parts() as turns:
                if loaded:
                    with busy(load):
                        game_latency(ROLLS, overlay, scheduling=policy)
                else:
                    game_latency(ROLLS, overlay, scheduling=policy)
        except PermissionError:  # the unit's real-time policy: CAP_SYS_NICE, which systemd has and a user not
            rows.append(Row(AREA, f"{case}: not measured", float("nan"), "ms",
                            "setting the unit's scheduling needs CAP_SYS_NICE: run as root"))
            continue
        rows += case_rows(case, turns)
    return rows
