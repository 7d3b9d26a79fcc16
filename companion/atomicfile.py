"""Writing a file whole or not at all, and durably: the one way the box writes any file it later reads.

A power cut or a ``kill -9`` in the middle of a plain ``write_text`` leaves an empty or half file, and the next
start reads it. Here the bytes go to a temporary file in the same folder, are fsynced, renamed over the target
(atomic on POSIX), and the folder is fsynced so the rename itself survives a power cut. A failure at any step
removes the temporary file: no ``.tmp`` or ``.new`` file is ever left behind.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path


def write_atomic(path: str | Path, data: bytes | str, mode: int = 0o644) -> Path:
    """Replace ``path`` with ``data`` (text is UTF-8), whole or not at all; OSError if the storage refuses.

    ``mode`` is the new file's permission bits (the box's files are read by the service's own user, so the
    default is world-readable; secrets pass 0o600).
    """
    path = Path(path)
    payload = data.encode("utf-8") if isinstance(data, str) else data
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        try:
            os.fchmod(fd, mode)
            view = memoryview(payload)
            while view:
                written = os.write(fd, view)
                view = view[written:]
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    fsync_folder(path.parent)
    return path


def fsync_folder(folder: str | Path) -> None:
    """Make a rename or a new file in ``folder`` durable (a no-op where folders cannot be opened)."""
    try:
        fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
    except OSError:
        return
    try:
        with contextlib.suppress(OSError):
            os.fsync(fd)
    finally:
        os.close(fd)


LEFTOVER_AGE_S = 60.0
"""A temporary file of :func:`write_atomic` older than this is a write that was killed (a live write is done
in milliseconds)."""


def sweep_leftovers(path: str | Path, older_than: float = LEFTOVER_AGE_S) -> list[Path]:
    """Remove what writes of ``path`` killed before their rename left (``.<name>.*.tmp`` beside it, older than
    ``older_than`` seconds, so a write under way in another process keeps its file); the ones removed.
    A ``kill -9`` runs no cleanup: the next save of the same file is where its temporary file goes."""
    import glob
    import time

    path = Path(path)
    removed: list[Path] = []
    now = time.time()
    try:
        candidates = list(path.parent.glob(f".{glob.escape(path.name)}.*.tmp"))
    except OSError:
        return removed
    for leftover in candidates:
        with contextlib.suppress(OSError):
            if now - leftover.lstat().st_mtime >= older_than:
                leftover.unlink()
                removed.append(leftover)
    return removed
