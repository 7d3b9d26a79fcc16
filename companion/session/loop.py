"""The event loop: drain the input queue, let the session act, show what changed, ping the watchdog.

Single-threaded on purpose: every input source (tower link, gpiozero callbacks, key and gamepad
pumps) only puts items on one ``queue.Queue``; the loop is the only code that touches the game,
the journal and the views, so their order (apply, commit, show) needs no locks. Views are told to
draw only when the frame changed, which keeps an idle box idle.

Input from other threads (tower link, gpiozero callbacks) wakes the loop at once through the queue;
pygame's events (the laptop's keys, a gamepad) can only be polled from this thread, so the wait
between turns bounds their latency. The loop waits ``tick`` while the table is in use and backs
off to ``idle_tick`` after ``quiet_after`` seconds with no input, no change and no pygame event:
each wake-up costs the process a fixed slice of a core, so fewer of them keep the idle window cheap,
and the first input brings the short tick back. After ``sleep_after`` seconds with nothing at all (a
table between games, a box left on) it waits ``sleep_tick``: the tower and the buttons still wake it
at once through the queue; only a gamepad's or a key's first press after such a pause waits up to
``sleep_tick``. When no pump needs polling (the box with no gamepad plugged in: only SDL's own queue to drain)
nothing but the queue brings input, so from its first quiet second on the loop waits ``rest_tick`` instead,
turning about once a second for its housekeeping and the watchdog (the work a frame leaves for later was done in
the quiet turn a tick after it); a pump that reads a person's input (the laptop window's keys, an open gamepad)
keeps ``idle_tick`` and then ``sleep_tick``.

A table left alone for ``rest_after`` seconds (a minute) also gives memory back, once per quiet spell: each view
that keeps memory only for its next frame's speed (:class:`Rests`: the projector's repaint scratch) lets its pages
go, and glibc's heaps return their free pages (``malloc_trim``). The first frame after such a pause pays for
touching those pages again (docs/performance.md, "The waiting box and the long game").
"""

from __future__ import annotations

import functools
import logging
import queue
import time
from collections.abc import Callable, Sequence
from typing import Any, Protocol, cast, runtime_checkable

from companion.conforms import conforms
from companion.inputs import Decide, Hold, InputEvent, Press, Roll
from companion.malloc import give_back
from companion.session import collector
from companion.session.core import Frame, Session

log = logging.getLogger(__name__)

IDLE_TICK = 0.1
"""The longest wait between turns when nothing happens, unless the loop's own tick is longer: a key
in the laptop window then reaches the game within 0.1 s (within ``tick`` while the table is in use)."""
QUIET_AFTER = 1.0
"""Seconds with no input and no change before the loop backs off to its idle tick."""
SLEEP_TICK = 0.25
"""The wait between turns once the table has been quiet for ``SLEEP_AFTER`` seconds."""
SLEEP_AFTER = 10.0
"""Seconds with no input, no change and no pygame event before the loop waits ``SLEEP_TICK``."""
REST_AFTER = 60.0
"""Seconds with no input and no change before the views and the heaps give back the memory they keep only for the
next frame's speed (:meth:`Loop._rest`): a pause, not a player thinking. The first frame after it pays for that
memory again (a few milliseconds: docs/performance.md, "The waiting box and the long game"), so a table that pauses
between two presses of a turn never does."""
REST_TICK = 1.0
"""The wait between turns once asleep when no pump needs polling: the housekeeping's own period (a journal
waiting for disk space is retried once a second) and the watchdog's, whose pings go at least once a second."""


class View(Protocol):
    """Anything that draws a frame: the OLED, the projector window, a frame writer.

    A view may also have ``prepare(frame, landing=None)``, which :meth:`Loop.show` calls before the frame is
    shown (see there): it draws ahead, and ``landing`` is the journal's write still under way."""

    def show(self, frame: Frame) -> None: ...


@runtime_checkable
class Rests(Protocol):
    """A view that keeps memory only to draw its next frame sooner, and can give it back while the table is left
    alone (``Loop.rest_after``): the next frame pays for having it again."""

    def rest(self) -> int: ...


@runtime_checkable
class DrawsAhead(Protocol):
    """A view that draws before the frame is shown (:meth:`Loop.show`): the projector's frame, the OLED's image."""

    def prepare(self, frame: Frame, landing: Any = None) -> None: ...


class Loop:
    """Owns the queue and the views; ``step()`` is one turn, ``run()`` turns until the session stops."""

    def __init__(self, session: Session, inbox: queue.Queue[Any], views: Sequence[View] = (), *,
                 watchdog: Callable[[], object] | None = None, pumps: Sequence[Callable[[], object]] = (),
                 on_shown: Callable[[Frame], None] | None = None, tick: float = 0.5,
                 idle_tick: float | None = None, quiet_after: float = QUIET_AFTER,
                 sleep_tick: float | None = None, sleep_after: float = SLEEP_AFTER,
                 rest_tick: float | None = None, rest_after: float = REST_AFTER,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.session = session
        self.inbox = inbox
        self.views = list(views)
        self._watchdog = watchdog
        self._pumps = list(pumps)
        self._polled: list[bool | Callable[[], bool]] = [True] * len(self._pumps)
        """Per pump: whether it needs polling now (a person's input waits on it), or how to ask."""
        self.on_shown = on_shown
        self.tick = tick
        self.idle_tick = max(tick, IDLE_TICK) if idle_tick is None else idle_tick
        self.quiet_after = quiet_after
        self.sleep_tick = max(self.idle_tick, SLEEP_TICK) if sleep_tick is None else sleep_tick
        self.sleep_after = sleep_after
        self.rest_tick = rest_tick
        self.rest_after = rest_after
        self._clock = clock
        self._last_housekeeping = clock()
        self._last_activity = clock()
        self.frames_shown = 0
        self.ignored = 0
        """Items on the queue that are not inputs (counted, logged, never a crash)."""
        self._after_shown = False
        """A frame was shown since the last quiet turn (its later work waits for one)."""
        self.quiet_turns = 0
        """Turns with no input so far (a script that paces a table like people waits on this)."""
        self.rested = 0
        """Quiet spells in which the views and the heaps gave memory back (once per spell: :meth:`_rest`)."""
        self._resting = False
        """Memory was given back in this quiet spell."""
        self.player_inputs = 0
        """Rolls, presses, holds and decisions handled so far, whether or not they changed what is shown (a
        die thrown again with the same message changes nothing): a script waits on this, not on a new frame."""

    def add_pump(self, pump: Callable[[], object], *, polled: bool | Callable[[], bool] = True) -> None:
        """Something to poll after every turn (pygame's event queue lives in this thread). A pump that
        returns a true value saw activity (a key, the mouse over the window): the short tick comes back.
        ``polled`` says whether a person's input waits on this pump (or a function that says so now): a
        pump that only drains a queue or retries a write (False) lets a sleeping loop wait ``rest_tick``."""
        self._pumps.append(pump)
        self._polled.append(polled)

    def _needs_polling(self) -> bool:
        return any(p() if callable(p) else p for p in self._polled)

    def wait(self) -> float:
        """How long the next turn waits for input: ``tick`` in use, ``idle_tick`` after a quiet spell,
        ``sleep_tick`` after a long one; ``rest_tick`` from the first quiet second when no pump needs polling."""
        quiet = self._clock() - self._last_activity
        if quiet >= min(self.quiet_after, self.sleep_after) and self.rest_tick is not None \
                and not self._needs_polling():  # only the queue brings input, and it wakes the loop at once
            return max(self.sleep_tick if quiet >= self.sleep_after else self.idle_tick, self.rest_tick)
        if quiet >= self.sleep_after:
            return self.sleep_tick
        if quiet >= self.quiet_after:
            return self.idle_tick
        return self.tick

    def show(self) -> None:
        """Hand the current frame to every view; a failing view is reported once and dropped, and the
        views left are shown the frame that says so (the OLED carries on, telling why the map is gone).

        Views that can draw ahead (``prepare``: the projector's frame, the OLED's image) draw first, while
        the journal's write of this turn reaches the disk on its own thread; the frame is shown only once that
        write has ended (``Session.settle_writes``), so the table never sees what the journal does not hold.
        ``prepare`` is given that write (``Session.write_landing``): a view that shows from a thread of its own
        (the OLED's writer) may hand its image over at once, to be shown there when the write has landed."""
        frame = self.session.frame
        landing = self.session.write_landing()
        for view in list(self.views):
            if conforms(view, DrawsAhead) and \
                    not self._guarded(view, functools.partial(cast(DrawsAhead, view).prepare, landing=landing), frame):
                return
        if self.session.settle_writes():  # the write failed: the frame now says the game waits in memory
            frame = self.session.frame
        for view in list(self.views):
            if not self._guarded(view, view.show, frame):
                return
        self.frames_shown += 1
        if self.on_shown is not None:
            self.on_shown(frame)

    def _guarded(self, view: View, call: Callable[[Frame], object], frame: Frame) -> bool:
        """``call(frame)``; a view that fails is dropped and the frame that says so shown (False then)."""
        try:
            call(frame)
        except Exception as exc:  # a view must never take the game down
            log.error("view %s failed and is switched off: %s", type(view).__name__, exc)
            self.views.remove(view)
            self.session.notice(f"{type(view).__name__}: off ({exc})"[:60])
            if self.session.refresh():
                self.show()
                return False
        return True

    def step(self, timeout: float | None = None) -> bool:
        """Wait up to ``timeout`` for input, handle everything queued, show once if anything changed."""
        changed = False
        try:
            item = self.inbox.get(timeout=self.wait() if timeout is None else timeout)
        except queue.Empty:
            item = None
        active = item is not None
        while item is not None:
            changed |= self._handle(item)
            try:
                item = self.inbox.get_nowait()
            except queue.Empty:
                item = None
        now = self._clock()
        if now - self._last_housekeeping >= 1.0:
            self._last_housekeeping = now
            changed |= self.session.tick()
        if changed:
            self.show()
            self._after_shown = True
        elif not active:
            self._quiet_turn()
        elif collector.overdue():
            collector.collect_due()
        for pump in self._pumps:
            active |= bool(pump())
        if active or changed:
            self._last_activity = self._clock()
            self._resting = False
        elif not self._resting and self._clock() - self._last_activity >= self.rest_after:
            self._rest()
        if self._watchdog is not None:
            self._watchdog()
        return changed

    def _quiet_turn(self) -> None:
        """A turn with no input: the work a frame leaves for later (a due snapshot of the game's state) and
        the garbage collection that is due (companion.session.collector), where no roll waits for them."""
        self.quiet_turns += 1
        if self._after_shown:
            self._after_shown = False
            self.session.after_shown()
        collector.collect_due()

    def _rest(self) -> None:
        """The table is left alone: memory kept only for the next frame's speed goes back to the system (each
        :class:`Rests` view's, then the free pages of glibc's heaps), once in this quiet spell."""
        self._resting = True
        self.rested += 1
        for view in list(self.views):
            if conforms(view, Rests):
                self._guarded(view, _resting_call(cast(Rests, view)), self.session.frame)
        give_back()

    def _handle(self, item: Any) -> bool:
        if not isinstance(item, InputEvent):  # every source speaks companion.inputs; anything else is a bug
            self.ignored += 1
            log.warning("ignored an input the session does not know: %s", type(item).__name__)
            return False
        event = item
        if isinstance(event, Roll | Press | Hold | Decide):
            self.player_inputs += 1
        try:
            return self.session.handle(event)
        except Exception as exc:  # a bug in one rule must not stop the evening
            log.exception("input %r failed", item)
            self.session.message = f"internal error: {type(exc).__name__}"
            return self.session.refresh()

    def run(self, ready: Callable[[], None] | None = None) -> int:
        """Show the first frame, say ready, then turn until the session stops."""
        self.show()
        if ready is not None:
            ready()
        while not self.session.stopped:
            self.step()
        return 0


def _resting_call(view: Rests) -> Callable[[Frame], object]:
    """``view.rest()`` as the call :meth:`Loop._guarded` makes (a failing view is dropped and the frame says so)."""
    return lambda _frame: view.rest()
