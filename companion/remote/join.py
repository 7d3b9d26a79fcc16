"""The box's side of joining: the "Phones" menu and the join code on the OLED and the projector.

The menu is a part's questions (an ``Ask``): its title names the phones joined, its first item the code,
then the address, "New code" (every phone's token revoked) and "Done". While it is open each frame the screens
get carries the address, the code and the link for the QR code (``Panel.join``, ``Panel.join_url``):
:class:`JoinDresser` puts them on the frame on the way to the views, so the session knows nothing of phones.
A new game (or another game resumed) gives a new code too, so last game's phones do not act in this one.
"""

from __future__ import annotations

import dataclasses
import socket
from collections.abc import Sequence
from typing import Any

from companion.remote.codes import Joining

MENU_LABEL = "Phones"


def box_address(bind: str) -> str:
    """The address phones reach the box at: the bound one, or for "0.0.0.0" the address of the box's route
    out (no packet is sent: a UDP socket is only pointed), else its name."""
    if bind not in ("0.0.0.0", "::", ""):
        return bind
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(("192.0.2.1", 9))  # TEST-NET-1: never routed, never sent to
            return str(probe.getsockname()[0])
    except OSError:
        return socket.gethostname()


class PhonesMenu:
    """The "Phones" questions (``companion.inputs.AskModel``)."""

    def __init__(self, dresser: JoinDresser) -> None:
        self.dresser = dresser
        self.message = ""

    def title(self) -> str:
        return f"{MENU_LABEL}: {self.dresser.joining.count()} joined"

    def options(self) -> Sequence[str]:
        return (self.dresser.joining.code, self.dresser.address, "New code", "Done")

    def pick(self, index: int) -> str:
        if index == 2:
            self.dresser.joining.renew()
            self.message = "new code: phones join again"
            return "stay"
        if index == 3:
            self.dresser.showing = False
            return "leave"
        self.message = ""
        return "stay"

    def back(self) -> bool:
        self.dresser.showing = False
        return False


class JoinDresser:
    """Puts the join code on frames while the menu is open, and renews the code when the game changes."""

    def __init__(self, joining: Joining, session: Any, address: str) -> None:
        self.joining = joining
        self.session = session
        self.address = address
        self.showing = False
        self._game: object = _UNSEEN
        self._last: tuple[Any, str, bool, Any] | None = None

    def url(self) -> str:
        """The link in the QR code: upper case throughout, so the code is a compact alphanumeric QR code."""
        return f"HTTP://{self.address.upper()}/J/{self.joining.code}"

    def dress(self, frame: Any) -> Any:
        """``frame`` as the screens show it: with the join words while the menu is open (the same object for
        the same frame, so a view that drew it ahead knows it)."""
        run = self.session.current
        game = run.game_id if run is not None else None
        if game != self._game:
            if self._game is not _UNSEEN and game is not None:
                self.joining.renew()  # a new game: last game's phones join again
            self._game = game
        code = self.joining.code
        last = self._last
        if last is not None and last[0] is frame and last[1] == code and last[2] == self.showing:
            return last[3]
        dressed = frame
        if self.showing:
            panel = dataclasses.replace(frame.panel, join=f"{self.address}  code {code}", join_url=self.url())
            dressed = dataclasses.replace(frame, panel=panel)
        self._last = (frame, code, self.showing, dressed)
        return dressed


_UNSEEN = object()


class Dressed:
    """A view shown the dressed frame (the OLED, the projector, the frames folder): the session's frame goes
    through :meth:`JoinDresser.dress` on its way, nothing else changes."""

    @classmethod
    def of(cls, view: Any, dresser: JoinDresser) -> Dressed:
        """``view`` dressed, under its own class's name: the loop names a view that fails by its class
        ("ProjectorView: off (...)"), and that stays the name of the part, not of this wrapper."""
        named = type(type(view).__name__, (cls,), {"__doc__": cls.__doc__})
        return named(view, dresser)

    def __init__(self, view: Any, dresser: JoinDresser) -> None:
        self.view = view
        self.dresser = dresser
        self.drew: Any = None
        """The session's frame the view last drew (the phones' picture is the projector's when it drew theirs)."""
        if hasattr(view, "prepare"):
            self.prepare = self._prepare

    def _prepare(self, frame: Any, landing: Any = None) -> None:
        self.drew = None
        self.view.prepare(self.dresser.dress(frame), landing=landing)
        self.drew = frame

    def show(self, frame: Any) -> None:
        self.drew = None
        self.view.show(self.dresser.dress(frame))
        self.drew = frame

    def __getattr__(self, name: str) -> Any:
        return getattr(self.view, name)
