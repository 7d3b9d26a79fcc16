"""Typed input as a source (``[sources.NAME] type = "typed"``, or ``companion run --stdin``): one line per action
on the service's standard input (companion.session.typed), for a terminal, a pipe or a test driving a headless
box. A line that means nothing is said in the log and the box reads on."""

from __future__ import annotations

import logging
import sys
from dataclasses import dataclass
from typing import Any

from companion.sources import Opened, SourceContext

log = logging.getLogger("companion.typed")


@dataclass(frozen=True)
class TypedOptions:
    """Typed input has no options: it reads the standard input until it ends."""


def start(options: TypedOptions, context: SourceContext) -> Opened:
    from companion.session.typed import read_lines

    thread = read_lines(sys.stdin, context.inbox.put, lambda text: log.warning("%s", text))
    return Opened(thread, "stdin")  # a daemon thread on a blocking read: nothing to close


def describe(options: Any, opened: Opened) -> str:
    return opened.word
