"""Typed input: one line per action, for a terminal, a pipe or a test driving a headless box.

    d8 5          a D8 rolled by hand showing 5 (typed dice travel like tower dice)
    d6 3 4        two D6
    roll | ok | back | up | down | left | right | overlay     a button press
    hold back     a long press (undo, asks first); "hold roll" asks to re-roll
    quit          stop the service
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import IO, Any

from companion.dice import Die
from companion.errors import CompanionError
from companion.inputs import BUTTONS, Hold, InputEvent, Press, Quit, Roll


def parse_line(line: str) -> InputEvent | None:
    """The input a line means; None for a blank line; CompanionError naming what is wrong."""
    words = line.strip().lower().split()
    if not words:
        return None
    head, rest = words[0], words[1:]
    if head == "quit":
        return Quit()
    if head == "hold" and len(rest) == 1 and rest[0].upper() in BUTTONS:
        return Hold(rest[0].upper())
    if head.upper() in BUTTONS and not rest:
        return Press(head.upper())
    if head in ("d6", "d8"):
        if not rest:
            raise CompanionError(f"{line.strip()!r}: give the face of each {head.upper()}, e.g. '{head} 3'")
        try:
            values = [int(w) for w in rest]
        except ValueError:
            raise CompanionError(f"{line.strip()!r}: faces must be numbers") from None
        return Roll(tuple(Die(head, v) for v in values), "typed")
    raise CompanionError(f"{line.strip()!r}: expected a die ('d8 5'), a button ({', '.join(BUTTONS).lower()}), "
                         "'hold BUTTON' or 'quit'")


def read_lines(stream: IO[str], put: Callable[[Any], None], complain: Callable[[str], None]) -> threading.Thread:
    """Read ``stream`` in a daemon thread and put each line's input on the queue (via ``put``)."""

    def reader() -> None:
        for line in stream:
            try:
                event = parse_line(line)
            except CompanionError as exc:
                complain(str(exc))
                continue
            if event is not None:
                put(event)

    thread = threading.Thread(target=reader, name="typed-input", daemon=True)
    thread.start()
    return thread
