"""The box's own menus: the main menu, a new game's setup questions and seat names, help, a confirmation, a part's
questions (an ``Ask``) and the way into a mend.

Each is a :class:`~companion.session.menus.MenuState` built here from a narrow interface (:class:`MenuHost`): what
the menus need of the session (the game on the table, the journal's open games, the parts' extra entries, the
preferred answers, and the few things OK may start). The session keeps the dispatch: a press on an open menu runs
its action, and this module never reads a button.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from functools import partial
from typing import Any, Protocol

from companion.dice import DiceRolled
from companion.errors import CompanionError
from companion.games.base import Game
from companion.inputs import Ask
from companion.journal import GameRecord
from companion.read_confirm import cursor_of
from companion.session.choices import asked, setup_questions
from companion.session.game_run import GameRun
from companion.session.mend import MendFlow
from companion.session.menus import MenuState
from companion.session.seats import SEATS_OPTION, names_seats, offered

__all__ = ["HELP", "BoxMenus", "MenuHost"]

HELP: tuple[str, ...] = (
    "ROLL: roll the dice asked",
    "ROLL: shuffle a deck",
    "ROLL held: re-roll last",
    "UP/DOWN: type a die",
    "OK: enter the typed die",
    "Arrows: board or list",
    "LEFT/RIGHT: page/step",
    "OK: pick the option",
    "BACK: clear, or menu",
    "BACK held: undo last",
    "RIGHT held: risk map",
    "Keys: Space or R = ROLL",
    "Keys: Enter = OK",
    "Keys: Esc = BACK",
    "Keys: O = risk map",
    "Keys: T = throw dice",
    "Pad: A OK, B BACK",
    "Pad: X ROLL, Y risk map",
    "Pad: LB undo, RB re-roll",
)
"""The help screen: every button of the box, the simulated table's keys and a gamepad's buttons (as
hardware/keys.py, companion/session/window.py and companion/session/gamepad.py map them)."""


class MenuHost(Protocol):
    """What the box's menus need of the session, and no more."""

    run: GameRun | None
    message: str
    preferred: dict[str, Any]
    extras: list[tuple[str, Callable[[], None]]]

    def show_menu(self, menu: MenuState | None, fresh: bool = False) -> None:
        """Put ``menu`` on the OLED (None: back to the game); ``fresh`` starts the open request afresh too."""

    def menu_games(self) -> Sequence[str]:
        """The games a new game may be of, in the menu's order."""

    def open_games(self) -> Sequence[GameRecord]:
        """The journal's unfinished games, newest first."""

    def engine(self, key: str) -> Game[Any]:
        """The engine of game ``key`` (to ask its setup questions)."""

    def new_game(self, key: str, options: dict[str, Any]) -> None: ...

    def resume(self, record: GameRecord) -> None: ...

    def undo(self) -> None: ...

    def take_waiting(self) -> None:
        """The rolls that waited for a confirmation's answer, now taken."""

    def throw(self, kinds: tuple[str, ...]) -> DiceRolled:
        """Dice rolled by the box (ROLL on a past roll being mended)."""


class BoxMenus:
    """Builds the box's menus for ``host`` and shows them through it."""

    def __init__(self, host: MenuHost) -> None:
        self.host = host

    def _show(self, menu: MenuState | None) -> None:
        self.host.show_menu(menu)

    def close(self) -> None:
        """Back to the game on the table, or to the main menu when there is none."""
        self._show(None)
        if self.host.run is None:
            self.main()

    def ask(self, ask: Ask) -> None:
        """A part's questions as a menu, rebuilt after each answer; the game below is untouched."""
        host = self.host
        model = ask.model
        labels = list(model.options())

        def answer(index: int) -> None:
            outcome = model.pick(index)
            if outcome == "save":
                self.close()
                host.message = ask.done(model)
            elif outcome == "leave":
                self.close()
            else:
                self.ask(ask)

        def back() -> None:
            if model.back():
                self.ask(ask)
            else:
                self.close()

        self._show(MenuState(model.title(), labels or ["(nothing to choose)"],
                             [partial(answer, i) for i in range(len(labels))] or [back], back=back,
                             selected=cursor_of(model)))
        if model.message:
            host.message = model.message

    def extra(self, label: str, action: Callable[[], None]) -> None:
        self.close()
        action()
        self.host.message = f"{label}: working..."

    def confirm(self, title: str, yes: Callable[[], None]) -> None:
        """"OK: yes" or "BACK: no"; rolls thrown meanwhile wait for the answer (``holds_rolls``)."""
        host = self.host

        def do_yes() -> None:
            self._show(None)
            try:
                yes()
            finally:
                host.take_waiting()

        def do_no() -> None:
            self._show(None)
            host.take_waiting()

        self._show(MenuState(title, ["OK: yes", "BACK: no"], [do_yes, do_no], back=do_no, holds_rolls=True))

    def main(self) -> None:
        """Continue, a new game of each kind, every other open game, undo and mend, the parts' entries, help."""
        host = self.host
        labels: list[str] = []
        actions: list[Callable[[], None]] = []
        run = host.run

        def close() -> None:
            self._show(None)

        def offer(label: str, action: Callable[[], None]) -> None:
            labels.append(label)
            actions.append(action)

        if run is not None and not run.prompt().done:
            offer("Continue", close)
        for key in host.menu_games():
            offer(f"New: {key.capitalize()}", partial(self.setup, key, {}))
        for record in host.open_games():  # every open game, newest first
            if run is not None and record.id == run.game_id:
                continue
            offer(f"Resume #{record.id} {record.game}", partial(host.resume, record))
        if run is not None and run.live:
            offer("Undo last", lambda: self.confirm("Undo last?", host.undo))
            offer("Mend an entry", self.mend)
        for label, action in host.extras:
            offer(label, partial(self.extra, label, action))
        offer("Help: buttons, keys", self.help)
        self._show(MenuState("Menu", labels, actions, back=close if run is not None else None))

    def mend(self) -> None:
        """The past entries to mend, newest first (:mod:`companion.session.mend`)."""
        host = self.host
        if host.run is None:
            raise CompanionError("no game on the table: choose one from the menu")

        def say(text: str) -> None:
            host.message = text

        def show(menu: MenuState | None) -> None:
            host.show_menu(menu, fresh=True)  # a mend's menus leave no half-answered request behind them

        MendFlow(host.run, show, say, self.main, host.throw).entries()

    def help(self) -> None:
        """Every button and key, one per line (:data:`HELP`); OK or BACK goes back to the menu."""
        self._show(MenuState("Buttons and keys", list(HELP), [self.main] * len(HELP), back=self.main))

    def setup(self, key: str, chosen: dict[str, Any], seats_asked: bool = False) -> None:
        """The next setup question of a new game of ``key`` (with its preferred answer preselected), the seats'
        names, then the game itself."""
        host = self.host
        engine = host.engine(key)
        for name, label, values in setup_questions(engine):
            if name not in chosen and asked(engine, name, chosen):
                answers = list(values)
                preferred = host.preferred.get(name)
                self._show(MenuState(
                    f"{engine.key.capitalize()}: {label}", [str(v) for v in answers],
                    [partial(self.setup, key, {**chosen, name: v}, seats_asked) for v in answers],
                    back=self.main,
                    selected=answers.index(preferred) if preferred in answers else 0))
                return
        if names_seats(engine) and not seats_asked and SEATS_OPTION not in chosen and \
                self.seats(key, engine, chosen):
            return
        try:
            host.new_game(key, chosen)
        except CompanionError:
            self.main()  # the answers are kept by no one: the menu again, the footer says why
            raise

    def seats(self, key: str, engine: Game[Any], chosen: Mapping[str, Any]) -> bool:
        """Name the seats? Numbers (the engine's "Player 1"), or a name for each seat from a short list: the
        names go with the game's options into the journal. False when there is no seat count to name."""
        count = chosen.get("players", self.host.preferred.get("players"))
        if not isinstance(count, int) or isinstance(count, bool) or not 1 <= count <= 9:
            return False

        def seat(names: tuple[str, ...]) -> None:
            if len(names) == count:
                self.setup(key, {**chosen, SEATS_OPTION: list(names)})
                return
            free = offered(names)
            self._show(MenuState(f"Seat {len(names) + 1} of {count}: name", free,
                                 [partial(seat, (*names, name)) for name in free], back=self.main))

        title = f"{engine.key.capitalize()}: seat names"
        self._show(MenuState(title, ["Numbers (Player 1..)", "Name each seat"],
                             [partial(self.setup, key, dict(chosen), True), partial(seat, ())],
                             back=self.main))
        return True
