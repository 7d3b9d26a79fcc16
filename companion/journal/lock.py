"""One process owns a journal: an exclusive ``flock`` on a lock file beside it, held while the journal is open.

SQLite's own locks cover one transaction; they do not stop a second box from opening the same file and
numbering games and entries from the same counters (the first box's next write then dies on a duplicate
key). The lock file (``journal.sqlite.lock``) holds the owner's PID so the second box can name it. The
kernel drops the lock when the owner exits, however it exits (kill -9, power cut), so a stale file
never blocks a start. The owner removes the file when it lets go; a box that took the lock checks the
file it locked is still the one at that path (else it locked a file just removed, and tries again), so
removing it never lets two boxes in. Read-only commands take no lock: they may look at a journal a box
is writing.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import os
from pathlib import Path

from companion.errors import CompanionError, UnavailableError


def lock_path(journal: Path) -> Path:
    return journal.with_name(journal.name + ".lock")


class JournalLock:
    """Held from construction until :meth:`release`; raises UnavailableError (exit 75) when another owns it."""

    def __init__(self, journal: Path) -> None:
        self.path = lock_path(journal)
        for _ in range(100):
            fd = self._take(journal)
            try:
                same = os.fstat(fd).st_ino == os.stat(self.path).st_ino
            except OSError:
                same = False
            if same:
                break
            os.close(fd)  # the owner removed the file between our open and our lock: take the new one
        else:  # pragma: no cover - a hundred owners coming and going within microseconds
            raise UnavailableError(f"journal {journal}: its lock file keeps changing; try again")
        self._fd: int | None = fd
        try:
            os.ftruncate(fd, 0)
            os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
        except OSError as exc:  # a full disk has no block for five digits: one line, the start tried again later
            self.release()
            if exc.errno in (errno.ENOSPC, errno.EDQUOT):
                raise UnavailableError(f"journal {journal}: disk full, cannot write its lock file "
                                       f"{self.path.name}; free some space") from None
            raise CompanionError(f"journal {journal}: cannot write its lock file {self.path.name} "
                                 f"({exc.strerror})") from None

    def _take(self, journal: Path) -> int:
        try:
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o640)
        except OSError as exc:
            raise CompanionError(f"journal {journal}: cannot create its lock file {self.path.name} "
                                 f"({exc.strerror})") from None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            owner = _read_pid(fd)
            os.close(fd)
            who = f"PID {owner}" if owner else "another process"
            raise UnavailableError(f"journal {journal}: in use by another companion ({who}); "
                                   "one box per journal") from None
        except OSError as exc:  # a file system without flock: say so rather than run unguarded
            os.close(fd)
            raise CompanionError(f"journal {journal}: cannot lock {self.path.name} ({exc.strerror})") from None
        return fd

    def release(self) -> None:
        """Remove the lock file, then unlock (in that order: see the module's docstring)."""
        if self._fd is not None:
            with contextlib.suppress(OSError):
                os.unlink(self.path)
            os.close(self._fd)  # closing the descriptor drops the flock
            self._fd = None


def _read_pid(fd: int) -> int | None:
    try:
        text = os.pread(fd, 32, 0).decode("ascii", "replace").strip()
    except OSError:
        return None
    return int(text) if text.isdigit() else None


def holder(journal: Path) -> int | None:
    """The PID written in the journal's lock file if some process holds the lock now, else None.
    Opens the lock file read-only and never creates it (read-only commands use this)."""
    try:
        fd = os.open(lock_path(journal), os.O_RDONLY | os.O_CLOEXEC)
    except OSError:
        return None
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
        except OSError:
            return _read_pid(fd) or 0
        fcntl.flock(fd, fcntl.LOCK_UN)
        return None
    finally:
        os.close(fd)
