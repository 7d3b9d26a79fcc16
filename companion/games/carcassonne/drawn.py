"""What the Carcassonne painter draws from the rules, worked out once per state on the session's side.

The painter draws the state's tiles, followers and disasters itself (they are the state's facts), each tile from
its type in the catalogue; what it cannot read off the state is the rules' answer, given here as plain data
(:class:`companion.views.drawn.Drawn`'s extras):

- ``tornado_targets``: where the tornado's legal moves end, while it waits to be moved;
- ``meteor_targets``: the tiles the meteor may be put on now;
- ``quake_cell`` and ``quake_zone``: where the earthquake tile lies and the spaces it shakes (None and empty
  before it is laid); ``quake_hits``: each city it hits, as its parts (cell, segment; -1: the whole space);
- ``meteor_ends``: (cell, side) where a city or road ends at a meteor;
- ``flood_around``: the 8 spaces around the flood's tile, in the rules' order;
- ``prompt``: what is asked now, in the OLED's short words; ``readings``: the open questions as the maps data
  answers them.
"""

from __future__ import annotations

from typing import Any

from companion.games.carcassonne.engine import CarcassonneGame
from companion.games.carcassonne.features import Analysis, around, neighbour
from companion.games.carcassonne.scoring import cities_hit
from companion.games.carcassonne.state import CarcState
from companion.games.carcassonne.tiles import SIDES
from companion.places import Cell


def tornado_targets(game: CarcassonneGame, state: CarcState) -> tuple[Cell, ...]:
    """Where the tornado's legal moves end (the mover's options), while it waits to be moved."""
    t = state.tornado
    if t is None or state.phase != "tornado":
        return ()
    return tuple(sorted({path[-1] for path in game.tornado_moves(state, t)}))


def meteor_targets(game: CarcassonneGame, state: CarcState) -> tuple[Cell, ...]:
    """Tiles the meteor may be put on now: any allowed tile while aimed, side-by-side ones while moved."""
    m = state.meteor
    if state.phase == "meteor_aim":
        return tuple(sorted(c for c in state.tiles if not game.meteor_target(state, c)))
    if state.phase == "meteor_move" and m is not None:
        return tuple(game.meteor_moves(state, m))
    return ()


Parts = tuple[tuple[Cell, int], ...]
"""A city as its parts: (cell, segment), -1 for a whole space."""


def quake_hits(game: CarcassonneGame, state: CarcState, an: Analysis | None) -> tuple[Parts, ...]:
    """Each city the earthquake hits, as its parts (cell, segment); spaces only: the cells said to."""
    if game.quake_cell(state) is None:
        return ()
    if state.mode != "tiles" or an is None:
        return tuple(((c, -1),) for c in state.quake_hits)
    return tuple(tuple(an.features[fid].parts) for fid in cities_hit(an, game.quake_zone(state)))


def meteor_ends(game: CarcassonneGame, state: CarcState) -> tuple[tuple[Cell, str], ...]:
    """(cell, side) where a city or road ends at a meteor: the side of the tile facing it."""
    if state.mode != "tiles":
        return ()
    by_key = game.catalog.by_key
    meteors = {c for c, t in state.board if t.kind and t.kind in by_key and by_key[t.kind].disaster == "meteor"}
    out: list[tuple[Cell, str]] = []
    for cell, laid in state.board:
        tile = by_key.get(laid.kind) if laid.kind else None
        if tile is None or cell in meteors:
            continue
        for s in tile.turned(laid.quarters):
            if s.kind in ("city", "road"):
                out += [(cell, side) for side in SIDES if side in s.sides and neighbour(cell, side) in meteors]
    return tuple(out)


def drawn(game: CarcassonneGame, state: CarcState) -> dict[str, Any]:
    """The extras of ``state`` (see the module's docstring)."""
    quake = game.quake_cell(state)
    an = game.analysis(state) if state.mode == "tiles" and quake is not None else None
    return {
        "tornado_targets": tornado_targets(game, state),
        "meteor_targets": meteor_targets(game, state),
        "quake_cell": quake,
        "quake_zone": game.quake_zone(state),
        "quake_hits": quake_hits(game, state, an),
        "meteor_ends": meteor_ends(game, state),
        "flood_around": tuple(around(state.flood.cell)) if state.flood is not None else (),
        "prompt": game.prompt(state).short,
        "readings": tuple(game.rules.readings()),
    }
