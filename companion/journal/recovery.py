"""The recovery file: entries a stopping box could not get into its journal, kept as JSON lines beside it.

While the journal refuses writes (a full disk, a card gone read-only, a lock some other program holds),
accepted entries wait in memory. A stop waits a bounded time for the journal; what still waits then is
written here (``journal.sqlite.recovery.jsonl``, written whole to a temporary name, synced, then renamed
over, so it is never half a file), and the next start puts it into the journal, in order, before
anything else happens, and removes the file once the journal holds it. One line per write, exactly as
the journal would have made it::

    {"type": "game", "id": 3, "game": "kansas", "options": "{\\"players\\": 4}", "created": "..."}
    {"type": "entry", "game_id": 3, "idx": 0, "kind": "event", "event": "{...}", "at": "..."}
    {"type": "finished", "game_id": 3, "finished": true}
    {"type": "file", "game_id": 3, "name": "kansas.toml", "content": "<base64>"}

(the last: a data file a game waiting to be written began with, :mod:`companion.journal.boards`).
"""

from __future__ import annotations

import base64
import binascii
import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from companion.atomicfile import write_atomic
from companion.errors import DataError


def recovery_path(journal: Path) -> Path:
    return journal.with_name(journal.name + ".recovery.jsonl")


def to_lines(games: dict[int, tuple[str, str, str]], rows: Iterable[tuple[int, int, str, str, str]],
             finished: dict[int, bool], files: Iterable[tuple[int, str, bytes]] = ()) -> list[str]:
    """The waiting writes as lines, in the order the journal would commit them."""
    lines = [json.dumps({"type": "game", "id": gid, "game": game, "options": opts, "created": created})
             for gid, (game, opts, created) in games.items()]
    lines += [json.dumps({"type": "entry", "game_id": gid, "idx": idx, "kind": kind, "event": event, "at": at})
              for gid, idx, kind, event, at in rows]
    lines += [json.dumps({"type": "finished", "game_id": gid, "finished": done}) for gid, done in finished.items()]
    lines += [json.dumps({"type": "file", "game_id": gid, "name": name, "content": base64.b64encode(content).decode()})
              for gid, name, content in files]
    return lines


def write(path: Path, lines: list[str]) -> None:
    """Write ``lines`` to ``path`` atomically and durably (OSError if the storage refuses)."""
    write_atomic(path, "".join(line + "\n" for line in lines), mode=0o640)


def read(path: Path) -> tuple[dict[int, tuple[str, str, str]], list[tuple[int, int, str, str, str]],
                              dict[int, bool], list[tuple[int, str, bytes]]]:
    """The writes in a recovery file; DataError naming the line when one is not what :func:`write` makes."""
    games: dict[int, tuple[str, str, str]] = {}
    rows: list[tuple[int, int, str, str, str]] = []
    finished: dict[int, bool] = {}
    files: list[tuple[int, str, bytes]] = []
    text = path.read_text(encoding="utf-8", errors="replace")
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            item: Any = json.loads(line)
            kind = item["type"]
            if kind == "game":
                games[_int(item["id"])] = (_str(item["game"]), _str(item["options"]), _str(item["created"]))
            elif kind == "entry":
                rows.append((_int(item["game_id"]), _int(item["idx"]), _str(item["kind"]), _str(item["event"]),
                             _str(item["at"])))
            elif kind == "finished":
                finished[_int(item["game_id"])] = bool(item["finished"])
            elif kind == "file":
                files.append((_int(item["game_id"]), _str(item["name"]),
                              base64.b64decode(_str(item["content"]), validate=True)))
            else:
                raise ValueError(f"unknown type {kind!r}")
        except (ValueError, KeyError, TypeError, RecursionError, binascii.Error) as exc:
            raise DataError(f"{path}: line {number}: not a recovery line ({exc})") from None
    return games, rows, finished, files


def _int(value: Any) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise ValueError(f"expected a whole number, got {value!r}"[:80])
    return value


def _str(value: Any) -> str:
    if not isinstance(value, str):
        raise ValueError(f"expected text, got {type(value).__name__}")
    return value
