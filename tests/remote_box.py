"""A real box for the phones' tests: the simulated table (virtual tower, mock pins, a headless projector at
the phones' size) with the page on a free loopback port, its loop turning on a thread of its own."""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Any

from companion.config import Config, RemoteConfig
from companion.inputs import Quit
from companion.journal import Journal
from companion.remote.view import PHONE_SIZE


class Box:
    def __init__(self, tmp_path: Path, game: str | None = None, options: dict[str, Any] | None = None) -> None:
        from companion.sim import build_table, sim_config
        from companion.views.projector import ProjectorRenderer, ProjectorView

        self.journal = Journal(tmp_path / "journal.sqlite")
        self.projector = ProjectorView(ProjectorRenderer(PHONE_SIZE))
        config = Config(remote=RemoteConfig(enabled=True, port=0, bind="127.0.0.1"))
        self.table = build_table(self.journal, sim_config(config, headless=True), views=[self.projector],
                                 tick=0.05)
        self.remote = self.table.parts["remote-server"]
        if game is not None:
            self.table.session.start(game, options or {})
        else:
            self.table.session.start(resume=False)
        self._thread = threading.Thread(target=self.table.loop.run, name="box-loop", daemon=True)
        self._thread.start()
        self.wait(lambda: self.table.loop.frames_shown >= 1)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.remote.server.port}"

    @property
    def code(self) -> str:
        return self.remote.joining.code

    def wait(self, condition: Any, seconds: float = 15.0, what: str = "") -> None:
        """Wait for ``condition`` (polled while the box's own thread works; bounded)."""
        deadline = time.monotonic() + seconds
        while not condition():
            assert time.monotonic() < deadline, (what() if callable(what) else what) or "timed out"
            time.sleep(0.02)

    def journaled(self) -> list[Any]:
        """The events on disk for the game on the table, read through a read-only journal of this test's own (the
        box's journal belongs to its loop's thread)."""
        game_id = self.table.session.current.game_id
        with Journal(self.journal.path, readonly=True) as reader:
            return [entry.event for entry in reader.events(game_id)]

    def close(self) -> None:
        self.table.inbox.put(Quit())
        self._thread.join(10)
        self.table.close()
        self.journal.close()
