"""What the track laid means: where a railroad reaches, which links it may build, its value and income,
which locations may be developed and where the automatic metro development goes.

Pure queries over the board and a state, shared by the engine (to judge an event), its menus (to list
only what it would accept) and the views (the side panel's value and income per railroad).
"""

from __future__ import annotations

from companion.games.allegheny.data import Board
from companion.games.allegheny.state import AlleghenyState
from companion.places import Link


def is_open(board: Board, state: AlleghenyState, railroad: str) -> bool:
    """A railroad runs once its stock is sold: the five at the initial offering, the P&LE when it opens."""
    return state.owner(railroad) is not None


def reach(board: Board, state: AlleghenyState, railroad: str) -> list[str]:
    """Locations the railroad builds from: its base and every end of its links but external connections
    (an external connection is the end of the line)."""
    found = {board.by_key[railroad].base}
    for t in state.tracks:
        if t.railroad == railroad:
            found.update(end for end in t.link.ends() if not board.spots[end].external)
    return sorted(found, key=board.name)


def connected(board: Board, state: AlleghenyState, railroad: str) -> set[str]:
    """Locations the railroad connects: the ends of its links, and its base when the data says a base counts
    (``develop.base_connected``)."""
    found = {end for t in state.tracks if t.railroad == railroad for end in t.link.ends()}
    if board.rules.base_connected and is_open(board, state, railroad):
        found.add(board.by_key[railroad].base)
    return found


def refusal(board: Board, state: AlleghenyState, railroad: str, link: Link) -> str:
    """Why ``railroad`` may not build ``link`` now, in a sentence, or "" when it may."""
    r = board.rules
    name = board.by_key[railroad].name
    where = f"{board.name(link.a)} - {board.name(link.b)}"
    if link not in board.links:
        return f"no link {where} on the map"
    laid = state.tracks_on(link)
    if any(t.railroad == railroad for t in laid):
        return f"the {name} has the link {where} already"
    if r.from_network and not set(link.ends()) & set(reach(board, state, railroad)):
        return f"the {name} reaches neither {board.name(link.a)} nor {board.name(link.b)}"
    single = next((end for end in link.ends() if end in r.single_track_at), None)
    if single is not None and laid:
        by = board.by_key[laid[0].railroad].name
        return (f"no double track link into and out of {board.name(single)}: the {by} has a track on {where}")
    if len(laid) >= r.tracks_per_link:
        return f"{where} carries {len(laid)} tracks already (the most a link takes)"
    return ""


def buildable_from(board: Board, state: AlleghenyState, railroad: str, end: str) -> list[Link]:
    """The links from ``end`` the railroad may build now, in menu order."""
    return [k for k in board.links_at(end) if not refusal(board, state, railroad, k)]


def value(board: Board, state: AlleghenyState, railroad: str) -> int:
    """The railroad's value: the values of the locations it connects at their development levels;
    external connections add nothing (the expansion's rule)."""
    total = 0
    for key in connected(board, state, railroad):
        spot = board.spots[key]
        if not spot.external:
            total += spot.values[state.level(key)]
    return total


def income(board: Board, state: AlleghenyState, railroad: str) -> int:
    """The railroad's place on the income track, read off the data's track by its value."""
    return board.income_for(value(board, state, railroad)) if is_open(board, state, railroad) else 0


def anyone_connects(board: Board, state: AlleghenyState, key: str) -> bool:
    return any(key in connected(board, state, rr.key) for rr in board.railroads if is_open(board, state, rr.key))


def full(board: Board, state: AlleghenyState, key: str) -> bool:
    return state.level(key) >= board.spots[key].levels


def develop_refusal(board: Board, state: AlleghenyState, key: str) -> str:
    """Why a player may not develop ``key`` by her own action, or "" when she may."""
    spot = board.spots.get(key)
    if spot is None:
        return f"unknown location {key!r}"
    if spot.external:
        return f"{spot.name} is an external connection: it is not developed"
    if full(board, state, key):
        return f"{spot.name} is fully developed ({spot.levels} of {spot.levels})"
    if not anyone_connects(board, state, key):
        return f"no railroad connects to {spot.name}: a location is developed only with a connection"
    return ""


def developable(board: Board, state: AlleghenyState) -> list[str]:
    """Locations a player may develop now, in menu order (by name)."""
    keys = sorted(board.spots, key=board.name)
    return [k for k in keys if not develop_refusal(board, state, k)]


def automatic_target(board: Board, state: AlleghenyState) -> str:
    """Where the automatic metro development goes now: the first metro of the data's order that is not
    fully developed, or "" when all are (then nothing happens). No connection is needed."""
    return next((k for k in board.rules.automatic if not full(board, state, k)), "")
