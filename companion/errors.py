"""Errors that reach a person: each carries one line saying what was wrong.

The CLI prints ``companion: <message>`` and exits 2 (75 for a resource that may come back); the
session shows the message on the OLED and the projector and keeps the game as it was.
No traceback ever reaches the table.
"""


class CompanionError(Exception):
    """A problem the user can fix, described in one line."""


class DataError(CompanionError):
    """A data file (map, deck, config, journal) is malformed; the message names file and field."""


class RuleError(CompanionError):
    """An event the rules refuse; the game state is unchanged."""


class UnavailableError(CompanionError):
    """Something that may come back by itself (a journal another process holds, a disk too full to
    start one): the CLI exits 75 (EX_TEMPFAIL), so systemd restarts the service later instead of
    giving up as it does on a wrong configuration (exit 2)."""

    exit_code = 75
