"""Garbage collection happens in the loop's quiet turns, never between an input and its frame being shown.

The simulated table's real loop, session, journal and projector renderer, driven by rolls thrown into its
virtual tower; the interpreter's own ``gc.callbacks`` report every collection and when it ran.
"""

from __future__ import annotations

import gc
import time
from pathlib import Path
from typing import Any

from companion.dice import FACES, DiceRolled
from companion.journal import Journal
from companion.session import collector
from companion.sim import build_table, sim_config


def _step_until(table: Any, condition: Any, seconds: float = 10.0) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, table.session.panel
        table.loop.step(timeout=0.05)


def test_collections_run_in_quiet_turns_and_not_while_a_roll_is_handled_and_drawn(tmp_path: Path) -> None:
    enabled_before = gc.isenabled()
    collections: list[tuple[int, bool]] = []
    in_turn = [False]

    def seen(phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            collections.append((info["generation"], in_turn[0]))

    gc.callbacks.append(seen)
    try:
        with Journal(tmp_path / "j.sqlite") as journal, build_table(journal, sim_config(headless=True)) as table:
            assert not gc.isenabled()  # the loop collects, in its quiet turns
            session, loop = table.session, table.loop
            handle = session.handle

            def handled(event: Any) -> bool:
                in_turn[0] = True  # from an input's handling ...
                return handle(event)

            session.handle = handled  # type: ignore[method-assign]
            loop.on_shown = lambda frame: in_turn.__setitem__(0, False)  # ... to its frame shown
            session.start("kansas", {"players": 4}, resume=False)
            session.refresh()
            loop.show()
            _step_until(table, lambda: session.panel.tower == "connected")
            in_turn[0] = False
            rolls = 0
            while rolls < 12 and session.wanted():
                run = session.current
                before = len(run.live)
                table.driver.throw(DiceRolled.of(*[(k, min(3, FACES[k])) for k in session.wanted()]))
                _step_until(table, lambda run=run, before=before: len(run.live) > before and not in_turn[0])
                quiet = loop.quiet_turns
                while loop.quiet_turns == quiet:
                    loop.step(timeout=0.01)
                rolls += 1
            assert rolls >= 4
            assert collections, "no collection ran at all: garbage would pile up"
            assert not [c for c in collections if c[1]], "a collection ran between an input and its frame"
        assert gc.isenabled() == enabled_before  # put back when the table closes
    finally:
        gc.callbacks.remove(seen)
        if enabled_before:
            gc.enable()


def test_a_busy_loop_with_no_quiet_turn_still_collects_once_far_behind() -> None:
    restore = collector.take_over()
    try:
        gc.collect()
        assert not collector.overdue() and collector.collect_due() is None
        keep = [[i] for i in range(collector.OVERDUE * gc.get_threshold()[0] + 10)]  # young objects pile up
        assert collector.overdue()
        assert collector.collect_due() is not None
        assert not collector.overdue() and keep
    finally:
        restore()
        gc.enable()
