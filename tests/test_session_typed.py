"""Typed lines become the same inputs as the tower and the buttons."""

from __future__ import annotations

import io
import queue

import pytest

from companion.dice import DiceRolled
from companion.errors import CompanionError
from companion.inputs import Hold, Press, Quit, Roll
from companion.session.typed import parse_line, read_lines


def test_lines():
    assert parse_line("d6 3 4") == Roll.of(DiceRolled.of(("d6", 3), ("d6", 4), source="typed"))
    assert parse_line(" OK ") == Press("OK")
    assert parse_line("hold back") == Hold("BACK")
    assert parse_line("quit") == Quit()
    assert parse_line("   ") is None


@pytest.mark.parametrize(("line", "fragment"), [
    ("d8 9", "cannot show 9"), ("d8", "give the face"), ("d6 x", "numbers"), ("jump", "expected a die"),
])
def test_bad_lines_are_one_line_errors(line, fragment):
    with pytest.raises(CompanionError) as info:
        parse_line(line)
    assert fragment in str(info.value) and "\n" not in str(info.value)


def test_reader_thread_feeds_the_queue_and_complains_once_per_bad_line():
    inbox, complaints = queue.Queue(), []
    thread = read_lines(io.StringIO("d8 2\nnonsense\nroll\n"), inbox.put, complaints.append)
    thread.join(timeout=5)
    assert [inbox.get_nowait(), inbox.get_nowait()] == [Roll.of(DiceRolled.of(("d8", 2), source="typed")),
                                                        Press("ROLL")]
    assert len(complaints) == 1
