"""The Allegheny engine: the map's special sequence as a pure fold, so the table never forgets a step of it.

The box runs what the expansion adds to the base game: the initial offering's five auctions in the text's
order (the P&LE held back), the PRR's owner as first player and play clockwise; building track with no
double link into and out of Pittsburgh and external connections that pay a bonus but add no value; the
P&LE opening the first time a railroad reaches Pittsburgh (its auction interrupts the build, the winner
lays one free link from Pittsburgh); and developing locations, one free, a second for $3, and when the
second is declined the automatic metro development (Pittsburgh, Cincinnati, Detroit, Chicago, nothing).
The base game's other actions are the table's: "Other action" passes the turn. The box keeps no money;
it says who pays what (a bid to a railroad's treasury, $3 to the bank, a connection bonus).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from companion.dice import Choice, Event, Prompt
from companion.errors import RuleError
from companion.games.allegheny import auction as bidding
from companion.games.allegheny import network as net
from companion.games.allegheny.data import Board, Railroad
from companion.games.allegheny.state import AlleghenyState, Auction, Share, Track
from companion.games.base import Option, SetupQuestion
from companion.games.layout import laid_out, page
from companion.places import GraphBoard, Link, Location, place_from_args

TURN_ACTIONS: tuple[str, ...] = ("build_track", "develop_locations", "other_action", "end_game")
BID_CHOICES = 60
"""Bids offered on the buttons, a dollar apart from the least allowed; any larger amount is typed."""
BUILD_ACTIONS: tuple[str, ...] = ("build_from", "build", "build_back", "done_building")
DEVELOP_ACTIONS: tuple[str, ...] = ("develop", "no_second")
AUCTION_ACTIONS: tuple[str, ...] = ("bid", "pass")


class AlleghenyGame:
    """Age of Rail: Allegheny's special sequence, keeping the :class:`companion.games.base.Game` contract."""

    numbered_seats = True
    """The seats are numbered ("Player 2"): the table may name them (companion.session.seats)."""

    key = "allegheny"
    title = "Age of Rail: Allegheny"

    def __init__(self, board: Board) -> None:
        self.board = board

    # -- data and board ---------------------------------------------------------------------------
    def map_json(self) -> dict[str, Any]:
        return self.board.to_json()

    def board_for(self, state: AlleghenyState) -> GraphBoard:
        return self.board.graph()

    def setup_questions(self) -> list[SetupQuestion]:
        """Asked before a new game: how many play; they take the data's seats clockwise."""
        return [SetupQuestion("players", "players", self.board.rules.counts)]

    # -- names ------------------------------------------------------------------------------------
    def seat(self, seat: int) -> str:
        return self.board.rules.seating[seat]

    def rr(self, key: str) -> Railroad:
        return self.board.by_key[key]

    # -- the fold ---------------------------------------------------------------------------------
    def new_game(self, options: Mapping[str, Any]) -> AlleghenyState:
        """Options: ``players`` (a count the data allows, default its smallest). The first auction opens."""
        counts = self.board.rules.counts
        players = options.get("players", counts[0])
        if isinstance(players, bool) or not isinstance(players, int) or players not in counts:
            raise RuleError(f"players: Allegheny is for {', '.join(map(str, counts))} players, got {players!r}")
        first = self.board.rules.offering[0]
        state = AlleghenyState(players=players, recent=("Initial offering",))
        return replace(state, auction=bidding.open_auction(first, self._opener(state, 0), players))

    def _opener(self, state: AlleghenyState, k: int) -> int:
        """Who opens the initial offering's auction number ``k`` (0-based), as the data reads it."""
        how = self.board.rules.first_bidder
        if how == "seat1" or k == 0:
            return 0
        if how == "rotate":
            return k % state.players
        return (state.shares[-1].seat + 1) % state.players

    def apply(self, state: AlleghenyState, event: Event) -> AlleghenyState:
        if state.phase == "over":
            raise RuleError("the game is over")
        if not isinstance(event, Choice):
            raise RuleError(f"{self._waiting(state)}, not a {type(event).__name__}")
        a = event.args
        if event.action in AUCTION_ACTIONS:
            return self._auction_event(state, event)
        if state.phase in ("offering", "ple_auction"):
            raise RuleError(f"{self._waiting(state)}: bid or pass")
        if "player" in a and a["player"] != state.current + 1 and state.phase != "ple_link":
            raise RuleError(f"it is {self.seat(state.current)}'s turn, not {self._seat_name(a['player'])}'s")
        if state.phase == "turn":
            return self._turn(state, self._allowed(event, TURN_ACTIONS))
        if state.phase == "build":
            return self._build_step(state, self._allowed(event, BUILD_ACTIONS))
        if state.phase == "develop":
            return self._develop(state, self._allowed(event, DEVELOP_ACTIONS))
        return self._ple_link(state, self._allowed(event, ("build",)))

    def _seat_name(self, value: Any) -> str:
        ok = isinstance(value, int) and not isinstance(value, bool) and 1 <= value <= len(self.board.rules.seating)
        return self.seat(value - 1) if ok else repr(value)

    def _waiting(self, state: AlleghenyState) -> str:
        a = state.auction
        if a is not None:
            return f"waiting for {self.seat(a.bidder)}'s bid on the {self.rr(a.railroad).name}"
        return f"waiting for {self.seat(state.current)}'s decision"

    @staticmethod
    def _allowed(event: Choice, allowed: tuple[str, ...]) -> Choice:
        if event.action not in allowed:
            raise RuleError(f"unknown action {event.action!r} here (one of {', '.join(allowed)})")
        return event

    # -- auctions ---------------------------------------------------------------------------------
    def _auction_event(self, state: AlleghenyState, event: Choice) -> AlleghenyState:
        a, args = state.auction, event.args
        named = args.get("railroad")
        if a is None or (named is not None and named != a.railroad):
            raise RuleError(self._no_auction(state, named))
        who = args.get("player")
        if who is not None and who != a.bidder + 1:
            raise RuleError(f"it is {self.seat(a.bidder)}'s bid, not {self._seat_name(who)}'s")
        name = self.rr(a.railroad).name
        if event.action == "bid":
            after = bidding.bid(a, self.board.rules, args.get("amount"))
            said = f"{self.seat(a.bidder)} bids ${after.high} for the {name}"
        else:
            after = bidding.pass_(a, self.board.rules)
            said = f"{self.seat(a.bidder)} passes on the {name}"
        won = bidding.winner(after)
        if won is None:
            return replace(state, auction=after, recent=(said,))
        return self._sold(state, after, won, said)

    def _no_auction(self, state: AlleghenyState, named: Any) -> str:
        """Why a bid names no open auction: the sixth stock, a stock sold already, or no auction now."""
        r = self.board.rules
        key = named if isinstance(named, str) and named in self.board.by_key else None
        sold = state.owner(key) if key else None
        if sold is not None:
            how = "it opens once" if key == r.ple else "the initial offering sold it"
            return (f"the {self.rr(sold.railroad).name} was auctioned already ({self.seat(sold.seat)} won it "
                    f"for ${sold.price}): {how}")
        if key == r.ple:
            return (f"the {self.rr(key).name} is not offered now: it opens when a railroad reaches "
                    f"{self.board.name(r.ple_opens_at)}")
        if state.auction is not None:
            return f"the auction under way is the {self.rr(state.auction.railroad).name}'s, not {named!r}"
        return "no auction is under way"

    def _sold(self, state: AlleghenyState, a: Auction, won: int, said: str) -> AlleghenyState:
        rr = self.rr(a.railroad)
        share = Share(a.railroad, won, a.high)
        sold = (f"{self.seat(won)} wins the {rr.name} for ${a.high}", said, f"${a.high} to the {rr.name} treasury")
        state = replace(state, auction=None, shares=(*state.shares, share))
        r = self.board.rules
        if state.phase == "ple_auction":
            state = replace(state, ple_open=True, phase="ple_link", recent=sold)
            if not self._ple_links(state):
                return replace(state, phase="build", recent=(*sold, f"no free link from "
                               f"{self.board.name(r.ple_opens_at)} can be built"))
            return state
        offered = state.offered + 1
        if offered < len(r.offering):
            nxt = bidding.open_auction(r.offering[offered], self._opener(replace(state, offered=offered), offered),
                                       state.players)
            return replace(state, offered=offered, auction=nxt, recent=sold)
        first = state.owner(r.first_player)
        assert first is not None
        return replace(state, offered=offered, phase="turn", current=first.seat,
                       recent=(*sold, f"{self.seat(first.seat)} owns the {self.rr(r.first_player).name}: "
                               "first player"))

    # -- the turn ---------------------------------------------------------------------------------
    def _turn(self, state: AlleghenyState, event: Choice) -> AlleghenyState:
        who = self.seat(state.current)
        if event.action == "end_game":
            return replace(state, phase="over", recent=("The table ended the game",))
        if event.action == "other_action":
            return self._next_player(state, f"{who}: another action")
        if event.action == "develop_locations":
            if not net.developable(self.board, state):
                raise RuleError("no location with a railroad connection can be developed now")
            return replace(state, phase="develop", first_developed="", recent=(f"{who} develops locations",))
        key = event.args.get("railroad")
        if not isinstance(key, str) or key not in self.board.by_key:
            raise RuleError(f"railroad: expected one of {', '.join(self.board.by_key)}, got {key!r}")
        if not net.is_open(self.board, state, key):
            raise RuleError(f"the {self.rr(key).name} has not opened: it builds no track yet")
        end = self._default_end(state, key)
        said = f"{who} builds for the {self.rr(key).name}" + (f" from {self.board.name(end)}" if end else "")
        return replace(state, phase="build", railroad=key, build_from=end, recent=(said,))

    def _default_end(self, state: AlleghenyState, rr: str) -> str:
        """Where a build starts without asking: the end of the railroad's newest link when a link can be built
        there (a build goes on from where it stopped), else its only end that can build one; "" (ask) when it has
        several. "Other end" picks another."""
        ends = [e for e in net.reach(self.board, state, rr) if net.buildable_from(self.board, state, rr, e)]
        newest = self._newest_end(state, rr, self._newest_link(state, rr))
        if newest in ends:
            return newest
        return ends[0] if len(ends) == 1 else ""

    def _newest_end(self, state: AlleghenyState, rr: str, newest: tuple[str, str] | None) -> str:
        """The far end of the railroad's newest link (``newest``, :meth:`_newest_link`; its base before it has
        one); external connections end a line, so they are never an end to build from."""
        if newest is None:
            return self.rr(rr).base
        start, far = newest
        return far if far in net.reach(self.board, state, rr) else start

    def _newest_link(self, state: AlleghenyState, rr: str) -> tuple[str, str] | None:
        """The railroad's newest link as (the end it was built from, its far end), None before it has one."""
        for i in range(len(state.tracks) - 1, -1, -1):
            t = state.tracks[i]
            if t.railroad != rr:
                continue
            earlier = replace(state, tracks=state.tracks[:i])
            start = t.link.a if t.link.a in net.reach(self.board, earlier, rr) else t.link.b
            return start, t.link.other(start)
        return None

    def _next_player(self, state: AlleghenyState, said: str) -> AlleghenyState:
        """The turn passes clockwise."""
        nxt = (state.current + 1) % state.players
        return replace(state, phase="turn", current=nxt, railroad="", build_from="", first_developed="",
                       recent=(said, f"{self.seat(nxt)}'s turn"))

    # -- building track ---------------------------------------------------------------------------
    def _build_step(self, state: AlleghenyState, event: Choice) -> AlleghenyState:
        rr = state.railroad
        if event.action == "done_building":
            return self._next_player(state, f"the {self.rr(rr).name} stops building")
        if event.action == "build_back":
            return replace(state, build_from="", recent=("Pick the end to build from",))
        if event.action == "build_from":
            end = event.args.get("location")
            if not isinstance(end, str) or end not in net.reach(self.board, state, rr):
                raise RuleError(f"the {self.rr(rr).name} does not reach {self._place_name(end)}")
            if not net.buildable_from(self.board, state, rr, end):
                raise RuleError(f"the {self.rr(rr).name} can build no link from {self.board.name(end)}")
            return replace(state, build_from=end, recent=(f"{self.rr(rr).name} builds from {self.board.name(end)}",))
        named = event.args.get("railroad", rr)
        if named != rr:
            raise RuleError(f"the {self.rr(rr).name} is building, not {named!r}")
        link = self._link(event.args)
        start = link.a if link.a in net.reach(self.board, state, rr) else link.b
        state = self._lay(state, rr, link, free=False)
        opens = self.board.rules.ple_opens_at
        if opens in link.ends() and not state.ple_open and rr != self.board.rules.ple:
            return self._ple_opens(state)
        end = link.other(start)  # the next link starts from the new end, when one can be built there
        if net.buildable_from(self.board, state, rr, end):
            state = replace(state, build_from=end,
                            recent=(*state.recent, f"Next link from {self.board.name(end)} (the new end)"))
        return state

    def _place_name(self, key: Any) -> str:
        return self.board.name(key) if isinstance(key, str) else repr(key)

    def _link(self, args: Mapping[str, Any]) -> Link:
        place = place_from_args({"link": args.get("link")})
        if not isinstance(place, Link):
            raise RuleError(f"link: expected two location keys, got {args.get('link')!r}")
        for end in place.ends():
            if end not in self.board.spots:
                raise RuleError(f"link: unknown location {end!r}")
        return place

    def _lay(self, state: AlleghenyState, rr: str, link: Link, free: bool) -> AlleghenyState:
        """The track laid (or a RuleError saying why not), with the connection bonus it pays."""
        why = net.refusal(self.board, state, rr, link)
        if why:
            raise RuleError(why)
        name = self.rr(rr).name
        start = link.a if link.a in net.reach(self.board, state, rr) else link.b  # said from where it was built
        said = [f"{name}: {self.board.name(start)} - {self.board.name(link.other(start))}{' (free)' if free else ''}"]
        state = replace(state, tracks=(*state.tracks, Track(link, rr, free)), build_from="")
        for end in link.ends():
            spot = self.board.spots[end]
            if spot.external:
                state, line = self._bonus(state, rr, end)
                said.append(line)
        return replace(state, recent=tuple(said))

    def _bonus(self, state: AlleghenyState, rr: str, end: str) -> tuple[AlleghenyState, str]:
        """An external connection pays its bonus (and adds nothing to the railroad's value)."""
        spot, r = self.board.spots[end], self.board.rules
        paid_before = [b for b in state.bonuses if b[1] == end]
        if (rr, end) in state.bonuses or (r.paid == "first_railroad" and paid_before):
            return state, f"{spot.name}: bonus paid already, no value added"
        owner = state.owner(rr)
        to = f"the {self.rr(rr).name} treasury" if r.paid_to == "treasury" or owner is None else \
            self.seat(owner.seat)
        state = replace(state, bonuses=(*state.bonuses, (rr, end)))
        return state, f"{spot.name} bonus: ${spot.bonus} to {to}, no value added"

    # -- the P&LE ---------------------------------------------------------------------------------
    def _ple_opens(self, state: AlleghenyState) -> AlleghenyState:
        """The first railroad to reach Pittsburgh opens the P&LE: its auction interrupts the build, the
        player whose turn made the connection bidding first."""
        ple = self.rr(self.board.rules.ple)
        auction = bidding.open_auction(ple.key, state.current, state.players)
        return replace(state, phase="ple_auction", auction=auction,
                       recent=(*state.recent, f"The {ple.name} opens: auction, {self.seat(state.current)} first"))

    def _ple_links(self, state: AlleghenyState) -> list[Link]:
        r = self.board.rules
        return net.buildable_from(self.board, state, r.ple, r.ple_opens_at)

    def _ple_link(self, state: AlleghenyState, event: Choice) -> AlleghenyState:
        r = self.board.rules
        owner = state.owner(r.ple)
        assert owner is not None
        if "player" in event.args and event.args["player"] != owner.seat + 1:
            raise RuleError(f"{self.seat(owner.seat)} won the {self.rr(r.ple).name}: she builds its free link")
        named = event.args.get("railroad", r.ple)
        if named != r.ple:
            raise RuleError(f"the {self.rr(r.ple).name}'s free link comes first, not a link for {named!r}")
        link = self._link(event.args)
        if r.ple_opens_at not in link.ends():
            raise RuleError(f"the free link starts from {self.board.name(r.ple_opens_at)}")
        state = self._lay(state, r.ple, link, free=True)
        value = net.value(self.board, state, r.ple)
        income = net.income(self.board, state, r.ple)
        line = f"{self.rr(r.ple).name} income ${income} (value {value})"
        state = replace(state, phase="build", recent=(*state.recent, line))
        end = self._default_end(state, state.railroad)  # the interrupted build goes on from its new end
        if not end:
            return state
        return replace(state, build_from=end, recent=(*state.recent, f"{self.rr(state.railroad).name} goes on from "
                                                                     f"{self.board.name(end)}"))

    # -- developing locations ---------------------------------------------------------------------
    def _develop(self, state: AlleghenyState, event: Choice) -> AlleghenyState:
        r, who = self.board.rules, self.seat(state.current)
        if event.action == "no_second":
            if not state.first_developed:
                raise RuleError("develop at least one location first (the first is free)")
            return self._automatic(state)
        key = event.args.get("location")
        why = net.develop_refusal(self.board, state, key) if isinstance(key, str) else f"location: got {key!r}"
        if why:
            raise RuleError(why)
        assert isinstance(key, str)
        paid = event.args.get("paid", 0)
        name = self.board.name(key)
        if not state.first_developed:
            if paid:
                raise RuleError("the first development is free: nothing is paid for it")
            state = self._raise(state, key)
            said = (f"{who} develops {name} (free)", self._level(state, key))
            return replace(state, first_developed=key, recent=said)
        if paid != r.second_cost:
            raise RuleError(f"the second development costs ${r.second_cost} to the bank: note it as paid "
                            f"(paid {r.second_cost})")
        if key == state.first_developed and not r.second_same_location:
            raise RuleError(f"{name} was developed already in this action: the second is another location")
        state = self._raise(state, key)
        return self._next_player(state, f"{who} pays ${r.second_cost}: {self._level(state, key)}")

    def _raise(self, state: AlleghenyState, key: str) -> AlleghenyState:
        levels = dict(state.development)
        levels[key] = levels.get(key, 0) + 1
        return replace(state, development=tuple(sorted(levels.items())))

    def _level(self, state: AlleghenyState, key: str) -> str:
        return f"{self.board.name(key)} {state.level(key)}/{self.board.spots[key].levels}"

    def _automatic(self, state: AlleghenyState) -> AlleghenyState:
        """No second development: the automatic metro development at once, needing no connection."""
        target = net.automatic_target(self.board, state)
        if not target:
            return self._next_player(state, "Automatic: every metro is full, nothing happens")
        state = self._raise(state, target)
        return self._next_player(state, f"Automatic: {self._level(state, target)}")

    # -- what the table sees ----------------------------------------------------------------------
    def automatic_line(self, state: AlleghenyState) -> str:
        """The next automatic metro development, as the projector and the develop prompt say it."""
        target = net.automatic_target(self.board, state)
        if not target:
            return "next automatic metro: none (all fully developed)"
        return f"next automatic metro: {self._level(state, target)}"

    def prompt(self, state: AlleghenyState) -> Prompt:
        r = self.board.rules
        if state.phase == "over":
            return Prompt("The game is over", "Game over", done=True)
        a = state.auction
        if a is not None:
            rr = self.rr(a.railroad)
            who = self.seat(a.bidder)
            high = f"high bid ${a.high} by {self.seat(a.leader)}" if a.leader is not None else \
                f"opening bid at least ${r.minimum}"
            if state.phase == "offering":
                head = (f"Initial offering {state.offered + 1} of {len(r.offering)}: the {rr.label}, "
                        f"base {self.board.name(rr.base)}")
            else:
                head = f"The {rr.label} opens: its share is auctioned"
            return Prompt(f"{head}. {who}: bid or pass ({high})", f"{who}: {rr.name} bid",
                          actions=AUCTION_ACTIONS)
        who = self.seat(state.current)
        if state.phase == "turn":
            return Prompt(f"{who}'s turn: build track, develop locations, or another action of the base game "
                          f"({self.automatic_line(state)})", f"{who}: action", actions=TURN_ACTIONS)
        if state.phase == "build":
            name = self.rr(state.railroad).name
            if state.build_from:
                frm = self.board.name(state.build_from)
                return Prompt(f"{who} builds the {name}: pick the link from {frm}", f"{name} from {frm}",
                              actions=BUILD_ACTIONS)
            return Prompt(f"{who} builds the {name}: pick the end to build from, or stop building",
                          f"{name}: build from?", actions=BUILD_ACTIONS)
        if state.phase == "develop":
            if not state.first_developed:
                return Prompt(f"{who} develops a location (the first is free; it needs a railroad connection)",
                              f"{who}: develop", actions=DEVELOP_ACTIONS)
            return Prompt(f"{who}: a second development for ${r.second_cost} to the bank, or none and the "
                          f"automatic metro development ({self.automatic_line(state)})",
                          f"2nd for ${r.second_cost}?", actions=DEVELOP_ACTIONS)
        owner = state.owner(r.ple)
        assert owner is not None
        frm = self.board.name(r.ple_opens_at)
        return Prompt(f"{self.seat(owner.seat)} builds the {self.rr(r.ple).name}'s free link from {frm}",
                      f"{self.rr(r.ple).name}: free link", actions=("build",))

    def status(self, state: AlleghenyState) -> str:
        r = self.board.rules
        if state.phase == "offering":
            return f"Initial offering {state.offered + 1}/{len(r.offering)}"
        if state.phase == "over":
            return "Game over"
        if state.phase in ("ple_auction", "ple_link"):
            return f"{self.rr(r.ple).name} opens - {self.seat(state.current)}'s turn"
        target = net.automatic_target(self.board, state)
        auto = self._level(state, target) if target else "none"
        return f"{self.seat(state.current)}'s turn - auto: {auto}"

    def recap(self, state: AlleghenyState) -> tuple[str, ...]:
        return state.recent

    def railroad_rows(self, state: AlleghenyState) -> list[dict[str, Any]]:
        """The side panel, per railroad: name and colour, base, owner and price, value and income."""
        rows = []
        for rr in self.board.railroads:
            share = state.owner(rr.key)
            rows.append({"railroad": rr.label, "base": self.board.name(rr.base),
                         "owner": self.seat(share.seat) if share else "",
                         "price": share.price if share else None,
                         "value": net.value(self.board, state, rr.key) if share else None,
                         "income": net.income(self.board, state, rr.key) if share else None})
        return rows

    def development_rows(self, state: AlleghenyState) -> list[tuple[str, int, int]]:
        """Every metro area and settlement: name, development level, capacity (for the projector)."""
        return [(s.name, state.level(k), s.levels) for k, s in self.board.spots.items() if not s.external]

    # -- the decisions open now -------------------------------------------------------------------
    def choices(self, state: AlleghenyState) -> list[Option]:
        if state.phase == "over":
            return []
        if state.auction is not None:
            return self._bid_options(state, state.auction)
        if state.phase == "turn":
            return self._turn_options(state)
        if state.phase == "build":
            return self._build_options(state)
        if state.phase == "develop":
            return self._develop_options(state)
        r = self.board.rules
        return [Option.of(f"To {self.board.name(k.other(r.ple_opens_at))}",
                          Choice("build", {"railroad": r.ple, "link": [k.a, k.b]}))
                for k in self._ple_links(state)]

    def likely_place(self, state: AlleghenyState) -> Location | None:
        """Where on the board the answer most likely is, so the board cursor starts there: while building, the
        end the next link is built from (the link nearest it under the cursor, the others round it)."""
        if state.phase == "build" and state.build_from:
            return Location(state.build_from)
        return None

    def arranged(self, state: AlleghenyState, options: Sequence[Option]) -> tuple[list[Option], int | None, int]:
        """The options as the buttons step through them, the one the cursor starts on (None: where a list starts)
        and how far LEFT and RIGHT step. :meth:`choices` keeps its own order (hers first), so what reads it (a
        seeded game, a typed decision) is unchanged. Nothing is taken without an OK.

        - A turn: laid out round the railroad she is likeliest to build for (hers, the one she built last first;
          :func:`companion.games.layout.laid_out`): it is under the cursor, the next four likeliest one press away
          (UP and DOWN one, LEFT and RIGHT a page), every other within two; "Develop locations" and "Other action"
          after the railroads, "End game" the farthest (a page turned never lands on it).
        - A build: on the board, the cursor on the link nearest the end the build goes on from
          (:meth:`likely_place`), "Done building" at that end, one arrow back from the link under the cursor
          (two where links from the end run close together; it ends her turn, so it is never under the cursor);
          in a list (one link left),
          "Done building" just under the links and "Other end" last."""
        if state.phase == "turn":
            return self._turn_laid_out(options)
        if state.phase == "build":  # the links (or ends) first, then Done building, then Other end
            after = {"done_building": 1, "build_back": 2}
            return sorted(options, key=lambda o: after.get(o.event.action, 0)), None, 1
        return list(options), None, 1

    @staticmethod
    def _turn_laid_out(options: Sequence[Option]) -> tuple[list[Option], int | None, int]:
        if not any(o.event.action == "build_track" for o in options):
            return list(options), None, 1
        order = ("build_track", "develop_locations", "other_action")
        ranked = sorted(options, key=lambda o: order.index(o.event.action) if o.event.action in order else len(order))
        jump = page(len(ranked))
        laid, start = laid_out(ranked, jump)
        return laid, start, jump

    def _bid_options(self, state: AlleghenyState, a: Auction) -> list[Option]:
        """Every bid from the least one allowed up, a dollar apart (the arrows step the amount; a larger bid is
        typed as a decision), then Pass when the bidder may pass."""
        r = self.board.rules
        least = bidding.lowest_bid(a, r)
        who = {"railroad": a.railroad, "player": a.bidder + 1}
        out = [Option.of(f"Bid ${amount}", Choice("bid", {**who, "amount": amount}))
               for amount in range(least, least + BID_CHOICES)]
        if not bidding.may_pass(a, r):
            out.append(Option.of("Pass", Choice("pass", who)))
        return out

    def _turn_options(self, state: AlleghenyState) -> list[Option]:
        """The railroads the player owns first (the one she built last at the top), then the others."""
        me = {"player": state.current + 1}
        open_ = [rr for rr in self.board.railroads if net.is_open(self.board, state, rr.key)]
        mine = {s.railroad for s in state.shares if s.seat == state.current}
        last = {t.railroad: i for i, t in enumerate(state.tracks)}
        open_.sort(key=lambda rr: (rr.key not in mine, -last.get(rr.key, -1) if rr.key in mine else 0))
        out = [Option.of(f"Build: {rr.name}", Choice("build_track", {**me, "railroad": rr.key})) for rr in open_]
        if net.developable(self.board, state):
            out.append(Option.of("Develop locations", Choice("develop_locations", me)))
        out.append(Option.of("Other action", Choice("other_action", me)))
        out.append(Option.of("End game", Choice("end_game", me)))
        return out

    def _build_options(self, state: AlleghenyState) -> list[Option]:
        rr = state.railroad
        if state.build_from:
            out = []
            for k in net.buildable_from(self.board, state, rr, state.build_from):
                other = self.board.spots[k.other(state.build_from)]
                extra = f" +${other.bonus}" if other.external else ""
                out.append(Option.of(f"To {other.name}{extra}", Choice("build", {"railroad": rr, "link": [k.a, k.b]})))
            out.append(Option.of("Other end", Choice("build_back")))
            if any(t.railroad == rr for t in state.tracks):  # a link built: the railroad may stop here
                # at the end the build goes on from (the links round it): an arrow back from the link under the
                # cursor
                out.append(Option.of("Done building", Choice("done_building"), Location(state.build_from),
                                     ends_turn=True))
            return out
        ends = [end for end in net.reach(self.board, state, rr) if net.buildable_from(self.board, state, rr, end)]
        link = self._newest_link(state, rr)
        newest = self._newest_end(state, rr, link)
        # Asked only when the newest end cannot build or "Other end" was picked: then another end is wanted first.
        ends.sort(key=lambda end: end == newest)
        out = [Option.of(f"From {self.board.name(end)}", Choice("build_from", {"location": end})) for end in ends]
        stopped = Location(link[1]) if link is not None and link[1] not in ends else None  # where the line stopped
        out.append(Option.of("Done building", Choice("done_building"), stopped, ends_turn=True))
        return out

    def _develop_options(self, state: AlleghenyState) -> list[Option]:
        r = self.board.rules
        keys = net.developable(self.board, state)
        if not state.first_developed:
            return [Option.of(self._level(state, k), Choice("develop", {"location": k})) for k in keys]
        target = net.automatic_target(self.board, state)
        auto = self.board.name(target) if target else "nothing"
        out = [Option.of(f"No 2nd: {auto}", Choice("no_second"))]
        out += [Option.of(f"${r.second_cost}: {self._level(state, k)}",
                          Choice("develop", {"location": k, "paid": r.second_cost}))
                for k in keys if r.second_same_location or k != state.first_developed]
        return out
