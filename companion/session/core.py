"""The session: the one place where inputs meet the game, the journal and the views.

``Session.handle(input)`` is the whole behaviour, with no threads and no clock, so tests drive it
event by event. It is composed of small parts, each with one job:

- :class:`~companion.session.game_run.GameRun`: the game on the table and its journal (accept,
  replace the last roll, undo), committed before anything is shown;
- :class:`~companion.session.request.OpenRequest`: what the table is half-way through answering
  (dice so far, a typed die, an armed re-roll, a deal by dice, the option cursor), one value;
- :class:`~companion.session.menus.MenuState`: the OLED's modal menus, the box's own built by
  :class:`~companion.session.box_menus.BoxMenus`;
- :func:`~companion.session.presses.dice_press` and :func:`~companion.session.presses.choice_press`: what a press
  does to a request for dice or a decision;
- :func:`~companion.session.panel_build.build_panel`: the panel, a pure function of the above.

Buttons in play: ROLL answers the prompt with OS randomness (dice or a shuffle); UP/DOWN type a die
rolled by hand and OK enters it; for a decision UP/DOWN/LEFT/RIGHT move through the options (the
projector's cursor follows the option's place; on a board they go to the nearest place that way,
:mod:`companion.session.board_cursor`) and OK picks; BACK opens the menu; BACK held asks
"Undo last?"; ROLL held asks "Re-roll last?" and the next roll then replaces the last one; RIGHT held
toggles the projector's risk overlay (OVERLAY, from a gamepad or the O key, does too). A held button
sends only its Hold (:mod:`hardware.buttons`), so holding ROLL never rolls first.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from functools import partial
from pathlib import Path
from typing import Any

from companion.dice import DiceRolled, DiceSource, Die, Event, Prompt, in_request_order, match_dice
from companion.errors import CompanionError
from companion.games import game_keys as registered_keys
from companion.games import load_game
from companion.games.base import Game, Option
from companion.games.registry import board_note
from companion.games.registry import spec as registry_spec
from companion.inputs import (
    Ask,
    Decide,
    Hold,
    InputEvent,
    Notice,
    Press,
    Quit,
    Roll,
    RollRef,
    Say,
    SourceFault,
    SourceStatus,
    source_name,
)
from companion.journal import GameRecord, Journal
from companion.journal.engine_cache import cache_folder, load_engine
from companion.session.board_cursor import BoardCursor, moved, offer, route
from companion.session.box_menus import HELP, BoxMenus
from companion.session.choices import Offered, cursor, ends, options_for, setup_questions
from companion.session.game_run import GameRun, state_digest, stored_board
from companion.session.menus import MenuState
from companion.session.panel_build import asks_shuffle, deal_for, deals_by_dice
from companion.session.presses import choice_press, dice_press
from companion.session.request import OpenRequest
from companion.session.screens import Frame, compose
from companion.views.panel import TOWER_STATES, Panel

__all__ = ["HELP", "Frame", "Session", "state_digest"]

log = logging.getLogger(__name__)


def game_name(key: str, game_id: int | None = None) -> str:
    """A game as players know it ("Age of Industry, game 4"), never its code key."""
    try:
        title = registry_spec(key).title
    except (KeyError, LookupError, CompanionError):
        title = "a game that is not installed"
    return f"{title}, game {game_id}" if game_id is not None else title


@contextmanager
def set_aside(what: str) -> Iterator[None]:
    """Starting or resuming a game: an engine's failure (a bug, not a refused option) becomes one line, logged and
    raised as a CompanionError, so the box shows it and keeps its menu and the game on the table."""
    try:
        yield
    except CompanionError:
        raise
    except Exception as exc:
        log.error("%s set aside: %s: %s", what, type(exc).__name__, exc)
        raise CompanionError(f"{what} failed and is set aside (the log says why)") from None


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
        self.run: GameRun | None = None
        self.request = OpenRequest()
        self.sources: dict[str, str] = {}
        """Each source's last state by name ("tower": "connected"); the tower is "off" until it speaks."""
        self._seen: set[str] = set()
        self._away: set[str] = set()
        self.message = ""
        self.notices: list[str] = []
        self.overlay = False
        self.stopped = False
        self._menu: MenuState | None = None
        self.menus = BoxMenus(self)
        """The box's own menus (main menu, setup, seats, help, confirmations, a part's questions, mend)."""
        self.extras: list[tuple[str, Callable[[], None]]] = []
        """Entries the parts add to the main menu ("Pair dice"): each starts its work off the loop and answers
        later with an input (an ``Ask``); the session only says it started."""
        self._waiting: list[Roll] = []
        """Rolls that arrived while a confirmation was open, taken once it is answered."""
        self._panel = Panel()
        self._listed: tuple[GameRun, Any, Offered, BoardCursor | None] | None = None
        """The options of the game's current state (:meth:`options`) and their board cursor (None: a list)."""
        self._frame = Frame(self._panel)
        self.before_commit: Callable[[str], None] | None = None
        """Called with the digest of the state about to be journaled (crash tests log it)."""
        self._unsettled: list[Callable[[], object]] = []
        """Rolls handled but not yet settled: their source keeps each until it is (see _settle_rolls)."""
        self._taken: list[RollRef] = []
        """The source rolls whose dice are in the open request: journaled with the event they make (so the
        tower, resending one after a restart, is told it is on disk), dropped with the dice otherwise."""

    @property
    def current(self) -> GameRun | None:
        """The game on the table, if any (its engine, options, journal id, live events and state)."""
        return self.run

    @property
    def menu_open(self) -> bool:
        """A menu of the box's own is open (the main menu, a setup question, a confirmation), not a decision."""
        return self._menu is not None

    @property
    def tower(self) -> str:
        return self.sources.get("tower", "off")

    def _loader(self, key: str, maps: Path | None) -> Game[Any]:
        """The engine for ``key``; an engine that is not installed is a one-line error, not a traceback. The
        registry's engines come from the box's engine cache beside its journal when that still matches their
        code and map files (:mod:`companion.journal.engine_cache`: parsing the maps is a quarter of a resume)."""
        try:
            if self._raw_loader is load_game and not self.journal.readonly:
                return load_engine(key, maps, cache_folder(self.journal.path), load_game)
            return self._raw_loader(key, maps)
        except ImportError as exc:
            raise CompanionError(f"game {key!r} is not available in this installation ({exc.name})") from None

    # -- starting ----------------------------------------------------------------------------------

    def start(self, game: str | None = None, options: Mapping[str, Any] | None = None, *, resume: bool = True) -> None:
        """Resume the last unfinished game, or start ``game``, or open the menu to choose. No game stops the box:
        one that cannot start or resume is said in one line and the menu opens (it stays in the journal)."""
        try:
            if game is not None:
                self.new_game(game, dict(options or {}))
            elif resume and (last := self.journal.last_unfinished()) is not None:
                self.resume(last)
            else:
                self._main_menu()
        except CompanionError as exc:  # the box still starts: say why, offer the menu
            self.message = str(exc)
            self._main_menu()
        if self.journal.notice and not self.message:  # a journal kept aside at start: said until the first input
            self.message = "old journal kept aside" if "kept as" in self.journal.notice else ""
        self._refresh()

    def new_game(self, key: str, options: dict[str, Any]) -> None:
        with set_aside(f"new game of {game_name(key)}"):
            engine = self._loader(key, self.maps)
            options = dict(options)
            for name, _label, values in setup_questions(engine):
                if name not in options and self.preferred.get(name) in values:
                    options[name] = self.preferred[name]
            run = GameRun.new(self.journal, engine, options, self.maps)
            self._enter_play(run)

    def resume(self, record: GameRecord) -> None:
        with set_aside(game_name(record.game, record.id)):
            self.journal.check_snapshots(record.id)  # the history's check reads the rows while the engine loads
            maps, changed = stored_board(self.journal, record, self.maps)  # the board the game began on
            engine = self._loader(record.game, maps)
            self._enter_play(GameRun.resume(self.journal, engine, record, maps))
        if changed:
            log.warning("game %d (%s): %s", record.id, record.game, changed)
            self.message = changed

    def _enter_play(self, run: GameRun) -> None:
        """Put ``run`` on the table once what the views need of it (prompt, options, panel) is known to work:
        an engine that fails there is set aside before it replaces the game that was on the table."""
        run.before_commit = self._announce
        run.snapshots_later = True
        before = (self.run, self._menu, self.request, self.message)
        self.run = run
        self._menu = None
        self.request = OpenRequest()
        self.message = ""
        try:
            self._compose()  # a trial: what is shown (and compared for a change) is left as it is
        except Exception:
            self.run, self._menu, self.request, self.message = before
            raise
        if note := board_note(run.game):  # the group's board did not load: the shipped one, said on screen
            self.notice(note)

    def _set_aside(self, exc: Exception) -> None:
        """The game on the table failed (a bug in its engine, not a refused event): it leaves the table, still in
        the journal and resumable once fixed, the box says so in one line and shows its menu."""
        run = self.run
        name = game_name(run.game.key, run.game_id) if run is not None else "the game"
        log.error("%s set aside: %s: %s", name, type(exc).__name__, exc)
        self.run = None
        self.request = OpenRequest()
        self._main_menu()
        self.message = f"{name} failed and is set aside (the log says why)"

    def settle_writes(self) -> bool:
        """Wait for the journal's write finishing behind (the loop draws meanwhile, and calls this before it
        shows the frame), then let the sources forget the rolls now on disk. True when the frame changed: the
        write failed and the panel now says the game waits in memory."""
        behind = self.journal.writing
        self.journal.join()
        self._settle_rolls()
        return behind and self.journal.degraded and self._refresh()

    def write_landing(self) -> Any:
        """The journal's write still finishing behind the loop (a ``journal_writer.Landing``), or None: a view
        that shows from a thread of its own may wait on it there instead of on :meth:`settle_writes`."""
        return self.journal.landing

    def after_shown(self) -> None:
        """Work that may wait until the table has seen the result: a due snapshot of the game's state (a cache
        for resume and undo; packing it would add milliseconds to the roll that reached it)."""
        self.journal.store_later()

    def _announce(self, digest: str) -> None:
        if self.before_commit is not None:
            self.before_commit(digest)

    # -- the one entry point -----------------------------------------------------------------------

    def handle(self, event: InputEvent) -> bool:
        """Act on one input; True when what the views show has changed. Never raises a CompanionError."""
        try:
            self.message = "" if isinstance(event, Press | Hold | Roll | Decide) else self.message
            self._dispatch(event)
        except CompanionError as exc:
            self.message = str(exc)
            if isinstance(event, Roll) and event.settle is not None:
                log.info("%s roll refused: %s", event.source, exc)
        except Exception as exc:  # a bug in the game on the table: it is set aside, the box goes on
            if self.run is None:
                raise
            self._set_aside(exc)
        if not self.request.partial and self.request.dealing is None:
            self._taken.clear()  # journaled, or dropped with their dice (BACK, an undo, a refused event)
        self._settle_rolls()
        return self._refresh()

    def _settle_rolls(self) -> None:
        """Tell the sources they may forget the rolls handled so far, once none lives only in memory: each
        is journaled and on disk, or refused. Dice waiting for the rest of a request, for a shuffle by dice
        or for a question's answer, and entries waiting for disk space, are not on disk yet: the source keeps
        those rolls (the tower sends them again to a box that restarts) until they are."""
        request = self.request
        if (self._unsettled and not request.partial and request.dealing is None and not self._waiting
                and not self.journal.degraded and not self.journal.writing):
            settles, self._unsettled = self._unsettled, []
            for settle in settles:
                settle()

    def _dispatch(self, event: InputEvent) -> None:
        if isinstance(event, Roll):
            if self._menu is not None and self._menu.take_dice is not None:  # a past roll being mended
                if event.settle is not None:
                    self._unsettled.append(event.settle)  # its dice are the menu's now: handled
                self._menu.take_dice(event.rolled)
                return
            if self._menu is not None and self._menu.holds_rolls:
                self._waiting.append(event)  # thrown while the table answers "Re-roll last?": it waits
                self.message = "roll waits for the answer"
                return
            self._take_roll(event)
        elif isinstance(event, Press):
            self._on_press(event.button)
        elif isinstance(event, Hold):
            self._on_hold(event.button)
        elif isinstance(event, SourceStatus):
            self._source_status(event)
        elif isinstance(event, SourceFault):
            self.message = f"{source_name(event.source)}: {event.text}, throw again"
        elif isinstance(event, Decide):
            self._accept(event.event)
        elif isinstance(event, Notice):
            self.notice(event.text)
        elif isinstance(event, Say):
            self.message = event.text
        elif isinstance(event, Ask):
            self.menus.ask(event)
        elif isinstance(event, Quit):
            self.stopped = True

    def _take_roll(self, roll: Roll) -> None:
        if roll.settle is not None:  # settled by _settle_rolls once on disk, or refused for good and said
            self._unsettled.append(roll.settle)
        self._on_roll(roll.rolled, roll.ref())

    def _take_waiting(self) -> None:
        """The rolls that waited for a question's answer, now answered, in the order they came."""
        waiting, self._waiting = self._waiting, []
        for roll in waiting:
            try:
                self._take_roll(roll)
            except CompanionError as exc:
                self.message = str(exc)

    def notice(self, text: str) -> bool:
        """A lasting condition ("projector: no display"), said once: kept in the panel's notices (the
        projector's status strip) and, the first time, the OLED's footer until the next input, since
        the OLED has no other line for it. False when it was said already."""
        if text in self.notices:
            return False
        self.notices.append(text)
        self.message = text
        return True

    def _source_status(self, event: SourceStatus) -> None:
        """Show a source's state inline; log only its arrival (the first time, and back after being away)
        and a version mismatch. The source logs a loss itself, so an unplug and replug is two lines however
        long the cable stays out."""
        state = event.state if event.state in TOWER_STATES else "waiting"
        name = event.source
        before = self.sources.get(name, "off")
        self.sources[name] = state
        detail = f" ({event.detail})" if event.detail else ""
        if state == "away":
            self._away.add(name)
        elif state == "connected" and (name not in self._seen or name in self._away):
            log.info("%s %s%s", name, "back" if name in self._seen else "connected", detail)
            self._seen.add(name)
            self._away.discard(name)
        elif state == "mismatch" and before != "mismatch":
            log.warning("%s refused%s", name, detail)

    def tick(self) -> bool:
        """Periodic housekeeping from the loop: retry a journal waiting for disk space (a write finishing
        behind the drawing is joined first, so its rolls are settled even when no frame followed it)."""
        self.journal.join()
        if self.journal.degraded:
            self.journal.retry()
        self._settle_rolls()
        return self._refresh()

    # -- the game ----------------------------------------------------------------------------------

    def prompt(self) -> Prompt | None:
        return self.run.prompt() if self.run else None

    def wanted(self) -> tuple[str, ...]:
        """Dice kinds the box is waiting for right now (empty when it waits for something else)."""
        if self.run is None or self._menu is not None:
            return ()
        return match_dice(self._request_kinds(), self.request.partial).missing

    def rerolling(self) -> bool:
        """A re-roll is armed: the next roll replaces the last one."""
        return self.request.reroll

    def _request_kinds(self) -> tuple[str, ...]:
        """The dice the open request takes in all: the prompt's, the last roll's for a re-roll, or one
        pick's throw when a shuffle is answered with dice."""
        run = self._require_game()
        if self.request.reroll:
            last = run.last_roll()
            return tuple(d.kind for d in last.dice) if last is not None else ()
        prompt = run.prompt()
        if asks_shuffle(prompt):
            return deal_for(prompt, self.request).need() if deals_by_dice(prompt) else ()
        return prompt.dice

    def _on_roll(self, roll: DiceRolled, ref: RollRef | None = None) -> None:
        if self.run is None or self._menu is not None:
            raise CompanionError(f"roll ignored ({', '.join(str(d) for d in roll.dice)}): a menu is open")
        wanted = self.wanted()
        if not wanted:
            prompt = self.prompt()
            if prompt is not None and asks_shuffle(prompt):
                raise CompanionError(f"{prompt.shuffle} cards are too many to deal with dice: press ROLL")
            raise CompanionError(f"not waiting for dice: {prompt.short or prompt.text}" if prompt else "no game")
        match = match_dice(wanted, roll.dice)
        if not match.taken:
            need = " + ".join(k.upper() for k in wanted)
            raise CompanionError(f"need {need}, got {', '.join(str(d) for d in roll.dice) or 'no dice'}")
        notes = []
        if match.refused:
            notes.append(f"refused {', '.join(str(d) for d in match.refused)}")
        if match.extra:
            notes.append(f"extra ignored: {', '.join(str(d) for d in match.extra)}")
        self.request = self.request.with_(partial=(*self.request.partial, *match.taken), entry=None)
        if ref is not None:
            self._taken.append(ref)
        if match.missing:
            self.message = "; ".join(notes)
            return
        complete = in_request_order(self._request_kinds(), self.request.partial)
        prompt = self.run.prompt()
        if asks_shuffle(prompt) and not self.request.reroll:
            notes.append(self._deal_pick(prompt, complete, roll.source))
        elif self.request.reroll:
            try:
                self.run.replace_last(DiceRolled(complete, roll.source), self._taken)
            finally:
                self.request = OpenRequest()
        else:
            self.request = self.request.with_(partial=())
            self._accept(DiceRolled(complete, roll.source), self._taken)
        self.message = "; ".join(n for n in notes if n)

    def _deal_pick(self, prompt: Prompt, dice: tuple[Die, ...], source: str) -> str:
        """One throw of a shuffle by dice; the finished permutation is the event journaled."""
        before = deal_for(prompt, self.request)
        after = before.feed(dice)
        if after.done:
            self.request = self.request.with_(partial=())
            self._accept(after.result(source), self._taken)
            return ""
        self.request = self.request.with_(partial=(), dealing=after)
        if after.thrown_again > before.thrown_again:
            return f"{' '.join(str(d) for d in dice)} cannot pick evenly among {after.choices}: throw again"
        return f"card {after.placed} of {after.deal} picked"

    def _accept(self, event: Event, rolls: Sequence[RollRef] = ()) -> None:
        """Apply, journal, then (by returning) let the panel show it: never the other way round. ``rolls``: the
        source rolls the event's dice came from, journaled with it."""
        self._require_game().accept(event, tuple(rolls))  # RuleError: nothing changed
        self.request = OpenRequest()
        self._taken.clear()

    def undo(self) -> None:
        self._require_game().undo()
        self.request = OpenRequest()  # an undo while a re-roll was armed takes the re-roll back too
        self.message = "undone"

    def digest(self) -> str:
        """A fingerprint of the game on the table (id, events, status, prompt): equal iff the same game state."""
        return self.run.digest() if self.run is not None else "none"

    def _require_game(self) -> GameRun:
        if self.run is None:
            raise CompanionError("no game on the table: choose one from the menu")
        return self.run

    def shown_options(self) -> list[Option]:
        """The options the OLED lists now, what the arrows step through: the decision's, or while a place's short
        list is open (:attr:`OpenRequest.listing`), that place's only."""
        options = self.options() if self._menu is None else []
        listed = self._here(options)
        return [options[i] for i in listed] if listed else options

    def _here(self, options: Sequence[Option]) -> tuple[int, ...]:
        """The options of the place whose short list is open (indexes into ``options``), else none."""
        if options and self.request.listing and (moves := self._offered()[1]) is not None:
            return moves.here(cursor(options, self.request.choice))
        return ()

    def options(self) -> list[Option]:
        """The choices open now (a decision prompt), each with its label, event and place if any.

        Computed once per state (states are immutable): a press that only moves the cursor asks again, and an
        engine's list can be long to make (Carcassonne's every legal space of a tile, each press twice before)."""
        run = self.run
        if run is None:
            return []
        return self._offered()[0].copy()

    def _offered(self) -> tuple[Offered, BoardCursor | None]:
        """The options of the current state and their board cursor, worked out once per state (a game on the
        table; :mod:`companion.session.board_cursor`: where the cursor starts, how the arrows move on the board)."""
        run = self._require_game()
        listed = self._listed
        if listed is None or listed[0] is not run or listed[1] is not run.state:
            prompt = run.prompt()
            found = tuple(options_for(run.game, run.state, prompt)) if prompt.actions else ()
            before = listed[2] if listed is not None and listed[0] is run else None
            offered, moves = offer(run.game, run.state, found, run.live[-1].event if run.live else None, before)
            listed = self._listed = (run, run.state, offered, moves)
        return listed[2], listed[3]

    # -- buttons -----------------------------------------------------------------------------------

    def _on_press(self, button: str) -> None:
        if button == "OVERLAY":
            self.overlay = not self.overlay
            return
        if self._menu is not None:
            self._menu.press(button)
            return
        if self.run is None:
            self._main_menu()
            return
        prompt = self.run.prompt()
        if button == "BACK":
            if self.request.listing:  # out of a place's short list: the cursor stays on that place
                self.request = moved(*self._offered(), self.request, "BACK") or self.request
            elif self.request.busy():
                self.request = OpenRequest()
                self.message = "cleared"
            else:
                self._main_menu()
            return
        if prompt.done and not self.request.reroll:
            if button == "OK":
                self._main_menu()
            return
        if asks_shuffle(prompt) and button == "ROLL" and not self.request.reroll:
            self._accept(self._dice.shuffle(prompt.shuffle))  # the whole shuffle at once, a deal by dice dropped
        elif self.wanted():
            dice_press(self, button)
        elif prompt.actions:
            choice_press(self, button)

    def decision(self) -> tuple[Offered, BoardCursor | None]:
        """The options open now and their board cursor (None: a list), worked out once per state."""
        return self._offered()

    def take_dice(self, rolled: DiceRolled) -> None:
        """Dice for the open request, rolled by the box (ROLL) or typed (UP/DOWN, OK)."""
        self._on_roll(rolled)

    def pick(self, option: Option) -> None:
        """The option the table picked: journaled at once, or asked first when it ends the game."""
        if ends(option) and self._ends_game(option):
            self._confirm(f"{option.label}?", partial(self._accept, option.event))
            return
        self._accept(option.event)

    def presses_to(self, option: int) -> list[str]:
        """The fewest presses that bring the cursor to ``option`` of :meth:`options` and pick it (the last is OK),
        as the buttons work now (on the board or down a list): for drivers that play as a table does, and for
        counting a table's presses. With a menu of the box's own open, ``option`` is one of its items."""
        if self._menu is not None:
            return ["DOWN"] * ((option - self._menu.selected) % len(self._menu.labels)) + ["OK"]
        options, moves = self._offered()
        return route(options, moves, self.request, option)

    def _ends_game(self, option: Option) -> bool:
        """Whether taking ``option`` ends the game (asked to confirm first); a refused one is left to say why."""
        run = self._require_game()
        try:
            return bool(run.game.prompt(run.game.apply(run.state, option.event)).done)
        except CompanionError:
            return False

    def _on_hold(self, button: str) -> None:
        if button == "BACK" and self.run is not None:
            if not self.run.live:
                self.message = "nothing to undo"
                return
            self._confirm("Undo last?", self.undo)
        elif button == "ROLL" and self.run is not None:
            if self.run.last_roll() is None:  # say so now, not after a question that cannot be granted
                self.message = "nothing to re-roll: the last event is not a roll"
                return
            self._confirm("Re-roll last?", self._arm_reroll)
        elif button == "RIGHT":
            self.overlay = not self.overlay
        elif button in ("OK", "UP", "DOWN", "LEFT", "OVERLAY"):
            self._on_press(button)

    def _arm_reroll(self) -> None:
        last = self._require_game().last_roll()
        if last is None:
            raise CompanionError("the last event is not a roll")
        self.request = OpenRequest(reroll=True)
        kinds = " + ".join(d.kind.upper() for d in last.dice)
        self.message = f"re-roll {kinds}: the next roll replaces the last"

    # -- the box's own menus (built in companion.session.box_menus) ---------------------------------

    def show_menu(self, menu: MenuState | None, fresh: bool = False) -> None:
        """Put ``menu`` on the OLED (None: back to the game); ``fresh`` starts the open request afresh too."""
        self._menu = menu
        if fresh:
            self.request = OpenRequest()

    def menu_games(self) -> Sequence[str]:
        return self._keys if self._keys is not None else registered_keys()

    def open_games(self) -> list[GameRecord]:
        return [g for g in self.journal.games() if not g.finished]

    def engine(self, key: str) -> Game[Any]:
        return self._loader(key, self.maps)

    def take_waiting(self) -> None:
        self._take_waiting()

    def throw(self, kinds: tuple[str, ...]) -> DiceRolled:
        return self._dice.roll(kinds)

    def _main_menu(self) -> None:
        self.menus.main()

    def _confirm(self, title: str, yes: Callable[[], None]) -> None:
        self.menus.confirm(title, yes)

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
        """Rebuild the panel and frame; True when either differs from what was shown. A game whose engine fails
        while it is drawn is set aside (:meth:`_set_aside`) and the menu drawn instead."""
        try:
            return self._build()
        except Exception as exc:
            if self.run is None:
                raise
            self._set_aside(exc)
            return self._build()

    def _build(self) -> bool:
        """Compose the panel and frame and keep them; True when either differs from what was shown."""
        panel, frame = self._compose()
        changed = frame != self._frame or frame.state is not self._frame.state
        self._panel, self._frame = panel, frame
        return changed

    def _compose(self) -> tuple[Panel, Frame]:
        """The panel and frame of the box as it stands now (the engine's prompt, options and board asked)."""
        notice = self.journal.notice
        # A write trouble notice lasts while entries wait in memory; only the current one is shown.
        self.notices = [n for n in self.notices if not Journal.is_write_notice(n) or n == notice]
        if notice and notice not in self.notices:
            self.notices.append(notice)
        options = self.options() if self._menu is None else []
        menu = self._menu
        return compose(self.run, self.request, menu=menu.view() if menu else None, options=options,
                       listed=self._here(options),
                       menu_place=menu.place() if menu else None,
                       wanted=self.wanted(), tower=self.tower,
                       sources=tuple((source_name(n), s) for n, s in self.sources.items() if n != "tower"),
                       message=self._footer(), notices=tuple(self.notices), overlay=self.overlay)

    def _footer(self) -> str:
        """The passing message, else, while entries wait in memory, a short "not saved" that stays: the OLED's
        footer is the one line every screen keeps, and a box without a projector has no other place to say it."""
        if self.message or not self.journal.degraded:
            return self.message
        return "disk full: not saved" if self.journal.notice == Journal.DISK_FULL else "journal: not saved"
