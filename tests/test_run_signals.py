"""`companion run` stops on systemd's SIGTERM, whatever the loop holds when it comes."""

from __future__ import annotations

import os
import queue
import signal
import threading

from companion.commands.run import quit_on_signals
from companion.inputs import Quit


def test_sigterm_while_the_loop_holds_its_queue_lock_still_quits():
    """The loop spends its time inside the queue's get, holding the lock put takes. A handler that put the Quit
    itself waited for that lock on the very thread holding it, for ever (a box stopped by systemd hung until
    it was killed); the Quit comes from a thread of its own instead, once the lock is free."""
    before = signal.getsignal(signal.SIGTERM)
    threads = set(threading.enumerate())
    inbox: queue.Queue = queue.Queue()
    undo = quit_on_signals(inbox)
    try:
        with inbox.mutex:  # as inside Queue.get
            os.kill(os.getpid(), signal.SIGTERM)
            for _ in range(1000):  # bytecodes: Python runs the signal's handler among them, the lock still held
                pass
            assert inbox.queue == type(inbox.queue)()  # nothing could be put while the lock is held
        assert inbox.get(timeout=5) == Quit()
    finally:
        undo()
    assert signal.getsignal(signal.SIGTERM) is before  # undone: the handler and the thread are gone
    assert set(threading.enumerate()) == threads


def test_another_signal_on_the_wakeup_pipe_is_no_quit():
    inbox: queue.Queue = queue.Queue()
    undo = quit_on_signals(inbox)
    previous = signal.signal(signal.SIGUSR1, lambda _signum, _frame: None)
    try:
        os.kill(os.getpid(), signal.SIGUSR1)  # written to the same pipe by Python: not one we stop on
        os.kill(os.getpid(), signal.SIGTERM)
        assert inbox.get(timeout=5) == Quit()
        assert inbox.empty()
    finally:
        signal.signal(signal.SIGUSR1, previous)
        undo()
