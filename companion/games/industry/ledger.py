"""Connections and the rail-link ledger: who reaches a port, and what each built link is worth.

"At the end of the game each rail link is worth $3 plus the number of counters at either end." Minnesota adds:
an iron market counts only with its face-down market counter; a link to a 'Chicago' name box counts every counter
of the Chicago area; the Twin Cities count apart. The ledger can be read at any time, as the game goes.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass

from companion.games.industry.data import Board, Rules
from companion.games.industry.state import IndustryState
from companion.places import Link


@dataclass(frozen=True)
class LinkValue:
    """One built link on the ledger: its owner, its value and the counters each end adds."""

    link: Link
    owner: str
    value: int
    ends: tuple[int, int]


def live_lanes(board: Board, state: IndustryState) -> list[Link]:
    """Japan: sea lanes with a built port at both ends and a ship between them (flipped or not)."""
    lanes = []
    for ship in state.ships:
        space = board.ships[ship.space]
        if len(space.ends) == 2 and all(any(c.kind == "port" for c in state.at(e)) for e in space.ends):
            lanes.append(Link(*space.ends))
    return lanes


def network(board: Board, state: IndustryState) -> dict[str, set[str]]:
    """Who is joined to whom: built rail links (anyone's), live sea lanes (a rail link of every player) and the
    connections the text makes (Twin Cities, Chicago area)."""
    near: dict[str, set[str]] = {k: set() for k in board.spots}
    for link in [*(r.link for r in state.rails), *live_lanes(board, state), *board.implicit]:
        near[link.a].add(link.b)
        near[link.b].add(link.a)
    return near


def reachable(board: Board, state: IndustryState, start: str) -> list[str]:
    """Every location connected to ``start`` (itself first), breadth first."""
    near = network(board, state)
    seen, queue = [start], deque([start])
    while queue:
        for nxt in sorted(near[queue.popleft()]):
            if nxt not in seen:
                seen.append(nxt)
                queue.append(nxt)
    return seen


def port_for(board: Board, state: IndustryState, location: str) -> str | None:
    """The nearest constructed port or distant port ('Chicago' name box) ``location`` is connected to, or None.
    Minnesota: "In order to have access to coal, the location must be connected to a constructed port or distant
    port, such as Chicago." """
    for key in reachable(board, state, location):
        if board.spots[key].chicago or any(c.kind == "port" for c in state.at(key)):
            return key
    return None


def counters_at(board: Board, rules: Rules, state: IndustryState, key: str) -> int:
    """The counters a link's end adds: the counters there (all, or flipped only as the data says); a 'Chicago' name
    box: every counter of the Chicago area; plus an iron market there with its face-down market counter."""
    spot = board.spots[key]
    places = [s.key for s in board.spots.values() if s.area == "chicago"] if spot.chicago else [key]
    n = sum(1 for p in places for c in state.at(p) if c.flipped or not rules.flipped_only)
    market = state.market(key)
    return n + (1 if market is not None and market.counter else 0)


def link_value(board: Board, rules: Rules, state: IndustryState, link: Link) -> tuple[int, tuple[int, int]]:
    ends = (counters_at(board, rules, state, link.a), counters_at(board, rules, state, link.b))
    chicago = [i for i, end in enumerate((link.a, link.b)) if board.spots[end].chicago]
    if chicago and board.chicago_link == "chicago_area":  # the text's literal reading: the area's counters alone
        alone = (ends[0], 0) if chicago[0] == 0 else (0, ends[1])
        return sum(alone), alone
    return rules.link_base + sum(ends), ends


def ledger(board: Board, rules: Rules, state: IndustryState) -> list[LinkValue]:
    """Every built rail link with its value now, in build order."""
    out = []
    for rail in state.rails:
        value, ends = link_value(board, rules, state, rail.link)
        out.append(LinkValue(rail.link, rail.owner, value, ends))
    return out


def totals(board: Board, rules: Rules, state: IndustryState) -> dict[str, int]:
    """Each player's rail links added up (players without links at $0), in table order."""
    sums = {p: 0 for p in state.players}
    for row in ledger(board, rules, state):
        sums[row.owner] += row.value
    return sums
