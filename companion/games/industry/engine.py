"""The Age of Industry engine: the box's ledger of what is built, the Japan card display and the deck, as a fold.

The table plays with its own cards and board; the box keeps the parts players get wrong or count slowly: what
stands where (entered step by step, see :mod:`entries`), the card display of the Japan map, the deck count that
ends the game, the sea lanes and Minnesota's markets, and the rail-link ledger.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from companion.dice import Choice, Event, Prompt, Shuffled
from companion.errors import RuleError
from companion.games.base import Option, SetupQuestion
from companion.games.industry import ledger
from companion.games.industry.data import MAPS, Board, Rules
from companion.games.industry.entries import (
    ENTRIES,
    LINK,
    Candidate,
    Entry,
    Step,
    Table,
    card_kinds,
    card_label,
    players_in_turn,
    short,
)
from companion.games.industry.state import EMPTY, TO_DEAL, UNNAMED, IndustryState, Slot
from companion.games.layout import laid_out, page
from companion.places import GraphBoard, Link, Location, Place

DEAL_MODES: tuple[str, ...] = ("table", "box")
"""The Japan display's cards: said by the players ("table") or dealt by the box from its own list ("box")."""
TURN_ACTIONS: tuple[str, ...] = ("card", "faceup", "draw", "end_turn")
PAGE = "page"
"""A long list (the locations of a map) is offered a page at a time: the page picked is a step of its own."""
PAGE_SIZE = 10
NEAR = 8
"""A long list of places starts with the few nearest the last entry, then its pages by name."""
ORDER: tuple[str, ...] = ("industry", "link", "card", "faceup", "sell", "end_turn", "ship", "take", "market", "draw",
                          "flip", "remove", "connected")
"""The idle list: the entries made most often first, and the end of the turn a few presses down (never first, and
never where a wrap of the list lands: the session keeps the cursor off it)."""
ENDS = "end_turn"
"""An entry's argument: the entry completes the turn's actions and ends the turn with it (the display slides and
refills), as if "End turn" followed. Offered on the last step when every player's actions would then be taken; an
entry without it (every journal from before) ends nothing."""
COUNTED: dict[str, str] = {"industry": "build", "ship": "build", "link": "link", "sell": "sell", "flip": "sell",
                           "card": "cards", "faceup": "cards"}
"""The entries that are a player's action, by the kind of action (maps/industry.toml, players.actions_per_turn)."""
DROPPED = "dropped"
"""The event standing in place of an entry a mend set aside (:meth:`IndustryGame.dropped`): nothing is entered, and
the entry it completed is no longer under way (its earlier steps only gave answers)."""
ONE_ACTION = frozenset({"sell", "cards"})
"""Kinds of action made of several entries in a row by one player (cubes sold, cards taken): one action."""


class IndustryGame:
    """Age of Industry: Japan and Minnesota, keeping the :class:`companion.games.base.Game` contract."""

    key = "industry"
    title = "Age of Industry: Japan and Minnesota"

    def __init__(self, rules: Rules, boards: Mapping[str, Board]) -> None:
        self.rules = rules
        self.boards = dict(boards)

    def board(self, state: IndustryState) -> Board:
        return self.boards[state.map]

    @staticmethod
    def dropped() -> Choice:
        """What stands in place of an entry a mend sets aside (one a correction made illegal): enters nothing and
        ends the entry under way whose step it was, so the journal keeps every row and replays as mended."""
        return Choice(DROPPED, {})

    def table(self, state: IndustryState) -> Table:
        return Table(self.rules, self.boards[state.map], state)

    # -- setup --------------------------------------------------------------------------------------
    def setup_questions(self) -> list[SetupQuestion]:
        r = self.rules
        return [SetupQuestion("map", "map", tuple(MAPS)),
                SetupQuestion("players", "players", tuple(range(r.min_players, r.max_players + 1))),
                SetupQuestion("display", "Japan display", DEAL_MODES)]

    def asks(self, name: str, chosen: Mapping[str, Any]) -> bool:
        """Who deals the display is asked only for a map that has one (Japan; Minnesota has none)."""
        if name != "display":
            return True
        board = next((b for key, b in self.boards.items() if str(chosen.get("map", "")).lower() == key.lower()), None)
        return board is None or board.has_display

    def new_game(self, options: Mapping[str, Any]) -> IndustryState:
        """Options: ``map`` ("Japan" or "Minnesota"), ``players`` (a count; the first colours of
        maps/industry.toml play), ``display`` ("table" or "box": who deals the Japan display)."""
        name = options.get("map", "Japan")
        match = next((m for m in self.boards if isinstance(name, str) and m.lower() == name.lower()), None)
        if match is None:
            raise RuleError(f"map: expected one of {', '.join(self.boards)}, got {name!r}")
        r = self.rules
        n = options.get("players", 3)
        if isinstance(n, bool) or not isinstance(n, int) or not r.min_players <= n <= r.max_players:
            raise RuleError(f"players: Age of Industry is for {r.min_players}..{r.max_players} players, got {n!r}")
        mode = options.get("display", "table")
        if mode not in DEAL_MODES:
            raise RuleError(f"display: expected one of {', '.join(DEAL_MODES)}, got {mode!r}")
        board = self.boards[match]
        deck = len(board.deck) - r.hand * n - (0 if board.has_display else r.beside_board)
        if deck <= 0:
            raise RuleError(f"the {board.name} deck of {len(board.deck)} cards cannot deal {r.hand} to {n} players")
        state = IndustryState(map=match, players=r.colours[:n], deck=deck, deal_mode=mode,
                              demand=tuple(sorted((k, d.filled) for k, d in board.demand.items())),
                              recent=(f"{board.name}: {n} players, deck {deck}",))
        if board.has_display:  # "At the start of the game place six cards face up in the spaces"
            state = replace(state, phase="deal", display=tuple(Slot() for _ in board.display_costs),
                            box_deck=board.deck if mode == "box" else ())
        else:  # the standard game's face-up cards beside the board, dealt with the hands, named as the table says
            state = replace(state, beside=(UNNAMED,) * r.beside_board)
        return state

    # -- the fold -----------------------------------------------------------------------------------
    def apply(self, state: IndustryState, event: Event) -> IndustryState:
        if isinstance(event, Choice) and event.action == DROPPED:  # set aside at a mend, with its earlier steps
            if event.args:
                raise RuleError("an entry dropped at a mend takes no details")
            return replace(state, pending="", args=(), recent=("An entry dropped at a mend",))
        if state.phase == "over":
            raise RuleError("the game is over: the deck is exhausted")
        if state.phase == "deal":
            return self._deal(state, event)
        if not isinstance(event, Choice):
            raise RuleError(f"waiting for an entry, not a {type(event).__name__}")
        if state.beside and not state.pending and event.action == "deal":
            return self._deal_beside(state, event)
        if TO_DEAL in state.beside:
            raise RuleError("a card is being dealt face up beside the board: say which card first (deal)")
        if event.action == "cancel":
            return replace(state, pending="", args=(), recent=("Cancelled",))
        if state.pending and event.action != state.pending:
            raise RuleError(f"finish or cancel '{self._entry(state, state.pending).label}' first")
        if state.pending:  # a step goes on from the steps given: it never says one of them otherwise
            given_before = state.pending_args()
            if any(k != PAGE and k in given_before and given_before[k] != v for k, v in event.args.items()):
                raise RuleError(f"'{self._entry(state, state.pending).label}' is under way with other answers: "
                                f"cancel it first")
        entry = self._entry(state, event.action)
        t = self.table(state)
        args = dict(event.args)
        page = args.pop(PAGE, None)
        closing = args.pop(ENDS, False)
        if not isinstance(closing, bool) or (closing and event.action == "end_turn"):
            raise RuleError(f"'{entry.label}': {ENDS} is true or false with an entry, not {closing!r}")
        given, complete = self._walk(t, entry, args)
        if closing and not complete:
            raise RuleError(f"'{entry.label}' ends the turn only with its last step")
        if not complete:
            if page is not None and (isinstance(page, bool) or not isinstance(page, int) or page < 0):
                raise RuleError(f"no page {page!r} of a list")
            kept = {**given, PAGE: page} if page is not None else given
            return replace(state, pending=entry.key, args=tuple(kept.items()), recent=())
        if event.action in TURN_ACTIONS:
            done = self._turn(replace(state, pending="", args=()), event.action, given)
        else:
            done = replace(entry.perform(t, given), pending="", args=())
        done = self._count(t, event.action, given, self._remember(t, event.action, given, done))
        if closing:
            ended = self._end_turn(done)
            return replace(ended, recent=(*done.recent, *ended.recent))
        return done

    def _acting(self, t: Table, action: str, a: dict[str, Any]) -> tuple[str, str] | None:
        """The action an entry is, as (player, kind of action), or None: an entry that is no action of its own (a
        cube taken, a counter removed, a card paid for: used at once for the action it pays for)."""
        kind = COUNTED.get(action)
        if kind is None or (action == "card" and a.get("how") == "paid"):
            return None
        who = t.counter(a["counter"]).owner if action == "flip" else a.get("owner") or a.get("player")
        return (str(who), kind) if who in t.state.players else None

    def _count(self, t: Table, action: str, a: dict[str, Any], done: IndustryState) -> IndustryState:
        act = self._acting(t, action, a) if self.rules.actions_per_turn else None
        if act is None or (act[1] in ONE_ACTION and done.acted and done.acted[-1] == act):
            return done
        return replace(done, acted=(*done.acted, act))

    def _completes_turn(self, t: Table, action: str, a: dict[str, Any]) -> bool:
        """Whether this entry, complete, would leave every player with the turn's actions taken."""
        most = self.rules.actions_per_turn
        if not most:
            return False
        after = self._count(t, action, a, t.state)
        return after is not t.state and all(after.actions_of(p) >= most for p in t.state.players)

    @staticmethod
    def _remember(t: Table, action: str, a: dict[str, Any], done: IndustryState) -> IndustryState:
        """What the next entry's lists start with: where this one happened (a link's new end), its industry, its
        player."""
        where = a.get("to") or a.get("location")
        source = a.get("source") or a.get("counter")
        if action == "ship" or (action == "market" and "space" in a):
            where = t.board.ships[a["space"]].ends[0]
        elif isinstance(source, str) and source.startswith("ship:"):
            where = t.board.ships[source[5:]].ends[0]
        elif isinstance(source, str) and "/" in source:
            where = source.partition("/")[0]
        who = a.get("owner") or a.get("player")
        return replace(done,
                       last_place=where if isinstance(where, str) and where in t.board.spots else done.last_place,
                       last_kind=str(a["kind"]) if action == "industry" else done.last_kind,
                       last_owner=who if isinstance(who, str) and who in t.state.players else done.last_owner)

    def _entry(self, state: IndustryState, action: str) -> Entry:
        known = self._actions(state)
        entry = ENTRIES.get(action) or TURN_ENTRIES.get(action)
        if entry is None or action not in known:
            raise RuleError(f"no entry {action!r} on the {state.map} map (entries: {', '.join(known)})")
        return entry

    @staticmethod
    def _walk(t: Table, entry: Entry, args: dict[str, Any]) -> tuple[dict[str, Any], bool]:
        """Check the steps given, in order; (the checked arguments, whether every step is given).

        A step the rules leave one answer to is not asked: that answer is taken. But the last step is always the
        table's press, even with one answer: an entry never completes on answers the box took itself, so a journal
        from before, which gave each step in an event of its own, replays step by step as it was made (an entry
        completed early would turn its next step's event into a second entry)."""
        given: dict[str, Any] = {}
        taken = ""
        for step in entry.steps:
            if not step.when(t, given):
                continue
            if step.field not in args and len(only := _legal(t, step, given, 2)) == 1:
                given[step.field] = only[0][1]
                taken = step.field
                continue
            if step.field not in args:
                extra = set(args) - set(given)
                if extra:
                    raise RuleError(f"'{entry.label}': give {step.field} before {', '.join(sorted(extra))}")
                return given, False
            step.check(t, given, args[step.field])
            given[step.field] = args[step.field]
            taken = ""
        if taken and taken == list(given)[-1]:
            del given[taken]
            return given, False
        return given, True

    def _actions(self, state: IndustryState) -> list[str]:
        t = self.table(state)
        keys = [k for k, e in ENTRIES.items() if e.available(t)]
        turn = [k for k, e in TURN_ENTRIES.items() if e.available(t)]
        return keys + turn

    # -- the card display, the deck and the end of the turn -----------------------------------------
    def _turn(self, state: IndustryState, action: str, given: dict[str, Any]) -> IndustryState:
        if action == "card":
            return self._take_card(state, given)
        if action == "draw":
            return self._draw(state, int(given["count"]))
        if action == "faceup":
            return self._take_beside(state, given)
        return self._end_turn(state)

    def _take_beside(self, state: IndustryState, a: dict[str, Any]) -> IndustryState:
        """A player takes a face-up card from beside the board: its place waits for the card dealt from the deck,
        at once or at the end of the turn as the map's data reads it (none once the deck is exhausted)."""
        board, i = self.board(state), int(a["card"])
        name = card_label(board, self.rules, state.beside[i])
        line = f"{a['player']} takes {name} (face up)"
        if state.deck == 0:
            after, said = EMPTY, "The deck is exhausted: nothing to replace it"
        elif board.faceup_refill == "at_once":
            after, said = TO_DEAL, "Deal a card face up in its place"
        else:
            after, said = EMPTY, "Its place is dealt at the end of the turn"
        beside = tuple(after if j == i else c for j, c in enumerate(state.beside))
        return replace(state, beside=beside, recent=(line, said))

    def _deal_beside(self, state: IndustryState, event: Choice) -> IndustryState:
        """A face-up card beside the board said by its kind: one dealt at the start and not yet named (the deck
        counted it then), or the card dealt from the deck into an empty place (the deck goes down)."""
        board = self.board(state)
        card = event.args.get("card")
        if not isinstance(card, str) or (card not in card_kinds(board)
                                         and not (card.startswith("at:") and card[3:] in board.spots)):
            raise RuleError(f"no card {card!r} in the {board.name} deck")
        name = card_label(board, self.rules, card)
        if UNNAMED in state.beside:
            i = state.beside.index(UNNAMED)
            beside = tuple(card if j == i else c for j, c in enumerate(state.beside))
            return replace(state, beside=beside, recent=(f"Face up beside the board: {name}",))
        if TO_DEAL not in state.beside:
            raise RuleError("no card is being dealt face up beside the board")
        i = state.beside.index(TO_DEAL)
        beside = tuple(card if j == i else c for j, c in enumerate(state.beside))
        deck = state.deck - 1
        lines = [f"{name} face up beside the board: deck {deck}"]
        if deck == 0:
            lines.append("The deck is exhausted: the game ends at the end of this turn")
            beside = tuple(EMPTY if c == TO_DEAL else c for c in beside)
        return replace(state, beside=beside, deck=deck, recent=tuple(lines))

    def _take_card(self, state: IndustryState, a: dict[str, Any]) -> IndustryState:
        """The rules: "You can choose to take cards from here if you choose the Take Cards action, at no cost.
        Alternatively, you can pay the amount marked under the space to take a card and use it immediately." """
        board, i = self.board(state), int(a["space"])
        slot = state.display[i]
        cost = board.display_costs[i]
        display = tuple(replace(s, taken=f"{a['player']} {a['how']}") if j == i else s
                        for j, s in enumerate(state.display))
        pay = "free (Take Cards)" if a["how"] == "free" else f"pay ${cost}"
        name = card_label(board, self.rules, slot.card)
        return replace(state, display=display, recent=(f"{a['player']} takes {name} from space {i + 1}: {pay}",))

    def _draw(self, state: IndustryState, n: int) -> IndustryState:
        deck = state.deck - n
        lines = [f"{n} card{'s' if n > 1 else ''} from the deck: {deck} left"]
        if deck == 0:
            lines.append("The deck is exhausted: the game ends at the end of this turn")
        return replace(state, deck=deck, recent=tuple(lines))

    def _end_turn(self, state: IndustryState) -> IndustryState:
        """The rules: "At the end of the turn remove any coal or ironworks cards and place in the discard pile.
        Then move all of the remaining cards to the lower value spaces, retaining their relative positions. Then
        refill the display to six cards, if possible." The game ends when the deck is exhausted, cards on display
        or not."""
        board = self.board(state)
        state = replace(state, acted=())
        if state.deck == 0:
            return self._over(state)
        if not board.has_display:  # places left empty beside the board are dealt now
            beside = tuple(TO_DEAL if c == EMPTY else c for c in state.beside)
            to_deal = beside.count(TO_DEAL)
            return replace(state, turn=state.turn + 1, beside=beside, recent=(
                f"Turn {state.turn + 1}" + (f": {to_deal} face up to deal beside the board" if to_deal else ""),))
        kept = [s.card for s in state.display if s.card and not s.taken and s.card not in board.display_discard]
        gone = [s.card for s in state.display if s.card and not s.taken and s.card in board.display_discard]
        display = tuple(Slot(c) for c in kept) + tuple(Slot() for _ in range(len(board.display_costs) - len(kept)))
        to_deal = len(board.display_costs) - len(kept)
        lines = [f"Turn {state.turn + 1}: display slides, {to_deal} to deal" if to_deal
                 else f"Turn {state.turn + 1}: the display is full, nothing to deal"]
        if gone:
            lines.append("Discarded: " + ", ".join(card_label(board, self.rules, c) for c in gone))
        return replace(state, turn=state.turn + 1, display=display, phase="deal" if to_deal else "play",
                       recent=tuple(lines))

    def _over(self, state: IndustryState) -> IndustryState:
        sums = ledger.totals(self.board(state), self.rules, state)
        return replace(state, phase="over", pending="", args=(),
                       recent=("Deck exhausted: game over", "Rail links: " + _money(sums)))

    def _deal(self, state: IndustryState, event: Event) -> IndustryState:
        """Refill the display card by card into the cheapest empty space; the deck count goes down with each."""
        board = self.board(state)
        if state.deal_mode == "box":
            gone, want = self._box_gone(state), self._box_deal_size(state)
            if not isinstance(event, Shuffled):
                raise RuleError(f"waiting for the box's deck to be shuffled ({len(state.box_deck)} cards)")
            if sorted(event.order) != list(range(len(state.box_deck))):
                raise RuleError(f"need a shuffle of {len(state.box_deck)} cards, got {len(event.order)}")
            # The cards in hands and drawn since the last deal leave the list first, unseen (the box's list is
            # the deck as it stands), then the display's cards are dealt from what is left.
            cards = [state.box_deck[i] for i in event.order[gone:gone + want]]
            rest = tuple(state.box_deck[i] for i in event.order[gone + want:])
            state = replace(state, box_deck=tuple(sorted(rest)))
        else:
            if not isinstance(event, Choice) or event.action != "deal":
                raise RuleError("the display is being refilled: say which card was dealt (deal)")
            card = event.args.get("card")
            known = card_kinds(board)
            if card not in known and not (isinstance(card, str) and card.startswith("at:")
                                          and card[3:] in board.spots):
                raise RuleError(f"no card {card!r} in the {board.name} deck")
            cards = [str(card)]
        slots = list(state.display)
        names = []
        deck = state.deck
        for card in cards:
            i = next(j for j, s in enumerate(slots) if not s.card)
            slots[i] = Slot(card)
            deck -= 1
            names.append(f"{card_label(board, self.rules, card)} in space {i + 1}")
        state = replace(state, display=tuple(slots), deck=deck, recent=tuple(names))
        if deck == 0:
            return replace(self._over(state), recent=(*names, *self._over(state).recent))
        if all(s.card for s in slots) or (state.deal_mode == "box" and not state.box_deck):
            return replace(state, phase="play")
        return state

    def _box_deal_size(self, state: IndustryState) -> int:
        empty = sum(1 for s in state.display if not s.card)
        return max(0, min(empty, state.deck, len(state.box_deck) - self._box_gone(state)))

    @staticmethod
    def _box_gone(state: IndustryState) -> int:
        """Cards of the box's list now in players' hands or drawn since its last deal: after each deal the list
        is the deck (its count), so what it holds beyond the count has left the deck meanwhile."""
        return max(0, len(state.box_deck) - state.deck)

    # -- what the table sees ------------------------------------------------------------------------
    def last_round(self, state: IndustryState) -> bool:
        """The box says a round ahead that the deck runs out: when one round's draws and refills may take it."""
        board = self.board(state)
        reach = len(state.players) * self.rules.draws_per_player_turn + len(board.display_costs) + len(state.beside)
        return state.phase != "over" and 0 < state.deck <= reach

    def prompt(self, state: IndustryState) -> Prompt:
        board = self.board(state)
        money = _money(ledger.totals(board, self.rules, state))
        if state.phase == "over":
            return Prompt(f"Game over: the deck is exhausted. Rail links: {money}", "Game over", done=True)
        if state.phase == "deal":
            empty = sum(1 for s in state.display if not s.card)
            if state.deal_mode == "box":
                k = self._box_deal_size(state)
                return Prompt(f"The box deals {k} display card{'s' if k > 1 else ''}: shuffle its deck",
                              f"Deal {k}: shuffle", shuffle=len(state.box_deck), deal=self._box_gone(state) + k)
            i = next(j for j, s in enumerate(state.display) if not s.card)
            return Prompt(f"Deal a card into display space {i + 1} (${board.display_costs[i]}): which kind? "
                          f"{empty} to deal, deck {state.deck}", f"Space {i + 1}: which card?", actions=("deal",))
        warn = " The deck may run out this round: the game ends at the end of the turn it does." \
            if self.last_round(state) else ""
        if self._naming(state):
            to_deal = TO_DEAL in state.beside
            i = state.beside.index(TO_DEAL if to_deal else UNNAMED)
            what = "the card dealt in place of the one taken" if to_deal else "the card dealt at the start"
            return Prompt(f"Face up beside the board, place {i + 1} of {len(state.beside)}: {what}, which kind? "
                          f"Deck {state.deck}", "Face up: which card?", actions=("deal",))
        if state.pending:
            entry = self._entry(state, state.pending)
            step = self._next_step(state)
            ask = step.ask if step else "?"
            given = state.pending_args()
            if state.pending == "link" and step is not None and step.field == "to":  # the OLED says which end
                ask = _oled(f"From {short(board.spots[given['from']].name, 10)}", " to?")
            elif state.pending == "link" and step is not None and step.field == "owner":  # and which link
                ask = _oled(f"{short(board.spots[given['from']].name, 7)}-{short(board.spots[given['to']].name, 7)}",
                            " whose?")
            return Prompt(f"{entry.label}: {ask}", ask, actions=(state.pending, "cancel"))
        return Prompt(f"Turn {state.turn}: enter what is built, or end the turn. Rail links: {money}.{warn}",
                      f"Turn {state.turn}: entry?", actions=tuple(self._actions(state)))

    def _next_step(self, state: IndustryState) -> Step | None:
        entry = self._entry(state, state.pending)
        t = self.table(state)
        given = state.pending_args()
        for step in entry.steps:
            if step.when(t, given) and step.field not in given:
                return step
        return None

    def status(self, state: IndustryState) -> str:
        phase = {"deal": "dealing", "play": "", "over": "game over"}[state.phase]
        warn = " - last round?" if self.last_round(state) else ""
        return f"{state.map} turn {state.turn} - deck {state.deck}{' - ' + phase if phase else ''}{warn}"

    def recap(self, state: IndustryState) -> tuple[str, ...]:
        return state.recent

    # -- the decisions open now ---------------------------------------------------------------------
    def choices(self, state: IndustryState) -> list[Option]:
        """Idle: one option per entry that has something to enter; during an entry: the values its next step
        allows (sorted by name), then Cancel; while dealing the display: the card kinds."""
        if state.phase == "over" or (state.phase == "deal" and state.deal_mode == "box"):
            return []
        board = self.board(state)
        if state.phase == "deal" or self._naming(state):
            return [Option(card_label(board, self.rules, k), Choice("deal", {"card": k}))
                    for k in self._likely_cards(state)]
        t = self.table(state)
        if state.pending:
            step = self._next_step(state)
            given = state.pending_args()
            page = given.pop(PAGE, None)
            if step is None:
                return [Option("Cancel", Choice("cancel", {}))]
            out = [Option(label, Choice(state.pending, {**given, step.field: value}), place)
                   for label, value, place in _near_first(t, _legal(t, step, given))]
            if len(out) > PAGE_SIZE + 2:
                near = out[:NEAR] if state.last_place and out[0].place is not None else []
                pages = _pages(sorted(out[len(near):], key=lambda o: o.label))
                if page is None:
                    out = [*near, *(Option(f"{p[0].label} to {p[-1].label}", Choice(state.pending, {**given, PAGE: i}))
                                    for i, p in enumerate(pages))]
                else:
                    out = pages[min(page, len(pages) - 1)]
            out = self._closing(t, out)
            if state.pending == "link" and step.field in ("to", "owner"):  # the link starts elsewhere: ask where
                out.append(Option("Other start", Choice("link", {})))
            return [*out, Option("Cancel", Choice("cancel", {}))]
        out = []
        for key in sorted(self._actions(state), key=lambda k: ORDER.index(k) if k in ORDER else len(ORDER)):
            entry = ENTRIES.get(key) or TURN_ENTRIES[key]
            if not entry.steps or self._first_open(t, entry):
                out.append(Option(entry.label, Choice(key, self._goes_on(t, key))))
        if self._links_next(t):  # the link from the new building first: the same player's likely next action
            out.sort(key=lambda o: o.event.action != "link")
        return out

    def arranged(self, state: IndustryState, options: Sequence[Option]) -> tuple[list[Option], int | None, int]:
        """The options as the buttons step through them, the one the cursor starts on and how far LEFT and RIGHT
        step. :meth:`choices` keeps its own order (likeliest first), so what reads it (a seeded game, the mend, a
        typed decision) is unchanged.

        Every list is laid out round its likeliest answer (:func:`companion.games.layout.laid_out`): it is under
        the cursor, the next four one press away (UP and DOWN one, LEFT and RIGHT a page), every other of ten
        within two: the entries, most made first; a step's answers, the likely first; the card kinds, the most
        numerous in the deck first. What ends the turn is never under the cursor: the likely answer that ends it
        ("Green, end turn") just under it, *End turn* just above it (under it in a list of two: the box cannot
        count what it never sees, a loan or a pass, so the table ends some turns itself), *Cancel* the farthest.
        On the board the places lay the options out (the session's board cursor), not this order."""
        lead = [o for o in options if not o.ends and o.event.action != "cancel"][:1]
        closing = [o for o in options[:1] if o.ends and o.event.action != ENDS]  # "Green, end turn" listed first
        rest = [o for o in options if o not in lead + closing]
        others = [o for o in rest if not o.ends and o.event.action != "cancel"]
        end_turn = [o for o in rest if o.event.action == ENDS]
        # laid_out puts the second of these just below the likeliest, the third just above: "Green, end turn"
        # below and End turn above when both are offered, else the next likeliest below and End turn above
        below = closing if closing else others[:1]
        if not closing:
            others = others[1:]
        ranked = [*lead, *below, *end_turn, *others, *(o for o in rest if o.ends and o.event.action != ENDS),
                  *(o for o in rest if o.event.action == "cancel")]
        jump = page(len(ranked))
        laid, start = laid_out(ranked, jump)
        return laid, start, jump

    def _links_next(self, t: Table) -> bool:
        """The last action was a building by a player with an action left, and a rail link goes on from it."""
        most, acted = self.rules.actions_per_turn, t.state.acted
        if not most or not acted or acted[-1][1] != "build" or t.state.actions_of(acted[-1][0]) >= most:
            return False
        return bool(self._goes_on(t, "link"))

    def _closing(self, t: Table, out: list[Option]) -> list[Option]:
        """The answers that complete the turn's last actions end the turn with them ("Green, end turn"), the likely
        answer; the same answer with the turn going on follows the others, for what the box does not count."""
        if not self.rules.actions_per_turn:
            return out
        closing, going = [], []
        for o in out:
            assert isinstance(o.event, Choice)
            action, args = o.event.action, dict(o.event.args)
            if PAGE in args or action not in COUNTED:
                closing.append(o)
                continue
            given, complete = self._walk(t, ENTRIES.get(action) or TURN_ENTRIES[action], args)
            if not complete or not self._completes_turn(t, action, given):
                closing.append(o)
                continue
            closing.append(Option(f"{o.label}, end turn", Choice(action, {**args, ENDS: True}), o.place))
            going.append(Option(f"{o.label}, turn goes on", o.event, o.place))
        return closing + going

    @staticmethod
    def _goes_on(t: Table, key: str) -> dict[str, Any]:
        """A rail link goes on from the new end: the last entry's place starts it when a link can be built from
        there (the OLED asks "From Kobe to?", and "Other start" asks for another)."""
        last = t.state.last_place
        if key != "link" or not last:
            return {}
        try:
            LINK.steps[0].check(t, {}, last)
        except RuleError:
            return {}
        return {"from": last}

    @staticmethod
    def _naming(state: IndustryState) -> bool:
        """A face-up card beside the board is to be said (named, or dealt in place of one taken), no entry open."""
        return not state.pending and (TO_DEAL in state.beside or UNNAMED in state.beside)

    def _likely_cards(self, state: IndustryState) -> list[str]:
        """The card kinds to deal, the most numerous left in the deck first (its make-up less the display's)."""
        board = self.board(state)
        kinds = card_kinds(board)
        counts = {k: sum(1 for c in board.deck if (k == "location" and c.startswith("at:")) or c == k) for k in kinds}
        for card in [slot.card for slot in state.display] + list(state.beside):
            if card in counts:
                counts[card] -= 1
        return sorted(kinds, key=lambda k: -counts[k])

    @staticmethod
    def _first_open(t: Table, entry: Entry) -> bool:
        step = entry.steps[0]
        for _label, value, _place in step.candidates(t, {}):
            try:
                step.check(t, {}, value)
                return True
            except RuleError:
                continue
        return False

    # -- the board as data --------------------------------------------------------------------------
    def board_for(self, state: IndustryState) -> GraphBoard:
        return self.board(state).graph()

    def map_json(self) -> dict[str, Any]:
        """Both maps as the box reads them (``companion map industry --json``)."""
        out: dict[str, Any] = {}
        for label, b in self.boards.items():
            out[label] = {
                "locations": [{"key": s.key, "name": s.name, "x": s.x, "y": s.y, "spaces": list(s.spaces),
                               **{f: True for f in ("iron_range", "hydro", "chicago") if getattr(s, f)},
                               **({"area": s.area} if s.area else {})} for s in b.spots.values()],
                "links": [[link.a, link.b] for link in sorted(b.links)],
                "ships": [{"key": s.key, "name": s.name, "ends": list(s.ends), "coal": s.coal, "iron": s.iron,
                           "market": s.market} for s in b.ships.values()],
                "deck": len(b.deck),
                **({"display_costs": list(b.display_costs)} if b.has_display
                   else {"beside_board": self.rules.beside_board, "faceup_refill": b.faceup_refill}),
                "readings": b.readings(),
            }
        return {"maps": out, "link_base": self.rules.link_base}

    def ledger_json(self, state: IndustryState) -> dict[str, Any]:
        """The ledger now: each built link's value (for the map) and each player's total (for the side panel)."""
        board = self.board(state)
        rows = ledger.ledger(board, self.rules, state)
        return {"links": [{"link": [r.link.a, r.link.b], "owner": r.owner, "value": r.value, "ends": list(r.ends)}
                          for r in rows],
                "totals": ledger.totals(board, self.rules, state),
                "lanes": [[lane.a, lane.b] for lane in ledger.live_lanes(board, state)]}


OLED_TITLE = 15
"""Characters of the OLED's title beside the tower's word: the names and the end first, the question if it fits."""


def _oled(names: str, question: str) -> str:
    return names + question if len(names + question) <= OLED_TITLE else names


def _legal(t: Table, step: Step, given: dict[str, Any], most: int | None = None) -> list[Candidate]:
    """The candidates of ``step`` the rules allow after ``given`` (the first ``most`` of them, when given)."""
    out: list[Candidate] = []
    for candidate in step.candidates(t, given):
        try:
            step.check(t, given, candidate[1])
        except RuleError:
            continue
        out.append(candidate)
        if most is not None and len(out) >= most:
            break
    return out


def _near_first(t: Table, candidates: list[Candidate]) -> list[Candidate]:
    """Candidates with a place nearest the last entry's place first (in their own order among equals); those
    without a place keep their order after them."""
    if not t.state.last_place:
        return candidates
    hops = t.board.hops(t.state.last_place)
    far = len(t.board.spots) + 1

    def distance(place: Place | None) -> int:
        if isinstance(place, Location):
            return hops.get(place.key, far)
        if isinstance(place, Link):
            return min(hops.get(place.a, far), hops.get(place.b, far))
        return far + 1
    return sorted(candidates, key=lambda c: distance(c[2]))


def _pages(options: list[Option]) -> list[list[Option]]:
    """A long list cut into pages of about equal length, none longer than PAGE_SIZE, in the list's order."""
    if len(options) <= PAGE_SIZE + 2:
        return [options]
    n = -(-len(options) // PAGE_SIZE)
    size = -(-len(options) // n)
    return [options[i:i + size] for i in range(0, len(options), size)]


def _money(sums: Mapping[str, int]) -> str:
    return ", ".join(f"{p} ${v}" for p, v in sums.items())


# -- the turn's own entries (the card display, the deck) ----------------------------------------------


def _slots(t: Table, a: dict[str, Any]) -> list[tuple[str, Any, Any]]:
    return [(f"{i + 1} ${t.board.display_costs[i]} {card_label(t.board, t.rules, s.card)}", i, None)
            for i, s in enumerate(t.state.display)]


def _faceups(t: Table, a: dict[str, Any]) -> list[tuple[str, Any, Any]]:
    return [(card_label(t.board, t.rules, c), i, None) for i, c in enumerate(t.state.beside)
            if c not in (UNNAMED, TO_DEAL, EMPTY)]


def _check_faceup(t: Table, a: dict[str, Any], v: Any) -> None:
    if isinstance(v, bool) or not isinstance(v, int) or not 0 <= v < len(t.state.beside):
        raise RuleError(f"no face-up card {v!r} beside the board")
    if t.state.beside[v] in (UNNAMED, TO_DEAL, EMPTY):
        raise RuleError(f"face-up place {v + 1} beside the board holds no card the box knows")


def _check_slot(t: Table, a: dict[str, Any], v: Any) -> None:
    if isinstance(v, bool) or not isinstance(v, int) or not 0 <= v < len(t.state.display):
        raise RuleError(f"no display space {v!r}")
    slot = t.state.display[v]
    if not slot.card:
        raise RuleError(f"display space {v + 1} is empty")
    if slot.taken:
        raise RuleError(f"the card in space {v + 1} is taken already ({slot.taken.split()[0]})")


def _hows(t: Table, a: dict[str, Any]) -> list[tuple[str, Any, Any]]:
    return [("Free (Take Cards)", "free", None), (f"Pay ${t.board.display_costs[a['space']]}", "paid", None)]


def _check_how(t: Table, a: dict[str, Any], v: Any) -> None:
    if v not in ("free", "paid"):
        raise RuleError(f"a display card is taken free (Take Cards) or paid, not {v!r}")


def _check_count(t: Table, a: dict[str, Any], v: Any) -> None:
    if isinstance(v, bool) or not isinstance(v, int) or v < 1:
        raise RuleError(f"draw a whole number of cards, not {v!r}")
    if v > t.state.deck:
        raise RuleError(f"the deck has only {t.state.deck} card{'s' if t.state.deck != 1 else ''}")


def _check_player(t: Table, a: dict[str, Any], v: Any) -> None:
    t.player(v)


def _unused(t: Table, a: dict[str, Any]) -> Any:
    raise AssertionError("performed by the engine")


TURN_ENTRIES: dict[str, Entry] = {e.key: e for e in (
    Entry("card", "Take display card", (
        Step("space", "Which card?", _slots, _check_slot),
        Step("how", "Free or paid?", _hows, _check_how),
        Step("player", "Who takes it?", lambda t, a: [(p, p, None) for p in players_in_turn(t)], _check_player),
    ), _unused, lambda t: t.board.has_display),
    Entry("faceup", "Take face-up card", (
        Step("card", "Which card?", _faceups, _check_faceup),
        Step("player", "Who takes it?", lambda t, a: [(p, p, None) for p in players_in_turn(t)], _check_player),
    ), _unused, lambda t: any(c not in (UNNAMED, TO_DEAL, EMPTY) for c in t.state.beside)),
    Entry("draw", "Draw from deck", (
        Step("count", "How many?", lambda t, a: [(str(n), n, None) for n in range(1, 7)], _check_count),
    ), _unused, lambda t: t.state.deck > 0),
    Entry("end_turn", "End turn", (), _unused),
)}

__all__ = ["DEAL_MODES", "IndustryGame"]
