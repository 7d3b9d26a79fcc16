"""What the Allegheny painter draws from the rules, worked out once per state on the session's side.

The painter draws the state's track, development levels, auction and recap itself (they are the state's facts) over
the printed map; what it cannot read off the state is the rules' answer, given here as plain data
(:class:`companion.views.drawn.Drawn`'s extras):

- ``auto``: the location the next automatic metro development goes to ("" when every metro is full), and
  ``automatic_line``, the same in the engine's words;
- ``open``: the railroads running now (their stock sold), by key;
- ``rows``: per railroad, in the data's order, its name, base, owner and price, value and income (the engine's
  own rows: value and income are the network's figures);
- ``readings``: the open questions as the maps data answers them, in words.
"""

from __future__ import annotations

from typing import Any

from companion.games.allegheny import network as net
from companion.games.allegheny.engine import AlleghenyGame
from companion.games.allegheny.state import AlleghenyState


def drawn(game: AlleghenyGame, state: AlleghenyState) -> dict[str, Any]:
    """The extras of ``state`` (see the module's docstring)."""
    board = game.board
    return {
        "auto": net.automatic_target(board, state),
        "automatic_line": game.automatic_line(state),
        "open": tuple(rr.key for rr in board.railroads if net.is_open(board, state, rr.key)),
        "rows": tuple(game.railroad_rows(state)),
        "readings": tuple(board.rules.readings(board.name)),
    }
