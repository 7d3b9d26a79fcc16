"""A stock's auction as pure steps: open it, take a bid or a pass, say who won.

The expansion's text fixes only which stocks are auctioned, in which order, and who bids first on the
P&LE; the rest is the base game's auction, whose details are data (``[auction]`` of maps/allegheny.toml):
the opening minimum, whether the opener must bid, and whether a pass leaves the auction for good.
"""

from __future__ import annotations

from dataclasses import replace

from companion.errors import RuleError
from companion.games.allegheny.data import Rules
from companion.games.allegheny.state import Auction


def open_auction(railroad: str, opener: int, players: int) -> Auction:
    """The auction of ``railroad``: the opener bids first, then the others clockwise."""
    return Auction(railroad, tuple((opener + i) % players for i in range(players)))


def lowest_bid(auction: Auction, rules: Rules) -> int:
    """The least a bid may be now: the opening minimum, or one more than the high bid."""
    return auction.high + 1 if auction.leader is not None else rules.minimum


def may_pass(auction: Auction, rules: Rules) -> str:
    """Why the bidder may not pass now, or "" when she may."""
    if auction.leader is None:
        if rules.opener_must_bid and auction.turn == 0 and not auction.passed:
            return "the player who opens the auction must bid"
        if len(auction.passed) == len(auction.order) - 1:
            return "nobody has bid yet and everyone else passed: the last one must bid"
    return ""


def _next_turn(auction: Auction) -> int:
    """The next seat clockwise still bidding (not passed, not holding the high bid)."""
    n = len(auction.order)
    for step in range(1, n + 1):
        i = (auction.turn + step) % n
        seat = auction.order[i]
        if seat not in auction.passed and seat != auction.leader:
            return i
    return auction.turn


def bid(auction: Auction, rules: Rules, amount: object) -> Auction:
    """The auction after the bidder bids ``amount``; a RuleError says why a bid is refused."""
    if isinstance(amount, bool) or not isinstance(amount, int):
        raise RuleError(f"amount: a bid is a whole number of dollars, got {amount!r}")
    least = lowest_bid(auction, rules)
    if amount < least:
        if auction.leader is not None:
            raise RuleError(f"a bid must beat the high bid of ${auction.high}: ${amount} is too low")
        raise RuleError(f"the opening bid is at least ${least}: ${amount} is too low")
    passed = auction.passed if rules.pass_mode == "out" else frozenset()
    after = replace(auction, high=amount, leader=auction.bidder, passed=passed)
    return replace(after, turn=_next_turn(after))


def pass_(auction: Auction, rules: Rules) -> Auction:
    """The auction after the bidder passes; a RuleError says why a pass is refused."""
    why = may_pass(auction, rules)
    if why:
        raise RuleError(f"no pass: {why}")
    after = replace(auction, passed=auction.passed | {auction.bidder})
    return replace(after, turn=_next_turn(after))


def winner(auction: Auction) -> int | None:
    """The seat that won: the high bidder once every other seat has passed on her bid."""
    if auction.leader is None:
        return None
    others = set(auction.order) - {auction.leader}
    return auction.leader if others <= auction.passed else None
