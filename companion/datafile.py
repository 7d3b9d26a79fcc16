"""Reading TOML data files (maps, decks, configuration) with errors that name file and field.

A group at the table can edit maps/*.toml to match its printed board; when they get it wrong,
the box must say exactly where, in one line, e.g.
``maps/kansas.toml: path_key.11: expected one of N, NE, SE, S, SW, NW, got 'E'``.
"""

from __future__ import annotations

import contextlib
import os
import stat
import tomllib
from collections.abc import Iterator
from contextvars import ContextVar
from pathlib import Path
from typing import Any, TypeVar

from companion.errors import DataError

T = TypeVar("T")
_MISSING: Any = object()

_TYPE_NAMES = {int: "an integer", str: "a string", bool: "true or false", float: "a number",
               list: "a list", dict: "a table"}

DATA_LIMIT = 1 << 20
"""The largest data file read (1 MiB): the largest shipped map is 11 KB, and a file a hundred times larger
is a mistake (a photo saved under the board's name, a log), not a board; reading it whole would hold the
box's memory and time for nothing."""

TEXT_LIMIT = 32 << 20
"""The largest text file read whole (32 MiB): a journal export or replay of a long night is a few hundred KB."""

_staged: ContextVar[dict[str, str] | None] = ContextVar("staged", default=None)


def _key(path: str | Path) -> str:
    return os.path.abspath(path)


@contextlib.contextmanager
def staged(path: str | Path, text: str) -> Iterator[None]:
    """Within the block, :func:`load_toml` of ``path`` reads ``text`` instead of the file: a loader judges a
    file before it is written (the board editor), and its errors name the file it will be."""
    token = _staged.set({**(_staged.get() or {}), _key(path): text})
    try:
        yield
    finally:
        _staged.reset(token)


def _size(n: int) -> str:
    return f"{n / (1 << 20):.1f} MB" if n >= 1 << 20 else f"{n / 1024:.0f} KB" if n >= 1024 else f"{n} bytes"


def read_bytes(path: str | Path, limit: int = DATA_LIMIT) -> bytes:
    """The bytes of the regular file ``path``, at most ``limit`` of them; DataError (one line naming the
    file) for a missing or unreadable file, a folder, a named pipe or device (opened without blocking, never
    read: a pipe would wait for ever), or a file larger than ``limit`` (refused before it is read)."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    except FileNotFoundError:
        raise DataError(f"{path}: file not found") from None
    except OSError as exc:
        raise DataError(f"{path}: cannot read: {exc.strerror or exc}") from None
    try:
        info = os.fstat(fd)
        if stat.S_ISDIR(info.st_mode):
            raise DataError(f"{path}: is a folder, not a file")
        if not stat.S_ISREG(info.st_mode):
            what = "a named pipe" if stat.S_ISFIFO(info.st_mode) else "a device or socket"
            raise DataError(f"{path}: is {what}, not a file")
        if info.st_size > limit:
            raise DataError(f"{path}: too large ({_size(info.st_size)}; at most {_size(limit)})")
        chunks: list[bytes] = []
        total = 0
        while chunk := os.read(fd, 1 << 16):
            chunks.append(chunk)
            total += len(chunk)
            if total > limit:  # grew while read
                raise DataError(f"{path}: too large (over {_size(limit)})")
        return b"".join(chunks)
    except OSError as exc:
        raise DataError(f"{path}: cannot read: {exc.strerror or exc}") from None
    finally:
        os.close(fd)


def read_text(path: str | Path, limit: int = DATA_LIMIT) -> str:
    """The UTF-8 text of ``path`` (as :func:`read_bytes`; a byte-order mark is dropped); text that is not
    UTF-8 is a DataError naming the file and the line of the first bad byte."""
    data = read_bytes(path, limit)
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise DataError(f"{path}: line {line}: not UTF-8 text (byte {exc.start} is {data[exc.start]:#04x})") from None


def load_toml(path: str | Path, limit: int = DATA_LIMIT) -> Fields:
    """Parse a TOML file into a :class:`Fields` reader rooted at the file; every way the file can be wrong
    (missing, not a file, too large, not UTF-8, not TOML, nested past the parser's depth) is a DataError."""
    text = (_staged.get() or {}).get(_key(path))
    if text is None:
        text = read_text(path, limit)
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise DataError(f"{path}: not valid TOML: {exc}") from None
    except RecursionError:  # tomllib parses nested arrays and inline tables recursively
        raise DataError(f"{path}: not valid TOML: nested too deeply") from None
    return Fields(str(path), data)


class Fields:
    """A typed view of one table in a data file that remembers where it is, for error messages."""

    def __init__(self, file: str, data: Any, where: str = "") -> None:
        self.file = file
        self.data = data
        self.where = where
        self._seen: set[str] = set()

    def error(self, message: str, key: str | None = None) -> DataError:
        """A DataError for this table (or one of its keys): ``file: field: message``."""
        field = self._path(key) if key is not None else self.where
        return DataError(f"{self.file}: {field or '(top level)'}: {message}")

    def _path(self, key: str) -> str:
        return f"{self.where}.{key}" if self.where else key

    def has(self, key: str) -> bool:
        return isinstance(self.data, dict) and key in self.data

    def get(self, key: str, kind: type[T], default: Any = _MISSING) -> T:
        """The value of ``key``, checked to be of ``kind`` (ints accepted for floats)."""
        self._seen.add(key)
        if not isinstance(self.data, dict):
            raise self.error("expected a table")
        if key not in self.data:
            if default is _MISSING:
                raise self.error("missing", key)
            return default
        value = self.data[key]
        ok = isinstance(value, kind) and not (kind is int and isinstance(value, bool))
        if kind is float and isinstance(value, int) and not isinstance(value, bool):
            value, ok = float(value), True
        if not ok:
            raise self.error(f"expected {_TYPE_NAMES.get(kind, kind.__name__)}, got {value!r}", key)
        return value

    def choice(self, key: str, options: Any, default: Any = _MISSING) -> str:
        """A string that must be one of ``options``."""
        value = self.get(key, str, default)
        if value not in options:
            raise self.error(f"expected one of {', '.join(map(str, options))}, got {value!r}", key)
        return value

    def int_in(self, key: str, low: int, high: int, default: Any = _MISSING) -> int:
        """An integer in ``low..high`` inclusive."""
        value = self.get(key, int, default)
        if not low <= value <= high:
            raise self.error(f"expected {low}..{high}, got {value!r}", key)
        return value

    def table(self, key: str, default: Any = _MISSING) -> Fields:
        """A sub-table as its own reader."""
        value = self.get(key, dict, {} if default is not _MISSING else _MISSING)
        return Fields(self.file, value, self._path(key))

    def tables(self, key: str, default: Any = _MISSING) -> Iterator[Fields]:
        """Each table of an array of tables, e.g. ``[[hexes]]``, as a reader named ``key[i]``."""
        items = self.get(key, list, [] if default is not _MISSING else _MISSING)
        for i, item in enumerate(items):
            child = Fields(self.file, item, f"{self._path(key)}[{i}]")
            if not isinstance(item, dict):
                raise child.error(f"expected a table, got {item!r}")
            yield child

    def reject_unknown(self) -> None:
        """Refuse keys this reader was never asked for: a typo must not pass silently."""
        if isinstance(self.data, dict):
            for key in self.data:
                if key not in self._seen:
                    raise self.error("unknown key", key)
