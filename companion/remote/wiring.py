"""Starting the phones' page on a table (``[remote] enabled``): the server's thread, the view, the menu entry.

Off unless the configuration turns it on. A page that cannot start (the port is taken) is said once on the
panel and in the log; the box runs on with its buttons.
"""

from __future__ import annotations

import logging
import queue
from collections.abc import Callable
from typing import Any, Protocol

from companion.config import RemoteConfig
from companion.inputs import Ask
from companion.malloc import return_large_buffers
from companion.remote.app import Hub
from companion.remote.codes import Joining
from companion.remote.join import MENU_LABEL, Dressed, JoinDresser, PhonesMenu, box_address
from companion.remote.server import RemoteServer
from companion.remote.source import PhoneInputs
from companion.remote.view import PHONE_SIZE, RemoteView
from companion.session.core import Session
from companion.session.loop import Loop
from companion.views.projector.renderer import ProjectorRenderer

log = logging.getLogger("companion.remote")


class RunningTable(Protocol):
    """What the page needs of a running box (``companion.sim.Table`` is one): its queue, session and loop, the
    parts it names in `companion doctor`, and what it closes at the end. A protocol, so the page does not import
    the module that builds the table (that module starts the page)."""

    inbox: queue.Queue[Any]
    session: Session
    loop: Loop
    closers: list[Callable[[], None]]
    parts: dict[str, Any]


class Remote:
    """The running page: its server, hub, view and dresser (a test or a benchmark reaches them here)."""

    def __init__(self, table: RunningTable, bind: str, port: int, size: tuple[int, int] = PHONE_SIZE) -> None:
        self.joining = Joining()
        self.inputs = PhoneInputs(table.inbox.put)
        self.hub = Hub(self.joining, self.inputs)
        self.server = RemoteServer(self.hub, bind, port)
        self.view = RemoteView(table.session, self.hub.publish, size, watched=lambda: bool(self.hub.sockets),
                               drawn_by=self.drawn_by)
        self.joining.on_revoke = self.hub.revoke
        self.bind = bind
        self.dresser: JoinDresser | None = None
        self._table = table

    @property
    def address(self) -> str:
        return f"{box_address(self.bind)}:{self.server.port}"

    @property
    def url(self) -> str:
        return f"http://{self.address}/"

    def start(self) -> Remote:
        return_large_buffers()  # the phones' frames pass large buffers through three threads (companion/malloc.py)
        self.server.start()
        table = self._table
        self.dresser = dresser = JoinDresser(self.joining, table.session, self.address)
        table.loop.views[:] = [Dressed.of(v, dresser) for v in table.loop.views]
        self.view.before = dresser.dress  # a new game renews the code even on a box with no other view
        table.loop.views.append(self.view)
        table.loop.add_pump(self.view.pump, polled=False)
        table.session.extras.append((MENU_LABEL, self.open_menu))
        return self

    def drawn_by(self, frame: object) -> ProjectorRenderer | None:
        """The projector's renderer when the projector has just drawn ``frame`` (its surface holds the map the
        phones are to see), else None (no projector, or it was switched off)."""
        for view in self._table.loop.views:
            if isinstance(view, Dressed) and view.drew is frame:
                renderer = getattr(view.view, "renderer", None)  # a projector view has one; the OLED has not
                if isinstance(renderer, ProjectorRenderer):
                    return renderer
        return None

    def open_menu(self) -> None:
        """The box's "Phones" menu (on the loop's thread, from the main menu)."""
        assert self.dresser is not None
        self.dresser.showing = True
        self._table.inbox.put(Ask(PhonesMenu(self.dresser), lambda _model: ""))

    def stop(self) -> None:
        self.server.stop()


def attach_remote(table: RunningTable, section: RemoteConfig, *, size: tuple[int, int] = PHONE_SIZE) -> Remote | None:
    """Start the page on ``table`` when ``section`` (the configuration's ``[remote]``) turns it on; None when off
    or when it could not start (said on the panel and in the log)."""
    if not section.enabled:
        return None
    remote = Remote(table, section.bind, section.port, size)
    try:
        remote.start()
    except OSError as exc:
        text = f"phones: page not started ({exc.strerror or exc})"[:80]
        if table.session.notice(text):
            log.warning("%s", text)
        table.parts["remote"] = "off"
        return None
    table.closers.append(remote.stop)
    table.parts["remote"] = remote.url
    table.parts["remote-server"] = remote
    log.info("phones: the page is at %s", remote.url)
    return remote
