"""Logging for journald: plain lines on stderr.

journald stamps time, unit and priority itself, so lines carry none. The parts keep the lines rare
themselves: the tower link and the OLED display log once when they break and once when they are back,
never once per poll; the journal once when it starts keeping entries in memory and once when they are
written.

Under systemd (stderr is the journal's stream, named by ``$JOURNAL_STREAM``) each line starts with the
syslog priority in angle brackets, ``<4>`` for a warning: journald strips it and files the line at that
priority, so ``journalctl -u companion -p warning`` shows the problems of an evening and nothing else.
"""

from __future__ import annotations

import logging
import os
import sys
from typing import TextIO

SYSLOG_PRIORITY = {logging.CRITICAL: 2, logging.ERROR: 3, logging.WARNING: 4, logging.INFO: 6, logging.DEBUG: 7}


class JournaldFormatter(logging.Formatter):
    """``<N>LEVEL name: message``, the sd-daemon priority prefix journald reads (SyslogLevelPrefix=yes)."""

    def format(self, record: logging.LogRecord) -> str:
        priority = 7
        for level in (logging.INFO, logging.WARNING, logging.ERROR, logging.CRITICAL):
            if record.levelno >= level:
                priority = SYSLOG_PRIORITY[level]
        return f"<{priority}>{super().format(record)}"


def is_journal_stream(stream: TextIO, environ: dict[str, str] | os._Environ[str] = os.environ) -> bool:
    """True when ``stream`` is the file systemd connected to the journal (its device:inode is $JOURNAL_STREAM)."""
    wanted = environ.get("JOURNAL_STREAM", "")
    try:
        st = os.fstat(stream.fileno())
    except (AttributeError, OSError, ValueError):
        return False
    return bool(wanted) and wanted == f"{st.st_dev}:{st.st_ino}"


def setup_logging(level: int | str = logging.INFO, *, journald: bool | None = None) -> None:
    """One handler on the root logger writing ``LEVEL name: message`` to stderr (with the priority prefix
    when stderr is the journal, or when ``journald`` says so)."""
    handler = logging.StreamHandler(sys.stderr)
    fmt = "%(levelname)s %(name)s: %(message)s"
    use_prefix = is_journal_stream(sys.stderr) if journald is None else journald
    handler.setFormatter(JournaldFormatter(fmt) if use_prefix else logging.Formatter(fmt))
    root = logging.getLogger()
    for old in list(root.handlers):
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(level)
