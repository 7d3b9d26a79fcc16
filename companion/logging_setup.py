"""Logging for journald: plain lines on stderr.

journald stamps time, unit and priority itself, so lines carry none. The parts keep the lines rare
themselves: the tower link and the OLED display log once when they break and once when they are back,
never once per poll.
"""

from __future__ import annotations

import logging
import sys


def setup_logging(level: int | str = logging.INFO) -> None:
    """One handler on the root logger writing ``LEVEL name: message`` to stderr."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter("%(levelname)s %(name)s: %(message)s"))
    root = logging.getLogger()
    for old in list(root.handlers):
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(level)
