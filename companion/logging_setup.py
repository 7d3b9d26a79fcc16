"""Logging for journald: plain lines on stderr, and each trouble said once until it clears.

journald stamps time, unit and priority itself, so lines carry none. A pulled tower cable
or a dead OLED must produce one line when it breaks and one when it is back, not one per poll.
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


class ConditionLog:
    """Logs a condition (e.g. "tower-missing") once when it starts and once when it clears."""

    def __init__(self, logger: logging.Logger) -> None:
        self.logger = logger
        self.active: dict[str, str] = {}

    def set(self, condition: str, message: str, level: int = logging.WARNING) -> bool:
        """Note the condition; logs only if it was not already active. True if a line was written."""
        if condition in self.active:
            return False
        self.active[condition] = message
        self.logger.log(level, message)
        return True

    def clear(self, condition: str, message: str | None = None) -> bool:
        """End the condition; logs ``message`` (or "<condition> cleared") only if it was active."""
        if self.active.pop(condition, None) is None:
            return False
        self.logger.info(message or f"{condition} cleared")
        return True
