"""The entries the table makes, each a short chain of steps so no OLED list is long.

An entry ("Build rail link") is a list of :class:`Step` s (from where, to where, whose); each step is one
journaled choice, so BACK held takes back one step. A step's ``check`` gives the one-line reason a value is
refused; its options are the candidates that pass the check, so the list on the OLED holds only what the rules
allow and a value typed or scripted past the list is refused with the same reason.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from typing import Any

from companion.errors import RuleError
from companion.games.industry import ledger
from companion.games.industry.data import SHIP_CARD, Board, Rules, Spot
from companion.games.industry.state import Counter, IndustryState, IronMarket, Rail, Ship
from companion.places import Link, Location, Place

Candidate = tuple[str, Any, Place | None]
"""An option of a step: its OLED label, the value it sends, the place the projector's cursor shows."""


@dataclass(frozen=True)
class Table:
    """The rules, the map and the state of one game: what every step asks."""

    rules: Rules
    board: Board
    state: IndustryState

    def spot(self, key: Any) -> Spot:
        if not isinstance(key, str) or key not in self.board.spots:
            raise RuleError(f"no location {key!r} on the {self.board.name} map")
        return self.board.spots[key]

    def player(self, name: Any) -> str:
        if name not in self.state.players:
            raise RuleError(f"no player {name!r} at the table (players: {', '.join(self.state.players)})")
        return str(name)

    def counter(self, value: Any) -> Counter:
        """A counter named as "location/space"."""
        loc, _, space = str(value).partition("/")
        c = self.state.counter(loc, int(space)) if space.isdigit() else None
        if c is None:
            raise RuleError(f"no counter {value!r}")
        return c

    def kind_name(self, kind: str) -> str:
        return self.rules.kinds[kind].name.lower()

    def describe(self, c: Counter) -> str:
        return f"{c.owner}'s {self.kind_name(c.kind)} in {self.board.spots[c.location].name}"

    def port_for(self, location: str) -> str | None:
        return ledger.port_for(self.board, self.state, location)

    def sorted_spots(self) -> list[Spot]:
        return sorted((s for s in self.board.spots.values()), key=lambda s: s.name)


def short(name: str, width: int = 12) -> str:
    """A location's name cut to fit an OLED line beside other words ("Downtown Mi.")."""
    return name if len(name) <= width else name[: width - 1] + "."


def counter_label(t: Table, c: Counter) -> str:
    flip = "*" if c.flipped else ""
    cubes = f" {c.cubes}" if c.cubes else ""
    return f"{short(t.board.spots[c.location].name)} {t.rules.kinds[c.kind].short}{flip} {c.owner}{cubes}"


def counter_value(c: Counter) -> str:
    return f"{c.location}/{c.space}"


def ship_place(t: Table, space: str) -> Place:
    ends = t.board.ships[space].ends
    return Link(*ends) if len(ends) == 2 else Location(ends[0])


# -- steps ------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Step:
    field: str
    ask: str
    """The OLED's question ("Where?")."""
    candidates: Callable[[Table, dict[str, Any]], Iterable[Candidate]]
    check: Callable[[Table, dict[str, Any], Any], None]
    when: Callable[[Table, dict[str, Any]], bool] = lambda t, a: True


@dataclass(frozen=True)
class Entry:
    key: str
    label: str
    steps: tuple[Step, ...]
    perform: Callable[[Table, dict[str, Any]], IndustryState]
    available: Callable[[Table], bool] = lambda t: True


def players_in_turn(t: Table) -> list[str]:
    """The players, the one of the last entry first (the player whose turn it is), then the next seats in order,
    those who have taken this turn's actions (``actions_per_turn``) after those who may still act: the owner asked
    for is the first of the list or the next."""
    players = list(t.state.players)
    at = players.index(t.state.last_owner) if t.state.last_owner in players else 0
    order = players[at:] + players[:at]
    most = t.rules.actions_per_turn
    if not most:
        return order
    return sorted(order, key=lambda p: t.state.actions_of(p) >= most)


def _players(t: Table, a: dict[str, Any]) -> list[Candidate]:
    return [(p, p, None) for p in players_in_turn(t)]


def _check_player(t: Table, a: dict[str, Any], v: Any) -> None:
    t.player(v)


# -- coal from the Coal Demand Display (Minnesota) ---------------------------------------------------


def coal_needed(t: Table, location: str, kind: str | None) -> int:
    """Coal cubes a build takes from the Coal Demand Display (Minnesota only; hydro towns spare cotton and goods)."""
    if not t.board.coal_from_display:
        return 0
    if kind is None:
        return t.rules.link_coal
    if t.board.spots[location].hydro and kind in t.board.hydro_no_coal:
        return 0
    return t.rules.kinds[kind].coal


def no_coal(t: Table, where: str) -> RuleError:
    return RuleError(f"no coal for {where}: not connected to a built port or Chicago")


def buy_from_display(t: Table, state: IndustryState, display: str, n: int) -> tuple[IndustryState, str]:
    """Take ``n`` cubes from a demand display, cheapest first; with none there each costs the empty price."""
    demand = t.board.demand[display]
    filled, cost = state.cubes_on(display), 0
    for _ in range(n):
        if filled:
            cost += demand.prices[len(demand.prices) - filled]
            filled -= 1
        else:
            cost += demand.empty_price
    return state.with_demand(display, filled), f"{n} {display} from the {demand.name}: pay ${cost}"


# -- build an industry ------------------------------------------------------------------------------


def free_space(t: Table, location: str, kind: str) -> int | None:
    spot = t.board.spots[location]
    used = {c.space for c in t.state.at(location)}
    return next((i for i, s in enumerate(spot.spaces) if i not in used and kind in t.rules.spaces[s]), None)


def _check_build_location(t: Table, a: dict[str, Any], v: Any) -> None:
    spot = t.spot(v)
    if not spot.spaces:
        raise RuleError(f"{spot.name} has no industry spaces")
    if not any(free_space(t, spot.key, k) is not None for k in t.rules.kinds):
        if spot.area == "twin_cities":
            raise RuleError(f"{spot.name} holds one industry counter at most")
        if spot.area == "chicago":
            raise RuleError(f"{spot.name} has its coal mine: one coal mine per location in the Chicago area")
        raise RuleError(f"{spot.name} is full (remove a counter to overbuild)")
    if not _passes(t, {"location": spot.key}, _check_build_kind, t.rules.kinds):
        raise no_coal(t, spot.name)


def _passes(t: Table, a: dict[str, Any], check: Callable[[Table, dict[str, Any], Any], None],
            values: Iterable[Any]) -> bool:
    """Whether any of ``values`` passes ``check``: a step is offered only when its next step has an option."""
    for v in values:
        try:
            check(t, a, v)
            return True
        except RuleError:
            continue
    return False


def _kinds(t: Table, a: dict[str, Any]) -> list[Candidate]:
    """The industries, the one last built first (a player builds the same kind in a row more often than not),
    then those only a free space of the location takes (its port space, its ironworks symbol: what sets the
    location apart), then the others."""
    spot = t.board.spots[a["location"]]
    used = {c.space for c in t.state.at(spot.key)}
    own = {k for i, sp in enumerate(spot.spaces) if i not in used and len(t.rules.spaces[sp]) == 1
           for k in t.rules.spaces[sp]}
    kinds = sorted(t.rules.kinds.values(), key=lambda k: (k.key != t.state.last_kind, k.key not in own))
    return [(k.name, k.key, None) for k in kinds]


def _check_build_kind(t: Table, a: dict[str, Any], v: Any) -> None:
    if v not in t.rules.kinds:
        raise RuleError(f"no industry kind {v!r} (known: {', '.join(t.rules.kinds)})")
    spot = t.board.spots[a["location"]]
    if free_space(t, spot.key, v) is None:
        if v == "iron" and "ironworks" not in spot.spaces:
            raise RuleError(f"{spot.name} has no ironworks symbol: an ironworks goes only in that space")
        if spot.area == "twin_cities":
            raise RuleError(f"{spot.name} holds one industry counter at most")
        raise RuleError(f"no free space for a {t.kind_name(v)} in {spot.name}")
    if coal_needed(t, spot.key, v) and t.port_for(spot.key) is None:
        raise no_coal(t, spot.name)


def _build_industry(t: Table, a: dict[str, Any]) -> IndustryState:
    loc, kind, owner = a["location"], a["kind"], a["owner"]
    spot, info = t.board.spots[loc], t.rules.kinds[kind]
    space = free_space(t, loc, kind)
    assert space is not None
    cubes = info.cubes + (t.board.iron_range_extra_cubes if kind == "iron" and spot.iron_range else 0)
    state = t.state.with_counter(None, Counter(loc, space, kind, owner, False, cubes))
    lines = [f"{owner}: {info.name.lower()} in {spot.name}" + (f", {cubes} cubes" if cubes else "")]
    coal = coal_needed(t, loc, kind)
    if coal:
        state, said = buy_from_display(t, state, "coal", coal)
        lines.append(said)
    return replace(state, recent=tuple(lines))


def _locations(t: Table, a: dict[str, Any]) -> list[Candidate]:
    """Every location of the map, by name: where a counter or a link's first end may go."""
    return [(s.name, s.key, Location(s.key)) for s in t.sorted_spots()]


BUILD = Entry("industry", "Build industry", (
    Step("location", "Where?", _locations, _check_build_location),
    Step("kind", "Which industry?", _kinds, _check_build_kind),
    Step("owner", "Whose?", _players, _check_player),
), _build_industry)


# -- build a rail link ------------------------------------------------------------------------------


def _check_from(t: Table, a: dict[str, Any], v: Any) -> None:
    spot = t.spot(v)
    if not any(spot.key in link.ends() and t.state.rail(link) is None for link in t.board.links):
        raise RuleError(f"every rail link from {spot.name} is built")
    ends = sorted(link.other(spot.key) for link in t.board.links if spot.key in link.ends())
    reasons = []
    for end in ends:
        try:
            _check_to(t, {"from": spot.key}, end)
            return
        except RuleError as exc:
            reasons.append(str(exc))
    raise next((RuleError(r) for r in reasons if r.startswith("nobody")), no_coal(t, f"a rail link from {spot.name}"))


def _link_to(t: Table, a: dict[str, Any]) -> list[Candidate]:
    here = a["from"]
    return [(s.name, s.key, Link(here, s.key)) for s in t.sorted_spots() if Link(here, s.key) in t.board.links]


def _check_to(t: Table, a: dict[str, Any], v: Any) -> None:
    there = t.spot(v)
    here = t.board.spots[a["from"]]
    link = Link(here.key, there.key) if here.key != there.key else None
    if link is None or link not in t.board.links:
        raise RuleError(f"{here.name} and {there.name} are not adjacent: no rail link joins them")
    built = t.state.rail(link)
    if built is not None:
        raise RuleError(f"{here.name} - {there.name} is built already ({built.owner})")
    if coal_needed(t, here.key, None) and t.port_for(here.key) is None and t.port_for(there.key) is None:
        raise no_coal(t, f"{here.name} - {there.name}")
    if not _passes(t, {**a, "to": there.key}, _check_link_owner, t.state.players):  # a link nobody may build
        box = there if there.chicago else here
        other = here if there.chicago else there
        raise RuleError(f"nobody has a coal mine or anything at {other.name} to build to {box.name} from")


def _check_link_owner(t: Table, a: dict[str, Any], v: Any) -> None:
    """Minnesota: "If you have at least one coal mine, you may build a rail link from any of the three 'Chicago'
    name boxes. You may also build to a 'Chicago' name box from an adjacent Minnesota location." """
    owner = t.player(v)
    link = Link(a["from"], a["to"])
    box = next((e for e in link.ends() if t.board.spots[e].chicago), None)
    if box is None or any(c.owner == owner and c.kind == "coal" for c in t.state.counters):
        return
    other = link.other(box)
    if any(c.owner == owner for c in t.state.at(other)) or any(
            r.owner == owner and other in r.link.ends() for r in t.state.rails):
        return
    raise RuleError(f"{owner} has no coal mine and nothing at {t.board.spots[other].name} to build to Chicago from")


def _build_link(t: Table, a: dict[str, Any]) -> IndustryState:
    link = Link(a["from"], a["to"])
    state = replace(t.state, rails=(*t.state.rails, Rail(link, a["owner"])))
    value, _ = ledger.link_value(t.board, t.rules, state, link)
    lines = [f"{a['owner']}: rail {t.board.spots[a['from']].name} - {t.board.spots[a['to']].name} (${value})"]
    coal = coal_needed(t, a["from"], None)
    if coal:
        state, said = buy_from_display(t, state, "coal", coal)
        lines.append(said)
    return replace(state, recent=tuple(lines))


LINK = Entry("link", "Build rail link", (
    Step("from", "From where?", _locations, _check_from),
    Step("to", "To where?", _link_to, _check_to),
    Step("owner", "Whose?", _players, _check_link_owner),
), _build_link)


# -- build a ship -----------------------------------------------------------------------------------


def _check_ship_space(t: Table, a: dict[str, Any], v: Any) -> None:
    if v not in t.board.ships:
        raise RuleError(f"no ship space {v!r} on the {t.board.name} map")


def _buildable_ship_space(t: Table, key: str) -> bool:
    """Someone can build a ship on this space now: empty, or holding a ship a higher technology may overbuild and
    someone may. Only such spaces are offered (one that is not would lead to a step with no answer but Cancel);
    a step naming another is still taken (a journal from before offered them, and replays as it was), its owner
    or technology then refused."""
    old = t.state.ship(key)
    if old is None:
        return True
    if t.rules.overbuild_higher_tech and old.tech >= max(t.rules.ship_tech):
        return False
    return _passes(t, {"space": key}, _check_ship_owner, t.state.players)


def _check_ship_owner(t: Table, a: dict[str, Any], v: Any) -> None:
    owner = t.player(v)
    old = t.state.ship(a["space"])
    if old is not None and t.board.ship_overbuild_owner_flipped and (old.owner != owner or not old.flipped):
        raise RuleError(f"only {old.owner} may overbuild that ship, once it is flipped")


def _check_tech(t: Table, a: dict[str, Any], v: Any) -> None:
    if v not in t.rules.ship_tech:
        raise RuleError(f"no ship technology {v!r} (levels: {', '.join(map(str, t.rules.ship_tech))})")
    old = t.state.ship(a["space"])
    if old is not None and t.rules.overbuild_higher_tech and v <= old.tech:
        raise RuleError(f"overbuilding needs a technology above {old.tech}")


def ship_flips(t: Table, ship: Ship) -> bool:
    """Japan: "Flip the ship when all of the coal and iron have been taken and the market (if there is one) has
    been sold to." (Minnesota ships flip when their iron market is satisfied.)"""
    space = t.board.ships[ship.space]
    if t.board.iron_market_cubes:
        return ship.flipped
    return ship.coal == 0 and ship.iron == 0 and (not space.market or ship.market_sold)


def _build_ship(t: Table, a: dict[str, Any]) -> IndustryState:
    space, owner, tech = t.board.ships[a["space"]], a["owner"], a["tech"]
    old = t.state.ship(space.key)
    state = t.state
    if old is None:
        ship = Ship(space.key, owner, tech, space.coal, space.iron)
        line = f"{owner}: ship {tech} on {space.name}"
        if t.board.iron_market_cubes and state.market(space.ends[0]) is None:
            state = state.with_market(IronMarket(space.ends[0]))
            line += ", iron market open"
    else:  # "doing so will not refill the coal/iron spaces or replace the market counter with a new one"
        ship = Ship(space.key, owner, tech, old.coal, old.iron, old.market_sold)
        line = f"{owner}: ship {tech} over {old.owner}'s on {space.name}"
        market = state.market(space.ends[0])
        if t.board.iron_market_cubes and market is not None:
            state = state.with_market(IronMarket(market.location))  # "the market counter ... is removed"
            line += ", market counter off"
    ship = replace(ship, flipped=ship_flips(t, ship))
    return replace(state.with_ship(ship), recent=(line + (" (flipped)" if ship.flipped else ""),))


SHIP = Entry("ship", "Build ship", (
    Step("space", "Which space?", lambda t, a: [(short(s.name, 20), s.key, ship_place(t, s.key))
                                                 for s in sorted(t.board.ships.values(), key=lambda s: s.name)
                                                 if _buildable_ship_space(t, s.key)],
         _check_ship_space),
    Step("owner", "Whose?", _players, _check_ship_owner),
    Step("tech", "Technology?", lambda t, a: [(f"Tech {n}", n, None) for n in t.rules.ship_tech], _check_tech),
), _build_ship)


# -- take a cube (coal mines, ironworks, ships) -----------------------------------------------------


def _flip_counter(t: Table, state: IndustryState, c: Counter) -> tuple[IndustryState, str]:
    flipped = replace(c, flipped=True)
    bonus = ""
    if c.kind == "iron" and t.board.spots[c.location].iron_range and t.board.iron_range_flip_bonus:
        bonus = f", +${t.board.iron_range_flip_bonus} Iron Range"
    return state.with_counter(c, flipped), f"{t.describe(c)} flips{bonus}"


def _take_sources(t: Table, a: dict[str, Any]) -> list[Candidate]:
    out: list[Candidate] = [(counter_label(t, c), counter_value(c), Location(c.location))
                            for c in sorted(t.state.counters, key=lambda c: t.board.spots[c.location].name)
                            if c.cubes]
    out += [(f"{short(t.board.ships[s.space].name)} ship", f"ship:{s.space}", ship_place(t, s.space))
            for s in t.state.ships if s.coal or s.iron]
    return out


def _check_take_source(t: Table, a: dict[str, Any], v: Any) -> None:
    if str(v).startswith("ship:"):
        ship = t.state.ship(str(v)[5:])
        if ship is None or not (ship.coal or ship.iron):
            raise RuleError("no cubes on that ship space")
        return
    c = t.counter(v)
    if not c.cubes:
        raise RuleError(f"no cubes left on {t.describe(c)}")
    if c.kind == "coal" and t.board.coal_from_display:
        raise RuleError("Minnesota: coal comes only from the Coal Demand Display, never from a mine")


def _ship_has_both(t: Table, a: dict[str, Any]) -> bool:
    ship = t.state.ship(str(a["source"])[5:]) if str(a["source"]).startswith("ship:") else None
    return ship is not None and ship.coal > 0 and ship.iron > 0


def _check_cube(t: Table, a: dict[str, Any], v: Any) -> None:
    if v not in ("coal", "iron"):
        raise RuleError(f"a cube is coal or iron, not {v!r}")


def _take(t: Table, a: dict[str, Any]) -> IndustryState:
    source = str(a["source"])
    if source.startswith("ship:"):
        ship = t.state.ship(source[5:])
        assert ship is not None
        cube = a.get("cube") or ("coal" if ship.coal else "iron")
        taken = replace(ship, coal=ship.coal - (cube == "coal"), iron=ship.iron - (cube == "iron"))
        taken = replace(taken, flipped=ship_flips(t, taken))
        name = t.board.ships[ship.space].name
        flip = f"; {ship.owner}'s ship flips" if taken.flipped and not ship.flipped else ""
        return replace(t.state.with_ship(taken), recent=(f"1 {cube} from {name}{flip}",))
    c = t.counter(source)
    after = replace(c, cubes=c.cubes - 1)
    state = t.state.with_counter(c, after)
    lines = [f"1 {c.kind} from {t.describe(c)}"]
    if after.cubes == 0 and t.rules.kinds[c.kind].flip_when_empty:
        state, said = _flip_counter(t, state, after)
        lines.append(said)
    return replace(state, recent=tuple(lines))


TAKE = Entry("take", "Take a cube", (
    Step("source", "From where?", _take_sources, _check_take_source),
    Step("cube", "Which cube?", lambda t, a: [("Coal", "coal", None), ("Iron", "iron", None)], _check_cube,
         _ship_has_both),
), _take)


# -- Japan: sell to a ship's market -----------------------------------------------------------------


def _market_ships(t: Table, a: dict[str, Any]) -> list[Candidate]:
    return [(short(t.board.ships[s.space].name, 20), s.space, ship_place(t, s.space)) for s in t.state.ships]


def _check_market_ship(t: Table, a: dict[str, Any], v: Any) -> None:
    ship = t.state.ship(str(v))
    if ship is None or not t.board.ships[ship.space].market:
        raise RuleError("no ship with a market stands there")
    if ship.market_sold:
        raise RuleError(f"the market of {t.board.ships[ship.space].name} is sold to already")


def _sell_market(t: Table, a: dict[str, Any]) -> IndustryState:
    ship = t.state.ship(a["space"])
    assert ship is not None
    sold = replace(ship, market_sold=True)
    sold = replace(sold, flipped=ship_flips(t, sold))
    flip = f"; {ship.owner}'s ship flips" if sold.flipped and not ship.flipped else ""
    return replace(t.state.with_ship(sold), recent=(f"Sold to the {t.board.ships[ship.space].name} market{flip}",))


MARKET = Entry("market", "Sell to ship market", (
    Step("space", "Which ship?", _market_ships, _check_market_ship),
), _sell_market, lambda t: not t.board.iron_market_cubes)


# -- Minnesota: sell cubes to the demand displays and iron markets ----------------------------------


def _sell_sources(t: Table, a: dict[str, Any]) -> list[Candidate]:
    out: list[Candidate] = [(counter_label(t, c), counter_value(c), Location(c.location))
                            for c in sorted(t.state.counters, key=lambda c: t.board.spots[c.location].name)
                            if c.cubes]
    return [*out, ("Iron Demand Disp.", "display:iron", None)]


def iron_on_map(t: Table) -> bool:
    return any(c.kind == "iron" and c.cubes for c in t.state.counters)


def _check_sell_source(t: Table, a: dict[str, Any], v: Any) -> None:
    if v == "display:iron":
        if iron_on_map(t):
            raise RuleError("iron is on the map: the Iron Demand Display sells only when there is none")
        if not any(not m.counter for m in t.state.markets):
            raise RuleError("no iron market is open to sell to")
        return
    c = t.counter(v)
    if not c.cubes:
        raise RuleError(f"no cubes left on {t.describe(c)}")
    if c.kind == "coal" and c.owner != a["player"]:
        raise RuleError(f"{a['player']} sells to the demand displays only from her own mines and ironworks")
    if t.port_for(c.location) is None:
        raise RuleError(f"{t.board.spots[c.location].name} is not connected to a built port or Chicago")


def _sell_targets(t: Table, a: dict[str, Any]) -> list[Candidate]:
    out: list[Candidate] = [(t.board.demand[k].name.replace(" Display", ""), f"demand:{k}", None)
                            for k in ("coal", "iron")]
    out += [(f"{short(t.board.spots[m.location].name)} iron mkt", f"market:{m.location}", Location(m.location))
            for m in t.state.markets]
    return out


def _check_sell_target(t: Table, a: dict[str, Any], v: Any) -> None:
    source = str(a["source"])
    cube = "iron" if source == "display:iron" else t.counter(source).kind
    own = source != "display:iron" and t.counter(source).owner == a["player"]
    target = str(v)
    if target.startswith("demand:"):
        display = target[7:]
        if display not in t.board.demand:
            raise RuleError(f"no demand display {display!r}")
        if display != cube:
            raise RuleError(f"a {cube} cube does not sell to the {t.board.demand[display].name}")
        if not own:
            raise RuleError(f"{a['player']} sells to the demand displays only from her own mines and ironworks")
        if t.state.cubes_on(display) >= len(t.board.demand[display].prices):
            raise RuleError(f"the {t.board.demand[display].name} is full")
        return
    if not target.startswith("market:"):
        raise RuleError(f"no market {target!r}")
    market = t.state.market(target[7:])
    if market is None:
        raise RuleError("no ship has opened an iron market there")
    if cube != "iron":
        raise RuleError("only iron sells to an iron market")
    if market.counter:
        raise RuleError(f"the iron market at {t.board.spots[market.location].name} is satisfied (market counter down)")


def _sell(t: Table, a: dict[str, Any]) -> IndustryState:
    source, target, state = str(a["source"]), str(a["target"]), t.state
    lines = []
    if source == "display:iron":
        state, said = buy_from_display(t, state, "iron", 1)
        lines.append(said)
        cube = "iron"
    else:
        c = t.counter(source)
        cube = c.kind
        after = replace(c, cubes=c.cubes - 1)
        state = state.with_counter(c, after)
        lines.append(f"{a['player']} sells 1 {cube} from {t.board.spots[c.location].name}")
        if after.cubes == 0 and t.rules.kinds[c.kind].flip_when_empty:
            state, said = _flip_counter(t, state, after)
            lines.append(said)
    if target.startswith("demand:"):
        demand = t.board.demand[cube]
        filled = state.cubes_on(cube)
        price = demand.prices[len(demand.prices) - filled - 1]
        state = state.with_demand(cube, filled + 1)
        lines.append(f"to the {demand.name}: earn ${price}")
        return replace(state, recent=tuple(lines))
    market = state.market(target[7:])
    assert market is not None
    name = t.board.spots[market.location].name
    if market.cubes + 1 < t.board.iron_market_cubes:
        state = state.with_market(replace(market, cubes=market.cubes + 1))
        lines.append(f"to the {name} iron market ({market.cubes + 1} of {t.board.iron_market_cubes})")
        return replace(state, recent=tuple(lines))
    # "Once a second cube is sold to such a space then both cubes are placed back in the stock and an unused
    # market counter is placed in the space, face down." and "A ship counter is flipped when two cubes have been
    # sold to the iron market."
    state = state.with_market(IronMarket(market.location, 0, True))
    lines.append(f"{name} iron market satisfied: market counter down")
    for ship in state.ships:
        if t.board.ships[ship.space].ends[0] == market.location and not ship.flipped:
            state = state.with_ship(replace(ship, flipped=True))
            lines.append(f"{ship.owner}'s ship flips")
    return replace(state, recent=tuple(lines))


SELL = Entry("sell", "Sell cubes", (
    Step("player", "Who sells?", _players, _check_player),
    Step("source", "Which cube?", _sell_sources, _check_sell_source),
    Step("target", "Sold to?", _sell_targets, _check_sell_target),
), _sell, lambda t: bool(t.board.iron_market_cubes))


# -- flip (a sale) and remove (overbuild, a correction) ----------------------------------------------


def _check_flip(t: Table, a: dict[str, Any], v: Any) -> None:
    c = t.counter(v)
    if c.flipped:
        raise RuleError(f"{t.describe(c)} is flipped already")
    if t.rules.kinds[c.kind].flip_when_empty:
        raise RuleError(f"a {t.kind_name(c.kind)} flips when its last cube is taken")


def _flip(t: Table, a: dict[str, Any]) -> IndustryState:
    state, said = _flip_counter(t, t.state, t.counter(a["counter"]))
    return replace(state, recent=(said,))


def _all_counters(t: Table, a: dict[str, Any]) -> list[Candidate]:
    return [(counter_label(t, c), counter_value(c), Location(c.location))
            for c in sorted(t.state.counters, key=lambda c: (t.board.spots[c.location].name, c.space))]


FLIP = Entry("flip", "Flip a counter", (Step("counter", "Which counter?", _all_counters, _check_flip),), _flip)


def _check_counter(t: Table, a: dict[str, Any], v: Any) -> None:
    t.counter(v)


def _check_spot(t: Table, a: dict[str, Any], v: Any) -> None:
    t.spot(v)


def _remove(t: Table, a: dict[str, Any]) -> IndustryState:
    c = t.counter(a["counter"])
    return replace(t.state.with_counter(c, None), recent=(f"Removed {t.describe(c)}",))


REMOVE = Entry("remove", "Remove a counter", (
    Step("counter", "Which counter?", _all_counters, _check_counter),
), _remove)


# -- ask the map: connected? -------------------------------------------------------------------------


def _connected(t: Table, a: dict[str, Any]) -> IndustryState:
    spot = t.board.spots[a["location"]]
    port = t.port_for(spot.key)
    if port is None:
        line = f"{spot.name}: not connected to a built port or Chicago"
    elif port == spot.key and not spot.chicago:
        line = f"{spot.name}: has its own port"
    else:
        line = f"{spot.name}: connected to {t.board.spots[port].name}"
    return replace(t.state, recent=(line,))


CONNECTED = Entry("connected", "Connected?", (
    Step("location", "Which location?", _locations, _check_spot),
), _connected)


ENTRIES: dict[str, Entry] = {e.key: e for e in (BUILD, LINK, SHIP, TAKE, MARKET, SELL, FLIP, REMOVE, CONNECTED)}
"""The building and market entries; the card display, the deck and the end of turn are in the engine."""


def card_label(board: Board, rules: Rules, card: str) -> str:
    """A card as players read it: a location's name or an industry's ("Ship" for ship cards)."""
    if card == "location":
        return "Location card"
    return board.card_name(card, rules)


def card_kinds(board: Board) -> list[str]:
    """What a player points at when dealing a card to the display: each industry card kind of the deck, and a
    location card."""
    kinds = list(dict.fromkeys(c for c in board.deck if not c.startswith("at:")))
    return [*kinds, "location"] if any(c.startswith("at:") for c in board.deck) else kinds


__all__ = ["ENTRIES", "SHIP_CARD", "Candidate", "Entry", "Step", "Table", "card_kinds", "card_label"]
