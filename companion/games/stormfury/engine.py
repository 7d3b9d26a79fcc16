"""The Stormfury engine: forecast shuffle, player defences, hurricane shuffle, as a pure fold."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from companion.dice import Choice, Event, Prompt, Shuffled
from companion.errors import RuleError
from companion.games.base import Option
from companion.games.stormfury import storm
from companion.games.stormfury.data import Board, Role, card_list
from companion.games.stormfury.state import ROLES, Damage, Player, StormState, TurnLog
from companion.hexgrid import Hex

ACTIONS: tuple[str, ...] = ("move", "fortify", "dam", "evacuate", "end_turn", "end_player_phase")
"""Player-phase decisions; "end_turn" passes the turn to the next player (the last one's ends the phase),
"end_player_phase" ends the phase at once."""

HAND_LIMIT = 5
"""Cards a player keeps at the end of her turn ("discard until your hand has only 5 cards")."""
DRAW = 2
"""Resource cards drawn at the start of a turn, and again instead of playing."""


class StormfuryGame:
    """Project Stormfury's hurricane, keeping the :class:`companion.games.base.Game` contract."""

    key = "stormfury"
    title = "Project Stormfury"

    def __init__(self, board: Board) -> None:
        self.board = board

    # -- data dumps -------------------------------------------------------------------------
    def map_json(self) -> dict[str, Any]:
        return self.board.to_json()

    def cards_json(self) -> dict[str, Any]:
        return self.board.cards_json()

    # -- the fold ---------------------------------------------------------------------------
    def setup_questions(self) -> list[tuple[str, str, tuple[int, ...]]]:
        """Asked on the OLED before a new game: how many play (each takes the next role); each then
        places her token in a city of her choice (the setup phase), as the rules' setup says."""
        return [("players", "players", tuple(range(1, len(ROLES) + 1)))]

    def new_game(self, options: Mapping[str, Any]) -> StormState:
        """Options: ``players`` = [{"role", "city"}, ...] (tokens placed already), or a number 1..4 of
        players taking the first roles in ROLES, who then place their tokens one by one (the setup
        phase: the box's menu and ``companion run --players N``); default: the four roles, all in the
        first city, no setup phase (``companion hurricane``)."""
        b = self.board
        first = b.cities[0].id
        raw = options.get("players", len(ROLES))
        place = isinstance(raw, int) and not isinstance(raw, bool) and "players" in options
        if isinstance(raw, int) and not isinstance(raw, bool):
            if not 1 <= raw <= len(ROLES):
                raise RuleError(f"players: Project Stormfury is for 1..{len(ROLES)} players (one role each), got {raw}")
            raw = [{"role": r, "city": first} for r in ROLES[:raw]]
        players: list[Player] = []
        if not isinstance(raw, list | tuple) or not all(isinstance(p, Mapping) for p in raw):
            raise RuleError(f"players: expected a number 1..{len(ROLES)} or a list of {{role, city}} tables, "
                            f"got {raw!r}")
        for p in raw:
            role, city = p.get("role"), p.get("city", first)
            if role not in ROLES:
                raise RuleError(f"unknown role {role!r} (known: {', '.join(ROLES)})")
            if not isinstance(city, str) or city not in {c.id for c in b.cities}:
                raise RuleError(f"unknown city {city!r}")
            if any(q.role == role for q in players):
                raise RuleError(f"role {role} chosen twice")
            players.append(Player(role, city))
        at_sea = b.start in b.ocean
        return StormState(turn=1, phase="setup" if place else "forecast", category=b.rules.start_category,
                          centre=b.start,
                          deck="ocean" if at_sea else "land", players=tuple(players),
                          population=tuple((c.id, b.rules.start_population) for c in b.cities),
                          recent=(f"Storm cat {b.rules.start_category} in the gulf",))

    def apply(self, state: StormState, event: Event) -> StormState:
        if state.phase == "over":
            raise RuleError("the game is over")
        if state.phase == "setup":
            return self._place(state, event)
        if isinstance(event, Choice) and event.action == "evacuate" and state.phase in ("forecast", "hurricane"):
            return self._evacuate_any_time(state, event)
        if state.phase == "forecast":
            return self._forecast(state, self._shuffle(event, len(self.board.decks[state.deck])))
        if state.phase == "hurricane":
            return self._hurricane(state, self._shuffle(event, len(state.forecast)))
        if not isinstance(event, Choice):
            raise RuleError(f"player phase: choose one of {', '.join(ACTIONS)}, not a {type(event).__name__}")
        return self._choice(state, event)

    def _place(self, state: StormState, event: Event) -> StormState:
        """Setup: the next player in table order puts her token in any city (several may share one)."""
        player = state.players[state.placed]
        if not isinstance(event, Choice) or event.action != "place":
            raise RuleError(f"setup: {self._who(player.role)} places her token first (place)")
        city = event.args.get("city")
        cities = {c.id: c for c in self.board.cities}
        if not isinstance(city, str) or city not in cities:
            raise RuleError(f"unknown city {city!r}")
        if event.args.get("player", player.role) != player.role:
            raise RuleError(f"setup: it is {self._who(player.role)}'s turn to place her token")
        players = tuple(replace(p, city=city) if i == state.placed else p for i, p in enumerate(state.players))
        placed = state.placed + 1
        done = placed == len(players)
        return replace(state, players=players, placed=placed, phase="forecast" if done else "setup",
                       recent=(f"{self._who(player.role)} in {cities[city].name}",))

    @staticmethod
    def _shuffle(event: Event, n: int) -> tuple[int, ...]:
        if not isinstance(event, Shuffled):
            raise RuleError(f"waiting for a shuffle of {n} cards, not a {type(event).__name__}")
        if len(event.order) != n:
            raise RuleError(f"need a shuffle of {n} cards, got {len(event.order)}")
        return event.order

    def _forecast(self, state: StormState, order: tuple[int, ...]) -> StormState:
        deck = self.board.decks[state.deck]
        forecast = tuple(deck[i].id for i in order[: self.board.rules.forecast_size])
        players = tuple(replace(p, moves=0) for p in state.players)
        return replace(state, phase="players", forecast=forecast, players=players, current=0,
                       recent=(f"Forecast: {card_list([self.board.card(c) for c in forecast])}",))

    def draws(self, category: int) -> int:
        return self.board.rules.draws[category - 1]

    def _hurricane(self, state: StormState, order: tuple[int, ...]) -> StormState:
        """Move, then change category (a strengthen only at sea), then resolve the damage; a storm that
        started the turn at category 1 and weakens ends the game "immediately", before any damage."""
        b = self.board
        cards = [b.card(state.forecast[i]) for i in order[: self.draws(state.category)]]
        path = storm.walk(b, state.centre, cards)
        centre = path[-1] if path else state.centre
        at_sea = centre in b.ocean
        after = storm.new_category(b, state.category, cards, at_sea)
        moved = f"Drew {card_list(cards)}"
        if after == 0:
            log = TurnLog(state.turn, state.deck, state.forecast, tuple(c.id for c in cards), state.category, 0,
                          path, at_sea, ())
            return replace(state, phase="over", category=0, centre=centre, deck="ocean" if at_sea else "land",
                           log=(*state.log, log), ended_by="dissipated",
                           recent=(moved, f"Cat {state.category}->0: dissipated, game over"))
        covered = storm.footprint(b, state.centre, path, state.category)
        out = storm.resolve_damage(b, state, covered, state.turn)
        log = TurnLog(state.turn, state.deck, state.forecast, tuple(c.id for c in cards), state.category, after,
                      path, at_sea, out.damage, out.absorbed)
        ended = "max_turns" if state.turn >= b.rules.max_turns else ""
        hits = sum(d.amount for d in out.damage)
        recent = (moved, f"Cat {state.category}->{after}, {hits} damage", *self._damage_lines(out.damage),
                  *self._people_lost(out.damage))
        return replace(state, phase="over" if ended else "forecast", turn=state.turn + (0 if ended else 1),
                       category=after, centre=centre, deck="ocean" if at_sea else "land",
                       forecast=() if not ended else state.forecast,
                       fortifications=tuple(sorted(out.fortifications.items())), destroyed=out.destroyed,
                       flooded=out.flooded, population=out.population, damage=state.damage + out.damage,
                       log=(*state.log, log), ended_by=ended, recent=recent)

    def _damage_lines(self, damage: tuple[Damage, ...]) -> tuple[str, ...]:
        """What the storm hit, by city and space, in names: "Houston: Port, Refinery 2", "Flooded: Houston -
        Lake Charles" (the people lost follow on lines of their own)."""
        b = self.board
        by_city: dict[str, list[str]] = {}
        roads = []
        for d in damage:
            if d.kind == "road":
                roads.append(b.road(d.target).name)
            elif d.kind == "infrastructure":
                space = b.space(d.target).name
                by_city.setdefault(b.city(d.city).name, []).append(space + (f" {d.amount}" if d.amount > 1 else ""))
        lines = [f"{city}: {', '.join(spaces)}" for city, spaces in by_city.items()]
        if roads:
            lines.append(f"Flooded: {', '.join(roads)}")
        return tuple(lines)

    def _people_lost(self, damage: tuple[Damage, ...]) -> tuple[str, ...]:
        """One recap line per damaged populace, saying whether the people are gone (the rules table)."""
        fate = "lost" if self.board.rules.damaged_population == "lost" else "hit, still there"
        return tuple(f"{self.board.city(d.city).name}: {d.amount} people {fate}" for d in damage
                     if d.kind == "population")

    # -- the player phase -------------------------------------------------------------------
    def _player(self, state: StormState, args: Mapping[str, Any]) -> tuple[int, Player]:
        role = args.get("player")
        for i, p in enumerate(state.players):
            if p.role == role:
                return i, p
        raise RuleError(f"no player {role!r} at the table "
                        f"(players: {', '.join(self._who(p.role) for p in state.players)})")

    @staticmethod
    def _count(args: Mapping[str, Any]) -> int:
        n = args.get("count", 1)
        if isinstance(n, bool) or not isinstance(n, int) or n < 1:
            raise RuleError(f"count must be a whole number of at least 1, got {n!r}")
        return n

    def _choice(self, state: StormState, event: Choice) -> StormState:
        b, a = self.board, event.args
        if event.action == "end_player_phase":
            return replace(state, phase="hurricane", recent=("Hurricane phase",))
        if event.action == "end_turn":
            nxt = state.current + 1
            if nxt >= len(state.players):
                return replace(state, phase="hurricane", recent=("Hurricane phase",))
            return replace(state, current=nxt, recent=(f"{self._who(state.players[nxt].role)}'s turn",))
        if event.action not in ACTIONS:
            raise RuleError(f"unknown action {event.action!r} (one of {', '.join(ACTIONS)})")
        i, player = self._player(state, a)
        who, here = self._who(player.role), self._city(player.city)
        if i != state.current and not (event.action == "evacuate" and player.role == "evac_specialist"):
            # Each player acts in her own turn; only the evac specialist's evacuation is "at any time".
            raise RuleError(f"it is {self._who(state.players[state.current].role)}'s turn, not {who}'s")
        if event.action == "move":
            to = a.get("to")
            road = next((r for r in b.roads_of(player.city) if r.other(player.city) == to), None)
            if road is None:
                raise RuleError(f"no road from {here} to {to!r}")
            if road.id in state.flooded:
                raise RuleError(f"the road {road.name} is flooded")
            if player.moves >= b.rules.moves_per_turn:
                raise RuleError(f"{who} already travelled {player.moves} cities this turn")
            players = list(state.players)
            players[i] = Player(player.role, str(to), player.moves + 1)
            return replace(state, players=tuple(players), recent=(f"{who} to {self._city(str(to))}",))
        if event.action == "fortify":
            sid = a.get("space")
            try:
                space = b.space(str(sid))
            except KeyError:
                raise RuleError(f"unknown space {sid!r}") from None
            if space.city != player.city:
                raise RuleError(f"{who} is in {here}, not {self._city(space.city)}")
            if space.id in state.destroyed:
                raise RuleError(f"{b.space_name(space.id)} is destroyed")
            forts = dict(state.fortifications)
            forts[space.id] = forts.get(space.id, 0) + self._count(a)
            return replace(state, fortifications=tuple(sorted(forts.items())),
                           placed_by=(*state.placed_by, (f"fort:{space.id}", player.role)),
                           recent=(f"Fortified {b.space_name(space.id)} ({forts[space.id]})",))
        if event.action == "dam":
            rid = a.get("road")
            road = next((r for r in b.roads if r.id == rid), None)
            if road is None:
                raise RuleError(f"unknown road {rid!r}")
            city = a.get("city", player.city)
            if city not in road.ends:
                raise RuleError(f"the road {road.name} does not end in {city!r}")
            near = city == player.city or (player.role == "aquatic_engineer" and any(
                r.other(player.city) == city for r in b.roads_of(player.city)))
            if not near:
                raise RuleError(f"{who} is in {here} and cannot dam {self._city(city)}")
            if road.id in state.flooded:
                raise RuleError(f"the road {road.name} is already flooded")
            if (road.id, city) in state.dams:
                raise RuleError(f"the road {road.name} is already dammed in {self._city(city)}")
            return replace(state, dams=state.dams | {(road.id, city)},
                           placed_by=(*state.placed_by, (f"dam:{road.id}:{city}", player.role)),
                           recent=(f"Dam {road.name} at {self._city(city)}",))
        return self._evacuate(state, player, a)

    def _who(self, role: str) -> str:
        """A role as people say it ("Aquatic Engineer"), from the data."""
        return self.board.role(role).name

    def _city(self, city_id: str) -> str:
        """A city as people say it; an id that is no city is echoed as typed."""
        try:
            return self.board.city(city_id).name
        except KeyError:
            return repr(city_id)

    def _evacuate_any_time(self, state: StormState, event: Choice) -> StormState:
        """The evac specialist's power: she evacuates "at any time", so also between the player
        phases, before the hurricane's cards are drawn; the others evacuate in their own turn."""
        _, player = self._player(state, event.args)
        if player.role != "evac_specialist":
            raise RuleError(f"only the {self._who('evac_specialist')} evacuates outside the player phase, "
                            f"not the {self._who(player.role)}")
        return self._evacuate(state, player, event.args)

    def _evacuate(self, state: StormState, player: Player, a: Mapping[str, Any]) -> StormState:
        n = self._count(a)
        left = state.people(player.city)
        if n > left:
            raise RuleError(f"{self._city(player.city)} has {left} population left, cannot evacuate {n}")
        pop = tuple((c, v - n if c == player.city else v) for c, v in state.population)
        return replace(state, population=pop, placed_by=(*state.placed_by, (f"evac:{player.city}", player.role)),
                       recent=(f"Evacuated {n} from {self._city(player.city)}",))

    # -- what the table sees ----------------------------------------------------------------
    def prompt(self, state: StormState) -> Prompt:
        if state.phase == "setup":
            placing = self.board.role(state.players[state.placed].role)
            return Prompt(f"Setup: {placing.name}, place your token in any city", f"{placing.short}: start city",
                          actions=("place",))
        if state.phase == "over":
            return Prompt(f"The storm is over ({self.ending(state)}): {'; '.join(self.final_lines(state))}",
                          "Game over", done=True)
        if state.phase == "forecast":
            n = len(self.board.decks[state.deck])
            return Prompt(f"Shuffle the {state.deck} deck and deal {self.board.rules.forecast_size} forecast cards",
                          f"Shuffle {state.deck} deck", shuffle=n, deal=self.board.rules.forecast_size)
        if state.phase == "hurricane":
            k = self.draws(state.category)
            return Prompt(f"Hurricane phase: draw {k} of the {len(state.forecast)} forecast cards",
                          f"Draw {k} of {len(state.forecast)}", shuffle=len(state.forecast), deal=k)
        role = self.turn_of(state)
        if role is None:
            return Prompt("Player phase: move, fortify, dam, evacuate, then end the player phase",
                          "Player phase", actions=ACTIONS)
        return Prompt(f"{role.name}'s turn: {'; '.join(self.reminders(state))}", f"{role.short}: your turn",
                      actions=ACTIONS)

    def turn_of(self, state: StormState) -> Role | None:
        """The expert whose turn it is in the player phase (None outside it or with nobody seated)."""
        if state.phase != "players" or not 0 <= state.current < len(state.players):
            return None
        return self.board.role(state.players[state.current].role)

    def reminders(self, state: StormState) -> tuple[str, ...]:
        """What the player whose turn it is does with her cards, which the box leaves on the table: the
        rules' turn in order, then her power, one line each."""
        role = self.turn_of(state)
        if role is None:
            return ()
        m = self.board.rules.moves_per_turn
        return (f"Draw {DRAW} (or {DRAW} more instead of playing)",
                f"Travel up to {m} cities along roads that are not flooded",
                f"Discard to {HAND_LIMIT}", f"{role.short} power: {role.power}")

    def status(self, state: StormState) -> str:
        names = {"setup": "setup", "forecast": "forecast phase", "players": "player phase",
                 "hurricane": "hurricane phase", "over": "game over"}
        role = self.turn_of(state)
        phase = f"{role.name}'s turn" if role is not None else names[state.phase]
        return f"Turn {state.turn} - {phase} - cat {state.category}"

    def recap(self, state: StormState) -> tuple[str, ...]:
        """The last event's lines; in the player phase then the reminders for whose turn it is; at the end
        the final result (total damage and the worst cities)."""
        if state.phase == "over":
            return self.final_lines(state)
        return (*state.recent, *self.reminders(state))

    @staticmethod
    def ending(state: StormState) -> str:
        """Why the game ended, in words."""
        return {"dissipated": "it dissipated", "max_turns": f"turn {state.turn} was the last"}.get(
            state.ended_by, "game over")

    def final_lines(self, state: StormState) -> tuple[str, ...]:
        """Total damage, then the worst-hit cities (up to three), each a short line."""
        summary = self.summary(state)
        hit = sorted(((sum(v.values()), self.board.city(c).name) for c, v in summary["by_city"].items()
                      if sum(v.values())), key=lambda x: (-x[0], x[1]))
        worst = [f"{name} {n}" for n, name in hit[:3]]
        if not worst:
            return (f"Total damage: {summary['total']}", "No city was damaged")
        return (f"Total damage: {summary['total']}", f"Worst: {worst[0]}", *worst[1:])

    def shuffled_items(self, state: StormState) -> tuple[str, ...]:
        """The cards the current shuffle orders, by the ids printed on them, in index order: the deck in the
        forecast phase, the forecast in the hurricane phase (so a deal by dice names each card picked)."""
        if state.phase == "forecast":
            return tuple(c.name for c in self.board.decks[state.deck])
        if state.phase == "hurricane":
            return tuple(self.board.card(c).name for c in state.forecast)
        return ()

    def risk_map(self, state: StormState) -> Mapping[Hex, float]:
        from companion.games.stormfury.risk import forecast_risk

        if not state.forecast or state.phase == "over":
            return {}
        return forecast_risk(self.board, state, state.forecast).hexes

    # -- the decisions open now, for the buttons and the projector's cursor --------------------
    def choices(self, state: StormState) -> list[Option]:
        """Player phase: for the player whose turn it is the moves along open roads, a
        fortification of each standing space of their city (its population centre too: the rules let a
        fortification absorb a hit there), a dam at each road end there (for the aquatic engineer also at
        each road end in the cities next to hers), one evacuation; then passing the turn to the next player, and
        last ending the player phase (never the first option, so a single press ends nothing). Each comes with
        the hex it concerns, so the projector's cursor can sit on it; ``apply`` still judges each one, and a
        refused option says why on the panel."""
        if state.phase == "setup":
            role = state.players[state.placed].role
            return [Option(c.name, Choice("place", {"player": role, "city": c.id}), c.population_centre)
                    for c in self.board.cities]
        if state.phase != "players":
            return []
        b = self.board
        out: list[Option] = []
        turn = self.turn_of(state)
        ends: list[Option] = []
        if turn is not None and state.current + 1 < len(state.players):
            after = state.players[state.current + 1]
            nxt = b.role(after.role)
            home = next((c.population_centre for c in b.cities if c.id == after.city), None)
            ends.append(Option(f"Done: {nxt.short} next in {self._city(after.city)}" if home is not None
                               else f"Done: {nxt.short} next", Choice("end_turn", {}), home,
                               f"{turn.name} is done: the {nxt.name}'s turn"))
        ends.append(Option("End player phase", Choice("end_player_phase", {})))
        cities = {c.id: c for c in b.cities}
        seated = [state.players[state.current]] if 0 <= state.current < len(state.players) else []
        for player in seated:
            who = b.role(player.role).short
            here = cities.get(player.city)
            for road in b.roads_of(player.city) if player.moves < b.rules.moves_per_turn else ():
                to = road.other(player.city)
                if road.id not in state.flooded and to in cities:
                    out.append(Option(f"{who}: go {cities[to].name}", Choice("move", {"player": player.role, "to": to}),
                                cities[to].population_centre))
            if here is not None:
                out += [Option(f"{who}: fort {space.name}",
                               Choice("fortify", {"player": player.role, "space": space.id}), space.hex)
                        for space in here.spaces if space.id not in state.destroyed]
            for road in b.roads_of(player.city):
                if road.id not in state.flooded and (road.id, player.city) not in state.dams:
                    out.append(Option(f"{who}: dam to {self._city(road.other(player.city))}",
                                Choice("dam", {"player": player.role, "road": road.id, "city": player.city}),
                                road.middle, f"{who}: dam the road {road.name} in {self._city(player.city)}"))
            if player.role == "aquatic_engineer":  # her power: dams in the cities next to hers as well
                for near in dict.fromkeys(r.other(player.city) for r in b.roads_of(player.city)):
                    for road in b.roads_of(near):
                        if road.id not in state.flooded and (road.id, near) not in state.dams and near in cities:
                            out.append(Option(f"{who}: dam {cities[near].name} to {self._city(road.other(near))}",
                                        Choice("dam", {"player": player.role, "road": road.id, "city": near}),
                                        road.middle, f"{who}: dam the road {road.name} in {cities[near].name}"))
            if here is not None and state.people(player.city) > 0:
                out.append(Option(f"{who}: evacuate 1 from {here.name}",
                                  Choice("evacuate", {"player": player.role, "count": 1}), here.population_centre))
        return out + ends

    def summary(self, state: StormState) -> dict[str, Any]:
        """Damage by city and by kind: the rules' "where did you take the most damage"."""
        by_city: dict[str, dict[str, int]] = {c.id: {"infrastructure": 0, "population": 0, "road": 0}
                                              for c in self.board.cities}
        for d in state.damage:
            if d.kind == "road":
                road = next(r for r in self.board.roads if r.id == d.target)
                for end in road.ends:  # a flooded road counts against both cities it joins
                    by_city[end]["road"] += 1
            else:
                by_city[d.city][d.kind] += d.amount
        by_kind = {k: sum(d.amount for d in state.damage if d.kind == k) for k in ("infrastructure", "population",
                                                                                   "road")}
        worst = max(by_city, key=lambda c: sum(by_city[c].values())) if state.damage else None
        return {"turns": len(state.log), "ended_by": state.ended_by, "category": state.category,
                "total": sum(by_kind.values()), "by_kind": by_kind, "by_city": by_city, "worst_city": worst}
