"""The Allegheny map, its railroads and the readings of the rules in force, read from maps/allegheny.toml once.

The printed map is not available, so the file holds a plausible Allegheny that a group corrects to its own
board. Everything the expansion's text leaves open (capacities, values, bonuses, the auction's details, the
colour contradiction) is a field there, so the engine decides nothing the table might read differently.
Every mistake is one line, ``file: field: what is wrong``.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any

from companion.datafile import Fields, load_toml
from companion.paths import map_file
from companion.places import GraphBoard, Link, Site

KINDS: tuple[str, ...] = ("metro", "settlement", "external")
FIRST_BIDDER: tuple[str, ...] = ("rotate", "seat1", "after_winner")
PASS_MODES: tuple[str, ...] = ("out", "again")
PAID_TO: tuple[str, ...] = ("treasury", "player")
PAID: tuple[str, ...] = ("each_railroad", "first_railroad")


@dataclass(frozen=True)
class Spot:
    """A location of the map: a metro area, a settlement or an external connection."""

    key: str
    name: str
    kind: str
    x: float
    y: float
    levels: int = 0
    """Development capacity: fully developed at this level (0 for an external connection)."""
    values: tuple[int, ...] = ()
    """Value at development level 0..levels (empty for an external connection)."""
    bonus: int = 0
    """Connection bonus (external connections only)."""

    @property
    def external(self) -> bool:
        return self.kind == "external"


@dataclass(frozen=True)
class Railroad:
    """One railroad: its stock's name, its colour as the group sets it, and its base city."""

    key: str
    name: str
    colour: str
    base: str

    @property
    def label(self) -> str:
        """How screens name it: "C&O (red)", the colour being the group's reading of the text."""
        return f"{self.name} ({self.colour})"


@dataclass(frozen=True)
class Rules:
    """The readings in force, each a field of maps/allegheny.toml (see maps/README.md)."""

    counts: tuple[int, ...]
    seating: tuple[str, ...]
    minimum: int
    steps: tuple[int, ...]
    opener_must_bid: bool
    pass_mode: str
    offering: tuple[str, ...]
    first_bidder: str
    first_player: str
    ple: str
    ple_opens_at: str
    tracks_per_link: int
    single_track_at: frozenset[str]
    from_network: bool
    second_cost: int
    second_same_location: bool
    base_connected: bool
    automatic: tuple[str, ...]
    paid_to: str
    paid: str
    income: tuple[tuple[int, int], ...]
    single_track: str = "one_track_per_link"
    """"No double track link into and out of Pittsburgh": "one_track_per_link" (a link into Pittsburgh takes one
    railroad's track only), the reading the box plays."""

    def readings(self, name: Any) -> list[str]:
        """The open questions as answered, in words (the side panel, ``companion map allegheny``)."""
        places = ", ".join(name(k) for k in sorted(self.single_track_at))
        return [f"No double track into and out of {places}: one railroad's track per link there",
                f"Up to {self.tracks_per_link} railroads' tracks on any other link"]


@dataclass(frozen=True)
class Board:
    """Everything the box needs from the printed map and the rules' open questions."""

    spots: dict[str, Spot]
    links: frozenset[Link]
    railroads: tuple[Railroad, ...]
    rules: Rules

    @cached_property
    def by_key(self) -> dict[str, Railroad]:
        return {r.key: r for r in self.railroads}

    def name(self, key: str) -> str:
        spot = self.spots.get(key)
        return spot.name if spot else "a place off the map"

    def links_at(self, key: str) -> list[Link]:
        """The links with an end at ``key``, ordered by the other end's name (as the menus list them)."""
        return sorted((k for k in self.links if key in k.ends()), key=lambda k: self.name(k.other(key)))

    def is_external(self, link: Link) -> bool:
        return any(self.spots[end].external for end in link.ends())

    def income_for(self, value: int) -> int:
        """The income track: the income of the highest step whose value is reached."""
        return max((income for at_least, income in self.rules.income if value >= at_least), default=0)

    def graph(self) -> GraphBoard:
        """The board as the shared graph shape (for ``board_for`` and the projector)."""
        sites = {k: Site(s.name, s.x, s.y, s.kind) for k, s in self.spots.items()}
        return GraphBoard(sites, {k: "external" if self.is_external(k) else "rail" for k in sorted(self.links)})

    def to_json(self) -> dict[str, Any]:
        """The ``companion map allegheny --json`` form: locations, links, railroads and the readings in force."""
        r = self.rules
        return {
            "sites": [{"key": s.key, "name": s.name, "kind": s.kind, "x": s.x, "y": s.y,
                       **({"bonus": s.bonus} if s.external else {"levels": s.levels, "values": list(s.values)})}
                      for s in self.spots.values()],
            "links": [{"a": k.a, "b": k.b, "kind": "external" if self.is_external(k) else "rail"}
                      for k in sorted(self.links)],
            "railroads": [{"key": x.key, "name": x.name, "colour": x.colour, "base": x.base} for x in self.railroads],
            "rules": {"players": list(r.counts), "seating": list(r.seating), "auction_minimum": r.minimum,
                      "bid_steps": list(r.steps), "opener_must_bid": r.opener_must_bid, "pass": r.pass_mode,
                      "offering": list(r.offering), "first_bidder": r.first_bidder, "first_player": r.first_player,
                      "ple": r.ple, "ple_opens_at": r.ple_opens_at, "tracks_per_link": r.tracks_per_link,
                      "single_track_at": sorted(r.single_track_at), "from_network": r.from_network,
                      "second_cost": r.second_cost, "second_same_location": r.second_same_location,
                      "base_connected": r.base_connected, "automatic": list(r.automatic),
                      "bonus_paid_to": r.paid_to, "bonus_paid": r.paid, "income": [list(x) for x in r.income],
                      "single_track": r.single_track},
            "readings": r.readings(self.name),
        }


def _ints(f: Fields, key: str, low: int, high: int) -> tuple[int, ...]:
    values = f.get(key, list)
    if not values or not all(isinstance(v, int) and not isinstance(v, bool) and low <= v <= high for v in values):
        raise f.error(f"expected a list of whole numbers {low}..{high}, got {values!r}", key)
    return tuple(values)


def _strings(f: Fields, key: str) -> tuple[str, ...]:
    values = f.get(key, list)
    if not all(isinstance(v, str) and v for v in values):
        raise f.error(f"expected a list of names, got {values!r}", key)
    return tuple(values)


def _spots(top: Fields) -> dict[str, Spot]:
    spots: dict[str, Spot] = {}
    for f in top.tables("sites"):
        key, name, kind = f.get("key", str), f.get("name", str), f.choice("kind", KINDS)
        if key in spots:
            raise f.error(f"location {key!r} is given twice", "key")
        if not name.strip():
            raise f.error("a location needs a name the table can read", "name")
        x, y = f.get("x", float), f.get("y", float)
        if kind == "external":
            spots[key] = Spot(key, name, kind, x, y, bonus=f.int_in("bonus", 0, 99))
        else:
            levels = f.int_in("levels", 1, 9)
            values = _ints(f, "values", 0, 99)
            if len(values) != levels + 1:
                raise f.error(f"expected {levels + 1} values (development levels 0..{levels}), got {len(values)}",
                              "values")
            spots[key] = Spot(key, name, kind, x, y, levels, values)
        f.reject_unknown()
    if not spots:
        raise top.error("no locations", "sites")
    return spots


def _links(f: Fields, spots: dict[str, Spot]) -> frozenset[Link]:
    rows = f.get("links", list)
    links: set[Link] = set()
    for i, row in enumerate(rows):
        where = f"links[{i}]"
        if not (isinstance(row, list) and len(row) == 2 and all(isinstance(e, str) for e in row)):
            raise f.error(f"expected two location keys, got {row!r}", where)
        for end in row:
            if end not in spots:
                raise f.error(f"unknown location {end!r}", where)
        if row[0] == row[1]:
            raise f.error(f"a link joins two different locations, got {row[0]!r} twice", where)
        link = Link(row[0], row[1])
        if link in links:
            raise f.error(f"the link {row[0]} - {row[1]} is given twice", where)
        if spots[row[0]].external and spots[row[1]].external:
            raise f.error("a link between two external connections cannot be built", where)
        links.add(link)
    f.reject_unknown()
    return frozenset(links)


def _railroads(top: Fields, spots: dict[str, Spot]) -> tuple[Railroad, ...]:
    found: list[Railroad] = []
    for f in top.tables("railroads"):
        key, base = f.get("key", str), f.get("base", str)
        if any(r.key == key for r in found):
            raise f.error(f"railroad {key!r} is given twice", "key")
        if base not in spots or spots[base].external:
            raise f.error(f"unknown base location {base!r}", "base")
        found.append(Railroad(key, f.get("name", str), f.get("colour", str), base))
        f.reject_unknown()
    if not found:
        raise top.error("no railroads", "railroads")
    return tuple(found)


def _rules(top: Fields, spots: dict[str, Spot], railroads: tuple[Railroad, ...]) -> Rules:
    keys = {r.key for r in railroads}
    players = top.table("players")
    counts = _ints(players, "counts", 2, 8)
    seating = _strings(players, "seating")
    if len(seating) < max(counts):
        raise players.error(f"expected a name for each of {max(counts)} seats, got {len(seating)}", "seating")
    if len(set(seating)) != len(seating):
        raise players.error("two seats have the same name", "seating")
    players.reject_unknown()

    auction = top.table("auction")
    minimum = auction.int_in("minimum", 0, 999)
    steps = _ints(auction, "steps", 1, 99)
    opener = auction.get("opener_must_bid", bool)
    pass_mode = auction.choice("pass", PASS_MODES)
    auction.reject_unknown()

    offering = top.table("initial_offering")
    order = _strings(offering, "order")
    for key in order:
        if key not in keys:
            raise offering.error(f"unknown railroad {key!r}", "order")
    if len(set(order)) != len(order):
        raise offering.error("a railroad is offered twice", "order")
    first_bidder = offering.choice("first_bidder", FIRST_BIDDER)
    first_player = offering.choice("first_player", order)
    offering.reject_unknown()

    ple = top.table("ple")
    ple_key = ple.choice("railroad", sorted(keys))
    if ple_key in order:
        raise ple.error(f"the railroad that opens later ({ple_key!r}) is in the initial offering", "railroad")
    opens_at = ple.choice("opens_at", sorted(k for k, s in spots.items() if not s.external))
    ple.reject_unknown()

    track = top.table("track")
    per_link = track.int_in("tracks_per_link", 1, 6)
    single = _strings(track, "single_track_at")
    for key in single:
        if key not in spots:
            raise track.error(f"unknown location {key!r}", "single_track_at")
    from_network = track.get("from_network", bool)
    single_reading = track.choice("single_track", ("one_track_per_link",), "one_track_per_link")
    track.reject_unknown()

    develop = top.table("develop")
    cost = develop.int_in("second_cost", 0, 99)
    same = develop.get("second_same_location", bool)
    base_connected = develop.get("base_connected", bool)
    automatic = _strings(develop, "automatic")
    for key in automatic:
        if key not in spots or spots[key].kind != "metro":
            raise develop.error(f"{key!r} is not a metro area of the map", "automatic")
    develop.reject_unknown()

    external = top.table("external")
    paid_to, paid = external.choice("paid_to", PAID_TO), external.choice("paid", PAID)
    external.reject_unknown()

    income = top.table("income")
    rows = income.get("track", list)
    steps_found: list[tuple[int, int]] = []
    for i, row in enumerate(rows):
        if not (isinstance(row, list) and len(row) == 2
                and all(isinstance(v, int) and not isinstance(v, bool) and v >= 0 for v in row)):
            raise income.error(f"expected [value at least, income], got {row!r}", f"track[{i}]")
        if steps_found and row[0] <= steps_found[-1][0]:
            raise income.error("the values must increase along the track", f"track[{i}]")
        steps_found.append((row[0], row[1]))
    if not steps_found:
        raise income.error("expected at least one step", "track")
    income.reject_unknown()
    return Rules(counts, seating, minimum, steps, opener, pass_mode, order, first_bidder, first_player, ple_key,
                 opens_at, per_link, frozenset(single), from_network, cost, same, base_connected, automatic,
                 paid_to, paid, tuple(steps_found), single_reading)


def load_board(path: Path) -> Board:
    """Read and cross-check maps/allegheny.toml; DataError names file and field."""
    top = load_toml(path)
    spots = _spots(top)
    links = _links(top.table("board"), spots)
    railroads = _railroads(top, spots)
    rules = _rules(top, spots, railroads)
    top.reject_unknown()
    return Board(spots, links, railroads, rules)


def default_path(maps: Path | None) -> Path:
    return map_file("allegheny.toml", maps)
