"""The Stormfury board and hurricane decks, read from maps/ and validated once.

A group may copy its printed board and cards into the TOML files, so every mistake is reported
as ``file: field: what is wrong`` and never as a traceback.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any

from companion.datafile import Fields, load_toml
from companion.games.stormfury.state import ROLES
from companion.hexgrid import DIRECTION_NAMES, Hex
from companion.paths import map_file

BOTH_MARKS = ("net", "cancel", "strengthen", "weaken")
OFF_BOARD = ("stop",)
DAMAGED_POPULATION = ("lost", "stays")
MARKS = ("strengthen", "weaken")
DECKS = ("ocean", "land")


@dataclass(frozen=True)
class Rules:
    """Rule choices the printed rules leave open, read from the ``[rules]`` table."""

    radius: tuple[int, ...]
    """Storm radius in hexes for categories 1..5 (index 0 is category 1)."""
    draws: tuple[int, ...]
    """Forecast cards flipped for categories 1..5."""
    forecast_size: int
    """Cards dealt to the forecast each turn (5)."""
    start_category: int
    """Category of the storm when the game starts (2)."""
    start_population: int
    """Population on every population centre at the start (2)."""
    both_marks: str
    """What a draw with both strengthen and weaken marks does: net, cancel, strengthen or weaken."""
    off_board: str
    """What a step off the board does: "stop" keeps the centre on the edge for the rest of the card."""
    count_start_hex: bool
    """Whether the hex the centre starts the turn on is part of the turn's footprint."""
    max_turns: int
    """Safety bound: the game ends after this many turns even if the storm has not dissipated."""
    moves_per_turn: int
    """Cities a player may travel per turn along unflooded roads (2)."""
    damaged_population: str = "lost"
    """What becomes of a populace the storm damages: "lost" (it becomes a damage token and leaves the
    city, so the centre is not damaged again for the same people) or "stays" (damaged again on every
    later hit)."""

    @property
    def population_line(self) -> str:
        """The rule choice in words, for the screens."""
        return ("Damaged people are lost: a centre is not damaged twice for them"
                if self.damaged_population == "lost" else "Damaged people stay: every hit counts them again")


@dataclass(frozen=True)
class Space:
    """A city space the storm can damage: critical infrastructure or the population centre."""

    id: str
    """Unique on the board, ``city.space`` (e.g. "houston.port", "houston.population")."""
    city: str
    """The city id the space belongs to."""
    name: str
    """Name shown to people ("Port")."""
    hex: Hex
    """Where the space is printed."""
    kind: str
    """"infrastructure" or "population"."""


@dataclass(frozen=True)
class City:
    """A city: its infrastructure spaces and its population centre."""

    id: str
    """Short id used in commands and JSON ("new_orleans")."""
    name: str
    """Name shown to people ("New Orleans")."""
    population_centre: Hex
    """Hex of the population centre."""
    infrastructure: tuple[Space, ...]
    """The critical-infrastructure spaces, in file order."""

    @property
    def population_space(self) -> Space:
        return Space(f"{self.id}.population", self.id, "Population centre", self.population_centre, "population")

    @property
    def spaces(self) -> tuple[Space, ...]:
        return (*self.infrastructure, self.population_space)


@dataclass(frozen=True)
class Road:
    """A road between two cities: the chain of hexes between them; the storm touching any of them floods it."""

    id: str
    """Short id ("houston-lake_charles")."""
    ends: tuple[str, str]
    """The two city ids it joins."""
    hexes: tuple[Hex, ...]
    """The road's hexes in order from the first city to the second (the cities' own spaces excluded)."""
    name: str
    """Name shown to people ("Houston - Lake Charles")."""

    @property
    def middle(self) -> Hex:
        """The road's central space, where its damage token goes (for an even count, the one nearer the
        first city)."""
        return self.hexes[(len(self.hexes) - 1) // 2]

    def other(self, city: str) -> str:
        return self.ends[1] if self.ends[0] == city else self.ends[0]


@dataclass(frozen=True)
class Role:
    """An expert a player picks: the name and the power the box reminds her of."""

    id: str
    """Key used in commands and the journal ("aquatic_engineer")."""
    name: str
    """Name shown to people ("Aquatic Engineer")."""
    power: str
    """Her power in one line, shown at her turn."""

    @property
    def short(self) -> str:
        """First word of the name, for the OLED ("Aquatic")."""
        return self.name.split()[0]


@dataclass(frozen=True)
class Card:
    """A hurricane movement card: the centre's path; the hex after the last step is the green space."""

    id: str
    """Unique over both decks ("O3", "L11")."""
    deck: str
    """"ocean" or "land"."""
    steps: tuple[str, ...]
    """Hex directions taken one after another."""
    mark: str
    """"strengthen", "weaken" or "" for none."""

    @property
    def name(self) -> str:
        """The card as the table says it: its deck and number ("Ocean 3", "Land 11")."""
        number = self.id.lstrip("OLol")
        return f"{self.deck.capitalize()} {number}" if number.isdigit() else self.id

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "deck": self.deck, "steps": list(self.steps), "mark": self.mark or None}


def card_list(cards: Sequence[Card]) -> str:
    """Cards said by name, one deck word per run ("Ocean 3, 5, 8", "Ocean 2, Land 4")."""
    parts: list[str] = []
    deck = ""
    for card in cards:
        name = card.name
        word, _, number = name.partition(" ")
        parts.append(number if word == deck and number else name)
        deck = word
    return ", ".join(parts)


@dataclass(frozen=True)
class Board:
    """Everything printed on the board plus the hurricane decks and the rule choices."""

    land: frozenset[Hex]
    """Land hexes."""
    ocean: frozenset[Hex]
    """Gulf hexes."""
    start: Hex
    """The hurricane's starting hex (in the gulf)."""
    cities: tuple[City, ...]
    """Cities in file order (west to east along the coast)."""
    roads: tuple[Road, ...]
    """Roads between adjacent cities."""
    decks: dict[str, tuple[Card, ...]]
    """"ocean" and "land" decks in file order (the order a shuffle permutes)."""
    rules: Rules
    """Open rule choices."""
    roles: tuple[Role, ...] = ()
    """The experts in table order (state.ROLES), with their display names and powers."""

    @cached_property
    def hexes(self) -> frozenset[Hex]:
        """Every hex of the board (computed once: walks and footprints test it constantly)."""
        return self.land | self.ocean

    def city(self, city_id: str) -> City:
        for c in self.cities:
            if c.id == city_id:
                return c
        raise KeyError(city_id)

    def card(self, card_id: str) -> Card:
        for deck in self.decks.values():
            for c in deck:
                if c.id == card_id:
                    return c
        raise KeyError(card_id)

    @property
    def spaces(self) -> tuple[Space, ...]:
        return tuple(s for c in self.cities for s in c.spaces)

    def space(self, space_id: str) -> Space:
        for s in self.spaces:
            if s.id == space_id:
                return s
        raise KeyError(space_id)

    def roads_of(self, city_id: str) -> tuple[Road, ...]:
        return tuple(r for r in self.roads if city_id in r.ends)

    def road(self, road_id: str) -> Road:
        for r in self.roads:
            if r.id == road_id:
                return r
        raise KeyError(road_id)

    def role(self, role_id: str) -> Role:
        """The expert with this key; an unknown key gets its key as a name (never shown by the engine)."""
        for r in self.roles:
            if r.id == role_id:
                return r
        return Role(role_id, role_id.replace("_", " ").title(), "")

    def space_name(self, space_id: str) -> str:
        """A space as people say it: "Houston Port", "Houston Population centre"."""
        space = self.space(space_id)
        return f"{self.city(space.city).name} {space.name}"

    def to_json(self) -> dict[str, Any]:
        """The board as ``companion map stormfury --json`` prints it."""
        return {
            "game": "stormfury",
            "hexes": [{"q": h.q, "r": h.r, "terrain": "land" if h in self.land else "ocean"}
                      for h in sorted(self.hexes)],
            "start": self.start.to_dict(),
            "cities": [{"id": c.id, "name": c.name, "population": self.rules.start_population,
                        "spaces": [{"id": s.id, "name": s.name, "kind": s.kind, **s.hex.to_dict()} for s in c.spaces]}
                       for c in self.cities],
            "roads": [{"id": r.id, "name": r.name, "ends": list(r.ends), "middle": r.middle.to_dict(),
                       "hexes": [h.to_dict() for h in r.hexes]} for r in self.roads],
            "roles": [{"id": r.id, "name": r.name, "power": r.power} for r in self.roles],
            "rules": {"radius": list(self.rules.radius), "draws": list(self.rules.draws),
                      "forecast_size": self.rules.forecast_size, "both_marks": self.rules.both_marks,
                      "off_board": self.rules.off_board, "max_turns": self.rules.max_turns,
                      "damaged_population": self.rules.damaged_population},
        }

    def cards_json(self) -> dict[str, Any]:
        return {deck: [c.to_dict() for c in cards] for deck, cards in self.decks.items()}


def _hex(f: Fields, key: str) -> Hex:
    t = f.table(key)
    h = Hex(t.get("q", int), t.get("r", int))
    t.reject_unknown()
    return h


def _rules(f: Fields) -> Rules:
    def five(key: str, low: int, high: int) -> tuple[int, ...]:
        values = f.get(key, list)
        if len(values) != 5 or not all(isinstance(v, int) and not isinstance(v, bool) and low <= v <= high
                                       for v in values):
            raise f.error(f"expected 5 integers {low}..{high} (categories 1..5), got {values!r}", key)
        return tuple(values)

    rules = Rules(
        radius=five("radius", 0, 6), draws=five("draws", 1, 10),
        forecast_size=f.int_in("forecast_size", 1, 10), start_category=f.int_in("start_category", 1, 5),
        start_population=f.int_in("start_population", 0, 9), both_marks=f.choice("both_marks", BOTH_MARKS),
        off_board=f.choice("off_board", OFF_BOARD), count_start_hex=f.get("count_start_hex", bool),
        max_turns=f.int_in("max_turns", 1, 1000), moves_per_turn=f.int_in("moves_per_turn", 0, 10),
        damaged_population=f.choice("damaged_population", DAMAGED_POPULATION))
    if max(rules.draws) > rules.forecast_size:
        raise f.error(f"draws {list(rules.draws)} exceed forecast_size {rules.forecast_size}", "draws")
    f.reject_unknown()
    return rules


def load_board(board_path: Path, cards_path: Path) -> Board:
    """Read and cross-check the board and the decks; DataError names file and field."""
    top = load_toml(board_path)
    rules = _rules(top.table("rules"))
    grid = top.table("board")
    columns, rows = grid.int_in("columns", 1, 200), grid.int_in("rows", 1, 200)
    land_rows = grid.get("land_rows", list)
    if len(land_rows) != columns or not all(isinstance(n, int) and 0 <= n <= rows for n in land_rows):
        raise grid.error(f"expected {columns} integers 0..{rows}", "land_rows")
    land: set[Hex] = set()
    ocean: set[Hex] = set()
    for col, n in enumerate(land_rows):
        for row in range(rows):
            h = Hex(col, row - (col - col % 2) // 2)
            (land if row < n else ocean).add(h)
    start = _hex(grid, "start")
    if start not in ocean:
        raise grid.error(f"{start.q},{start.r} is not a gulf hex", "start")
    grid.reject_unknown()

    cities: list[City] = []
    used: dict[Hex, str] = {}

    def claim(f: Fields, key: str, what: str) -> Hex:
        h = _hex(f, key)
        if h not in land:
            raise f.error(f"{h.q},{h.r} is not a land hex of the board", key)
        if h in used:
            raise f.error(f"{h.q},{h.r} is already {used[h]}", key)
        used[h] = what
        return h

    for cf in top.tables("cities"):
        cid = cf.get("id", str)
        if any(c.id == cid for c in cities):
            raise cf.error(f"duplicate city id {cid!r}", "id")
        name = cf.get("name", str)
        if cf.has("population") and cf.get("population", int) != rules.start_population:
            raise cf.error(f"every city starts with rules.start_population = {rules.start_population}", "population")
        cf.get("population", int, rules.start_population)
        pop = claim(cf, "population_centre", f"{cid}.population")
        infra: list[Space] = []
        for sf in cf.tables("infrastructure"):
            sid = sf.get("id", str)
            if sid == "population" or any(s.id == f"{cid}.{sid}" for s in infra):
                raise sf.error(f"duplicate space id {sid!r}", "id")
            infra.append(Space(f"{cid}.{sid}", cid, sf.get("name", str), claim(sf, "hex", f"{cid}.{sid}"),
                               "infrastructure"))
            sf.reject_unknown()
        if not infra:
            raise cf.error("a city needs at least one infrastructure space", "infrastructure")
        cities.append(City(cid, name, pop, tuple(infra)))
        cf.reject_unknown()
    if not cities:
        raise top.error("no cities", "cities")
    roads = _roads(top, {c.id: c for c in cities}, land, used)
    roles = _roles(top)
    top.reject_unknown()
    decks = load_cards(cards_path)
    return Board(frozenset(land), frozenset(ocean), start, tuple(cities), roads, decks, rules, roles)


def _roads(top: Fields, cities: dict[str, City], land: set[Hex], used: dict[Hex, str]) -> tuple[Road, ...]:
    """Each road is a chain of land hexes, each next to the one before, from a space of its first city
    to a space of its second; a hex may carry several roads (a junction) but no city space."""
    roads: list[Road] = []
    for rf in top.tables("roads"):
        rid = rf.get("id", str)
        ends = rf.get("ends", list)
        if len(ends) != 2 or not all(e in cities for e in ends) or ends[0] == ends[1]:
            raise rf.error(f"expected two different city ids, got {ends!r}", "ends")
        if any(r.id == rid for r in roads):
            raise rf.error(f"duplicate road id {rid!r}", "id")
        chain: list[Hex] = []
        for hf in rf.tables("hexes"):
            h = Hex(hf.get("q", int), hf.get("r", int))
            hf.reject_unknown()
            if h not in land:
                raise hf.error(f"{h.q},{h.r} is not a land hex of the board")
            if h in used:
                raise hf.error(f"{h.q},{h.r} is already {used[h]}")
            if h in chain:
                raise hf.error(f"{h.q},{h.r} is already on this road")
            before = chain[-1] if chain else None
            if before is None and not any(h.distance(s.hex) == 1 for s in cities[ends[0]].spaces):
                raise hf.error(f"{h.q},{h.r} is not next to a space of {ends[0]} (the road starts there)")
            if before is not None and h.distance(before) != 1:
                raise hf.error(f"{h.q},{h.r} is not next to {before.q},{before.r} (a road is a chain of hexes)")
            chain.append(h)
        if not chain:
            raise rf.error("a road needs at least one hex between its cities", "hexes")
        if not any(chain[-1].distance(s.hex) == 1 for s in cities[ends[1]].spaces):
            raise rf.error(f"the last hex {chain[-1].q},{chain[-1].r} is not next to a space of {ends[1]}", "hexes")
        default = f"{cities[ends[0]].name} - {cities[ends[1]].name}"
        roads.append(Road(rid, (ends[0], ends[1]), tuple(chain), rf.get("name", str, default)))
        rf.reject_unknown()
    return tuple(roads)


def _roles(top: Fields) -> tuple[Role, ...]:
    """The four experts, in the table order the engine seats them (state.ROLES)."""
    roles: list[Role] = []
    for rf in top.tables("roles"):
        rid = rf.choice("id", ROLES)
        if any(r.id == rid for r in roles):
            raise rf.error(f"duplicate role id {rid!r}", "id")
        roles.append(Role(rid, rf.get("name", str), rf.get("power", str)))
        rf.reject_unknown()
    missing = [r for r in ROLES if r not in {x.id for x in roles}]
    if missing:
        raise top.error(f"missing role {', '.join(missing)}", "roles")
    return tuple(sorted(roles, key=lambda r: ROLES.index(r.id)))


def load_cards(path: Path) -> dict[str, tuple[Card, ...]]:
    """The ocean and land decks; a land card may not strengthen (only the ocean deck does)."""
    top = load_toml(path)
    decks: dict[str, tuple[Card, ...]] = {}
    seen: set[str] = set()
    for deck in DECKS:
        cards = []
        for cf in top.tables(deck):
            cid = cf.get("id", str)
            if cid in seen:
                raise cf.error(f"duplicate card id {cid!r}", "id")
            seen.add(cid)
            steps = cf.get("steps", list)
            if not steps or not all(s in DIRECTION_NAMES for s in steps):
                raise cf.error(f"expected directions from {', '.join(DIRECTION_NAMES)}, got {steps!r}", "steps")
            mark = cf.choice("mark", MARKS, "") if cf.has("mark") else ""
            if deck == "land" and mark == "strengthen":
                raise cf.error("a land card cannot strengthen (only the ocean deck strengthens)", "mark")
            cards.append(Card(cid, deck, tuple(steps), mark))
            cf.reject_unknown()
        if len(cards) < 5:
            raise top.error(f"the {deck} deck needs at least 5 cards for a forecast, has {len(cards)}", deck)
        decks[deck] = tuple(cards)
    top.reject_unknown()
    return decks


def default_paths(maps: Path | None) -> tuple[Path, Path]:
    return map_file("stormfury.toml", maps), map_file("stormfury_cards.toml", maps)
