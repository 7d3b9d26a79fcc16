"""The journal's write-behind thread: a transaction's COMMIT (the fsync) finishes while the box draws.

A roll's write is a few inserts and a COMMIT; with ``synchronous=FULL`` the COMMIT waits for the disk
(1-4 ms on the build machine's disk, more on an SD card), and drawing the roll's frames costs about as
much again. The two need not wait for each other: the inserts are made in a moment, the fsync needs no
Python at all (SQLite releases the GIL while it waits), and the frame needs no disk. So the journal
hands its write to this thread, waits only until the write reaches its COMMIT, and goes on; the loop
draws the frame meanwhile and calls :meth:`Journal.join` before it *presents* it. What the table sees
is still only ever what the journal holds on disk, and a source's roll is still acknowledged only
after that (docs/architecture.md, "Write behind").

The hand-over waits for the COMMIT to start, not for the thread to be scheduled some time later:
a thread that needed the GIL while the loop draws would get it only at the interpreter's next forced
switch (5 ms), after the drawing it was meant to overlap.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Generic, TypeVar

T = TypeVar("T")

Job = Callable[[Callable[[], None]], T]
"""A write: called with ``committing``, which it calls just before its COMMIT; returns its result."""


class WriteBehind(Generic[T]):
    """One daemon thread running one write at a time. :meth:`start` returns once the write reaches its
    COMMIT (or ended); :meth:`join` waits for its end and gives its result, or raises what it raised."""

    def __init__(self, name: str = "journal-writer") -> None:
        self._name = name
        self._cond = threading.Condition()
        self._job: Job[T] | None = None
        self._state = "idle"
        """idle, queued (start handed a job), running, committing, done (result waiting for join)."""
        self._result: T | None = None
        self._error: BaseException | None = None
        self._thread: threading.Thread | None = None
        self._closed = False

    @property
    def busy(self) -> bool:
        """A write started and not joined yet."""
        return self._state != "idle"

    def on_thread(self) -> bool:
        """True when called from the writer thread itself."""
        return self._thread is not None and threading.current_thread() is self._thread

    def start(self, job: Job[T]) -> None:
        """Run ``job`` on the thread; return once it called its ``committing`` argument or ended."""
        with self._cond:
            if self._state != "idle":
                raise RuntimeError("a journal write is already under way: join() it first")
            if self._closed:
                raise RuntimeError("the journal's writer is closed")
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name=self._name, daemon=True)
                self._thread.start()
            self._job, self._state = job, "queued"
            self._cond.notify_all()
            while self._state in ("queued", "running"):
                self._cond.wait()

    def join(self) -> T | None:
        """Wait for the write started last to end; its result (None when none was started)."""
        with self._cond:
            if self._state == "idle":
                return None
            while self._state != "done":
                self._cond.wait()
            result, error = self._result, self._error
            self._result = self._error = None
            self._state = "idle"
        if error is not None:
            raise error
        return result

    def close(self) -> None:
        """Stop the thread (after the write under way, which the caller joins first)."""
        with self._cond:
            self._closed = True
            self._cond.notify_all()
        thread = self._thread
        if thread is not None and thread is not threading.current_thread():
            thread.join()

    def _committing(self) -> None:
        with self._cond:
            if self._state == "running":
                self._state = "committing"
                self._cond.notify_all()

    def _run(self) -> None:
        while True:
            with self._cond:
                while self._state != "queued" and not self._closed:
                    self._cond.wait()
                if self._state != "queued":
                    return
                job, self._job, self._state = self._job, None, "running"
            result: T | None = None
            error: BaseException | None = None
            try:
                assert job is not None
                result = job(self._committing)
            except BaseException as exc:  # handed to join(), raised there in the journal's own thread
                error = exc
            with self._cond:
                self._result, self._error, self._state = result, error, "done"
                self._cond.notify_all()
