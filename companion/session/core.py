"""The session: the one place where inputs meet the game, the journal and the views.

``Session.handle(input)`` is the whole behaviour, with no threads and no clock, so tests drive it
event by event. The order inside is fixed: the game accepts an event (or refuses it, changing
nothing), the journal commits it, and only then does the panel change. What the table has seen is
therefore always on disk, and resuming is replaying the journal's live events.

Modes: ``menu`` (choose game, players, resume; confirmations), ``play`` (the game asks, any source
answers). Buttons in play: ROLL answers the prompt with OS randomness (dice or a shuffle); UP/DOWN
type a die rolled by hand and OK enters it; for a decision UP/DOWN/LEFT/RIGHT move through the
options (the projector's cursor follows the option's hex) and OK picks; BACK opens the menu; BACK
held asks "Undo last?"; ROLL held asks "Re-roll last?" and the next roll then replaces the last one;
RIGHT held toggles the projector's risk overlay (OVERLAY, from a gamepad or the O key, does too).
"""

from __future__ import annotations

import hashlib
import json
import logging
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from companion.dice import FACES, DiceRolled, DiceSource, Die, Event, Prompt, event_to_dict
from companion.dice_shuffle import DiceShuffle
from companion.errors import CompanionError
from companion.games import game_keys as registered_keys
from companion.games import load_game
from companion.games.base import Game, replay
from companion.journal import Entry, GameRecord, Journal, LiveEvent
from companion.places import Place
from companion.session.choices import Option, options_for, setup_questions
from companion.session.inputs import Decide, Hold, InputEvent, Notice, Press, Quit, Roll, Say, TowerStatus
from companion.views.panel import TOWER_STATES, Menu, Panel

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Frame:
    """Everything a view draws: the panel plus the game and its state for the projector's map."""

    panel: Panel
    game: Game[Any] | None = None
    state: Any = None
    cursor: Place | None = None
    overlay: bool = False


@dataclass
class _MenuState:
    title: str
    labels: list[str]
    actions: list[Callable[[], None]]
    back: Callable[[], None] | None = None
    selected: int = 0


@dataclass
class _Game:
    """The game on the table: engine, options, journal id, live events and the state they fold to."""

    game: Game[Any]
    options: dict[str, Any]
    game_id: int
    live: list[LiveEvent] = field(default_factory=list)
    state: Any = None
    finished: bool = False
    """What the journal says: the game has ended."""


def state_digest(game_id: int, game: Game[Any], options: Mapping[str, Any], live: Sequence[LiveEvent],
                 state: Any) -> str:
    """Fingerprint of a game: its journal id, live events and what the engine says about the state."""
    prompt = game.prompt(state)
    payload = json.dumps([game_id, game.key, dict(options), [[event_to_dict(x.event), x.rerolled] for x in live],
                          game.status(state), prompt.text, list(game.recap(state))], sort_keys=True, default=str)
    return hashlib.sha256(payload.encode()).hexdigest()[:16]


class Session:
    """The event loop's brain: one input in, at most one journaled event, one new panel out."""

    def __init__(self, journal: Journal, *, maps: Path | None = None,
                 loader: Callable[[str, Path | None], Game[Any]] = load_game,
                 dice: DiceSource | None = None, game_keys: Sequence[str] | None = None,
                 preferred: Mapping[str, Any] | None = None) -> None:
        self.journal = journal
        self.preferred = dict(preferred or {})
        """Answers to setup questions from the configuration ([game] players): preselected in the menu, and
        used for a new game that does not give them, when the game asks that question and allows the value."""
        self.maps = maps
        self._raw_loader = loader
        self._dice = dice or DiceSource()
        self._keys = tuple(game_keys) if game_keys is not None else None
        """The games the menu offers, in order; None: every registered game, asked when the menu opens."""
        self.current: _Game | None = None
        self.tower = "off"
        self._tower_seen = False
        self._tower_away = False
        self.message = ""
        self.notices: list[str] = []
        self.overlay = False
        self.stopped = False
        self._menu: _MenuState | None = None
        self._partial: list[Die] = []
        self._dealing: DiceShuffle | None = None
        """A shuffle being made from thrown dice, pick by pick (journaled once complete)."""
        self._entry: int | None = None
        self._reroll_armed = False
        self._choice_index = 0
        self._panel = Panel()
        self._frame = Frame(self._panel)
        self.before_commit: Callable[[str], None] | None = None
        """Called with the digest of the state about to be journaled (crash tests log it)."""

    def _loader(self, key: str, maps: Path | None) -> Game[Any]:
        """The engine for ``key``; an engine that is not installed is a one-line error, not a traceback."""
        try:
            return self._raw_loader(key, maps)
        except ImportError as exc:
            raise CompanionError(f"game {key!r} is not available in this installation ({exc.name})") from None

    # -- starting ----------------------------------------------------------------------------------

    def start(self, game: str | None = None, options: Mapping[str, Any] | None = None, *, resume: bool = True) -> None:
        """Resume the last unfinished game, or start ``game``, or open the menu to choose."""
        if game is not None:
            self.new_game(game, dict(options or {}))
        elif resume and (last := self.journal.last_unfinished()) is not None:
            try:
                self.resume(last)
            except CompanionError as exc:  # the box still starts: say why, offer the menu
                self.message = str(exc)
                self._main_menu()
        else:
            self._main_menu()
        if self.journal.notice and not self.message:  # a journal kept aside at start: said until the first input
            self.message = "old journal kept aside" if "kept as" in self.journal.notice else ""
        self._refresh()

    def new_game(self, key: str, options: dict[str, Any]) -> None:
        engine = self._loader(key, self.maps)
        options = dict(options)
        for name, _label, values in setup_questions(engine):
            if name not in options and self.preferred.get(name) in values:
                options[name] = self.preferred[name]
        state = engine.new_game(options)  # a RuleError here leaves the session as it was
        game_id = self.journal.new_game(key, options)
        self._enter_play(_Game(engine, dict(options), game_id, [], state))

    def resume(self, record: GameRecord) -> None:
        engine = self._loader(record.game, self.maps)
        live = self.journal.events(record.id)
        try:
            state = replay(engine, record.options, [x.event for x in live])
        except CompanionError as exc:
            raise CompanionError(f"game {record.id} ({record.game}) does not replay: {exc}") from None
        self._enter_play(_Game(engine, dict(record.options), record.id, live, state, record.finished))

    def _enter_play(self, current: _Game) -> None:
        self.current = current
        self._menu = None
        self._partial = []
        self._dealing = None
        self._entry = None
        self._reroll_armed = False
        self._choice_index = 0
        self.message = ""

    # -- the one entry point -----------------------------------------------------------------------

    def handle(self, event: InputEvent) -> bool:
        """Act on one input; True when what the views show has changed. Never raises a CompanionError."""
        try:
            self.message = "" if isinstance(event, Press | Hold | Roll | Decide) else self.message
            self._dispatch(event)
        except CompanionError as exc:
            self.message = str(exc)
        return self._refresh()

    def _dispatch(self, event: InputEvent) -> None:
        if isinstance(event, Roll):
            self._on_roll(event.dice)
        elif isinstance(event, Press):
            self._on_press(event.button)
        elif isinstance(event, Hold):
            self._on_hold(event.button)
        elif isinstance(event, TowerStatus):
            self._tower_status(event)
        elif isinstance(event, Decide):
            self._accept(event.event)
        elif isinstance(event, Notice):
            self.notice(event.text)
        elif isinstance(event, Say):
            self.message = event.text
        elif isinstance(event, Quit):
            self.stopped = True

    def notice(self, text: str) -> bool:
        """A lasting condition ("projector: no display"), said once: kept in the panel's notices (the
        projector's status strip) and, the first time, the OLED's footer until the next input, since
        the OLED has no other line for it. False when it was said already."""
        if text in self.notices:
            return False
        self.notices.append(text)
        self.message = text
        return True

    def _tower_status(self, event: TowerStatus) -> None:
        """Show the link's state inline; log only its arrival (the first time, and back after being away)
        and a version mismatch. The link logs a loss itself, so an unplug and replug is two lines however
        long the cable stays out."""
        state = event.state if event.state in TOWER_STATES else "waiting"
        before, self.tower = self.tower, state
        detail = f" ({event.detail})" if event.detail else ""
        if state == "away":
            self._tower_away = True
        elif state == "connected" and (not self._tower_seen or self._tower_away):
            log.info("tower %s%s", "back" if self._tower_seen else "connected", detail)
            self._tower_seen, self._tower_away = True, False
        elif state == "mismatch" and before != "mismatch":
            log.warning("tower refused%s", detail)

    def tick(self) -> bool:
        """Periodic housekeeping from the loop: retry a journal waiting for disk space."""
        if self.journal.degraded:
            self.journal.retry()
        return self._refresh()

    # -- the game ----------------------------------------------------------------------------------

    def prompt(self) -> Prompt | None:
        return self.current.game.prompt(self.current.state) if self.current else None

    def wanted(self) -> tuple[str, ...]:
        """Dice kinds the box is waiting for right now (empty when it waits for something else)."""
        return self._wanted()

    def _wanted(self) -> tuple[str, ...]:
        """Dice kinds still to come for the open request (a re-roll asks for the last roll's kinds)."""
        if self.current is None or self._menu is not None:
            return ()
        remaining = list(self._request_kinds())
        for die in self._partial:
            remaining.remove(die.kind)
        return tuple(remaining)

    def _on_roll(self, roll: DiceRolled) -> None:
        if self.current is None or self._menu is not None:
            raise CompanionError(f"roll ignored ({', '.join(str(d) for d in roll.dice)}): a menu is open")
        wanted = list(self._wanted())
        if not wanted:
            prompt = self.prompt()
            raise CompanionError(f"not waiting for dice: {prompt.short or prompt.text}" if prompt else "no game")
        open_kinds = set(wanted)
        taken, refused, extra = [], [], []
        for die in roll.dice:
            if die.kind in wanted:
                wanted.remove(die.kind)
                taken.append(die)
            elif die.kind in open_kinds:
                extra.append(die)
            else:
                refused.append(die)
        if not taken:
            need = " + ".join(k.upper() for k in self._wanted())
            raise CompanionError(f"need {need}, got {', '.join(str(d) for d in roll.dice) or 'no dice'}")
        self._partial.extend(taken)
        self._entry = None
        notes = []
        if refused:
            notes.append(f"refused {', '.join(str(d) for d in refused)}")
        if extra:
            notes.append(f"extra ignored: {', '.join(str(d) for d in extra)}")
        if self._wanted():
            self.message = "; ".join(notes)
            return
        complete = self._in_request_order(self._partial)
        self._partial = []
        prompt = self.prompt()
        if prompt is not None and _asks_shuffle(prompt) and not self._reroll_armed:
            notes.append(self._deal_pick(prompt, complete, roll.source))
            self.message = "; ".join(n for n in notes if n)
            return
        try:
            if self._reroll_armed:
                self._replace_last(DiceRolled(complete, roll.source))
            else:
                self._accept(DiceRolled(complete, roll.source))
        finally:
            self._reroll_armed = False
        self.message = "; ".join(notes)

    def _request_kinds(self) -> tuple[str, ...]:
        """The dice the open request takes in all: the prompt's, the last roll's for a re-roll, or one
        pick's throw when a shuffle is answered with dice."""
        assert self.current is not None
        if self._reroll_armed:
            last = self._last_roll()
            return tuple(d.kind for d in last.dice) if last is not None else ()
        prompt = self.prompt()
        if prompt is None:
            return ()
        if _asks_shuffle(prompt):
            return self._deal(prompt).need()
        return prompt.dice

    def _deal(self, prompt: Prompt) -> DiceShuffle:
        """The shuffle by dice under way, or a new one for ``prompt``."""
        return self._dealing or DiceShuffle.start(prompt.shuffle, prompt.deal)

    def _in_request_order(self, dice: list[Die]) -> tuple[Die, ...]:
        kinds = self._request_kinds()
        pool = list(dice)
        ordered = []
        for kind in kinds:
            die = next(d for d in pool if d.kind == kind)
            pool.remove(die)
            ordered.append(die)
        return tuple(ordered)

    def _deal_pick(self, prompt: Prompt, dice: tuple[Die, ...], source: str) -> str:
        """One throw of a shuffle by dice; the finished permutation is the event journaled."""
        before = self._deal(prompt)
        after = before.feed(dice)
        if after.done:
            self._accept(after.result(source))
            return ""
        self._dealing = after
        if after.thrown_again > before.thrown_again:
            return f"{' '.join(str(d) for d in dice)} cannot pick evenly among {after.choices}: throw again"
        return f"card {after.placed} of {after.deal} picked"

    def _accept(self, event: Event) -> None:
        """Apply, journal, then (by returning) let the panel show it: never the other way round."""
        cur = self._require_game()
        new_state = cur.game.apply(cur.state, event)  # RuleError: nothing changed
        self._announce(cur, [*cur.live, LiveEvent(event)], new_state)
        self.journal.append(cur.game_id, Entry("event", event))
        cur.live.append(LiveEvent(event))
        cur.state = new_state
        self._after_change()

    def _replace_last(self, event: DiceRolled) -> None:
        cur = self._require_game()
        base = replay(cur.game, cur.options, [x.event for x in cur.live[:-1]])
        new_state = cur.game.apply(base, event)
        self._announce(cur, [*cur.live[:-1], LiveEvent(event, rerolled=True)], new_state)
        self.journal.append(cur.game_id, Entry("reroll", event))
        cur.live[-1] = LiveEvent(event, rerolled=True)
        cur.state = new_state
        self._after_change()

    def undo(self) -> None:
        cur = self._require_game()
        if not cur.live:
            raise CompanionError("nothing to undo")
        state = replay(cur.game, cur.options, [x.event for x in cur.live[:-1]])
        self._announce(cur, cur.live[:-1], state)
        self.journal.append(cur.game_id, Entry("undo"))
        cur.live.pop()
        cur.state = state
        self._after_change()
        self.message = "undone"

    def _announce(self, cur: _Game, live: Sequence[LiveEvent], state: Any) -> None:
        if self.before_commit is not None:
            self.before_commit(state_digest(cur.game_id, cur.game, cur.options, live, state))

    def digest(self) -> str:
        """A fingerprint of the game on the table (id, events, status, prompt): equal iff the same game state."""
        cur = self.current
        if cur is None:
            return "none"
        return state_digest(cur.game_id, cur.game, cur.options, cur.live, cur.state)

    def _after_change(self) -> None:
        cur = self._require_game()
        self._partial = []
        self._dealing = None
        self._entry = None
        self._reroll_armed = False  # an undo while a re-roll was armed takes the re-roll back too
        self._choice_index = 0
        done = cur.game.prompt(cur.state).done
        if done != cur.finished:  # the end reached, or taken back by an undo: resume must know which
            self.journal.mark_finished(cur.game_id, done)
            cur.finished = done

    def _require_game(self) -> _Game:
        if self.current is None:
            raise CompanionError("no game on the table: choose one from the menu")
        return self.current

    def options(self) -> list[Option]:
        """The choices open now (a decision prompt), each with its label, event and hex if any."""
        if self.current is None:
            return []
        prompt = self.prompt()
        if prompt is None or not prompt.actions:
            return []
        return options_for(self.current.game, self.current.state, prompt)

    # -- buttons -----------------------------------------------------------------------------------

    def _on_press(self, button: str) -> None:
        if button == "OVERLAY":
            self.overlay = not self.overlay
            return
        if self._menu is not None:
            self._menu_press(button)
            return
        if self.current is None:
            self._main_menu()
            return
        prompt = self.prompt()
        assert prompt is not None
        if button == "BACK":
            if self._partial or self._entry is not None or self._reroll_armed or self._dealing is not None:
                self._partial, self._entry, self._reroll_armed, self._dealing = [], None, False, None
                self.message = "cleared"
            else:
                self._main_menu()
            return
        if prompt.done and not self._reroll_armed:
            if button == "OK":
                self._main_menu()
            return
        if _asks_shuffle(prompt) and button == "ROLL" and not self._reroll_armed:
            self._accept(self._dice.shuffle(prompt.shuffle))  # the whole shuffle at once, a deal by dice dropped
        elif self._wanted():
            self._dice_press(button)
        elif prompt.actions:
            self._choice_press(button)

    def _dice_press(self, button: str) -> None:
        kind = self._wanted()[0]
        if button == "ROLL":
            self._on_roll(self._dice.roll(self._wanted()))
        elif button in ("UP", "DOWN"):
            faces = FACES[kind]
            step = 1 if button == "UP" else -1
            current = self._entry if self._entry is not None else (0 if step == 1 else 1)
            self._entry = (current - 1 + step) % faces + 1
            self.message = f"typed {kind.upper()}={self._entry}: OK enters"
        elif button == "OK":
            if self._entry is None:
                self.message = "UP/DOWN to type a die, ROLL to roll"
                return
            value, self._entry = self._entry, None
            self._on_roll(DiceRolled((Die(kind, value),), "typed"))

    def _choice_press(self, button: str) -> None:
        options = self.options()
        if not options:
            raise CompanionError("no choice is possible here")
        if button in ("UP", "LEFT", "DOWN", "RIGHT"):
            step = -1 if button in ("UP", "LEFT") else 1
            self._choice_index = (self._choice_index + step) % len(options)
        elif button == "OK":
            picked = options[min(self._choice_index, len(options) - 1)]
            self._accept(picked.event)
        elif button == "ROLL":
            self.message = "a decision: pick with the arrows and OK"

    def _on_hold(self, button: str) -> None:
        if button == "BACK" and self.current is not None:
            if not self.current.live:
                self.message = "nothing to undo"
                return
            self._confirm("Undo last?", self.undo)
        elif button == "ROLL" and self.current is not None:
            if self._last_roll() is None:  # say so now, not after a question that cannot be granted
                self.message = "nothing to re-roll: the last event is not a roll"
                return
            self._confirm("Re-roll last?", self._arm_reroll)
        elif button == "RIGHT":
            self._unstep_right()
            self.overlay = not self.overlay
        elif button in ("OK", "UP", "DOWN", "LEFT", "OVERLAY"):
            self._on_press(button)

    def _unstep_right(self) -> None:
        """RIGHT held toggles the projector's risk overlay (the box has no OVERLAY button). Its press
        edge came first and moved the menu or the option cursor one step: put it back, so the hold
        changes nothing but the overlay."""
        if self._menu is not None:
            self._menu.selected = (self._menu.selected - 1) % len(self._menu.labels)
        elif self.current is not None and not self._wanted():
            prompt = self.prompt()
            if prompt is not None and prompt.actions and not prompt.done and not prompt.shuffle:
                options = self.options()
                if options:
                    self._choice_index = (self._choice_index - 1) % len(options)

    def _last_roll(self) -> DiceRolled | None:
        """The game's last event if it is a roll: what a re-roll would replace."""
        cur = self._require_game()
        last = cur.live[-1].event if cur.live else None
        return last if isinstance(last, DiceRolled) else None

    def _arm_reroll(self) -> None:
        last = self._last_roll()
        if last is None:
            raise CompanionError("the last event is not a roll")
        self._reroll_armed = True
        self._partial = []
        kinds = " + ".join(d.kind.upper() for d in last.dice)
        self.message = f"re-roll {kinds}: the next roll replaces the last"

    # -- menus -------------------------------------------------------------------------------------

    def _confirm(self, title: str, yes: Callable[[], None]) -> None:
        def do_yes() -> None:
            self._menu = None
            yes()

        def do_no() -> None:
            self._menu = None

        self._menu = _MenuState(title, ["OK: yes", "BACK: no"], [do_yes, do_no], back=do_no)

    def _menu_press(self, button: str) -> None:
        menu = self._menu
        assert menu is not None
        if button in ("UP", "LEFT"):
            menu.selected = (menu.selected - 1) % len(menu.labels)
        elif button in ("DOWN", "RIGHT"):
            menu.selected = (menu.selected + 1) % len(menu.labels)
        elif button == "OK":
            menu.actions[menu.selected]()
        elif button == "BACK" and menu.back is not None:
            menu.back()

    def _main_menu(self) -> None:
        labels: list[str] = []
        actions: list[Callable[[], None]] = []

        def close() -> None:
            self._menu = None

        if self.current is not None and not self.current.game.prompt(self.current.state).done:
            labels.append("Continue")
            actions.append(close)
        for key in self._keys if self._keys is not None else registered_keys():
            labels.append(f"New: {key.capitalize()}")
            actions.append(lambda key=key: self._setup_menu(key, {}))
        for record in [g for g in self.journal.games() if not g.finished][:3]:
            if self.current is not None and record.id == self.current.game_id:
                continue
            labels.append(f"Resume #{record.id} {record.game}")
            actions.append(lambda record=record: self.resume(record))
        if self.current is not None and self.current.live:
            labels.append("Undo last")
            actions.append(lambda: self._confirm("Undo last?", self.undo))
        back = close if self.current is not None else None
        self._menu = _MenuState("Menu", labels, actions, back=back)

    def _setup_menu(self, key: str, chosen: dict[str, Any]) -> None:
        engine = self._loader(key, self.maps)
        for name, label, values in setup_questions(engine):
            if name not in chosen:
                values = list(values)
                preferred = self.preferred.get(name)
                self._menu = _MenuState(
                    f"{engine.key.capitalize()}: {label}", [str(v) for v in values],
                    [lambda v=v, name=name: self._setup_menu(key, {**chosen, name: v}) for v in values],
                    back=self._main_menu, selected=values.index(preferred) if preferred in values else 0)
                return
        self.new_game(key, chosen)

    # -- what the views get ------------------------------------------------------------------------

    @property
    def panel(self) -> Panel:
        return self._panel

    @property
    def frame(self) -> Frame:
        return self._frame

    def refresh(self) -> bool:
        """Rebuild the panel from the current state; True when the views need to redraw."""
        return self._refresh()

    def _refresh(self) -> bool:
        """Rebuild the panel and frame; True when either differs from what was shown."""
        notice = self.journal.notice
        # A write trouble notice lasts while entries wait in memory; only the current one is shown.
        self.notices = [n for n in self.notices if not Journal.is_write_notice(n) or n == notice]
        if notice and notice not in self.notices:
            self.notices.append(notice)
        panel = self._build_panel()
        cur = self.current
        frame = Frame(panel, cur.game if cur else None, cur.state if cur else None, self._cursor(), self.overlay)
        changed = frame != self._frame or frame.state is not self._frame.state
        self._panel, self._frame = panel, frame
        return changed

    def _footer(self) -> str:
        """The passing message, else, while entries wait in memory, a short "not saved" that stays: the OLED's
        footer is the one line every screen keeps, and a box without a projector has no other place to say it."""
        if self.message or not self.journal.degraded:
            return self.message
        return "disk full: not saved" if self.journal.notice == Journal.DISK_FULL else "journal: not saved"

    def _cursor(self) -> Place | None:
        if self._menu is not None:
            return None
        options = self.options()
        if not options:
            return None
        return options[min(self._choice_index, len(options) - 1)].place

    def _build_panel(self) -> Panel:
        cur = self.current
        menu = None
        if self._menu is not None:
            menu = Menu(self._menu.title, tuple(self._menu.labels), self._menu.selected)
        if cur is None:
            return Panel(tower=self.tower, message=self._footer(), menu=menu, notices=tuple(self.notices))
        prompt = cur.game.prompt(cur.state)
        if self._reroll_armed:
            kinds = " + ".join(k.upper() for k in self._wanted())
            prompt = Prompt(f"Re-roll {kinds}: the new roll replaces the last one", f"Re-roll {kinds}",
                            dice=self._wanted())
        elif _asks_shuffle(prompt) and (self._dealing is not None or self._partial):
            deal = self._deal(prompt)  # a shuffle being answered with dice: say which card, which dice
            need = " + ".join(k.upper() for k in self._wanted())
            card = f"card {deal.placed + 1} of {deal.deal}"
            prompt = Prompt(f"{prompt.text}: by dice, {card}: throw {need} (ROLL shuffles at once)",
                            f"Card {deal.placed + 1}/{deal.deal}: {need}",
                            dice=self._wanted(), shuffle=prompt.shuffle, deal=prompt.deal)
        elif menu is None and prompt.actions:
            options = self.options()
            if options:
                menu = Menu(prompt.short or prompt.text, tuple(o.label for o in options),
                            min(self._choice_index, len(options) - 1))
        dice: tuple[Die, ...]
        rerolled: tuple[bool, ...]
        if self._partial:
            dice, rerolled = tuple(self._partial), (self._reroll_armed,) * len(self._partial)
        else:
            last = next((x for x in reversed(cur.live) if isinstance(x.event, DiceRolled)), None)
            if last is not None and last is (cur.live[-1] if cur.live else None):
                assert isinstance(last.event, DiceRolled)
                dice, rerolled = last.event.dice, (last.rerolled,) * len(last.event.dice)
            else:
                dice, rerolled = (), ()
        return Panel(
            game=cur.game.title,
            status=cur.game.status(cur.state),
            prompt=None if self._menu is not None else prompt,
            dice=dice,
            rerolled=rerolled,
            result=tuple(cur.game.recap(cur.state)),
            tower=self.tower,
            message=self._footer(),
            menu=menu,
            notices=tuple(self.notices),
        )


def _asks_shuffle(prompt: Prompt) -> bool:
    """The engine asks for a shuffle (and no dice): ROLL makes it at once, thrown dice deal it card by card."""
    return bool(prompt.shuffle) and not prompt.dice
