"""A board document (the dict tomllib reads) written back as TOML, so the game's own loader can read it.

Only what the maps/ files use: tables, arrays of tables (nested ones as ``[[cities.infrastructure]]``),
strings, numbers, booleans, inline arrays and inline tables. Comments of the shipped file are not kept:
the written file starts with a header saying where it came from.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any

_BARE = re.compile(r"^[A-Za-z0-9_-]+$")


def key(name: str) -> str:
    return name if _BARE.match(name) else json.dumps(name)


def value(v: Any) -> str:
    """One value in inline form."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int | float):
        return repr(v)
    if isinstance(v, str):
        return json.dumps(v, ensure_ascii=False)
    if isinstance(v, Mapping):
        return "{ " + ", ".join(f"{key(k)} = {value(x)}" for k, x in v.items()) + " }" if v else "{}"
    if isinstance(v, list | tuple):
        return "[" + ", ".join(value(x) for x in v) + "]"
    raise TypeError(f"cannot write {type(v).__name__} as TOML")


def _is_tables(v: Any) -> bool:
    return isinstance(v, list) and bool(v) and all(isinstance(x, Mapping) for x in v)


def _body(table: Mapping[str, Any], path: str, lines: list[str]) -> None:
    """Plain keys of ``table`` first, then its sub-tables and arrays of tables under ``path``."""
    for k, v in table.items():
        if not (isinstance(v, Mapping) and path == "") and not _is_tables(v):
            lines.append(f"{key(k)} = {value(v)}")
    for k, v in table.items():
        full = f"{path}.{key(k)}" if path else key(k)
        if isinstance(v, Mapping) and path == "":
            lines.extend(["", f"[{full}]"])
            _body(v, full, lines)
        elif _is_tables(v):
            for item in v:
                lines.extend(["", f"[[{full}]]"])
                _body(item, full, lines)


def dumps(doc: Mapping[str, Any], header: str = "") -> str:
    """``doc`` as TOML text; ``header`` lines become comments at the top."""
    lines = [f"# {line}".rstrip() for line in header.splitlines()]
    _body(doc, "", lines)
    return "\n".join(lines).lstrip("\n") + "\n"
