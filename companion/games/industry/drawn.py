"""What the Age of Industry painter draws from the rules, worked out once per state on the session's side.

The painter draws the state's counters, ships and built links itself (they are the state's facts) over the
printed map the state names; what it cannot read off the state is the rules' answer, given here as plain data
(:class:`companion.views.drawn.Drawn`'s extras):

- ``lanes``: the live sea lanes (Japan: a built port at both ends and a ship between them), as links;
- ``links``: every built rail link with its value now, in build order, as (link, owner, value): the ledger's
  figures, Minnesota's Chicago area and market counters included;
- ``totals``: each player's rail links added up, in table order, as (player, dollars);
- ``last_round``: whether the deck may run out this round (the box says so a round ahead);
- ``display``: each Japan display slot's card by name ("" for an empty slot);
- ``beside``: each face-up card beside the board by name ("" where no named card lies: the painter says why);
- ``readings``: the open questions of the state's map as the maps data answers them, in words.
"""

from __future__ import annotations

from typing import Any

from companion.games.industry import ledger
from companion.games.industry.engine import IndustryGame
from companion.games.industry.entries import card_label
from companion.games.industry.state import EMPTY, TO_DEAL, UNNAMED, IndustryState

PLACEHOLDERS = frozenset((UNNAMED, TO_DEAL, EMPTY))
"""A face-up place beside the board that holds no named card (the painter words each)."""


def drawn(game: IndustryGame, state: IndustryState) -> dict[str, Any]:
    """The extras of ``state`` (see the module's docstring)."""
    board = game.board(state)
    rules = game.rules
    return {
        "lanes": tuple(ledger.live_lanes(board, state)),
        "links": tuple((row.link, row.owner, row.value) for row in ledger.ledger(board, rules, state)),
        "totals": tuple(ledger.totals(board, rules, state).items()),
        "last_round": game.last_round(state),
        "display": tuple(card_label(board, rules, slot.card) if slot.card else "" for slot in state.display),
        "beside": tuple("" if card in PLACEHOLDERS else card_label(board, rules, card) for card in state.beside),
        "readings": tuple(board.readings()),
    }
