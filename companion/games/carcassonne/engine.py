"""The Carcassonne engine: the tiles the table lays, the followers on them, and the four disasters, as a fold.

A turn: the player points at a space and says which tile it is and how it is turned (three journaled steps, or
one ``lay`` choice), or says the meteor or the flood was drawn; a tornado tile then sends the tornado round the
table; the player may deploy a follower; completed features score. The earthquake waits for final scoring.
A group that does not enter kinds marks spaces only (mode "cells"), and the box asks what it needs when it
needs it; in the light mode ("light") the table enters only what the disasters need: followers (whose, where, on
what), the disaster tiles, the tornado's way, and an ordinary turn is "Next player". Steps the rules leave one
answer to are taken by the engine itself (:meth:`CarcassonneGame._fold`).
Everything the text leaves open is in maps/carcassonne.toml (:class:`~.data.Rules`).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from companion.dice import Choice, Event, Prompt
from companion.errors import RuleError
from companion.games.base import Option, SetupQuestion
from companion.games.carcassonne import tornado as twister
from companion.games.carcassonne.data import Data
from companion.games.carcassonne.features import Analysis, Placed, analyse, around, neighbour
from companion.games.carcassonne.likely import FitTable, fit_table
from companion.games.carcassonne.scoring import cities_hit, earthquake_zone, on_feature, owners, points
from companion.games.carcassonne.state import CarcState, Flood, Follower, Laid, Meteor, Tornado, long_name, short_name
from companion.games.carcassonne.tiles import OPPOSITE, SIDES, TileType
from companion.games.layout import laid_out, page
from companion.places import Cell, SquareBoard

START = Cell(0, 0)
LIGHT_REACH = 80
"""The light mode knows only some tiles: a space is any within this many of the start (the bag holds 78)."""
LIGHT_MARGIN = 3
"""The light mode lists the spaces up to this many beyond the tiles it knows (any other can be typed)."""
MODES = ("tiles", "cells", "light")
FEATURES = {"city": "city", "road": "road", "field": "farmer", "cloister": "monk"}
"""The light mode: the features a follower may stand on, as the table names them."""
TURN_NAMES = ("upright", "quarter right", "half turn", "quarter left")


def cell_of(args: Mapping[str, Any], what: str = "space") -> Cell:
    x, y = args.get("x"), args.get("y")
    if not isinstance(x, int) or not isinstance(y, int) or isinstance(x, bool) or isinstance(y, bool):
        raise RuleError(f"point at a {what} (x and y whole numbers), got {x!r}, {y!r}")
    return Cell(x, y)


class CarcassonneGame:
    """Carcassonne with Natural Disasters, keeping the :class:`companion.games.base.Game` contract."""

    key = "carcassonne"
    title = "Carcassonne: Natural Disasters"

    def __init__(self, data: Data, fold: bool = True) -> None:
        self.data = data
        # fold: take the steps the rules leave one answer to (:meth:`_fold`); False asks every step, as the box
        # did when journals it still replays were written (their events name those steps: both replay alike).
        self.fold = fold
        self.catalog = data.catalog
        self.rules = data.rules
        self._fits: tuple[object, FitTable] | None = None  # the last board's (see :meth:`fit_table`)

    # -- published data -------------------------------------------------------------------------
    def map_json(self) -> dict[str, Any]:
        return self.data.to_json()

    def tiles_json(self) -> dict[str, Any]:
        return {"tiles": self.catalog.to_json(), "start_tile": self.catalog.start.key}

    def board_for(self, state: CarcState) -> SquareBoard:
        names = {c: self._tile(t).name if t.kind else "tile" for c, t in state.board}
        return SquareBoard(names)

    def setup_questions(self) -> list[SetupQuestion]:
        return [SetupQuestion("players", "players", tuple(range(2, len(self.rules.colours) + 1))),
                SetupQuestion("board", "tile kinds", MODES),
                SetupQuestion("river", "river", ("no", "yes"))]

    # -- small helpers --------------------------------------------------------------------------
    def who(self, seat: int) -> str:
        return self.rules.colours[seat]

    def _tile(self, laid: Laid) -> TileType:
        return self.catalog.by_key[laid.kind]

    def _disaster(self, laid: Laid) -> str:
        return self._tile(laid).disaster if laid.kind else ""

    def _placed(self, state: CarcState) -> dict[Cell, Placed]:
        return {c: Placed(self._tile(t), t.quarters) for c, t in state.board if t.kind}

    def covered(self, state: CarcState) -> frozenset[Cell]:
        """The spaces under the flood's cut-out (once it has spread)."""
        f = state.flood
        return frozenset(around(f.cell)) if f is not None and f.spread else frozenset()

    def analysis(self, state: CarcState) -> Analysis:
        return analyse(self._placed(state), self.covered(state))

    def remaining(self, state: CarcState, tile: TileType) -> int:
        return tile.count - state.drawn_of(tile.key)

    def in_play(self, state: CarcState, tile: TileType) -> bool:
        return state.river or not tile.river

    def quake_cell(self, state: CarcState) -> Cell | None:
        """Where the earthquake tile lies (None before it is laid, or once a meteor has replaced it)."""
        return next((c for c, t in state.board if t.kind and self._disaster(t) == "earthquake"), None)

    def quake_zone(self, state: CarcState) -> frozenset[Cell]:
        at = self.quake_cell(state)
        return earthquake_zone(at, self.rules.quake_orthogonal, self.rules.quake_diagonal) if at else frozenset()

    # -- the game -------------------------------------------------------------------------------
    def new_game(self, options: Mapping[str, Any]) -> CarcState:
        """Options: ``players`` 2..6 (seats clockwise in the colours' order), ``board`` "tiles" (kinds entered,
        default) or "cells" (spaces only), ``river`` "yes"/"no" (or true/false: the river tiles and the flood)."""
        n = options.get("players", 2)
        top = len(self.rules.colours)
        if isinstance(n, bool) or not isinstance(n, int) or not 2 <= n <= top:
            raise RuleError(f"players: Carcassonne is for 2..{top} players, got {n!r}")
        mode = options.get("board", "tiles")
        if mode not in MODES:
            raise RuleError(f"board: expected tiles, cells or light, got {mode!r}")
        river = options.get("river", "no")
        if river not in ("yes", "no", True, False):
            raise RuleError(f"river: expected yes or no, got {river!r}")
        start = self.catalog.start
        tiles = mode == "tiles"
        return CarcState(players=n, mode=mode, river=river in ("yes", True),
                         board=((START, Laid(start.key if tiles else "")),),
                         supply=(self.rules.followers,) * n, scores=(0,) * n,
                         drawn=((start.key, 1),) if tiles else (),
                         recent=(f"Start tile laid; {self.who(0)} begins",))

    def apply(self, state: CarcState, event: Event) -> CarcState:
        if state.phase == "over":
            raise RuleError("the game is over")
        if not isinstance(event, Choice):
            raise RuleError(f"{self.prompt(state).short}: a decision, not a {type(event).__name__}")
        said = _said(event)
        if state.folded and said == state.folded[0]:  # a journal from before the box took this step itself
            return replace(state, folded=state.folded[1:])
        handler = getattr(self, f"_on_{state.phase}")
        new: CarcState = handler(replace(state, folded=()) if state.folded else state, event)
        return self._fold(new)

    FOLDED_PHASES = ("rotation", "deploy", "tornado", "tornado_land")
    """Steps the box takes itself when the rules leave them one answer: the only turn that fits, no follower when
    none can be deployed, the tornado's only path, the only feature to land on, the flood's spread."""

    def _fold(self, state: CarcState) -> CarcState:
        """Take every step the rules leave only one answer to; each is remembered in ``folded`` (see there)."""
        folded: list[str] = []
        while self.fold and state.phase in self.FOLDED_PHASES:
            options = list(getattr(self, f"_choices_{state.phase}")(state))
            if len(options) != 1:
                break
            event = options[0].event
            folded.append(_said(event))
            said = state.recent
            state = getattr(self, f"_on_{state.phase}")(state, event)
            if state.recent[:len(said)] != said:  # what led to the step stays in the recap with it
                state = replace(state, recent=(*said, *state.recent))
        return replace(state, folded=(*state.folded, *folded)) if folded else state

    # -- laying ---------------------------------------------------------------------------------
    def blocked(self, state: CarcState) -> frozenset[Cell]:
        return self.covered(state) if self.rules.flood_covers_empty else frozenset()

    def open_cells(self, state: CarcState) -> list[Cell]:
        blocked = self.blocked(state)
        return [c for c in state.square().open_cells() if c not in blocked]

    def check_cell(self, state: CarcState, cell: Cell) -> None:
        if cell in state.tiles:
            raise RuleError(f"{long_name(cell)} already holds a tile")
        if state.mode == "light" and max(abs(cell.x), abs(cell.y)) > LIGHT_REACH:
            raise RuleError(f"{long_name(cell)} is further than any tile can be")
        if state.mode != "light" and not any(n in state.tiles for n in cell.neighbours()):
            raise RuleError(f"{long_name(cell)} is not next to a laid tile")
        if cell in self.blocked(state):
            raise RuleError(f"{long_name(cell)} lies under the flood")

    def fits(self, state: CarcState, cell: Cell, tile: TileType, quarters: int) -> str:
        """Why ``tile`` turned ``quarters`` cannot go on ``cell`` ("" when it fits the tiles around)."""
        for side in SIDES:
            other = state.tiles.get(neighbour(cell, side))
            if other is None or not other.kind:
                continue
            mine, theirs = tile.edge(side, quarters), self._tile(other).edge(OPPOSITE[side], other.quarters)
            if "X" in (mine, theirs) or mine == theirs:
                continue
            return f"its {_EDGE[mine]} on the {_SIDE[side]} meets a {_EDGE[theirs]}"
        return ""

    def layable(self, state: CarcState, cell: Cell) -> list[tuple[TileType, tuple[int, ...]]]:
        """The kinds left in the bag that fit on ``cell``, each with the turns that fit."""
        out = []
        for tile in self.catalog.types:
            if tile.disaster in ("meteor", "flood") or not self.in_play(state, tile):
                continue
            if self.remaining(state, tile) <= 0:
                continue
            turns = tuple(q for q in tile.rotations() if not self.fits(state, cell, tile, q))
            if turns:
                out.append((tile, turns))
        return out

    def fit_table(self, state: CarcState) -> FitTable:
        """Where every kind left in the bag fits (:mod:`.likely`): worked out once per board and bag, as the space,
        the kind and the discard decisions of a turn all read it."""
        key = (state.board, state.drawn, state.river, state.flood)
        if self._fits is None or self._fits[0] != key:
            self._fits = (key, fit_table(self, state))
        return self._fits[1]

    def likely_place(self, state: CarcState) -> Cell | None:
        """Where the next tile most likely goes (the board cursor starts there): the open space the most tiles left
        in the bag fit, each kind's odds spread over the spaces it fits (:meth:`.likely.FitTable.space_odds`)."""
        if state.mode != "tiles" or state.phase != "cell":
            return None
        odds = self.fit_table(state).space_odds()
        return min(sorted(odds), key=lambda c: sum(p * ((c.x - o.x) ** 2 + (c.y - o.y) ** 2) ** 0.5
                                                   for o, p in odds.items()), default=None)

    def unlayable(self, state: CarcState, fit: set[str] | None = None) -> list[TileType]:
        """The kinds left in the bag that fit on no open space however turned (``fit``: the keys known to fit)."""
        if fit is None:
            fit = {tile.key for cell in self.open_cells(state) for tile, _ in self.layable(state, cell)}
        return [tile for tile in self.catalog.types if tile.disaster not in ("meteor", "flood")
                and self.in_play(state, tile) and self.remaining(state, tile) > 0 and tile.key not in fit]

    def _discard(self, state: CarcState, kind: Any) -> CarcState:
        """"If the drawn tile cannot be placed anywhere, it is discarded and the player draws another" (base
        rules): it leaves the bag, the same player draws again."""
        if state.mode != "tiles":
            raise RuleError("a discarded tile is said only when the box follows the tiles")
        tile = self._kind(state, kind)
        for cell in self.open_cells(state):
            if any(not self.fits(state, cell, tile, q) for q in tile.rotations()):
                raise RuleError(f"{tile.name} fits on {long_name(cell)}: it is laid, not discarded")
        state = replace(state, drawn=_count(state.drawn, tile.key),
                        recent=(f"{self.who(state.current)}: {tile.name} fits nowhere, discarded",))
        if self.bag_left(state) == 0:
            return self._to_final(state, "The last tile was discarded")
        return state

    def _on_cell(self, state: CarcState, event: Choice) -> CarcState:
        a = event.args
        if state.mode == "light" and event.action in ("next", "follower", "disaster"):
            return self._light_turn(state, event)
        if event.action == "discard":
            return self._discard(state, a.get("kind"))
        if event.action == "cell":
            cell = cell_of(a)
            self.check_cell(state, cell)
            if state.mode == "tiles" and not self.layable(state, cell):
                raise RuleError(f"no tile left in the bag fits on {long_name(cell)}")
            return replace(state, phase="kind", pending_cell=cell, recent=(f"Tile on {long_name(cell)}",))
        if event.action == "lay":
            return self._lay(state, cell_of(a), a.get("kind"), a.get("quarters", 0))
        if event.action == "meteor":
            return self._drew_meteor(state)
        if event.action == "flood":
            return self._drew_flood(state)
        if event.action == "home" and state.mode != "tiles":
            return self._home(state, a)
        if event.action == "end":
            return self._to_final(state, "The table ends the game")
        raise RuleError(f"{self.who(state.current)}: point at a space for the tile (cell), not {event.action!r}")

    def _on_kind(self, state: CarcState, event: Choice) -> CarcState:
        assert state.pending_cell is not None
        if event.action == "lay":
            cell = cell_of(event.args)
            if cell != state.pending_cell:
                raise RuleError(f"the tile goes on {long_name(state.pending_cell)}, not {long_name(cell)}")
            return self._lay(state, cell, event.args.get("kind"), event.args.get("quarters", 0))
        if event.action != "kind":
            raise RuleError(f"{self.who(state.current)}: which tile is it (kind), not {event.action!r}")
        kind = event.args.get("kind")
        tile = self._kind(state, kind)
        if state.mode == "cells":
            return self._lay(state, state.pending_cell, kind, 0)
        turns = tuple(q for q in tile.rotations() if not self.fits(state, state.pending_cell, tile, q))
        if not turns:
            raise RuleError(f"{tile.name} does not fit on {long_name(state.pending_cell)} however it is turned")
        return replace(state, phase="rotation", pending_kind=tile.key)

    def _on_rotation(self, state: CarcState, event: Choice) -> CarcState:
        assert state.pending_cell is not None
        if event.action not in ("rotate", "lay"):
            raise RuleError(f"{self.who(state.current)}: how is the tile turned (rotate), not {event.action!r}")
        kind = event.args.get("kind", state.pending_kind)
        if kind != state.pending_kind:
            raise RuleError(f"the tile is a {self.catalog.by_key[state.pending_kind].name}")
        return self._lay(state, state.pending_cell, state.pending_kind, event.args.get("quarters", 0))

    def _kind(self, state: CarcState, kind: Any) -> TileType:
        """The tile type named ``kind``, if the bag still holds one this game uses."""
        if state.mode == "cells" and kind in ("", None):
            return self.catalog.start
        tile = self.catalog.get(kind) if isinstance(kind, str) else None
        if tile is None:
            raise RuleError(f"unknown tile kind {kind!r}")
        if state.mode == "cells" and tile.disaster not in ("tornado", "earthquake"):
            raise RuleError(f"marking spaces only: a plain tile, a tornado or the earthquake, not {tile.name}")
        if tile.disaster in ("meteor", "flood"):
            raise RuleError(f"the {tile.disaster} is not laid on an empty space: it replaces a tile")
        if not self.in_play(state, tile):
            raise RuleError(f"{tile.name} is a river tile and this game has no river")
        if state.mode == "tiles" and self.remaining(state, tile) <= 0:
            raise RuleError(f"no {tile.name} left in the bag ({tile.count} in the game)")
        return tile

    def _lay(self, state: CarcState, cell: Cell, kind: Any, quarters: Any) -> CarcState:
        self.check_cell(state, cell)
        tile = self._kind(state, kind)
        if isinstance(quarters, bool) or not isinstance(quarters, int) or not 0 <= quarters <= 3:
            raise RuleError(f"turn the tile 0..3 quarters, got {quarters!r}")
        laid = Laid(tile.key if state.mode == "tiles" or kind else "", quarters if state.mode == "tiles" else 0)
        if state.mode == "tiles":
            why = self.fits(state, cell, tile, quarters)
            if why:
                raise RuleError(f"{tile.name} does not fit on {long_name(cell)}: {why}")
        drawn = dict(state.drawn)
        if laid.kind:
            drawn[laid.kind] = drawn.get(laid.kind, 0) + 1
        what = tile.name if laid.kind else "A tile"
        new = replace(state, board=(*state.board, (cell, laid)), drawn=tuple(sorted(drawn.items())),
                      pending_cell=None, pending_kind="", last=cell,
                      recent=(f"{self.who(state.current)}: {what} on {long_name(cell)}",))
        if tile.disaster == "tornado" and laid.kind:
            spaces = self.rules.tornado_spaces
            t = Tornado(at=cell, placer=state.current, mover=state.current, left=spaces, visited=frozenset({cell}),
                        path=(cell,))
            new = replace(new, tornado=t, phase="tornado",
                          recent=(*new.recent, f"The tornado moves: {spaces} spaces from {self.who(state.current)}"))
            return self._tornado_next(new, t, first=True)
        if tile.disaster == "earthquake" and laid.kind:
            new = replace(new, recent=(*new.recent, "The earthquake's zone is drawn"))
        return replace(new, phase="deploy")

    # -- the light mode: only what the disasters need ----------------------------------------------
    def light_spaces(self, state: CarcState, known: bool = False) -> list[Cell]:
        """The light mode's spaces to point at: around the tiles it knows (:data:`LIGHT_MARGIN` out), those next to a
        known tile first (a tile is laid next to one), then nearest the latest; ``known``: the known tiles too (the
        meteor and the flood land on laid tiles)."""
        xs = [c.x for c, _ in state.board]
        ys = [c.y for c, _ in state.board]
        blocked = self.blocked(state)
        latest = state.board[-1][0]
        m = LIGHT_MARGIN
        cells = [Cell(x, y) for x in range(min(xs) - m, max(xs) + m + 1) for y in range(min(ys) - m, max(ys) + m + 1)]
        cells = [c for c in cells if c not in blocked and (known or c not in state.tiles)]
        tiles = [c for c, _ in state.board]
        return sorted(cells, key=lambda c: (min(c.manhattan(t) for t in tiles), c.manhattan(latest), c.y, c.x))

    def _known(self, state: CarcState, *cells: Cell) -> CarcState:
        """The light mode learns that tiles lie on ``cells`` (where the tornado crossed, the meteor landed)."""
        new = tuple((c, Laid("")) for c in dict.fromkeys(cells) if c not in state.tiles)
        return replace(state, board=(*state.board, *new)) if new else state

    def _light_turn(self, state: CarcState, event: Choice) -> CarcState:
        """A turn in the light mode: nothing the disasters need ("next"), a follower deployed (its feature, then
        its space), or a tornado or the earthquake laid (its space)."""
        who = self.who(state.current)
        if event.action == "next":
            return self._end_turn(replace(state, recent=(f"{who}: a tile, no follower",)))
        if event.action == "follower":
            feature = self._feature(state, event.args)
            if state.supply[state.current] <= 0:
                raise RuleError(f"{who} has no follower left in supply")
            return replace(state, phase="place", pending_kind="", pending_feature=feature, recent=())
        key = event.args.get("kind")
        tile = self.catalog.get(key) if isinstance(key, str) else None
        if tile is None or tile.disaster not in ("tornado", "earthquake"):
            raise RuleError(f"a tornado or the earthquake tile, got {event.args.get('kind')!r}")
        return replace(state, phase="place", pending_kind=tile.key, pending_feature="", recent=())

    def _on_place(self, state: CarcState, event: Choice) -> CarcState:
        if event.action != "place":
            raise RuleError(f"{self.who(state.current)}: point at the tile's space (place), not {event.action!r}")
        cell = cell_of(event.args)
        if state.pending_kind:
            return self._lay(replace(state, pending_feature=""), cell, state.pending_kind, 0)
        self.check_cell(state, cell)
        seat = state.current
        put = Follower(seat, cell, -1, state.pending_feature)
        supply = tuple(n - 1 if i == seat else n for i, n in enumerate(state.supply))
        state = replace(state, board=(*state.board, (cell, Laid(""))), followers=(*state.followers, put),
                        supply=supply, pending_feature="", last=cell,
                        recent=(f"{self.who(seat)}: {self.follower_name(state, put)} on {long_name(cell)}",))
        return self._end_turn(state)

    def _quake_followers(self, state: CarcState) -> list[Follower]:
        zone = self.quake_zone(state)
        return [f for f in state.followers if f.feature == "city" and f.cell in zone]

    def light_quake(self, state: CarcState) -> list[str]:
        """The light mode's earthquake at the end: its zone and the followers it knows on cities there."""
        at = self.quake_cell(state)
        if at is None:
            return ["No earthquake tile on the board"]
        lines = [f"Earthquake zone: {long_name(at)} and the 12 spaces around"]
        lines += [f"{self.who(f.player)}'s city follower on {long_name(f.cell)} is in it"
                  for f in self._quake_followers(state)]
        lines.append("An unfinished city there scores nothing, a finished one gives farmers nothing")
        return lines

    def _choices_cell_light(self, state: CarcState) -> list[Option]:
        who = self.who(state.current)
        out = [Option("Next player", Choice("next", {}), text=f"{who}'s tile: no follower, no disaster")]
        if state.supply[state.current] > 0:
            out += [Option(f"Follower: {word}", Choice("follower", {"feature": key}),
                           text=f"{who} deploys a follower on a {word if key != 'field' else 'field'}")
                    for key, word in FEATURES.items()]
        laid = {kind: sum(state.drawn_of(t.key) for t in self.catalog.types if t.disaster == kind)
                for kind in ("tornado", "earthquake", "meteor", "flood")}
        total = {kind: sum(t.count for t in self.catalog.types if t.disaster == kind) for kind in laid}
        for kind in ("tornado", "earthquake"):
            if laid[kind] < total[kind]:
                tile = next(t for t in self.catalog.types if t.disaster == kind)
                out.append(Option(f"{kind.capitalize()} tile", Choice("disaster", {"kind": tile.key})))
        for kind in ("meteor", "flood"):
            if laid[kind] < total[kind]:
                out.append(Option(f"Drew the {kind}", Choice(kind, {})))
        seats = [(state.current + i) % state.players for i in range(state.players)]  # the current player's first
        out += [Option.of(f"{self.who(f.player)} home: {short_name(f.cell)}",
                          Choice("home", {"x": f.cell.x, "y": f.cell.y, "player": f.player}))
                for seat in seats for f in state.followers if f.player == seat]
        out.append(Option("End: final scoring", Choice("end", {})))
        return out

    def _choices_place(self, state: CarcState) -> Sequence[Option]:
        return [Option.of(short_name(c), Choice("place", {"x": c.x, "y": c.y}), text=long_name(c))
                for c in self.light_spaces(state)]

    def _light_features(self, seat: int, action: str, args: Mapping[str, Any], where: Cell) -> list[Option]:
        return [Option(f"{self.who(seat)}: {word}", Choice(action, {**args, "segment": -1, "feature": key}), where)
                for key, word in FEATURES.items()]

    # -- following the followers ----------------------------------------------------------------
    def deploy_spots(self, state: CarcState, cell: Cell) -> list[int]:
        """Segments of the tile on ``cell`` a follower may stand on: its feature has none yet (-1: the tile)."""
        laid = state.tiles[cell]
        if not laid.kind or state.mode != "tiles":
            return [-1]
        placed = Placed(self._tile(laid), laid.quarters)
        an = self.analysis(state)
        return [i for i, s in enumerate(placed.segments) if s.kind != "river"
                and not on_feature(an.feature_of[(cell, i)], an, state.followers)]

    def _on_deploy(self, state: CarcState, event: Choice) -> CarcState:
        cell, who = state.last, state.current
        assert cell is not None
        if event.action == "pass":
            return self._end_turn(replace(state, recent=(*state.recent, f"{self.who(who)}: no follower")))
        if event.action != "deploy":
            raise RuleError(f"{self.who(who)}: deploy a follower or pass, not {event.action!r}")
        if cell_of(event.args) != cell:
            raise RuleError(f"a follower goes only on the tile just laid, {long_name(cell)}")
        if state.supply[who] <= 0:
            raise RuleError(f"{self.who(who)} has no follower left in supply")
        segment = event.args.get("segment", -1)
        if segment not in self.deploy_spots(state, cell):
            raise RuleError(f"{self.feature_name(state, cell, segment)} is taken or not on this tile")
        feature = self._feature(state, event.args)
        supply = tuple(n - 1 if i == who else n for i, n in enumerate(state.supply))
        put = Follower(who, cell, segment, feature)
        new = replace(state, followers=(*state.followers, put), supply=supply,
                      recent=(*state.recent, f"{self.who(who)}: {self.follower_name(state, put)}"))
        return self._end_turn(new)

    def _feature(self, state: CarcState, args: Mapping[str, Any]) -> str:
        """The light mode: the feature the table says a follower stands on (required there, unused elsewhere)."""
        if state.mode != "light":
            return ""
        feature = args.get("feature")
        if feature not in FEATURES:
            raise RuleError(f"which feature does the follower stand on (city, road, field, cloister), got {feature!r}")
        return str(feature)

    def follower_name(self, state: CarcState, f: Follower) -> str:
        """"city NW", "farmer ESW", "the tile"; the light mode: "city", "farmer", "monk"."""
        return FEATURES[f.feature] if f.feature else self.feature_name(state, f.cell, f.segment)

    def feature_name(self, state: CarcState, cell: Cell, segment: Any) -> str:
        laid = state.tiles.get(cell)
        if laid is None or not laid.kind or not isinstance(segment, int) or isinstance(segment, bool) or segment < 0:
            return "the tile"
        segments = Placed(self._tile(laid), laid.quarters).segments
        return segments[segment].describe() if 0 <= segment < len(segments) else f"feature {segment!r}"

    def _home(self, state: CarcState, a: Mapping[str, Any]) -> CarcState:
        """Spaces only: the table says a follower went home (its feature was completed and scored)."""
        cell, seat = cell_of(a), a.get("player")
        f = next((f for f in state.followers if f.cell == cell and f.player == seat), None)
        if f is None:
            raise RuleError(f"no follower of that colour on {long_name(cell)}")
        return replace(state, followers=_without(state.followers, f), supply=_plus(state.supply, f.player),
                       recent=(f"{self.who(f.player)}'s follower goes home",))

    def _score_completed(self, state: CarcState) -> CarcState:
        """Completed features with followers score; their followers go home (base rules)."""
        if state.mode != "tiles":
            return state
        an = self.analysis(state)
        followers, supply, scores = list(state.followers), list(state.supply), list(state.scores)
        lines = []
        for fid, feature in enumerate(an.features):
            if not feature.complete:
                continue
            on = on_feature(fid, an, followers)
            if not on:
                continue
            pts = points(feature, final=False)
            for seat in owners(fid, an, followers):
                scores[seat] += pts
                lines.append(f"{self.who(seat)} +{pts}: {feature.kind}")
            for f in on:
                followers.remove(f)
                supply[f.player] += 1
        if not lines:
            return state
        return replace(state, followers=tuple(followers), supply=tuple(supply), scores=tuple(scores),
                       recent=(*state.recent, *lines))

    def _end_turn(self, state: CarcState) -> CarcState:
        state = self._score_completed(state)
        nxt = (state.current + 1) % state.players
        state = replace(state, current=nxt, turn=state.turn + 1, last=None, tornado=None, meteor=None, phase="cell")
        if state.mode == "tiles" and self.bag_left(state) == 0:
            return self._to_final(state, "The last tile is down")
        if state.flood is not None and not state.flood.spread and state.flood.player == nxt:
            return replace(state, phase="flood_spread")
        return state

    def bag_left(self, state: CarcState) -> int:
        return sum(max(0, self.remaining(state, t)) for t in self.catalog.types if self.in_play(state, t))

    # -- the tornado ----------------------------------------------------------------------------
    def tornado_moves(self, state: CarcState, t: Tornado) -> list[tuple[Cell, ...]]:
        laid = frozenset(state.tiles) if state.mode != "light" else _reach(t.at, self.rules.tornado_step)
        paths = twister.moves(t, laid, self.rules.tornado_step, self.rules.tornado_visited,
                              self.rules.tornado_over_empty)
        if self.rules.tornado_turns:
            return paths
        return [p for p in paths if len({(b.x - a.x, b.y - a.y) for a, b in zip((t.at, *p), p, strict=False)}) == 1]

    def _tornado_next(self, state: CarcState, t: Tornado, first: bool = False) -> CarcState:
        """After a move (or the tile's laying): hand the tornado to the next player, or let it stop."""
        if not first:
            t = replace(t, mover=(t.mover + 1) % state.players)
        if t.left > 0 and self.tornado_moves(state, t):
            return replace(state, tornado=t, phase="tornado")
        return self._tornado_stops(state, t)

    def _tornado_stops(self, state: CarcState, t: Tornado) -> CarcState:
        why = "it has moved all its spaces" if t.left == 0 else "it cannot move on"
        state = replace(state, tornado=t, recent=(*state.recent, f"The tornado stops: {why}"))
        if t.inside is None:
            return replace(state, phase="deploy", recent=(*state.recent, "The tornado leaves the board"))
        spots = self.land_spots(state, t)
        if not spots:
            return replace(state, phase="deploy", supply=_plus(state.supply, t.inside),
                           tornado=replace(t, inside=None),
                           recent=(*state.recent, f"{self.who(t.inside)}'s follower returns to supply"))
        return replace(state, phase="tornado_land")

    def land_spots(self, state: CarcState, t: Tornado) -> list[int]:
        """Where the follower in the tornado may stand on the final tile: an unoccupied, uncompleted feature."""
        laid = state.tiles.get(t.at)
        if laid is None:
            return []
        if laid.kind and self._disaster(laid) in ("meteor", "flood"):  # no follower stands on either, any mode
            return []
        if not laid.kind or state.mode != "tiles":
            return [-1]
        an = self.analysis(state)
        return [i for i in self.deploy_spots(state, t.at) if not an.at(t.at, i).complete]

    def _on_tornado(self, state: CarcState, event: Choice) -> CarcState:
        t = state.tornado
        assert t is not None
        if event.action == "deploy":
            raise RuleError("a follower goes on a tornado tile only after the tornado has moved")
        if event.action == "stuck" and state.mode == "light":  # the table sees the board: it can move no further
            return self._tornado_stops(replace(state, recent=(f"{self.who(t.mover)}: the tornado cannot move on",)),
                                       t)
        if event.action != "tornado":
            raise RuleError(f"{self.who(t.mover)}: move the tornado {self.rules.tornado_step}, not {event.action!r}")
        raw = event.args.get("path")
        if not isinstance(raw, list | tuple) or not all(isinstance(p, list | tuple) and len(p) == 2 for p in raw):
            raise RuleError("a tornado move is a path of spaces")
        path = tuple(cell_of({"x": p[0], "y": p[1]}) for p in raw)
        if state.mode == "light":  # the tornado crosses tiles only: those it crosses are on the board
            state = self._known(state, *path)
        legal = self.tornado_moves(state, t)
        if path not in legal:
            raise RuleError(twister.why_not(t, path, frozenset(state.tiles), self.rules.tornado_step,
                                            self.rules.tornado_visited, self.rules.tornado_over_empty))
        visited = (t.visited if self.rules.tornado_visited == "tornado" else frozenset()) | set(path) | {t.at}
        moved = replace(t, at=path[-1], left=t.left - len(path), visited=visited, path=(*t.path, *path),
                        pending=path)
        new = replace(state, tornado=moved,
                      recent=(f"{self.who(t.mover)} moves the tornado to {long_name(path[-1])}",))
        return self._tornado_resolve(new, moved)

    def _tornado_resolve(self, state: CarcState, t: Tornado) -> CarcState:
        """Take followers from the spaces of the move, in order; stop to ask when a tile holds several."""
        while t.pending:
            here = state.followers_at(t.pending[0])
            if len(here) > 1:
                return replace(state, tornado=t, phase="tornado_pick")
            if here:
                state, t = self._take(state, t, here[0])
            t = replace(t, pending=t.pending[1:])
        return self._tornado_next(replace(state, tornado=t), t)

    def _take(self, state: CarcState, t: Tornado, f: Follower) -> tuple[CarcState, Tornado]:
        """``f`` goes into the tornado; one already inside takes its place (a swap)."""
        followers = _without(state.followers, f)
        line = f"{self.who(f.player)}'s follower is swept into the tornado"
        if t.inside is not None:
            followers = (*followers, Follower(t.inside, f.cell, f.segment))
            line += f"; {self.who(t.inside)}'s takes its place"
        t = replace(t, inside=f.player)
        return replace(state, followers=followers, tornado=t, recent=(*state.recent, line)), t

    def _on_tornado_pick(self, state: CarcState, event: Choice) -> CarcState:
        t = state.tornado
        assert t is not None and t.pending
        if event.action != "pick":
            raise RuleError(f"{self.who(t.mover)}: which follower goes into the tornado (pick)")
        seat, segment = event.args.get("player"), event.args.get("segment", -1)
        f = next((f for f in state.followers_at(t.pending[0]) if f.player == seat and f.segment == segment), None)
        if f is None:
            raise RuleError(f"no such follower on {long_name(t.pending[0])}")
        state, t = self._take(state, t, f)
        return self._tornado_resolve(state, replace(t, pending=t.pending[1:]))

    def _on_tornado_land(self, state: CarcState, event: Choice) -> CarcState:
        t = state.tornado
        assert t is not None and t.inside is not None
        seat = t.inside
        if event.action == "pass" and state.mode != "tiles":
            return replace(state, phase="deploy", supply=_plus(state.supply, seat), tornado=replace(t, inside=None),
                           recent=(f"{self.who(seat)}'s follower returns to supply",))
        if event.action != "land":
            raise RuleError(f"{self.who(seat)}: place the follower from the tornado on {long_name(t.at)} (land)")
        segment = event.args.get("segment", -1)
        if segment not in self.land_spots(state, t):
            raise RuleError(f"{self.feature_name(state, t.at, segment)} is taken, completed or not on the tile")
        put = Follower(seat, t.at, segment, self._feature(state, event.args))
        return replace(state, phase="deploy", followers=(*state.followers, put), tornado=replace(t, inside=None),
                       recent=(f"{self.who(seat)}'s follower lands: {self.follower_name(state, put)}",))

    # -- the meteor -----------------------------------------------------------------------------
    def meteor_target(self, state: CarcState, cell: Cell) -> str:
        """Why the meteor cannot land on ``cell`` ("" when it can)."""
        laid = state.tiles.get(cell)
        if laid is None and state.mode != "light":
            return f"{long_name(cell)} holds no tile"
        if cell == START:
            return "the meteor may not land on the start tile"
        if laid is None:
            return ""
        if laid.kind and self._tile(laid).spring:
            return "the meteor may not land on a spring"
        if laid.kind and self._disaster(laid) in ("meteor", "flood"):
            return f"{long_name(cell)} is already a {self._disaster(laid)}"
        return ""

    def meteor_moves(self, state: CarcState, m: Meteor) -> list[Cell]:
        last = m.chosen[-1]
        near = last.neighbours(diagonal=self.rules.meteor_diagonal)
        return sorted(c for c in near if c not in m.chosen and not self.meteor_target(state, c))

    def _drew_meteor(self, state: CarcState) -> CarcState:
        tile = next(t for t in self.catalog.types if t.disaster == "meteor")
        if state.mode == "tiles" and self.remaining(state, tile) <= 0:
            raise RuleError("the meteor is already out of the bag")
        state = replace(state, drawn=_count(state.drawn, tile.key), meteor=Meteor(state.current),
                        recent=(f"{self.who(state.current)} drew the meteor",))
        if not any(not self.meteor_target(state, c) for c in state.tiles):
            return self._end_turn(replace(state, recent=(*state.recent, "Nowhere to land: the meteor is set aside")))
        return replace(state, phase="meteor_aim")

    def meteor_sayer(self, state: CarcState, m: Meteor) -> int:
        """Whose say it is: the others clockwise from the drawer, then the drawer's last word."""
        return (m.drawer + 1 + m.says) % state.players

    def _on_meteor_aim(self, state: CarcState, event: Choice) -> CarcState:
        m = state.meteor
        assert m is not None
        if event.action != "aim":
            raise RuleError(f"{self.who(m.drawer)}: point at the tile the meteor lands on (aim)")
        cell = cell_of(event.args, "tile")
        why = self.meteor_target(state, cell)
        if why:
            raise RuleError(why)
        m = replace(m, chosen=(cell,))
        return replace(state, meteor=m, phase="meteor_move",
                       recent=(f"{self.who(m.drawer)} aims the meteor at {long_name(cell)}",))

    def _on_meteor_move(self, state: CarcState, event: Choice) -> CarcState:
        m = state.meteor
        assert m is not None
        seat = self.meteor_sayer(state, m)
        if event.action == "aim":
            cell = cell_of(event.args, "tile")
            why = self.meteor_target(state, cell)
            if cell in m.chosen:
                why = f"{long_name(cell)} was already chosen for this meteor"
            elif not why and cell not in m.chosen[-1].neighbours(diagonal=self.rules.meteor_diagonal):
                why = f"{long_name(cell)} is not next to {long_name(m.chosen[-1])}"
            if why:
                raise RuleError(why)
            m = replace(m, chosen=(*m.chosen, cell))
            line = f"{self.who(seat)} moves the meteor to {long_name(cell)}"
        elif event.action == "pass":
            line = f"{self.who(seat)} passes"
        else:
            raise RuleError(f"{self.who(seat)}: move the meteor (aim) or pass")
        m = replace(m, says=m.says + 1)
        state = replace(state, meteor=m, recent=(line,))
        if m.says >= state.players:  # everyone, then the drawer's last word
            return self._meteor_lands(state, m)
        return state

    def _meteor_lands(self, state: CarcState, m: Meteor) -> CarcState:
        cell = m.chosen[-1]
        meteor = next(t for t in self.catalog.types if t.disaster == "meteor")
        landed = f"The meteor lands on {long_name(cell)}"  # the most telling line first
        state = self._replace_tile(replace(state, recent=(landed,)), cell, meteor, self.rules.meteor_followers)
        if state.mode != "tiles":
            state = replace(state, recent=(*state.recent, "Score what it completes that has a follower"))
        return self._end_turn(state)

    def _replace_tile(self, state: CarcState, cell: Cell, tile: TileType, fate: str) -> CarcState:
        """The meteor or the flood takes a tile's place; followers on it go home or out of the game."""
        gone = state.followers_at(cell)
        supply = state.supply
        if fate == "supply":
            for f in gone:
                supply = _plus(supply, f.player)
        state = self._known(state, cell)
        board = tuple((c, Laid(tile.key) if c == cell else t) for c, t in state.board)
        lines = tuple(f"{self.who(f.player)}'s follower {'goes home' if fate == 'supply' else 'is lost'}"
                      for f in gone)
        return replace(state, board=board, followers=tuple(f for f in state.followers if f.cell != cell),
                       supply=supply, recent=(*state.recent, *lines))

    # -- the flood ------------------------------------------------------------------------------
    def flood_targets(self, state: CarcState) -> list[Cell]:
        if state.mode == "light":
            return [c for c in self.light_spaces(state, known=True) if c != START]
        if state.mode == "cells":
            return sorted(c for c, t in state.board if c != START and not t.kind)
        return sorted(c for c, t in state.board if t.kind and self._tile(t).river)

    def _drew_flood(self, state: CarcState) -> CarcState:
        tile = next(t for t in self.catalog.types if t.disaster == "flood")
        if state.mode == "tiles" and self.remaining(state, tile) <= 0:
            raise RuleError("the flood is already out of the bag")
        state = replace(state, drawn=_count(state.drawn, tile.key))
        who = self.who(state.current)
        aside = ""
        if not state.river:
            aside = f"{who} drew the flood: no river in play, set it aside and draw again"
        elif not self.flood_targets(state):
            aside = f"{who} drew the flood: no river tile to replace, set it aside"
        if aside:
            if state.mode == "tiles" and self.bag_left(state) == 0:  # it was the last tile: nothing to draw
                return self._to_final(replace(state, recent=(aside,)), "The flood was the last tile")
            return replace(state, recent=(aside,))
        return replace(state, phase="flood_aim", recent=(f"{who} drew the flood",))

    def _on_flood_aim(self, state: CarcState, event: Choice) -> CarcState:
        if event.action != "aim":
            raise RuleError(f"{self.who(state.current)}: choose the river tile the flood replaces (aim)")
        cell = cell_of(event.args, "tile")
        if cell not in self.flood_targets(state):
            raise RuleError(f"{long_name(cell)} is not a river, spring or lake tile")
        tile = next(t for t in self.catalog.types if t.disaster == "flood")
        state = self._replace_tile(state, cell, tile, self.rules.flood_followers)
        state = replace(state, flood=Flood(cell, state.current),
                        recent=(*state.recent, f"The flood covers {long_name(cell)}: what touches it cannot complete"))
        return self._end_turn(state)

    def _on_flood_spread(self, state: CarcState, event: Choice) -> CarcState:
        assert state.flood is not None
        if event.action != "spread":
            raise RuleError(f"{self.who(state.current)}: before drawing, the flood spreads (spread)")
        return replace(state, flood=replace(state.flood, spread=True), phase="cell",
                       recent=(f"The flood spreads over the 8 tiles around {long_name(state.flood.cell)}",))

    # -- the end --------------------------------------------------------------------------------
    def _to_final(self, state: CarcState, why: str) -> CarcState:
        state = replace(state, phase="final", recent=(why, "The earthquake strikes before final scoring"))
        if state.mode == "light":
            return replace(state, recent=(*state.recent, *self.light_quake(state)))
        if state.mode == "cells" and self._quake_questions(state):
            return replace(state, phase="quake_ask")
        return state

    def _quake_questions(self, state: CarcState) -> list[Cell]:
        """Spaces only: the tiles in the zone the table has not yet said hold a city or not."""
        zone = self.quake_zone(state)
        return sorted((c for c in zone if c in state.tiles and c not in state.quake_asked
                       and self._disaster(state.tiles[c]) not in ("meteor", "flood")),
                      key=lambda c: (c.manhattan(self.quake_cell(state) or START), c))

    def _on_quake_ask(self, state: CarcState, event: Choice) -> CarcState:
        ask = self._quake_questions(state)[0]
        if event.action != "quake" or not isinstance(event.args.get("city"), bool):
            raise RuleError(f"does {long_name(ask)} hold a city? (quake, city yes or no)")
        if cell_of(event.args, "tile") != ask:
            raise RuleError(f"the question is about {long_name(ask)}")
        hits = (*state.quake_hits, ask) if event.args["city"] else state.quake_hits
        state = replace(state, quake_asked=(*state.quake_asked, ask), quake_hits=hits)
        return state if self._quake_questions(state) else replace(state, phase="final")

    def _on_final(self, state: CarcState, event: Choice) -> CarcState:
        if event.action != "score":
            raise RuleError("final scoring: the earthquake, then the score (score)")
        if state.mode == "light":
            lines = [*self.light_quake(state), "The table scores the game as usual"]
            return replace(state, phase="over", final=tuple(lines), recent=tuple(lines))
        if state.mode == "cells":
            lines = ["Earthquake tokens: cities on " + (", ".join(long_name(c) for c in state.quake_hits) or "none"),
                     "Unfinished ones score nothing; finished ones give farmers nothing"]
            return replace(state, phase="over", final=tuple(lines), recent=tuple(lines))
        final, scores = self.final_scoring(state)
        return replace(state, phase="over", final=final, scores=scores, recent=final[-2:])

    def final_scoring(self, state: CarcState) -> tuple[tuple[str, ...], tuple[int, ...]]:
        """The earthquake's tokens, then every feature as it stands; lines to show and the new scores."""
        an = self.analysis(state)
        hit = set(cities_hit(an, self.quake_zone(state)))
        scores = list(state.scores)
        lines = []
        if self.quake_cell(state) is not None:
            names = [self.city_name(an, fid) for fid in sorted(hit)]
            lines.append(f"Earthquake tokens: {len(hit)} cit{'y' if len(hit) == 1 else 'ies'}"
                         + (f" ({'; '.join(names)})" if names else ""))
        for fid, feature in enumerate(an.features):
            win = owners(fid, an, state.followers)
            if not win:
                continue
            if feature.kind == "field":
                good = [c for c in feature.cities if an.features[c].complete and c not in hit]
                lost = [c for c in feature.cities if an.features[c].complete and c in hit]
                pts = 3 * len(good)
                note = f" ({len(lost)} cit{'y' if len(lost) == 1 else 'ies'} lost to the earthquake)" if lost else ""
                what = f"farmers{note}"
            elif feature.kind == "city" and not feature.complete and fid in hit:
                pts, what = 0, "unfinished city hit by the earthquake"
            elif feature.complete or feature.kind == "river":
                continue  # scored when completed
            else:
                pts, what = points(feature, final=True), f"unfinished {feature.kind}"
            for seat in win:
                scores[seat] += pts
                lines.append(f"{self.who(seat)} +{pts}: {what}")
        lines.append("Final: " + ", ".join(f"{self.who(i)} {s}" for i, s in enumerate(scores)))
        return tuple(lines), tuple(scores)

    def city_name(self, an: Analysis, fid: int) -> str:
        cells = sorted(an.features[fid].cells, key=lambda c: (c.manhattan(START), c))
        state = "finished" if an.features[fid].complete else "unfinished"
        return f"{state} city at {long_name(cells[0])}"

    def quake_report(self, state: CarcState) -> list[str]:
        """The cities the earthquake will hit, as the box sees them now (tiles mode)."""
        if state.mode == "light":
            return [f"{self.who(f.player)}'s city follower on {long_name(f.cell)}"
                    for f in self._quake_followers(state)]
        if state.mode == "cells":
            return [long_name(c) for c in state.quake_hits]
        an = self.analysis(state)
        return [self.city_name(an, fid) for fid in cities_hit(an, self.quake_zone(state))]

    # -- what the table sees --------------------------------------------------------------------
    def prompt(self, state: CarcState) -> Prompt:
        p, who = state.phase, self.who(state.current)
        t, m = state.tornado, state.meteor
        if p == "over":
            return Prompt("Game over. " + (state.final[-1] if state.final else ""), "Game over", done=True)
        if p == "cell" and state.mode == "light":
            return Prompt(f"{who}'s turn: a tile with a follower, a tornado or the earthquake, the meteor or the "
                          f"flood; or nothing the disasters need (next player)", f"{who}: lay a tile",
                          actions=("next", "follower", "disaster", "meteor", "flood", "home", "end"))
        if p == "place":
            what = "tile with the follower" if not state.pending_kind else \
                f"{self.catalog.by_key[state.pending_kind].disaster} tile"
            return Prompt(f"{who}: point at the {what}", f"{who}: where is it?", actions=("place",))
        if p == "cell":
            return Prompt(f"{who}'s turn: point at the space for the tile drawn, or say the meteor or the flood "
                          f"was drawn", f"{who}: lay a tile", actions=("cell", "meteor", "flood", "discard", "end"))
        if p == "kind":
            assert state.pending_cell is not None
            return Prompt(f"{who}: which tile goes on {long_name(state.pending_cell)}?", f"{who}: which tile?",
                          actions=("kind",))
        if p == "rotation":
            name = self.catalog.by_key[state.pending_kind].name
            return Prompt(f"{who}: how is the {name} turned?", f"{who}: turn the tile", actions=("rotate",))
        if p == "tornado":
            assert t is not None
            inside = f"{self.who(t.inside)}'s follower is inside" if t.inside is not None else "nobody inside"
            short = f"{self.who(t.mover)}: move the tornado {self.rules.tornado_step} " \
                    f"({t.left} of {self.rules.tornado_spaces} left)"
            return Prompt(f"{short}; {inside}", short, actions=("tornado",))
        if p == "tornado_pick":
            assert t is not None
            return Prompt(f"{self.who(t.mover)}: which follower on {long_name(t.pending[0])} goes into the tornado?",
                          f"{self.who(t.mover)}: take which?", actions=("pick",))
        if p == "tornado_land":
            assert t is not None and t.inside is not None
            return Prompt(f"{self.who(t.inside)}: place your follower from the tornado on {long_name(t.at)}",
                          f"{self.who(t.inside)}: place follower", actions=("land",))
        if p == "deploy":
            return Prompt(f"{who}: deploy a follower on the tile just laid, or none", f"{who}: deploy?",
                          actions=("deploy", "pass"))
        if p == "meteor_aim":
            return Prompt(f"{who} drew the meteor: point at the tile it lands on", f"{who}: aim the meteor",
                          actions=("aim",))
        if p == "meteor_move":
            assert m is not None
            seat = self.meteor_sayer(state, m)
            last = seat == m.drawer
            text = f"{self.who(seat)}: {'last word: ' if last else ''}move the meteor next to " \
                   f"{long_name(m.chosen[-1])}, or {'leave it' if last else 'pass'}"
            return Prompt(text, f"{self.who(seat)}: {'last word' if last else 'move meteor?'}",
                          actions=("aim", "pass"))
        if p == "flood_aim":
            return Prompt(f"{who}: choose the river, spring or lake tile the flood replaces", f"{who}: flood where?",
                          actions=("aim",))
        if p == "flood_spread":
            return Prompt(f"{who}'s turn: before drawing, the flood spreads over the 8 tiles around it",
                          "Flood spreads: OK", actions=("spread",))
        if p == "quake_ask":
            ask = self._quake_questions(state)[0]
            return Prompt(f"Earthquake: does {long_name(ask)} hold a city?", f"City on {short_name(ask)}?",
                          actions=("quake",))
        hits = self.quake_report(state)
        what = f"it hits {len(hits)} cit{'y' if len(hits) == 1 else 'ies'}" if self.quake_cell(state) else \
            "no earthquake tile on the board"
        return Prompt(f"All tiles are down: the earthquake strikes ({what}), then final scoring",
                      "Final scoring: OK", actions=("score",))

    def status(self, state: CarcState) -> str:
        parts = [f"Turn {state.turn}", self.who(state.current)]
        t = state.tornado
        if t is not None and state.phase.startswith("tornado"):
            inside = f", {self.who(t.inside)} inside" if t.inside is not None else ""
            parts.append(f"tornado {t.left} of {self.rules.tornado_spaces} left{inside}")
        if self.quake_cell(state) is not None and state.phase != "over":
            parts.append("earthquake zone drawn")
        if state.flood is not None:
            parts.append("flood spread" if state.flood.spread else "flood")
        if state.mode == "tiles":
            parts.append(f"{self.bag_left(state)} tiles left")
        return " - ".join(parts)

    def recap(self, state: CarcState) -> tuple[str, ...]:
        """What just happened, in names: the last turn's lines (a meteor's landing and what it sent home, the
        flood's spread, the scores), at most five."""
        return state.recent[-5:]

    # -- the decisions open now -----------------------------------------------------------------
    def choices(self, state: CarcState) -> list[Option]:
        return list(getattr(self, f"_choices_{state.phase}")(state))

    def _choices_cell(self, state: CarcState) -> Sequence[Option]:
        if state.mode == "light":
            return self._choices_cell_light(state)
        out = []
        fit: set[str] = set()
        table = self.fit_table(state) if state.mode == "tiles" else None
        for cell in self.open_cells(state):
            if table is not None:
                kinds = table.spaces.get(cell, ())
                if not kinds:
                    continue
                fit.update(tile.key for tile, _ in kinds)
            out.append(Option.of(short_name(cell), Choice("cell", {"x": cell.x, "y": cell.y}), text=long_name(cell)))
        if state.mode == "tiles":  # a tile that fits nowhere is discarded (base rules): the bag still empties
            out += [Option(f"Discard {tile.name}", Choice("discard", {"kind": tile.key}),
                           text=f"{tile.name} fits nowhere: discard it and draw again")
                    for tile in self.unlayable(state, fit)]
        meteor = next(t for t in self.catalog.types if t.disaster == "meteor")
        flood = next(t for t in self.catalog.types if t.disaster == "flood")
        if state.mode == "cells" or self.remaining(state, meteor) > 0:
            out.append(Option("Drew the meteor", Choice("meteor", {})))
        if state.mode == "cells" or self.remaining(state, flood) > 0:
            out.append(Option("Drew the flood", Choice("flood", {})))
        if state.mode == "cells":
            out += [Option.of(f"{self.who(f.player)} home: {short_name(f.cell)}"[:20],
                              Choice("home", {"x": f.cell.x, "y": f.cell.y, "player": f.player}))
                    for f in state.followers]
        out.append(Option("End: final scoring", Choice("end", {})))
        return out

    def _choices_kind(self, state: CarcState) -> Sequence[Option]:
        cell = state.pending_cell
        assert cell is not None
        if state.mode == "cells":
            out = [Option("Plain tile", Choice("kind", {"kind": ""}), cell)]
            for kind in ("tornado", "earthquake"):
                tile = next(t for t in self.catalog.types if t.disaster == kind)
                out.append(Option(f"{kind.capitalize()} tile", Choice("kind", {"kind": tile.key}), cell))
            return out
        where = {"x": cell.x, "y": cell.y}
        out = []
        layable = sorted(self.layable(state, cell), key=lambda kt: -self.remaining(state, kt[0]))
        for tile, turns in layable:  # the kind with most left in the bag first (the session lays them out)
            left = f"{self.remaining(state, tile)} left"
            if len(turns) == 1:
                event = Choice("lay", {**where, "kind": tile.key, "quarters": turns[0]})
            else:
                event = Choice("kind", {"kind": tile.key})
            out.append(Option(tile.name, event, cell, f"{tile.name} ({left})"))
        return out

    def arranged(self, state: CarcState, options: Sequence[Option]) -> tuple[list[Option], int | None, int]:
        """The options as the buttons step through them, the one the cursor starts on (None: where a list starts)
        and how far LEFT and RIGHT step. :meth:`choices` keeps its own order and steps (most left first, the turn
        asked after the kind), so what reads it (a seeded game, the journal's mend, a typed kind) is unchanged.

        - The kinds that fit a space, each turn that fits named with its kind ("City corner: city SW", so the turn
          is not a step of its own), laid out round the likeliest (:mod:`.likely`): it is under the cursor, the
          next two likeliest one press away with UP and DOWN, the two after them with LEFT and RIGHT, which turn
          a page of about the square root of the list (all of 30 within five presses).
        - Every other list (the followers, the tornado's paths, a tile's turns after a typed kind): as listed
          (no follower first), LEFT and RIGHT a page alike, so each of five is one press from the first."""
        if state.phase != "kind" or state.mode != "tiles" or state.pending_cell is None:
            return list(options), None, page(len(options))
        ranked = [option for _, option in sorted(self._turned_kinds(state, state.pending_cell, options),
                                                 key=lambda oo: -oo[0])]  # stable: most left first on a tie
        laid, start = laid_out(ranked, page(len(ranked)))
        return laid, start, page(len(ranked))

    def _turned_kinds(self, state: CarcState, cell: Cell, options: Sequence[Option]) -> list[tuple[float, Option]]:
        """Each kind option that asks the turn after it, as one option per turn that fits (a ``lay``), with the
        odds of each (:meth:`.likely.FitTable.kind_odds`, shared evenly by the turns)."""
        odds = self.fit_table(state).kind_odds(cell)
        out: list[tuple[float, Option]] = []
        for option in options:
            kind = _kind_of(option)
            if option.event.action != "kind":
                out.append((odds.get(kind, 0.0), option))
                continue
            tile = self.catalog.by_key[kind]
            turns = [q for q in tile.rotations() if not self.fits(state, cell, tile, q)]
            left = self.remaining(state, tile)
            out += [(odds.get(kind, 0.0) / len(turns),
                     Option(f"{tile.name}: {turn_label(tile, q)}",
                            Choice("lay", {"x": cell.x, "y": cell.y, "kind": kind, "quarters": q}), cell,
                            f"{tile.name} ({left} left), {turn_label(tile, q)}")) for q in turns]
        return out

    def _choices_rotation(self, state: CarcState) -> Sequence[Option]:
        cell = state.pending_cell
        assert cell is not None
        tile = self.catalog.by_key[state.pending_kind]
        return [Option(turn_label(tile, q), Choice("rotate", {"quarters": q}), cell, TURN_NAMES[q])
                for q in tile.rotations() if not self.fits(state, cell, tile, q)]

    def _choices_tornado(self, state: CarcState) -> Sequence[Option]:
        t = state.tornado
        assert t is not None
        out = []
        for path in self.tornado_moves(state, t):
            label = ", ".join(_direction(a, b) for a, b in zip((t.at, *path), path, strict=False))
            out.append(Option(label, Choice("tornado", {"path": [[c.x, c.y] for c in path]}), path[-1],
                              f"to {long_name(path[-1])}"))
        if state.mode == "light":  # the box does not see the board's edge: the table says it is reached
            out.append(Option("Cannot move on", Choice("stuck", {}), t.at))
        return out

    def _choices_tornado_pick(self, state: CarcState) -> Sequence[Option]:
        t = state.tornado
        assert t is not None
        cell = t.pending[0]
        return [Option(f"{self.who(f.player)} {self.follower_name(state, f)}",
                       Choice("pick", {"player": f.player, "segment": f.segment}), cell)
                for f in state.followers_at(cell)]

    def _choices_tornado_land(self, state: CarcState) -> Sequence[Option]:
        t = state.tornado
        assert t is not None and t.inside is not None
        if state.mode == "light" and self.land_spots(state, t):
            out = self._light_features(t.inside, "land", {}, t.at)
        else:
            out = [Option(f"{self.who(t.inside)}: {self.feature_name(state, t.at, s)}",
                          Choice("land", {"segment": s}), t.at) for s in self.land_spots(state, t)]
        if state.mode != "tiles":
            out.append(Option("Back to supply", Choice("pass", {}), t.at))
        return out

    def _choices_deploy(self, state: CarcState) -> Sequence[Option]:
        cell = state.last
        assert cell is not None
        who = self.who(state.current)
        out = [Option("No follower", Choice("pass", {}), cell)]
        if state.supply[state.current] > 0 and state.mode == "light" and self._disaster(state.tiles[cell]) not in (
                "meteor", "flood"):
            out += self._light_features(state.current, "deploy", {"x": cell.x, "y": cell.y}, cell)
        elif state.supply[state.current] > 0:
            out += [Option(f"{who}: {self.feature_name(state, cell, s)}",
                           Choice("deploy", {"x": cell.x, "y": cell.y, "segment": s}), cell)
                    for s in self.deploy_spots(state, cell)]
        return out

    def _choices_meteor_aim(self, state: CarcState) -> Sequence[Option]:
        cells = self.light_spaces(state, known=True) if state.mode == "light" else [c for c, _ in sorted(state.board)]
        return [Option.of(short_name(c), Choice("aim", {"x": c.x, "y": c.y}), text=long_name(c))
                for c in cells if not self.meteor_target(state, c)]

    def _choices_meteor_move(self, state: CarcState) -> Sequence[Option]:
        m = state.meteor
        assert m is not None
        last = self.meteor_sayer(state, m) == m.drawer
        out = [Option("Leave it here" if last else "Pass", Choice("pass", {}), m.chosen[-1])]
        out += [Option.of(short_name(c), Choice("aim", {"x": c.x, "y": c.y}), text=long_name(c))
                for c in self.meteor_moves(state, m)]
        return out

    def _choices_flood_aim(self, state: CarcState) -> Sequence[Option]:
        return [Option.of(short_name(c), Choice("aim", {"x": c.x, "y": c.y}), text=long_name(c))
                for c in self.flood_targets(state)]

    def _choices_flood_spread(self, state: CarcState) -> Sequence[Option]:
        assert state.flood is not None
        return [Option("The flood spreads", Choice("spread", {}), state.flood.cell)]

    def _choices_quake_ask(self, state: CarcState) -> Sequence[Option]:
        ask = self._quake_questions(state)[0]
        return [Option(f"{answer}: city there", Choice("quake", {"x": ask.x, "y": ask.y, "city": city}), ask)
                for answer, city in (("Yes", True), ("No", False))]

    def _choices_final(self, state: CarcState) -> Sequence[Option]:
        return [Option("Score the game", Choice("score", {}), self.quake_cell(state))]

    def _choices_over(self, state: CarcState) -> Sequence[Option]:
        return []


def _kind_of(option: Option) -> str:
    kind = option.event.args.get("kind")
    return kind if isinstance(kind, str) else ""


def _reach(at: Cell, step: int) -> frozenset[Cell]:
    """Every space within ``step`` of ``at``: the light mode's tornado may cross any (the table sees the tiles)."""
    return frozenset(Cell(at.x + dx, at.y + dy) for dx in range(-step, step + 1) for dy in range(-step, step + 1)
                     if abs(dx) + abs(dy) <= step)


def _said(event: Choice) -> str:
    """A decision as canonical JSON (a journal's tuple and list read alike)."""
    return json.dumps([event.action, event.args], sort_keys=True, default=list)


_EDGE = {"C": "city", "R": "road", "F": "field", "W": "river", "X": "nothing"}
_SIDE = {"N": "north", "E": "east", "S": "south", "W": "west"}


def _direction(a: Cell, b: Cell) -> str:
    return {(0, -1): "north", (1, 0): "east", (0, 1): "south", (-1, 0): "west"}.get((b.x - a.x, b.y - a.y), "?")


def turn_label(tile: TileType, quarters: int) -> str:
    """A turned tile as the OLED tells it: where its cities and roads point ("city NW, road ES")."""
    parts = []
    for kind in ("city", "road", "river"):
        groups = ["".join(s for s in SIDES if s in seg.sides) for seg in tile.turned(quarters) if seg.kind == kind]
        if groups:
            parts.append(f"{kind} {'/'.join(groups)}")
    if not parts:
        return TURN_NAMES[quarters]
    return ", ".join(parts)[:20]


def _without(followers: tuple[Follower, ...], f: Follower) -> tuple[Follower, ...]:
    out = list(followers)
    out.remove(f)
    return tuple(out)


def _plus(supply: tuple[int, ...], seat: int) -> tuple[int, ...]:
    return tuple(n + 1 if i == seat else n for i, n in enumerate(supply))


def _count(drawn: tuple[tuple[str, int], ...], key: str) -> tuple[tuple[str, int], ...]:
    d = dict(drawn)
    d[key] = d.get(key, 0) + 1
    return tuple(sorted(d.items()))
