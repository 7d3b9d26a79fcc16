"""Reading TOML data files (maps, decks, configuration) with errors that name file and field.

A group at the table can edit maps/*.toml to match its printed board; when they get it wrong,
the box must say exactly where, in one line, e.g.
``maps/kansas.toml: path_key.11: expected one of N, NE, SE, S, SW, NW, got 'E'``.
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Any, TypeVar

from companion.errors import DataError

T = TypeVar("T")
_MISSING: Any = object()

_TYPE_NAMES = {int: "an integer", str: "a string", bool: "true or false", float: "a number",
               list: "a list", dict: "a table"}


def load_toml(path: str | Path) -> Fields:
    """Parse a TOML file into a :class:`Fields` reader rooted at the file."""
    path = Path(path)
    try:
        with path.open("rb") as fh:
            data = tomllib.load(fh)
    except FileNotFoundError:
        raise DataError(f"{path}: file not found") from None
    except tomllib.TOMLDecodeError as exc:
        raise DataError(f"{path}: not valid TOML: {exc}") from None
    except OSError as exc:
        raise DataError(f"{path}: cannot read: {exc.strerror}") from None
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
