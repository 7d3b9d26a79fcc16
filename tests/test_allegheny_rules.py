"""Age of Rail: Allegheny through the engine: each rule sentence the box runs, cited in the test's docstring.

The helpers at the top (play an auction, the offering, a build) are shared with the session and data tests.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.dice import Choice, DiceRolled, event_from_dict, event_to_dict
from companion.errors import RuleError
from companion.games.allegheny import load
from companion.games.allegheny import network as net
from companion.games.allegheny.engine import AlleghenyGame
from companion.games.allegheny.state import AlleghenyState
from companion.games.base import replay
from companion.places import Link, Location

MAPS = Path(__file__).resolve().parent.parent / "maps"
def edited(tmp_path: Path, *pairs: tuple[str, str]) -> AlleghenyGame:
    """The engine over a copy of maps/allegheny.toml with each ``old`` text replaced by ``new``."""
    text = (MAPS / "allegheny.toml").read_text()
    for old, new in pairs:
        assert old in text, old
        text = text.replace(old, new, 1)
    (tmp_path / "allegheny.toml").write_text(text)
    return load(tmp_path)


def win(game: AlleghenyGame, state: AlleghenyState, seat: int, price: int) -> AlleghenyState:
    """Play the open auction so that ``seat`` (0-based) wins at ``price``: an opener who is not the winner
    opens at the minimum, the winner bids ``price``, everyone else passes."""
    railroad = state.auction.railroad if state.auction else ""
    while state.auction is not None and state.auction.railroad == railroad:
        a = state.auction
        if a.bidder == seat and a.leader != seat:
            event = Choice("bid", {"amount": price})
        elif a.leader is None and a.turn == 0:
            event = Choice("bid", {"amount": game.board.rules.minimum})
        else:
            event = Choice("pass")
        state = game.apply(state, event)
    return state


def offering(game: AlleghenyGame, players: int, winners: list[tuple[int, int]]) -> AlleghenyState:
    """A new game after the five opening auctions, auction k won by ``winners[k]`` = (seat, price)."""
    state = game.new_game({"players": players})
    for seat, price in winners:
        state = win(game, state, seat, price)
    return state


def build(game: AlleghenyGame, state: AlleghenyState, railroad: str, *links: tuple[str, str]) -> AlleghenyState:
    """The current player builds ``links`` for ``railroad`` (the build action stays open)."""
    if state.phase == "turn":
        state = game.apply(state, Choice("build_track", {"railroad": railroad}))
    for a, b in links:
        state = game.apply(state, Choice("build", {"link": [a, b]}))
    return state


def labels(game: AlleghenyGame, state: AlleghenyState) -> list[str]:
    return [o.label for o in game.choices(state)]


def pick(game: AlleghenyGame, state: AlleghenyState, label: str) -> AlleghenyState:
    """Apply the option whose label is ``label`` (as the buttons would)."""
    option = next(o for o in game.choices(state) if o.label == label)
    return game.apply(state, option.event)


STANDARD = [(0, 6), (1, 7), (2, 8), (3, 5), (2, 9)]
"""Four players: C&O to Player 1 for $6, B&O to Player 2 $7, NYC to Player 3 $8, B&M to Player 4 $5,
PRR to Player 3 $9 (so Player 3 plays first)."""


@pytest.fixture(scope="module")
def game() -> AlleghenyGame:
    return load(MAPS)


@pytest.fixture
def played(game: AlleghenyGame) -> AlleghenyState:
    return offering(game, 4, STANDARD)


def refused(game: AlleghenyGame, state: AlleghenyState, event: Choice, *words: str) -> str:
    """Apply ``event``, expect a one-line refusal containing ``words``, and the state left as it was."""
    before = state
    with pytest.raises(RuleError) as info:
        game.apply(state, event)
    message = str(info.value)
    assert "\n" not in message and all(w in message for w in words), message
    assert state == before
    return message


def to_pittsburgh(game: AlleghenyGame, state: AlleghenyState) -> AlleghenyState:
    """Player 3 (first player) builds the B&O Baltimore - Cumberland - Pittsburgh: the P&LE opens."""
    return build(game, state, "bo", ("baltimore", "cumberland"), ("cumberland", "pittsburgh"))


# -- the initial offering ---------------------------------------------------------------------------------

def test_the_five_stocks_are_auctioned_one_at_a_time_in_the_texts_order(game: AlleghenyGame) -> None:
    """"Initial Stocks are auctioned off one at a time, in the following order: Red C&O, blue B&O, Orange
    NYC, Yellow B&M, and Purple PRR." Each auction names the stock's colour and base city."""
    state = game.new_game({"players": 4})
    seen = []
    for seat, price in STANDARD:
        assert state.phase == "offering" and state.auction is not None
        seen.append(state.auction.railroad)
        text = game.prompt(state).text
        assert f"Initial offering {len(seen)} of 5" in text
        state = win(game, state, seat, price)
    assert seen == ["co", "bo", "nyc", "bm", "prr"]
    assert [(s.railroad, s.seat, s.price) for s in state.shares] == [
        ("co", 0, 6), ("bo", 1, 7), ("nyc", 2, 8), ("bm", 3, 5), ("prr", 2, 9)]
    assert state.phase == "turn"


@pytest.mark.parametrize(("k", "words"), [
    (0, "the C&O (red), base Richmond"), (1, "the B&O (blue), base Baltimore"),
    (2, "the NYC (orange), base New York"), (3, "the B&M (yellow), base Boston"),
    (4, "the PRR (purple), base Philadelphia")])
def test_each_stock_is_shown_with_its_colour_and_base(game: AlleghenyGame, k: int, words: str) -> None:
    """"Blue C&O's base is Richmond", "Red B&O's base is Baltimore", "Orange NYC's base is New York",
    "Yellow B&M's base is Boston", "Purple PRR's base is Philadelphia": the base as the text gives it, the
    colour as the data sets it (the shipped data reads the auction order's "Red C&O, blue B&O")."""
    state = offering(game, 4, STANDARD[:k])
    assert words in game.prompt(state).text


def test_the_colour_contradiction_is_data_shown_as_the_group_sets_it(tmp_path: Path) -> None:
    """The text says "Red C&O, blue B&O" and "Blue C&O ... Red B&O": the group's reading is what shows."""
    swapped = edited(tmp_path, ('colour = "red"        # the auction', 'colour = "blue"        # the auction'),
                     ('colour = "blue"       # the auction', 'colour = "red"       # the auction'))
    state = swapped.new_game({"players": 3})
    assert "the C&O (blue), base Richmond" in swapped.prompt(state).text
    state = win(swapped, state, 0, 3)
    assert "the B&O (red), base Baltimore" in swapped.prompt(state).text
    rows = {r["railroad"]: r for r in swapped.railroad_rows(state)}
    assert "C&O (blue)" in rows and rows["C&O (blue)"]["owner"] == "Player 1"
    colours = {r["key"]: r["colour"] for r in swapped.map_json()["railroads"]}
    assert colours["co"] == "blue" and colours["bo"] == "red"


def test_the_ple_is_not_offered_at_the_beginning(game: AlleghenyGame, played: AlleghenyState) -> None:
    """"The Black P&LE railroad is not opened at the beginning of the game.\""""
    state = game.new_game({"players": 4})
    refused(game, state, Choice("bid", {"railroad": "ple", "amount": 5}), "P&LE", "not offered now",
            "reaches Pittsburgh")
    assert "ple" not in {s.railroad for s in played.shares}
    assert "Build: P&LE" not in labels(game, played)
    refused(game, played, Choice("build_track", {"railroad": "ple"}), "P&LE has not opened")


def test_the_prr_owner_plays_first_then_clockwise(game: AlleghenyGame, played: AlleghenyState) -> None:
    """"The first player is the player who owns the Purple PRR stock, then play continues clockwise around
    the table until the end of the game.\""""
    assert played.current == 2 and "Player 3 owns the PRR: first player" in game.recap(played)
    assert game.prompt(played).short == "Player 3: action"
    seats = []
    state = played
    for _ in range(5):
        state = game.apply(state, Choice("other_action"))
        seats.append(state.current)
    assert seats == [3, 0, 1, 2, 3]
    refused(game, state, Choice("other_action", {"player": 1}), "Player 4's turn", "not Player 1's")


def test_any_legal_bid_is_offered_a_dollar_apart_then_pass(game: AlleghenyGame) -> None:
    """Bids from the buttons: every amount from the least allowed up, a dollar apart (the arrows step the
    amount: $4 over a high bid of $1 is three presses), then "Pass", for the player whose bid it is (the opener
    first: she may not pass before a bid, the data's reading of the base game's auction)."""
    state = game.new_game({"players": 4})
    assert labels(game, state)[:3] == ["Bid $1", "Bid $2", "Bid $3"] and "Pass" not in labels(game, state)
    assert game.prompt(state).short == "Player 1: C&O bid"
    state = game.apply(state, Choice("bid", {"amount": 6}))
    assert state.auction is not None and state.auction.bidder == 1
    assert labels(game, state)[:2] == ["Bid $7", "Bid $8"] and labels(game, state)[-1] == "Pass"
    state = pick(game, state, "Bid $11")
    assert (state.auction.high, state.auction.leader, state.auction.bidder) == (11, 1, 2)
    assert game.choices(state)[0].event == Choice("bid", {"railroad": "co", "player": 3, "amount": 12})
    assert game.recap(state) == ("Player 2 bids $11 for the C&O",)


def test_a_typed_bid_is_any_amount_above_the_high_bid(game: AlleghenyGame) -> None:
    """Bids may be typed: any whole amount above the high bid; a bid below it is refused, nothing changes."""
    state = game.apply(game.new_game({"players": 3}), Choice("bid", {"railroad": "co", "player": 1, "amount": 6}))
    refused(game, state, Choice("bid", {"amount": 5}), "beat the high bid of $6", "$5 is too low")
    refused(game, state, Choice("bid", {"amount": 6}), "beat the high bid of $6")
    refused(game, state, Choice("bid", {"amount": "lots"}), "whole number of dollars")
    refused(game, state, Choice("bid", {"player": 3, "amount": 20}), "Player 2's bid", "not Player 3's")
    refused(game, state, Choice("bid", {"railroad": "bo", "amount": 20}), "auction under way is the C&O's")
    state = game.apply(state, Choice("bid", {"amount": 23}))
    assert state.auction.high == 23 and state.auction.leader == 1


def test_the_winner_and_price_are_journaled(game: AlleghenyGame) -> None:
    """The winner and the price are in the journal's events and said on the screens; the price goes to the
    railroad's treasury."""
    events = [Choice("bid", {"amount": 4}), Choice("bid", {"amount": 9}), Choice("pass"), Choice("pass")]
    state = replay(game, {"players": 3}, events)
    assert state.shares[0].railroad == "co" and state.shares[0].seat == 1 and state.shares[0].price == 9
    assert game.recap(state)[0] == "Player 2 wins the C&O for $9" and game.recap(state)[-1] == "$9 to the C&O treasury"
    assert state.auction is not None and state.auction.railroad == "bo"


def test_a_pass_leaves_the_auction_and_the_order_is_clockwise(game: AlleghenyGame) -> None:
    """The auction goes clockwise from its opener; with ``pass = "out"`` a player who passed is asked no more."""
    state = game.new_game({"players": 4})
    order = []
    for event in [Choice("bid", {"amount": 2}), Choice("pass"), Choice("bid", {"amount": 3}), Choice("pass")]:
        order.append(state.auction.bidder)
        state = game.apply(state, event)
    order.append(state.auction.bidder)
    state = game.apply(state, Choice("bid", {"amount": 4}))
    order.append(state.auction.bidder)
    assert order == [0, 1, 2, 3, 0, 2]  # Player 2 and Player 4 passed: skipped
    state = game.apply(state, Choice("pass"))
    assert state.shares[0] == type(state.shares[0])("co", 0, 4)


def test_the_opener_must_bid_and_the_last_one_cannot_pass_on_nothing(game: AlleghenyGame, tmp_path: Path) -> None:
    """The data's reading (``auction.opener_must_bid``): the opener may not pass before a bid. With it off,
    the others may pass, but the last one in must bid: a stock is always sold."""
    state = game.new_game({"players": 3})
    refused(game, state, Choice("pass"), "no pass", "must bid")
    free = edited(tmp_path, ("opener_must_bid = true", "opener_must_bid = false"))
    state = free.apply(free.apply(free.new_game({"players": 3}), Choice("pass")), Choice("pass"))
    assert labels(free, state)[:2] == ["Bid $1", "Bid $2"] and "Pass" not in labels(free, state)
    refused(free, state, Choice("pass"), "the last one must bid")


def test_pass_again_reading_lets_a_passer_bid_after_a_higher_bid(tmp_path: Path) -> None:
    """The data's other reading (``auction.pass = "again"``): a pass holds only until the next bid."""
    again = edited(tmp_path, ('pass = "out"', 'pass = "again"'))
    state = again.new_game({"players": 3})
    for event in [Choice("bid", {"amount": 2}), Choice("pass"), Choice("bid", {"amount": 3})]:
        state = again.apply(state, event)
    assert state.auction.bidder == 0
    state = again.apply(state, Choice("bid", {"amount": 4}))
    assert state.auction.bidder == 1  # Player 2 passed before, asked again after the new bid
    state = again.apply(again.apply(state, Choice("pass")), Choice("pass"))
    assert state.shares[0].seat == 0 and state.shares[0].price == 4


@pytest.mark.parametrize(("how", "openers"), [("rotate", [0, 1, 2, 3, 0]), ("seat1", [0, 0, 0, 0, 0]),
                                               ("after_winner", [0, 1, 2, 3, 0])])
def test_who_opens_each_auction_is_the_datas_reading(tmp_path: Path, how: str, openers: list[int]) -> None:
    """Not in the expansion's text: who opens each opening auction (``initial_offering.first_bidder``)."""
    variant = edited(tmp_path, ('first_bidder = "rotate"', f'first_bidder = "{how}"'))
    state = variant.new_game({"players": 4})
    seen = []
    for seat, price in STANDARD:
        seen.append(state.auction.bidder)
        state = win(variant, state, seat, price)
    assert seen == openers


def test_a_sixth_opening_auction_is_refused(game: AlleghenyGame, played: AlleghenyState) -> None:
    """Five stocks in the initial offering, then none: a bid on a sold stock is refused, nothing changes."""
    refused(game, played, Choice("bid", {"railroad": "prr", "amount": 30}), "PRR was auctioned already",
            "Player 3 won it for $9")
    refused(game, played, Choice("bid", {"amount": 30}), "no auction is under way")


def test_the_player_count_is_the_datas(game: AlleghenyGame) -> None:
    """"3-6 players": asked before the game, refused outside the data's counts."""
    assert game.setup_questions()[0].values == (3, 4, 5, 6)
    with pytest.raises(RuleError, match="players: Allegheny is for 3, 4, 5, 6 players, got 2"):
        game.new_game({"players": 2})


def test_dice_are_not_taken(game: AlleghenyGame) -> None:
    """The box asks for decisions only: a roll is refused with what it waits for."""
    refused(game, game.new_game({"players": 3}), DiceRolled.of(("d6", 3)), "Player 1's bid on the C&O")


# -- building track ----------------------------------------------------------------------------------------

def test_no_double_track_link_into_and_out_of_pittsburgh(game: AlleghenyGame, played: AlleghenyState) -> None:
    """"A railroad may not build a double Track Link going into and out of Pittsburgh." (The data's reading:
    a link with an end at Pittsburgh carries one track only; elsewhere a link takes two.)"""
    state = to_pittsburgh(game, played)
    state = win(game, state, 3, 4)
    state = game.apply(state, Choice("build", {"link": ["pittsburgh", "erie"]}))
    state = game.apply(state, Choice("done_building"))
    state = build(game, state, "prr", ("philadelphia", "baltimore"), ("baltimore", "cumberland"))
    assert len(state.tracks_on(Link("baltimore", "cumberland"))) == 2  # a double track link elsewhere
    message = refused(game, state, Choice("build", {"link": ["cumberland", "pittsburgh"]}),
                      "no double track link into and out of Pittsburgh", "the B&O has a track")
    assert message.count(":") == 1
    state = game.apply(state, Choice("build_from", {"location": "cumberland"}))
    assert "To Pittsburgh" not in labels(game, state) and "To Wheeling" in labels(game, state)


def test_a_railroad_builds_from_where_it_reaches(game: AlleghenyGame, played: AlleghenyState) -> None:
    """The data's reading (``track.from_network``): a link starts at the base or an end of the railroad's links."""
    state = build(game, played, "nyc")
    refused(game, state, Choice("build", {"link": ["erie", "cleveland"]}), "NYC reaches neither Cleveland nor Erie")
    refused(game, state, Choice("build", {"link": ["new_york", "boston"]}), "no link Boston - New York on the map")
    refused(game, state, Choice("build", {"link": ["new_york", "atlantis"]}), "unknown location 'atlantis'")
    refused(game, state, Choice("build", {"railroad": "co", "link": ["new_york", "albany"]}), "NYC is building")
    state = game.apply(state, Choice("build", {"link": ["new_york", "albany"]}))
    refused(game, state, Choice("build", {"link": ["albany", "new_york"]}),
            "NYC has the link Albany - New York already")


def test_the_build_menu_picks_the_end_then_the_link(game: AlleghenyGame, played: AlleghenyState) -> None:
    """A short list: the links from the railroad's end; the end is asked only when there is a choice (the end of
    its newest link first, when it can build there: a build goes on from where it stopped)."""
    state = build(game, played, "co")
    assert state.build_from == "richmond"
    assert game.recap(state)[0].endswith("builds for the C&O from Richmond")  # its base, the only end
    assert labels(game, state) == ["To Baltimore", "To Lynchburg", "To The South +$4", "Other end"]
    state = pick(game, state, "Other end")
    assert labels(game, state) == ["From Richmond", "Done building"]
    assert game.choices(state)[0].place == Location("richmond")
    state = pick(game, state, "From Richmond")
    assert labels(game, state) == ["To Baltimore", "To Lynchburg", "To The South +$4", "Other end"]
    assert game.choices(state)[0].place == Link("richmond", "baltimore")
    state = pick(game, state, "To Lynchburg")
    # the next link starts from the new end, and the recap says which
    assert state.build_from == "lynchburg" and "Next link from Lynchburg (the new end)" in game.recap(state)
    assert labels(game, state)[-2:] == ["Other end", "Done building"]
    assert all(x.startswith("To ") for x in labels(game, state)[:-2])
    state = pick(game, state, "Other end")
    assert labels(game, state) == ["From Richmond", "From Lynchburg", "Done building"]  # the other end first
    state = pick(game, pick(game, state, "From Lynchburg"), "Other end")
    assert state.build_from == "" and state.phase == "build"
    state = pick(game, state, "Done building")
    assert state.phase == "turn" and state.current == 3
    # the C&O's next build starts at the end of its newest link, Lynchburg, without asking
    state = game.apply(state, Choice("other_action"))
    while state.current != 2:
        state = game.apply(state, Choice("other_action"))
    state = build(game, state, "co")
    assert state.build_from == "lynchburg" and labels(game, state)[0].startswith("To ")


def test_an_external_connection_pays_its_bonus_and_adds_no_value(game: AlleghenyGame,
                                                                 played: AlleghenyState) -> None:
    """"The External Connections on the Allegheny map only pay out the Connection Bonus and do not increase
    the railroad's Value.\""""
    state = build(game, played, "co")
    before = net.value(game.board, state, "co")
    state = game.apply(state, Choice("build", {"link": ["richmond", "the_south"]}))
    assert "The South bonus: $4 to the C&O treasury, no value added" in game.recap(state)
    assert net.value(game.board, state, "co") == before
    assert ("co", "the_south") in state.bonuses
    state = game.apply(state, Choice("build", {"link": ["richmond", "lynchburg"]}))
    state = game.apply(state, Choice("build", {"link": ["lynchburg", "the_south"]}))
    assert "The South: bonus paid already, no value added" in game.recap(state)
    assert net.value(game.board, state, "co") == before + 1  # Lynchburg only


def test_who_is_paid_the_bonus_is_the_datas_reading(tmp_path: Path) -> None:
    """Not in the text: the bonus to the builder's player (``external.paid_to``), once per map
    (``external.paid = "first_railroad"``)."""
    variant = edited(tmp_path, ('paid_to = "treasury"', 'paid_to = "player"'),
                     ('paid = "each_railroad"', 'paid = "first_railroad"'))
    state = offering(variant, 4, STANDARD)
    state = build(variant, state, "co", ("richmond", "the_south"))
    assert "The South bonus: $4 to Player 1, no value added" in variant.recap(state)
    state = build(variant, state, "co", ("richmond", "lynchburg"), ("lynchburg", "the_south"))
    assert "The South: bonus paid already, no value added" in variant.recap(state)


# -- the P&LE ----------------------------------------------------------------------------------------------

def test_reaching_pittsburgh_opens_the_ple_auction(game: AlleghenyGame, played: AlleghenyState) -> None:
    """"When a railroad reaches Pittsburgh, the Black P&LE railroad opens and a share of P&LE stock is
    immediately put up for auction, following the rules of the Initial Offering. The first bid is offered by
    the player whose turn has made the connection.\""""
    state = build(game, played, "bo", ("baltimore", "cumberland"))
    assert state.phase == "build"
    state = game.apply(state, Choice("build", {"link": ["cumberland", "pittsburgh"]}))
    assert state.phase == "ple_auction" and state.auction is not None and state.auction.railroad == "ple"
    assert state.auction.bidder == played.current == 2
    assert state.auction.order == (2, 3, 0, 1)
    assert "The P&LE opens: auction, Player 3 first" in game.recap(state)
    assert game.prompt(state).text.startswith("The P&LE (black) opens")
    assert labels(game, state)[:2] == ["Bid $1", "Bid $2"]
    refused(game, state, Choice("build", {"link": ["cumberland", "wheeling"]}), "Player 3's bid on the P&LE")
    refused(game, state, Choice("pass"), "must bid")


def test_the_winner_pays_and_builds_one_free_link_from_pittsburgh(game: AlleghenyGame,
                                                                  played: AlleghenyState) -> None:
    """"Once a player has won the bid, paid the Treasury, and taken their share of P&LE stock, they must
    build, at no cost, one Track Link from Pittsburgh. The P&LE's Income disk is also updated on the Railroad
    Income Track.\""""
    state = win(game, to_pittsburgh(game, played), 0, 6)
    assert state.phase == "ple_link" and state.ple_open
    assert state.owner("ple") is not None and (state.owner("ple").seat, state.owner("ple").price) == (0, 6)
    assert "$6 to the P&LE treasury" in game.recap(state)
    assert labels(game, state) == ["To Altoona", "To Erie", "To Wheeling", "To Youngstown"]
    assert game.prompt(state).text == "Player 1 builds the P&LE's free link from Pittsburgh"
    refused(game, state, Choice("build", {"link": ["cumberland", "wheeling"]}), "starts from Pittsburgh")
    refused(game, state, Choice("build", {"link": ["cumberland", "pittsburgh"]}), "no double track link")
    refused(game, state, Choice("done_building"), "unknown action")
    refused(game, state, Choice("build", {"player": 3, "link": ["pittsburgh", "erie"]}), "Player 1 won the P&LE")
    state = pick(game, state, "To Erie")
    assert state.tracks[-1].railroad == "ple" and state.tracks[-1].free
    assert "P&LE: Pittsburgh - Erie (free)" in game.recap(state)
    ple = next(r for r in game.railroad_rows(state) if r["railroad"] == "P&LE (black)")
    assert (ple["value"], ple["income"], ple["owner"], ple["price"]) == (3, 0, "Player 1", 6)
    assert "P&LE income $0 (value 3)" in game.recap(state)
    assert state.phase == "build" and state.railroad == "bo" and state.current == 2  # the build goes on
    assert "Build: P&LE" in labels(game, game.apply(state, Choice("done_building")))


def test_the_ple_income_disk_follows_the_datas_track(tmp_path: Path) -> None:
    """The income disk is read off the data's income track by the P&LE's value after its free link."""
    variant = edited(tmp_path, ("track = [[0, 0], [6, 1]", "track = [[0, 0], [3, 1]"))
    state = win(variant, to_pittsburgh(variant, offering(variant, 4, STANDARD)), 1, 2)
    state = variant.apply(state, Choice("build", {"link": ["pittsburgh", "erie"]}))
    assert "P&LE income $1 (value 3)" in variant.recap(state)


def test_the_ple_opens_once_only(game: AlleghenyGame, played: AlleghenyState) -> None:
    """The P&LE opens when a railroad reaches Pittsburgh: once. A second railroad reaching it opens nothing,
    and a sixth opening auction is refused with nothing changed."""
    state = win(game, to_pittsburgh(game, played), 0, 6)
    state = game.apply(game.apply(state, Choice("build", {"link": ["pittsburgh", "erie"]})),
                       Choice("done_building"))
    state = build(game, state, "prr", ("philadelphia", "harrisburg"), ("harrisburg", "altoona"),
                  ("altoona", "pittsburgh"))
    assert state.phase == "build" and state.auction is None
    assert len(state.shares) == 6
    refused(game, state, Choice("bid", {"railroad": "ple", "amount": 10}), "P&LE was auctioned already",
            "Player 1 won it for $6", "it opens once")
    refused(game, state, Choice("pass", {"railroad": "ple"}), "auctioned already")


def test_the_ple_itself_does_not_reopen(game: AlleghenyGame, played: AlleghenyState) -> None:
    """The P&LE's own links at Pittsburgh open nothing (it is open)."""
    state = win(game, to_pittsburgh(game, played), 1, 3)
    state = game.apply(state, Choice("build", {"link": ["pittsburgh", "wheeling"]}))
    state = game.apply(build(game, game.apply(state, Choice("done_building")), "ple"),
                       Choice("build", {"link": ["pittsburgh", "youngstown"]}))
    assert state.phase == "build" and len(state.shares) == 6


def test_the_ple_waits_for_the_first_railroad_to_reach_pittsburgh(tmp_path: Path) -> None:
    """Where the P&LE opens is the data's (``ple.opens_at``), not a name in the code."""
    variant = edited(tmp_path, ('opens_at = "pittsburgh"', 'opens_at = "cumberland"'))
    state = build(variant, offering(variant, 4, STANDARD), "bo", ("baltimore", "cumberland"))
    assert state.phase == "ple_auction"


# -- developing locations ----------------------------------------------------------------------------------

def develop(game: AlleghenyGame, state: AlleghenyState, first: str) -> AlleghenyState:
    state = game.apply(state, Choice("develop_locations"))
    return game.apply(state, Choice("develop", {"location": first}))


def test_at_least_one_location_is_developed(game: AlleghenyGame, played: AlleghenyState) -> None:
    """"The player selecting this action must Develop at least one Location (a Settlement or a Metro Area).\""""
    state = game.apply(played, Choice("develop_locations"))
    refused(game, state, Choice("no_second"), "develop at least one location first")
    assert "No 2nd" not in " ".join(labels(game, state))
    assert labels(game, state)[0] == "Baltimore 0/3"


def test_a_location_needs_a_railroad_connection(game: AlleghenyGame, played: AlleghenyState) -> None:
    """"Both may only be developed if a railroad connects to them." (Bases count as connected: the data's
    ``develop.base_connected``.)"""
    state = game.apply(played, Choice("develop_locations"))
    refused(game, state, Choice("develop", {"location": "cleveland"}), "no railroad connects to Cleveland")
    refused(game, state, Choice("develop", {"location": "montreal"}), "Montreal is an external connection")
    refused(game, state, Choice("develop", {"location": "pittsburgh"}), "no railroad connects to Pittsburgh")
    names = labels(game, state)
    assert "Cleveland 0/1" not in names and "Pittsburgh 0/2" not in names
    state = game.apply(state, Choice("develop", {"location": "boston"}))
    refused(game, state, Choice("develop", {"location": "cleveland", "paid": 3}), "no railroad connects")


def test_without_the_base_reading_a_base_needs_a_link(tmp_path: Path) -> None:
    """With ``develop.base_connected = false`` only the ends of links count as connected."""
    variant = edited(tmp_path, ("base_connected = true\n", "base_connected = false\n"))
    state = offering(variant, 4, STANDARD)
    refused(variant, state, Choice("develop_locations"), "no location with a railroad connection")
    state = build(variant, state, "co", ("richmond", "lynchburg"))
    state = variant.apply(variant.apply(state, Choice("done_building")), Choice("develop_locations"))
    assert labels(variant, state) == ["Lynchburg 0/1", "Richmond 0/3"]


def test_the_first_is_free_the_second_costs_three_to_the_bank(game: AlleghenyGame,
                                                              played: AlleghenyState) -> None:
    """"Up to two Locations may be developed. The first development is free. The second development costs $3
    from the player's personal money supply and is paid to the bank.\""""
    state = game.apply(played, Choice("develop_locations"))
    refused(game, state, Choice("develop", {"location": "boston", "paid": 3}), "the first development is free")
    state = game.apply(state, Choice("develop", {"location": "boston"}))
    assert state.level("boston") == 1 and game.recap(state) == ("Player 3 develops Boston (free)", "Boston 1/3")
    assert labels(game, state)[:2] == ["No 2nd: Pittsburgh", "$3: Baltimore 0/3"]
    refused(game, state, Choice("develop", {"location": "new_york"}), "costs $3 to the bank", "note it as paid")
    refused(game, state, Choice("develop", {"location": "new_york", "paid": 2}), "costs $3")
    state = game.apply(state, Choice("develop", {"location": "new_york", "paid": 3}))
    assert state.level("new_york") == 1 and state.level("pittsburgh") == 0  # no automatic development
    assert state.phase == "turn" and state.current == 3
    assert game.recap(state)[0] == "Player 3 pays $3: New York 1/3"


def test_the_second_may_be_the_same_location_as_the_data_reads(game: AlleghenyGame, played: AlleghenyState,
                                                               tmp_path: Path) -> None:
    """Not in the text: whether the second development may be the first's location
    (``develop.second_same_location``)."""
    state = game.apply(develop(game, played, "boston"), Choice("develop", {"location": "boston", "paid": 3}))
    assert state.level("boston") == 2
    strict = edited(tmp_path, ("second_same_location = true", "second_same_location = false"))
    state = develop(strict, offering(strict, 4, STANDARD), "boston")
    assert "$3: Boston 1/3" not in labels(strict, state)
    refused(strict, state, Choice("develop", {"location": "boston", "paid": 3}), "the second is another location")


def test_declining_the_second_develops_a_metro_automatically(game: AlleghenyGame,
                                                            played: AlleghenyState) -> None:
    """"If the player chooses not to develop a second time, then an automatic Metro development immediately
    occurs. It is not required to have a railroad connect to the Metro area for the automatic Metro
    development to occur.\""""
    assert not net.anyone_connects(game.board, played, "pittsburgh")
    state = game.apply(develop(game, played, "boston"), Choice("no_second"))
    assert state.level("pittsburgh") == 1
    assert game.recap(state) == ("Automatic: Pittsburgh 1/2", "Player 4's turn")
    assert state.phase == "turn" and state.current == 3


def test_the_automatic_metro_order(game: AlleghenyGame, played: AlleghenyState) -> None:
    """"Pittsburgh is developed first. If Pittsburgh is already fully developed, then Cincinnati is developed.
    If Cincinnati is already fully developed, then Detroit is developed. If Detroit is already fully developed,
    then Chicago is developed. If Chicago is already fully developed, then nothing happens.\""""
    state = played
    said = []
    bases = ["richmond", "baltimore", "new_york", "boston", "philadelphia"] * 3
    for first in bases[:9]:
        state = game.apply(develop(game, state, first), Choice("no_second"))
        said.append(game.recap(state)[0])
    assert said == ["Automatic: Pittsburgh 1/2", "Automatic: Pittsburgh 2/2", "Automatic: Cincinnati 1/2",
                    "Automatic: Cincinnati 2/2", "Automatic: Detroit 1/2", "Automatic: Detroit 2/2",
                    "Automatic: Chicago 1/2", "Automatic: Chicago 2/2",
                    "Automatic: every metro is full, nothing happens"]
    assert [state.level(k) for k in ("pittsburgh", "cincinnati", "detroit", "chicago")] == [2, 2, 2, 2]


def test_capacities_are_data(tmp_path: Path) -> None:
    """How many developments make a metro "fully developed" is not in the text: ``levels`` in the data."""
    variant = edited(tmp_path, ('key = "pittsburgh"\nname = "Pittsburgh"\nkind = "metro"\nx = 80\ny = 55\n'
                                'levels = 2\nvalues = [2, 4, 6]',
                                'key = "pittsburgh"\nname = "Pittsburgh"\nkind = "metro"\nx = 80\ny = 55\n'
                                'levels = 1\nvalues = [2, 4]'))
    state = offering(variant, 4, STANDARD)
    state = variant.apply(develop(variant, state, "boston"), Choice("no_second"))
    state = variant.apply(develop(variant, state, "boston"), Choice("no_second"))
    assert state.level("pittsburgh") == 1 and state.level("cincinnati") == 1


def test_the_next_automatic_target_is_shown(game: AlleghenyGame, played: AlleghenyState) -> None:
    """The projector shows the development levels and the next automatic target."""
    assert game.status(played) == "Player 3's turn - auto: Pittsburgh 0/2"
    state = develop(game, played, "boston")
    assert "next automatic metro: Pittsburgh 0/2" in game.prompt(state).text
    state = game.apply(state, Choice("no_second"))
    assert game.status(state) == "Player 4's turn - auto: Pittsburgh 1/2"
    rows = {name: (level, cap) for name, level, cap in game.development_rows(state)}
    assert rows["Pittsburgh"] == (1, 2) and rows["Boston"] == (1, 3) and "Montreal" not in rows


def test_two_developments_at_most(game: AlleghenyGame, played: AlleghenyState) -> None:
    """Up to two: after the second the turn passes; a third is refused with nothing changed."""
    state = game.apply(develop(game, played, "boston"), Choice("develop", {"location": "boston", "paid": 3}))
    refused(game, state, Choice("develop", {"location": "boston", "paid": 3}), "unknown action 'develop'")


# -- railroad value and income -----------------------------------------------------------------------------

def test_value_and_income_per_railroad(game: AlleghenyGame, played: AlleghenyState) -> None:
    """A railroad's value: its connected locations' values at their levels (data); its income read off the
    data's track; both on the side panel per railroad."""
    state = build(game, played, "nyc", ("new_york", "albany"), ("albany", "montreal"), ("new_york", "scranton"))
    assert net.value(game.board, state, "nyc") == 3 + 1 + 1  # New York 3, Albany 1, Scranton 1; Montreal 0
    state = game.apply(game.apply(state, Choice("done_building")), Choice("develop_locations"))
    state = game.apply(game.apply(state, Choice("develop", {"location": "new_york"})),
                       Choice("develop", {"location": "albany", "paid": 3}))
    rows = {r["railroad"]: r for r in game.railroad_rows(state)}
    assert rows["NYC (orange)"] == {"railroad": "NYC (orange)", "base": "New York", "owner": "Player 3",
                                    "price": 8, "value": 7, "income": 1}
    assert rows["P&LE (black)"]["owner"] == "" and rows["P&LE (black)"]["value"] is None


def test_end_game(game: AlleghenyGame, played: AlleghenyState) -> None:
    """The table ends the game when the base game says so; then nothing more is taken."""
    state = game.apply(played, Choice("end_game"))
    assert game.prompt(state).done and game.choices(state) == []
    refused(game, state, Choice("other_action"), "the game is over")


def test_replay_is_the_fold(game: AlleghenyGame) -> None:
    """The game is a fold over its journal: the options' events, through JSON and back, give the same state
    (every decision's arguments are JSON values)."""
    state = game.new_game({"players": 4})
    events = []
    for _ in range(60):
        options = [o for o in game.choices(state) if o.label != "End game"]
        if options[0].label.startswith("Bid $"):  # one bid of each seat's, then the passes
            options = [options[0], options[-1]]
        event = options[len(events) % len(options)].event
        events.append(event)
        state = game.apply(state, event)
    assert state.phase != "offering" and state.tracks
    again = replay(game, {"players": 4}, [event_from_dict(json.loads(json.dumps(event_to_dict(e)))) for e in events])
    assert again == state


def test_no_free_link_when_none_can_be_built_from_pittsburgh(tmp_path: Path) -> None:
    """A copied map where Pittsburgh's only link is the one that reached it: the P&LE's free link cannot be
    built, the box says so and the build goes on (rather than waiting for a link that does not exist)."""
    variant = edited(tmp_path, ('["altoona", "pittsburgh"]', '["altoona", "cumberland"]'),
                     ('["erie", "pittsburgh"]', '["erie", "youngstown"]'),
                     ('["pittsburgh", "wheeling"], ["pittsburgh", "youngstown"],', ""))
    state = win(variant, to_pittsburgh(variant, offering(variant, 4, STANDARD)), 1, 2)
    assert state.phase == "build" and state.ple_open and state.railroad == "bo"
    assert game_said(variant, state, "no free link from Pittsburgh can be built")


def game_said(game: AlleghenyGame, state: AlleghenyState, line: str) -> bool:
    return line in game.recap(state)
