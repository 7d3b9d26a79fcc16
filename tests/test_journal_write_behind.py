"""Write behind: a roll's COMMIT (the fsync) finishes on the journal's writer thread while the loop draws the
frame, and the frame is shown only once the write has ended, so the table never sees what the disk does not hold.

The real session, loop, journal (SQLite on disk) and projector renderer of the simulated table, driven by
rolls thrown into its virtual tower; a second connection reads the journal file whenever a view is shown.
"""

from __future__ import annotations

import sqlite3
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from companion.dice import FACES, DiceRolled
from companion.journal import Journal
from companion.journal.writer import WriteBehind
from companion.sim import build_table, sim_config


class DiskReader:
    """A view that, each time it is shown a frame, counts the entries a reader of the journal file sees."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.prepared: list[int] = []
        self.shown: list[int] = []
        self.showed = threading.Event()

    def _on_disk(self) -> int:
        db = sqlite3.connect(f"file:{self.path}?mode=ro", uri=True)
        try:
            return int(db.execute("SELECT COUNT(*) FROM entries").fetchone()[0])
        finally:
            db.close()

    def prepare(self, frame: Any, landing: Any = None) -> None:
        self.prepared.append(self._on_disk())

    def show(self, frame: Any) -> None:
        self.shown.append(self._on_disk())
        self.showed.set()


def _step_until(table: Any, condition: Any, seconds: float = 10.0) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, table.session.panel
        table.loop.step(timeout=0.05)


def _throw_wanted(table: Any, value: int = 3) -> None:
    """The dice the game asks for, thrown into the virtual tower, until the game has taken them."""
    session = table.session
    run = session.current
    before = len(run.live)
    wanted = session.wanted()
    assert wanted, session.panel
    table.driver.throw(DiceRolled.of(*[(kind, min(value, FACES[kind])) for kind in wanted]))
    _step_until(table, lambda: len(run.live) > before)


def test_a_roll_is_shown_only_once_its_entry_is_on_disk_and_committed_behind_the_drawing(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite"
    with Journal(path) as journal, build_table(journal, sim_config(headless=True)) as table:
        assert journal.write_behind  # the box's loop turns it on
        reader = DiskReader(path)
        table.loop.views.append(reader)
        commits: list[str] = []
        committing = threading.Event()

        def traced(sql: str) -> None:
            if sql == "COMMIT":
                commits.append(threading.current_thread().name)
                committing.set()

        journal._conn.set_trace_callback(traced)

        def slow_disk() -> int:
            """A COMMIT on the writer waits a while for a frame to be shown (a slow card): a frame shown before
            its write ended finds its entry missing from the file."""
            if committing.is_set() and threading.current_thread().name == "journal-writer":
                committing.clear()
                reader.showed.clear()
                reader.showed.wait(0.1)
            return 0

        journal._conn.set_progress_handler(slow_disk, 1)
        table.session.start("kansas", {"players": 4}, resume=False)
        table.session.refresh()
        table.loop.show()
        _step_until(table, lambda: table.session.panel.tower == "connected")
        for _ in range(6):
            if not table.session.wanted():
                break
            _throw_wanted(table)
        run = table.session.current
        assert len(run.live) >= 2
        # every frame shown came after its entries reached the file: a reader beside the box saw them all
        assert reader.shown and reader.shown[-1] == len(run.live)
        assert all(seen >= drawn for seen, drawn in zip(reader.shown, reader.prepared, strict=True))
        # and the rolls' COMMITs ran on the writer thread, the loop drawing meanwhile
        assert commits.count("journal-writer") >= len(run.live)
        assert "MainThread" not in commits[-len(run.live):]


def test_a_write_that_fails_behind_the_drawing_is_said_on_the_frame_that_shows_the_roll(tmp_path: Path) -> None:
    """SQLite's query_only refuses the write the way a card remounted read-only does: the loop learns it when it
    joins the write, before showing, so the frame with the roll already says the game waits in memory."""
    path = tmp_path / "j.sqlite"
    with Journal(path) as journal, build_table(journal, sim_config(headless=True)) as table:
        table.session.start("kansas", {"players": 4}, resume=False)
        table.session.refresh()
        table.loop.show()
        _step_until(table, lambda: table.session.panel.tower == "connected")
        shown: list[Any] = []
        table.loop.on_shown = shown.append
        journal._conn.execute("PRAGMA query_only=ON")
        _throw_wanted(table)
        assert journal.degraded and "journal: cannot write" in journal.notice
        assert any(Journal.is_write_notice(n) for n in shown[-1].panel.notices)
        assert shown[-1].state is table.session.current.state  # the roll is in play, in memory
        journal._conn.execute("PRAGMA query_only=OFF")
        table.session.tick()
        assert not journal.degraded
        with Journal(path, readonly=True) as reader:
            assert len(reader.events(table.session.current.game_id)) == len(table.session.current.live)


def test_the_writer_runs_the_job_behind_the_caller_and_join_waits_for_its_end() -> None:
    writer = WriteBehind("test-writer")
    may_finish = threading.Event()
    steps: list[str] = []

    def job() -> None:
        may_finish.wait(5)  # the fsync: start() has returned by now, or this test would wait here 5 s and fail
        steps.append("committed")

    writer.start(job)
    assert steps == [] and writer.busy
    with pytest.raises(RuntimeError, match="already under way"):
        writer.start(job)
    may_finish.set()
    writer.join()
    assert steps == ["committed"] and not writer.busy
    writer.join()  # nothing under way: returns at once
    writer.close()


def test_an_error_in_a_write_behind_is_raised_where_it_is_joined() -> None:
    writer = WriteBehind("test-writer")

    def job() -> None:
        raise ValueError("a bug in the write")

    writer.start(job)
    with pytest.raises(ValueError, match="a bug in the write"):
        writer.join()
    assert not writer.busy
    writer.close()


def test_a_roll_whose_write_was_never_followed_by_a_frame_is_settled_by_the_housekeeping(tmp_path: Path) -> None:
    """The loop shows a frame after every change, which joins the write; should none follow, the once-a-second
    housekeeping joins it, and only then does the source hear that the roll is on disk."""
    from companion.dice import Die
    from companion.session import Session
    from firmware_bridge.events import TowerRoll

    with Journal(tmp_path / "j.sqlite") as journal:
        journal.write_behind = True
        session = Session(journal)
        session.start("kansas", {"players": 4}, resume=False)
        settled: list[int] = []
        wanted = session.wanted()
        assert wanted
        session.handle(TowerRoll(tuple(Die(k, 1) for k in wanted), "tower", 1, lambda: settled.append(1), "b00t"))
        assert len(session.current.live) == 1
        assert settled == [] and journal.writing  # its COMMIT may still be under way: no ACK yet
        session.tick()
        assert settled == [1] and not journal.writing and not journal.degraded


def test_the_oleds_image_of_a_roll_goes_to_its_writer_with_the_write_and_reaches_the_panel_only_once_on_disk(
        tmp_path: Path) -> None:
    """On the box the OLED's writer thread gets a roll's image while the loop still draws the projector's frame,
    with the journal's write it must wait for: every image that reached the panel found its roll in the file."""
    from luma.core.device import dummy

    from companion.session.views import OledView
    from companion.views.oled import render
    from hardware.oled import Display

    path = tmp_path / "j.sqlite"
    device = dummy(mode="1")
    display = Display(device=device, background=True)
    handed: list[tuple[bytes, int, bool]] = []
    written: list[tuple[bytes, int]] = []
    reader = DiskReader(path)
    submit = display.submit

    def recording_submit(image: Any, after: Any = None) -> None:
        drawn = image if not callable(image) else None
        run = session.current
        assert run is not None
        handed.append((drawn.tobytes() if drawn is not None else b"", len(run.live), after is not None))
        submit(image, after)

    display.submit = recording_submit  # type: ignore[method-assign]
    display.on_written = lambda: written.append((device.image.tobytes(), reader._on_disk()))
    with Journal(path) as journal, build_table(journal, sim_config(headless=True), views=[OledView(display, render)]) \
            as table:
        table.closers.append(display.close)
        session = table.session
        session.start("kansas", {"players": 4}, resume=False)
        session.refresh()
        table.loop.show()
        _step_until(table, lambda: session.panel.tower == "connected")
        for _ in range(5):
            if not session.wanted():
                break
            _throw_wanted(table)
            newest = next(image for image, _, _ in reversed(handed) if image)
            deadline = time.monotonic() + 10
            while device.image is None or device.image.tobytes() != newest:  # the writer has caught up
                assert time.monotonic() < deadline
                display.wait_written(display.written + 1, 0.05)
        gated = {image: live for image, live, after in handed if after}  # a roll's image: the entries it shows
        shown_gated = [(gated[image], on_disk) for image, on_disk in written if image in gated]
        assert len(shown_gated) >= 2  # rolls' images went over with their writes (a newer one may replace one)
        assert all(on_disk >= live for live, on_disk in shown_gated), shown_gated


def test_start_returns_once_the_writer_has_taken_the_job_so_the_commit_is_under_way_before_the_drawing(
        monkeypatch: pytest.MonkeyPatch) -> None:
    import companion.journal.writer as journal_writer

    monkeypatch.setattr(journal_writer, "TAKE_WAIT", 10.0)  # the bound only spares a starved thread's loop
    writer = WriteBehind("test-writer")
    entered, may_finish = threading.Event(), threading.Event()

    def job() -> None:
        entered.set()
        may_finish.wait(10)

    writer.start(job)
    assert writer._state == "running" and writer.landing is not None  # taken by the thread, not just queued
    assert entered.wait(10) and writer.landing.wait(0) is None  # under way, not finished
    may_finish.set()
    writer.join()
    assert writer.landing.wait(0) is True
    writer.close()
