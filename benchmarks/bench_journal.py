"""Resume and undo of a 10,000-event game, through the real journal on disk and the session's own path.

A shipped Kansas game ends after about 240 events (4 players, 8 turns), so the long game here is Kansas with
the 4-player outbreak row repeated (:func:`long_kansas_maps`: 376 turns, a night of 47 games' tornado phases
chained into one game on the same board and rules); it is cut at exactly :data:`EVENTS` live events and left
open, as a box switched off mid-game leaves it. Its events are played by the engine from a seed and accepted
one by one through ``GameRun.accept`` on a ``Journal`` in a folder on a disk (never tmpfs: the same check as
the service benchmark), each committed with fsync and a snapshot stored every ``SNAPSHOT_EVERY`` events, as
the box does at the table.

- resume: a new ``Session`` on a freshly opened journal, ``session.start()`` (the engine loaded from its maps,
  the last unfinished game found, its newest snapshot checked against the history it summarises, unpickled,
  and the events after it replayed); at 10,000 events (a snapshot right there) and at 10,000 +
  ``SNAPSHOT_EVERY`` - 1 (the most events a resume replays after one).
- undo: the worst undo after such a start at 10,000 + ``SNAPSHOT_EVERY`` - 1 events: the first one below
  the states the run keeps in memory (the undos before it, from memory, untimed), which loads the snapshot
  before and replays the events after it; each sample from a copy of the same journal file.
  An undo of a roll made in this run costs no replay (the run keeps its recent states): the "a roll of
  this run" row.
- before: the full replay that resume and undo were until now (every live event read and folded).

The first start after an install (or a change of the maps or the code) loads the engine from its files and
keeps it beside the journal (companion.journal.engine_cache); that start is its own row, and the resume
rows time the starts after it, as the box starts every evening.
"""

from __future__ import annotations

import os
import random
import shutil
import tempfile
import time
from pathlib import Path
from typing import Any

from benchmarks._table import Row, summary, time_calls
from companion.journal.snapshots import SNAPSHOT_EVERY

AREA = "journal"
EVENTS = 10_000
TAIL = SNAPSHOT_EVERY - 1
"""The most events a load replays after a snapshot."""
REPEAT = int(os.environ.get("BENCH_JOURNAL_REPEAT", "40"))
TURN_COPIES = 47
"""Copies of the 4-player outbreak row: 376 turns, a game of about 10,300 events with seed 1."""


def long_kansas_maps(folder: Path, copies: int = TURN_COPIES) -> Path:
    """A maps folder whose Kansas 4-player outbreak row is the shipped one ``copies`` times over."""
    from companion.paths import maps_dir

    maps = folder / "maps"
    shutil.copytree(maps_dir(), maps)
    board = maps / "kansas.toml"
    row = "4 = [4, 3, 3, 2, 2, 1, 1, 0]"
    text = board.read_text()
    if row not in text:
        raise RuntimeError(f"{board}: the 4-player outbreak row is not {row!r}")
    board.write_text(text.replace(row, "4 = [" + ", ".join(["4, 3, 3, 2, 2, 1, 1, 0"] * copies) + "]"))
    return maps


def scripted_events(game: Any, options: dict[str, Any], count: int, seed: int) -> list[Any]:
    """Up to ``count`` events of a game answered from ``seed``: the dice and shuffles the engine asks for, and a
    random decision the engine accepts (as ``companion snapshot --seed`` plays)."""
    from companion.dice import DiceSource
    from companion.errors import RuleError
    from companion.session.choices import options_for

    dice, rng = DiceSource(seed), random.Random(seed)
    state = game.new_game(options)
    events: list[Any] = []
    while len(events) < count and not game.prompt(state).done:
        prompt = game.prompt(state)
        event = dice.answer(prompt)
        if event is None:
            offered = options_for(game, state, prompt)
            for option in rng.sample(offered, len(offered)):
                try:
                    game.apply(state, option.event)
                except RuleError:
                    continue
                event = option.event
                break
            else:
                raise RuntimeError(f"{game.key}: every option refused at {game.status(state)!r}")
        state = game.apply(state, event)
        events.append(event)
    return events


def _filesystem(path: str) -> str:
    from benchmarks.bench_service import _filesystem as kind  # imported here: it sets SDL's environment

    return kind(path)


def _disk_folder() -> str:
    folder = tempfile.mkdtemp(prefix="bench-journal-", dir=os.environ.get("BENCH_JOURNAL_DIR"))
    kind = _filesystem(os.path.realpath(folder))
    if kind in ("tmpfs", "ramfs"):
        shutil.rmtree(folder)
        raise RuntimeError(f"{folder} is on {kind}: set BENCH_JOURNAL_DIR to a folder on a disk")
    return folder


def run() -> list[Row]:
    from companion.games.base import replay
    from companion.games.registry import load_game
    from companion.journal import Journal
    from companion.session.core import Session
    from companion.session.game_run import GameRun

    rows: list[Row] = []
    folder = Path(_disk_folder())
    try:
        maps = long_kansas_maps(folder)
        game = load_game("kansas", maps)
        options = {"players": 4}
        events = scripted_events(game, options, EVENTS + TAIL, seed=1)
        if len(events) < EVENTS + TAIL:
            raise RuntimeError(f"the long Kansas game ended after {len(events)} events")
        path = folder / "journal.sqlite"
        plain: list[float] = []
        snapshotting: list[float] = []
        with Journal(path) as journal:
            if journal._db.execute("PRAGMA synchronous").fetchone()[0] != 2:
                raise RuntimeError("the journal would not fsync each entry")
            play = GameRun.new(journal, game, options, maps)
            for event in events[:EVENTS]:
                start = time.perf_counter()
                play.accept(event)
                ms = (time.perf_counter() - start) * 1000
                (snapshotting if len(play.live) % SNAPSHOT_EVERY == 0 else plain).append(ms)
            game_id = play.game_id
        rows.append(Row(AREA, f"a roll at 9,000-10,000 events, p50 (fsync; {_filesystem(str(folder))})",
                        sorted(plain[-900:])[len(plain[-900:]) // 2], "ms"))
        rows.append(Row(AREA, "the same roll storing a snapshot, p50 (the last 10)",
                        sorted(snapshotting[-10:])[5], "ms",
                        "the box stores it after the roll is shown (Session.after_shown), not within it"))

        def start_session() -> Session:
            session = Session(Journal(path), maps=maps)
            session.start()
            return session

        def resume(count: int) -> tuple[list[float], list[float]]:
            """(journal open, session start) times: the box opens its journal (a quick_check of the whole
            file) before the session starts; the start is what resume costs."""
            opened, started = [], []
            for _ in range(REPEAT):
                t0 = time.perf_counter()
                journal = Journal(path)
                t1 = time.perf_counter()
                session = Session(journal, maps=maps)
                session.start()
                t2 = time.perf_counter()
                assert session.current is not None and len(session.current.live) == count
                journal.close()
                opened.append((t1 - t0) * 1000)
                started.append((t2 - t1) * 1000)
            return opened, started

        first = time.perf_counter()
        start_session().journal.close()  # the first start after the maps or the code changed keeps the engine
        rows.append(Row(AREA, "the first resume after an install (the engine kept beside the journal)",
                        (time.perf_counter() - first) * 1000, "ms", "once per maps or code change"))
        opened, started = resume(EVENTS)
        rows += summary(AREA, "resume at 10,000 events", started, "p99", p99=20)
        rows.append(Row(AREA, "journal open before it, p50 (whole-file quick_check)", sorted(opened)[len(opened) // 2],
                        "ms"))

        recent = []
        session = start_session()
        run = session.current
        assert run is not None
        for _ in range(REPEAT):
            run.accept(events[EVENTS])
            start = time.perf_counter()
            session.undo()
            recent.append((time.perf_counter() - start) * 1000)
            assert len(run.live) == EVENTS
        session.journal.close()
        rows += summary(AREA, "undo at 10,000 events, a roll of this run", recent, "p99", p99=20)

        with Journal(path) as journal:
            run_ = GameRun.resume(journal, game, journal.game(game_id), maps)
            for event in events[EVENTS:EVENTS + TAIL]:
                run_.accept(event)
        rows += summary(AREA, f"resume at {EVENTS + TAIL:,} events ({TAIL} replayed)", resume(EVENTS + TAIL)[1], "p99",
                        p99=20)

        worst = []
        kept = folder / "kept.sqlite"
        wal = path.with_name(path.name + "-wal")
        if wal.exists():
            raise RuntimeError(f"{wal} left behind: the journal was not closed cleanly")
        shutil.copyfile(path, kept)  # closed cleanly: the whole journal is in this one file
        for _ in range(max(5, REPEAT // 3)):
            shutil.copyfile(kept, path)  # each sample from the same journal (no undo and redo piling up in it)
            session = start_session()
            run = session.current
            assert run is not None and len(run.live) == EVENTS + TAIL
            while len(run.live) - 1 in run._states:  # undos from memory, untimed: down to the oldest state kept
                session.undo()
            start = time.perf_counter()
            session.undo()  # the first undo below the states in memory: a snapshot loaded, the events after it replayed
            worst.append((time.perf_counter() - start) * 1000)
            session.journal.close()
        rows += summary(AREA, f"undo at {EVENTS + TAIL:,} events, the first below the states in memory", worst,
                        "p99", p99=20)

        def before() -> None:
            with Journal(path) as journal:
                replay(game, options, [x.event for x in journal.events(game_id)])

        rows += summary(AREA, f"before: the full replay (read + fold) at {EVENTS + TAIL:,}",
                        time_calls(before, max(3, REPEAT // 8)))
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    return rows
