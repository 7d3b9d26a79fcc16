"""Whether a game read back from a damaged journal replays: only then does salvage count it saved.

Salvage reads rows by their shape and checks each one parses (:mod:`companion.journal.salvage`), but a flipped
bit inside a row can leave text that still parses: an option's name, a die's kind, a choice's argument. Such a
game would come back "saved" and then not resume, or resume as another game. The box's salvage therefore also
folds each game's live events through its engine, from its options, as a resume would; a game whose engine
refuses it (or that has no engine here) is named as not saved, and stays in the file kept aside.
"""

from __future__ import annotations

import json
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from companion.games.base import replay
from companion.games.registry import load_game
from companion.journal.entries import Entry, live_events, reason
from companion.sha256 import sha256

if TYPE_CHECKING:  # the row-by-row reader is loaded only when a damaged journal is met (see Journal._set_aside)
    from companion.journal.salvage import SavedGame

Check = Callable[["SavedGame"], str]
"""Why a salvaged game does not replay ('' when it does)."""


def replay_check(loader: Callable[[str, Path | None], Any] = load_game, maps: Path | None = None) -> Check:
    """A check that replays each game on its engine (``loader(key, maps)``), built from the data files the game
    began with when they came back with it, else from the files in force; each engine loaded once."""
    engines: dict[tuple[str, str], Any] = {}

    def check(game: SavedGame) -> str:
        files = sha256(repr(game.files).encode()).hexdigest() if game.files else ""
        key = (game.game, files)
        if key not in engines:
            try:
                engines[key] = _load(loader, game, maps)
            except Exception as exc:  # not installed here, or its data does not load: it cannot be replayed
                engines[key] = f"no engine for {game.game} ({reason(exc)})"
        engine = engines[key]
        if isinstance(engine, str):
            return engine
        try:
            options = json.loads(game.options)
            events = [x.event for x in live_events(Entry.from_dict(json.loads(row[2])) for row in game.rows)]
            replay(engine, options, events)
        except Exception as exc:  # whatever the rules or the rows raise: not a game that resumes
            return f"does not replay ({reason(exc)})"
        return ""

    return check


def _load(loader: Callable[[str, Path | None], Any], game: SavedGame, maps: Path | None) -> Any:
    if not game.files:
        return loader(game.game, maps)
    with tempfile.TemporaryDirectory(prefix="companion-salvage-") as folder:
        for name, content in game.files:
            if Path(name).name != name:
                raise ValueError(f"{name!r} is not a data file's name")
            (Path(folder) / name).write_bytes(content)
        return loader(game.game, Path(folder))
