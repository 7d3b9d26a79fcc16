"""The two Age of Industry maps and the readings they share, read once from maps/industry*.toml.

The printed maps are not available, so a group copies its own into the files; every mistake is reported as
``file: field: what is wrong`` and never as a traceback. Both maps are read at load time, and the setup question
"map" picks one per game: the engine keeps a :class:`Board` for each.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

from companion.datafile import Fields, load_toml
from companion.errors import DataError
from companion.paths import map_file
from companion.places import GraphBoard, Link, Site

MAPS: dict[str, str] = {"Japan": "industry_japan.toml", "Minnesota": "industry_minnesota.toml"}
"""The setup question's values and their files."""
SHIP_CARD = "ship"
"""The industry card kind for ships (ships are not counters in a location)."""


@dataclass(frozen=True)
class Kind:
    """An industry counter's kind: names, cubes it carries when built, coal its building needs."""

    key: str
    name: str
    short: str
    cubes: int = 0
    coal: int = 0
    flip_when_empty: bool = False


@dataclass(frozen=True)
class Rules:
    """The readings both maps share (maps/industry.toml)."""

    colours: tuple[str, ...]
    min_players: int
    max_players: int
    hand: int
    kinds: dict[str, Kind]
    spaces: dict[str, tuple[str, ...]]
    link_base: int
    flipped_only: bool
    link_coal: int
    ship_tech: tuple[int, ...]
    overbuild_higher_tech: bool
    draws_per_player_turn: int
    beside_board: int
    actions_per_turn: int = 2
    """Actions each player takes in a turn (the base rules): once every player has taken them, the entry that
    completes the round is offered as the end of the turn too. 0: the box counts none (End turn by hand)."""


@dataclass(frozen=True)
class Spot:
    """A location of a map: name, position, industry spaces and what the map's text says of it."""

    key: str
    name: str
    x: float
    y: float
    spaces: tuple[str, ...]
    iron_range: bool = False
    hydro: bool = False
    area: str = ""
    chicago: bool = False

    @property
    def has_port_space(self) -> bool:
        return any(s in ("port", "any") for s in self.spaces)


@dataclass(frozen=True)
class ShipSpace:
    """A ship space: its ends (Japan: the two ports of its sea lane; Minnesota: the location of its iron market),
    the cubes a new ship gets and whether it has a market."""

    key: str
    name: str
    ends: tuple[str, ...]
    x: float
    y: float
    coal: int = 0
    iron: int = 0
    market: bool = False


@dataclass(frozen=True)
class Demand:
    """A Minnesota demand display: prices cheapest first, cubes at the start, the price when it is empty."""

    key: str
    name: str
    prices: tuple[int, ...]
    filled: int
    empty_price: int


CHICAGO_LINKS: tuple[str, ...] = ("base_and_ends", "chicago_area")
FACEUP_REFILLS: tuple[str, ...] = ("at_once", "end_of_turn")
"""When a face-up card taken from beside the board (a map without a display: Minnesota) is replaced from the deck."""


@dataclass(frozen=True)
class Board:
    """One map: its locations, printed links, ship spaces, deck and map rules."""

    key: str
    name: str
    spots: dict[str, Spot]
    links: frozenset[Link]
    ships: dict[str, ShipSpace]
    deck: tuple[str, ...]
    """Every card, as a card kind (``"coal"``, ``"ship"``) or ``"at:<location>"`` for a location card."""
    display_costs: tuple[int, ...] = ()
    display_discard: tuple[str, ...] = ()
    coal_from_display: bool = False
    iron_market_cubes: int = 0
    iron_range_extra_cubes: int = 0
    iron_range_flip_bonus: int = 0
    hydro_no_coal: tuple[str, ...] = ()
    ship_overbuild_owner_flipped: bool = False
    demand: dict[str, Demand] = field(default_factory=dict)
    chicago_link: str = "base_and_ends"
    """Minnesota, a rail link to a 'Chicago' name box: "base_and_ends" (the base value, the Chicago area's counters
    and the other end's) or "chicago_area" (the text's literal "the total number of counters in the Chicago
    area", the base value being stated for Japan only)."""

    faceup_refill: str = "at_once"
    """A map without a display keeps the standard game's face-up cards beside the board: a taken one is replaced
    from the deck "at_once" (before the next entry) or at the "end_of_turn" (as the Japan display is)."""

    def readings(self) -> list[str]:
        """The open questions of this map as answered, in words (side panel, ``companion map industry``)."""
        out = []
        if any(s.chicago for s in self.spots.values()):
            out.append("A link to a Chicago name box: " + (
                "the base value + the Chicago area's counters + the other end's" if self.chicago_link == "base_and_ends"
                else "the Chicago area's counters alone"))
        if not self.has_display:
            out.append("A face-up card taken from beside the board: replaced from the deck " + (
                "at once" if self.faceup_refill == "at_once" else "at the end of the turn"))
        return out

    @property
    def has_display(self) -> bool:
        return bool(self.display_costs)

    @property
    def sea_lanes(self) -> bool:
        """Japan: ship spaces join two ports."""
        return any(len(s.ends) == 2 for s in self.ships.values())

    @cached_property
    def implicit(self) -> frozenset[Link]:
        """Connections the text makes without a rail link (never valued on the ledger): the Twin Cities to each
        other; the Chicago area's locations to each other and to every 'Chicago' name box."""
        found: set[Link] = set()
        for area in ("twin_cities", "chicago"):
            members = [s.key for s in self.spots.values() if s.area == area]
            if area == "chicago":
                members += [s.key for s in self.spots.values() if s.chicago]
            found |= {Link(a, b) for i, a in enumerate(members) for b in members[i + 1:]}
        return frozenset(found)

    @cached_property
    def neighbours(self) -> dict[str, frozenset[str]]:
        """Each location's neighbours for "near": printed links, the text's implicit connections, sea lanes."""
        pairs = set(self.links) | set(self.implicit) | {Link(*s.ends) for s in self.ships.values() if len(s.ends) == 2}
        found: dict[str, set[str]] = {k: set() for k in self.spots}
        for link in pairs:
            found[link.a].add(link.b)
            found[link.b].add(link.a)
        return {k: frozenset(v) for k, v in found.items()}

    def hops(self, start: str) -> dict[str, int]:
        """Links from ``start`` to every location it reaches (the lists put the places near the last entry
        first, as the board cursor starts where the last thing happened)."""
        if start not in self.spots:
            return {}
        seen, frontier = {start: 0}, [start]
        while frontier:
            nxt = []
            for here in frontier:
                for there in sorted(self.neighbours[here]):
                    if there not in seen:
                        seen[there] = seen[here] + 1
                        nxt.append(there)
            frontier = nxt
        return seen

    def graph(self) -> GraphBoard:
        """The board shape the projector's graph painter draws: locations, rail links, sea lanes."""
        sites = {s.key: Site(s.name, s.x, s.y, "chicago" if s.chicago else s.area or "town")
                 for s in self.spots.values()}
        links: dict[Link, str] = {link: "rail" for link in sorted(self.links)}  # never in a set's hash order
        for ship in self.ships.values():
            if len(ship.ends) == 2:
                links[Link(*ship.ends)] = "sea"
        return GraphBoard(sites, links)

    def card_name(self, card: str, rules: Rules) -> str:
        if card.startswith("at:"):
            return self.spots[card[3:]].name
        if card == SHIP_CARD:
            return "Ship"
        return rules.kinds[card].name


def _rules(top: Fields) -> Rules:
    players = top.table("players")
    colours = tuple(players.get("colours", list))
    if not colours or not all(isinstance(c, str) and c for c in colours) or len(set(colours)) != len(colours):
        raise players.error(f"expected different colour names, got {list(colours)!r}", "colours")
    low = players.int_in("min", 1, len(colours))
    high = players.int_in("max", low, len(colours))
    hand = players.int_in("hand", 0, 20)
    actions = players.int_in("actions_per_turn", 0, 9, 2)
    players.reject_unknown()
    kinds: dict[str, Kind] = {}
    table = top.table("kinds")
    for key in table.data if isinstance(table.data, dict) else ():
        f = table.table(key)
        kinds[key] = Kind(key, f.get("name", str), f.get("short", str), f.int_in("cubes", 0, 9, 0),
                          f.int_in("coal", 0, 9, 0), f.get("flip_when_empty", bool, False))
        f.reject_unknown()
    for needed in ("cotton", "coal", "iron", "goods", "port"):
        if needed not in kinds:
            raise table.error("missing (the text names cotton, coal, iron, goods and port)", needed)
    spaces: dict[str, tuple[str, ...]] = {}
    sp = top.table("spaces")
    for key in sp.data if isinstance(sp.data, dict) else ():
        allowed = sp.get(key, list)
        for k in allowed:
            if k not in kinds:
                raise sp.error(f"unknown industry kind {k!r} (known: {', '.join(kinds)})", key)
        spaces[key] = tuple(allowed)
    links = top.table("links")
    base = links.int_in("base", 0, 99)
    flipped_only = links.get("flipped_only", bool)
    link_coal = links.int_in("coal", 0, 9)
    links.reject_unknown()
    ships = top.table("ships")
    tech = ships.get("tech", list)
    if not tech or not all(isinstance(t, int) and not isinstance(t, bool) and t > 0 for t in tech):
        raise ships.error(f"expected technology levels as whole numbers, got {tech!r}", "tech")
    higher = ships.get("overbuild_higher_tech", bool)
    ships.reject_unknown()
    deck = top.table("deck")
    draws = deck.int_in("draws_per_player_turn", 0, 20)
    beside = deck.int_in("beside_board", 0, 20)
    deck.reject_unknown()
    top.reject_unknown()
    return Rules(colours, low, high, hand, kinds, spaces, base, flipped_only, link_coal, tuple(tech), higher, draws,
                 beside, actions)


def _spots(top: Fields, rules: Rules) -> dict[str, Spot]:
    spots: dict[str, Spot] = {}
    names: set[str] = set()
    for f in top.tables("locations"):
        key, name = f.get("key", str), f.get("name", str)
        if key in spots:
            raise f.error(f"location key {key!r} used twice", "key")
        if name in names:
            raise f.error(f"location name {name!r} used twice: players could not tell them apart", "name")
        spaces = tuple(f.get("spaces", list))
        for s in spaces:
            if s not in rules.spaces:
                raise f.error(f"unknown space kind {s!r} (known: {', '.join(rules.spaces)})", "spaces")
        area = f.choice("area", ("", "twin_cities", "chicago"), "")
        spot = Spot(key, name, f.get("x", float), f.get("y", float), spaces, f.get("iron_range", bool, False),
                    f.get("hydro", bool, False), area, f.get("chicago", bool, False))
        if area == "twin_cities" and len(spaces) != 1:
            raise f.error("a Twin Cities location holds one industry counter: give it one space", "spaces")
        f.reject_unknown()
        spots[key] = spot
        names.add(name)
    if not spots:
        raise top.error("no locations", "locations")
    return spots


def _pairs(f: Fields, key: str, spots: dict[str, Spot]) -> frozenset[Link]:
    found: set[Link] = set()
    for i, pair in enumerate(f.get(key, list)):
        where = f"{key}[{i}]"
        if not (isinstance(pair, list) and len(pair) == 2 and all(isinstance(p, str) for p in pair)):
            raise f.error(f"expected two location keys, got {pair!r}", where)
        for end in pair:
            if end not in spots:
                raise f.error(f"unknown location {end!r}", where)
        if pair[0] == pair[1]:
            raise f.error(f"a link joins two different locations, got {pair!r}", where)
        link = Link(pair[0], pair[1])
        if link in found:
            raise f.error(f"{spots[pair[0]].name} - {spots[pair[1]].name} listed twice", where)
        found.add(link)
    return frozenset(found)


def _ships(top: Fields, spots: dict[str, Spot]) -> dict[str, ShipSpace]:
    ships: dict[str, ShipSpace] = {}
    for f in top.tables("ships"):
        key, name = f.get("key", str), f.get("name", str)
        if key in ships or key in spots:
            raise f.error(f"key {key!r} used twice", "key")
        ends = tuple(f.get("ends", list))
        if len(ends) not in (1, 2) or not all(isinstance(e, str) and e in spots for e in ends):
            raise f.error(f"expected one or two location keys, got {list(ends)!r}", "ends")
        if len(ends) == 2 and not all(spots[e].has_port_space for e in ends):
            bad = next(spots[e].name for e in ends if not spots[e].has_port_space)
            raise f.error(f"a sea lane joins two ports, but {bad} has no port space", "ends")
        x = f.get("x", float, sum(spots[e].x for e in ends) / len(ends) + (0 if len(ends) == 2 else 3))
        y = f.get("y", float, sum(spots[e].y for e in ends) / len(ends) + (0 if len(ends) == 2 else 3))
        ships[key] = ShipSpace(key, name, ends, x, y, f.int_in("coal", 0, 9, 0), f.int_in("iron", 0, 9, 0),
                               f.get("market", bool, False))
        f.reject_unknown()
    return ships


def _deck(f: Fields, spots: dict[str, Spot], rules: Rules) -> tuple[str, ...]:
    which: Any = f.get("locations", object)
    if which == "all":
        places = [s.key for s in spots.values() if s.spaces]
    elif isinstance(which, list) and all(isinstance(k, str) and k in spots for k in which):
        places = list(which)
    else:
        raise f.error(f"expected \"all\" or a list of location keys, got {which!r}", "locations")
    cards = [f"at:{k}" for k in places]
    industry = f.table("industry")
    for kind in industry.data if isinstance(industry.data, dict) else ():
        if kind not in rules.kinds and kind != SHIP_CARD:
            raise industry.error(f"unknown card kind (known: {', '.join([*rules.kinds, SHIP_CARD])})", kind)
        cards += [kind] * industry.int_in(kind, 0, 60)
    f.reject_unknown()
    return tuple(cards)


def load_board(path: Path, rules: Rules) -> Board:
    """Read and cross-check one map file; DataError names file and field."""
    top = load_toml(path)
    head = top.table("map")
    name = head.get("name", str)
    head.choice("end", ("deck exhausted",))
    head.reject_unknown()
    spots = _spots(top, rules)
    links = _pairs(top, "links", spots)
    ships = _ships(top, spots)
    deck = _deck(top.table("deck"), spots, rules)
    extra: dict[str, Any] = {}
    if top.has("display"):
        d = top.table("display")
        costs = d.get("costs", list)
        if not costs or not all(isinstance(c, int) and not isinstance(c, bool) and c >= 0 for c in costs):
            raise d.error(f"expected the cost under each space as whole numbers, got {costs!r}", "costs")
        discard = d.get("discard", list)
        for k in discard:
            if k not in rules.kinds:
                raise d.error(f"unknown card kind {k!r}", "discard")
        d.reject_unknown()
        extra.update(display_costs=tuple(costs), display_discard=tuple(discard))
    if top.has("rules"):
        r = top.table("rules")
        extra.update(coal_from_display=r.get("coal_from_display", bool, False),
                     iron_market_cubes=r.int_in("iron_market_cubes", 1, 9, 2),
                     iron_range_extra_cubes=r.int_in("iron_range_extra_cubes", 0, 9, 0),
                     iron_range_flip_bonus=r.int_in("iron_range_flip_bonus", 0, 99, 0),
                     ship_overbuild_owner_flipped=r.get("ship_overbuild_owner_flipped", bool, False),
                     chicago_link=r.choice("chicago_link", CHICAGO_LINKS, "base_and_ends"),
                     faceup_refill=r.choice("faceup_refill", FACEUP_REFILLS, "at_once"))
        hydro = r.get("hydro_no_coal", list, [])
        for k in hydro:
            if k not in rules.kinds:
                raise r.error(f"unknown industry kind {k!r}", "hydro_no_coal")
        extra["hydro_no_coal"] = tuple(hydro)
        r.reject_unknown()
    if top.has("demand"):
        dt = top.table("demand")
        demand: dict[str, Demand] = {}
        for key in ("coal", "iron"):
            f = dt.table(key)
            prices = f.get("prices", list)
            if not prices or not all(isinstance(p, int) and not isinstance(p, bool) and p >= 0 for p in prices):
                raise f.error(f"expected prices as whole numbers, got {prices!r}", "prices")
            if prices != sorted(prices):
                raise f.error(f"expected prices cheapest first, got {prices!r}", "prices")
            demand[key] = Demand(key, f.get("name", str), tuple(prices), f.int_in("filled", 0, len(prices)),
                                 f.int_in("empty_price", 0, 99))
            f.reject_unknown()
        dt.reject_unknown()
        extra["demand"] = demand
    if extra.get("coal_from_display") and "demand" not in extra:
        raise top.error("coal comes from the Coal Demand Display: add [demand.coal] and [demand.iron]", "rules")
    top.reject_unknown()
    return Board(name.lower(), name, spots, links, ships, deck, **extra)


def load_rules(maps: Path | None = None) -> Rules:
    """The readings both maps share: maps/industry.toml (the copy in force, or the one in ``maps``)."""
    return _rules(load_toml(map_file("industry.toml", maps)))


def load_map(path: Path, label: str, rules: Rules | None = None) -> Board:
    """The map the setup question calls ``label``, read from ``path`` (the board editor checks a drawn board
    with this before saving it); its ``map.name`` must be that label."""
    board = load_board(path, rules if rules is not None else load_rules())
    if board.name != label:
        raise DataError(f"{path}: map.name: expected {label!r}, got {board.name!r}")
    return board


def load_all(maps: Path | None = None) -> tuple[Rules, dict[str, Board]]:
    """The shared readings and both maps, by the setup question's value ("Japan", "Minnesota"). Without
    ``maps`` each file is the copy in force: a map the group drew (``companion board edit industry``) in
    the configuration directory, else the shipped one."""
    rules = load_rules(maps)
    return rules, {label: load_map(map_file(file, maps), label, rules) for label, file in MAPS.items()}
