"""The journal's write-behind thread: a transaction's COMMIT (the fsync) finishes while the box draws.

A roll's write is a few inserts and a COMMIT; with ``synchronous=FULL`` the COMMIT waits for the disk
(longer on an SD card than on most disks), and drawing the roll's frame costs about as much again.
The two need not wait for each other: the journal makes the inserts itself, in a moment,
and hands the COMMIT to this thread, where SQLite waits for the disk without the GIL; the loop draws
the frame meanwhile and calls :meth:`Journal.join` before it *shows* it. What the table sees is still
only ever what the journal holds on disk, and a source's roll is still acknowledged only after that
(docs/architecture.md, "Write behind").

The thread needs the GIL for a moment to start the COMMIT, while the loop draws: the box shortens the
interpreter's switch interval (companion.sim.SWITCH_INTERVAL) so that moment comes within half a
millisecond, not the default five, which would be after the drawing it was meant to overlap.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

TAKE_WAIT = 0.005
"""The longest ``start`` waits for the writer thread to take its job: a thread the machine does not run
soon is left to take it later, rather than holding up the loop."""


class Landing:
    """Whether one write handed to the writer thread reached the disk, for a part that may show what it
    holds only then and waits on another thread than the loop's (the OLED's writer: docs/architecture.md,
    "Write behind")."""

    def __init__(self) -> None:
        self._ended = threading.Event()
        self._ok = False

    def end(self, ok: bool) -> None:
        self._ok = ok
        self._ended.set()

    def wait(self, timeout: float | None = None) -> bool | None:
        """True once the write is on disk, False when it failed; None when ``timeout`` passed first."""
        if not self._ended.wait(timeout):
            return None
        return self._ok


class WriteBehind:
    """One daemon thread running one job at a time: :meth:`start` returns once the thread has taken the job
    (without waiting for it to end), :meth:`join` waits for the job's end and raises what it raised."""

    def __init__(self, name: str = "journal-writer") -> None:
        self._name = name
        self._cond = threading.Condition()
        self._job: Callable[[], object] | None = None
        self._state = "idle"
        """idle, queued (start handed a job), running, done (its outcome waiting for join)."""
        self._error: BaseException | None = None
        self._thread: threading.Thread | None = None
        self._closed = False
        self.landing: Landing | None = None
        """The job started last: whether it reached its end without an error (None before the first)."""

    @property
    def busy(self) -> bool:
        """A job started and not joined yet."""
        return self._state != "idle"

    def on_thread(self) -> bool:
        """True when called from the writer thread itself."""
        return self._thread is not None and threading.current_thread() is self._thread

    def start(self, job: Callable[[], object]) -> None:
        """Run ``job`` on the thread; returns once the thread has taken it (at most ``TAKE_WAIT`` later).

        Waiting for the thread to take the job is what starts the COMMIT now: the loop's wait hands the GIL
        over, and SQLite gives it back as soon as the COMMIT waits for the disk. Returning at once instead
        left the thread waiting for the GIL while the loop drew the frame, up to a switch interval per other
        thread wanting it (the OLED's writer among them), so the COMMIT started a millisecond late and the
        frame then waited for it."""
        with self._cond:
            if self._state != "idle":
                raise RuntimeError("a journal write is already under way: join() it first")
            if self._closed:
                raise RuntimeError("the journal's writer is closed")
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name=self._name, daemon=True)
                self._thread.start()
            self._job, self._state = job, "queued"
            self.landing = Landing()
            self._cond.notify_all()
            self._cond.wait_for(lambda: self._state != "queued", TAKE_WAIT)

    def join(self) -> None:
        """Wait for the job started last to end; raise what it raised."""
        with self._cond:
            if self._state == "idle":
                return
            while self._state != "done":
                self._cond.wait()
            error, self._error = self._error, None
            self._state = "idle"
        if error is not None:
            raise error

    def close(self) -> None:
        """Stop the thread (after the job under way, which the caller joins first)."""
        with self._cond:
            self._closed = True
            self._cond.notify_all()
        thread = self._thread
        if thread is not None and thread is not threading.current_thread():
            thread.join()

    def _run(self) -> None:
        while True:
            with self._cond:
                while self._state != "queued" and not self._closed:
                    self._cond.wait()
                if self._state != "queued":
                    return
                job, self._job, self._state = self._job, None, "running"
                landing = self.landing
                self._cond.notify_all()  # start() returns: the job is taken
            error: BaseException | None = None
            try:
                assert job is not None
                job()
            except BaseException as exc:  # handed to join(), raised there in the journal's own thread
                error = exc
            if landing is not None:
                landing.end(error is None)
            with self._cond:
                self._error, self._state = error, "done"
                self._cond.notify_all()
