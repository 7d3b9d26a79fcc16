"""The view that publishes each frame to the phones: the board as the projector draws it, and what it asks.

``RemoteView.show(frame)`` runs on the box's loop like the other views. The phones' picture is the projector's
own: the map the projector has just drawn for this frame, scaled down once to the phones' size (at most
960x540) for every phone, so the picture and the projector agree and the box keeps one renderer, not two. A box
without a projector (the OLED alone) draws the frame with a renderer of its own at the phones' size instead.
The view reads the decision's options with each place's rectangle on that picture (where the projector's cursor
would ring it), and hands one immutable :class:`Snapshot` to the web server's thread. Encoding the picture and
sending it is done there, so the loop pays for the scaling and a copy of the pixels, never for the network.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from companion.dice import Choice
from companion.places import Link

PHONE_SIZE = (960, 540)
"""The phones' picture at most: a quarter of 1080p, sharp on a phone held either way, about 100 KB as PNG."""
CONFIRM_ITEMS = ("OK: yes", "BACK: no")
"""The items of the box's yes/no questions ("Undo last?"), which a phone may answer."""


@dataclass(frozen=True)
class OptionView:
    """One option as a phone shows it: its words, where its place is on the picture, its event (kept here)."""

    label: str
    rect: tuple[int, int, int, int] | None
    event: Choice = field(repr=False)

    @property
    def player(self) -> int | None:
        """The player the decision is for, when the event names one (a bid, a turn's action)."""
        who = self.event.args.get("player")
        return who if isinstance(who, int) and not isinstance(who, bool) else None


@dataclass(frozen=True)
class Snapshot:
    """What every phone is shown for one frame; ``frame`` numbers them (an action names the one it was made on)."""

    frame: int
    size: tuple[int, int]
    rgb: bytes | bytearray = field(repr=False)
    """The picture's pixels; a bytearray is emptied by the server once its PNG is made (1.5 MB not kept)."""
    game: str = ""
    status: str = ""
    request: str = ""
    message: str = ""
    options: tuple[OptionView, ...] = ()
    dice: tuple[str, ...] = ()
    """The dice kinds the box waits for now (tapped as faces)."""
    bid: OptionView | None = None
    """A bid option whose amount a typed number replaces, when the decision is a bid."""
    question: str = ""
    """A yes/no question the box asks ("Undo last?"); ``yes_first``: its cursor is on yes."""
    yes_first: bool = True
    menu: str = ""
    """Another menu of the box is open (its title): phones wait."""
    undo: bool = False
    """There is something to take back."""

    def public(self) -> dict[str, Any]:
        """The JSON a phone gets (no events, no internals: words, rectangles, dice kinds)."""
        return {"t": "state", "frame": self.frame, "size": list(self.size), "game": self.game, "status": self.status,
                "request": self.request, "message": self.message,
                "options": [{"label": o.label, "rect": list(o.rect) if o.rect else None} for o in self.options],
                "dice": list(self.dice), "bid": self.bid.event.args.get("amount") if self.bid else None,
                "question": self.question, "menu": self.menu, "undo": self.undo}


def bid_option(options: tuple[OptionView, ...]) -> OptionView | None:
    """The lowest bid among the options, when the decision is a bid (an event with a whole ``amount``)."""
    bids = [o for o in options if isinstance(o.event.args.get("amount"), int) and o.event.action == "bid"]
    return min(bids, key=lambda o: o.event.args["amount"]) if bids else None


class RemoteView:
    """Publishes each frame as a :class:`Snapshot` while a phone is connected (``watched``); with none, nothing is
    drawn or copied and the picture's surfaces are let go. The loop's pump (:meth:`pump`) publishes the frame a
    phone that connects has not seen.

    ``drawn_by(frame)`` gives the projector's renderer when it has drawn ``frame`` (its surface holds it now),
    else None: then the view draws the frame itself at ``size``."""

    def __init__(self, session: Any, publish: Callable[[Snapshot], None], size: tuple[int, int] = PHONE_SIZE,
                 watched: Callable[[], bool] = lambda: True,
                 drawn_by: Callable[[Any], Any] = lambda frame: None) -> None:
        self.session = session
        self.publish = publish
        self.size = size
        self.watched = watched
        self.drawn_by = drawn_by
        self.renderer: Any = None
        """The view's own renderer, made only when no projector drew the frame."""
        self.count = 0
        self.last: Snapshot | None = None
        self._pending: Any = None
        """The newest frame the loop showed; drawn when it is not yet and a phone is there."""
        self._drawn: Any = None
        self._layout: Any = None
        self._scale = 1.0
        self.before: Callable[[Any], object] | None = None
        """Told every frame first (the join code's watch for a new game, which revokes the phones' tokens)."""

    def show(self, frame: Any) -> None:
        if self.before is not None:
            self.before(frame)
        self._pending = frame
        if not self.watched():
            self.renderer = None  # no phone: its surfaces go back to the system
            self._drawn = None
            return
        self._draw(frame)

    def pump(self) -> bool:
        """On the loop's thread after every turn: a phone that came since the last frame gets it drawn now."""
        frame = self._pending
        if frame is not None and frame is not self._drawn and self.watched():
            self._draw(frame)
        return False

    def _draw(self, frame: Any) -> None:
        import pygame

        shared = self.drawn_by(frame)
        if shared is not None:
            self.renderer = None
            surface = self._scaled(shared.surface)
            self._layout = shared.layout
        else:
            if self.renderer is None:
                from companion.views.projector import ProjectorRenderer

                self.renderer = ProjectorRenderer(self.size)
            surface = self.renderer.render(frame)
            self._layout, self._scale = self.renderer.layout, 1.0
        self.count += 1
        self._drawn = frame
        pixels = bytearray(pygame.image.tobytes(surface, "RGB"))  # the server lets go of them once encoded
        self.last = snapshot = self.snapshot(frame, pixels, surface.get_size())
        self.publish(snapshot)

    def _scaled(self, surface: Any) -> Any:
        """The projector's picture at the phones' size: itself when it is no larger, else scaled down keeping
        its shape (an average of the pixels, so lines and letters stay smooth). The scaled surface is dropped
        once its pixels are copied: a new one at each frame costs less than keeping 2 MB between frames."""
        import pygame

        width, height = surface.get_size()
        self._scale = min(1.0, self.size[0] / width, self.size[1] / height)
        if self._scale == 1.0:
            return surface
        return pygame.transform.smoothscale(surface, (max(1, round(width * self._scale)),
                                                      max(1, round(height * self._scale))))

    def snapshot(self, frame: Any, rgb: bytes | bytearray, size: tuple[int, int]) -> Snapshot:
        """The snapshot of ``frame`` with its picture (read on the loop's thread: the session's options and dice
        are its own)."""
        panel = frame.panel
        session = self.session
        run = session.current
        if panel.prompt is None and panel.menu is not None:  # a menu of the box's own is open
            menu = panel.menu
            confirm = menu.items == CONFIRM_ITEMS
            return Snapshot(self.count, size, rgb, panel.game, panel.status, "", panel.message,
                            question=menu.title if confirm else "", yes_first=menu.selected == 0,
                            menu="" if confirm else menu.title)
        options: tuple[OptionView, ...] = ()
        if panel.prompt is not None and panel.prompt.actions and panel.menu is not None:
            options = tuple(OptionView(o.label, self._rect(frame, o.place), o.event) for o in session.options())
        request = panel.request or (panel.menu.title if panel.menu is not None else "")
        return Snapshot(self.count, size, rgb, panel.game, panel.status, request, panel.message,
                        options=options, dice=tuple(session.wanted()), bid=bid_option(options),
                        undo=bool(run is not None and run.live))

    def _rect(self, frame: Any, place: Any) -> tuple[int, int, int, int] | None:
        """Where ``place`` is on the picture: its box, or along a link the box the cursor's line stays in."""
        if place is None or frame.game is None:
            return None
        from companion.views.projector.cursor import cursor_box

        layout, k = self._layout, self._scale
        if layout is None or not layout.holds(place):
            return None
        box = cursor_box(layout, place) if isinstance(place, Link) else layout.box(place)
        return (round(box.x * k), round(box.y * k), round(box.w * k), round(box.h * k))
