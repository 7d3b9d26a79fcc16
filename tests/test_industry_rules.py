"""Age of Industry, Japan and Minnesota: each rule sentence the box keeps, through the engine.

Each test cites the sentence of the expansion's text (or of the issue) it checks. A refused entry raises a
one-line RuleError and, states being immutable, leaves the game as it was.
"""

from __future__ import annotations

import pytest

from companion.dice import Choice, Shuffled
from companion.errors import RuleError
from companion.games import load_game
from companion.games.industry import ledger
from companion.games.industry.state import IndustryState

GAME = load_game("industry")
SIX = ("coal", "cotton", "at:osaka", "ship", "iron", "goods")


def do(state: IndustryState, action: str, **args) -> IndustryState:
    return GAME.apply(state, Choice(action, args))


def refused(state: IndustryState, action: str, reason: str, **args) -> None:
    with pytest.raises(RuleError) as err:
        do(state, action, **args)
    assert reason in str(err.value), str(err.value)
    assert "\n" not in str(err.value)


def japan(players: int = 3, cards=SIX) -> IndustryState:
    state = GAME.new_game({"map": "Japan", "players": players})
    for card in cards:
        state = do(state, "deal", card=card)
    return state


def minnesota(players: int = 3) -> IndustryState:
    return GAME.new_game({"map": "Minnesota", "players": players})


def build(state, location, kind, owner):
    return do(state, "industry", location=location, kind=kind, owner=owner)


def rail(state, a, b, owner):
    return do(state, "link", **{"from": a, "to": b, "owner": owner})


def value(state, a, b):
    return ledger.link_value(GAME.board(state), GAME.rules, state, ledger.Link(a, b))[0]


# -- setup --------------------------------------------------------------------------------------------


def test_the_map_is_chosen_at_setup_and_hands_come_out_of_the_deck():
    """Second edition, point 1: "You now start the game with six cards each, irrelevant of the number of
    players"; the two maps are two boards of one package, chosen by the setup question "map"."""
    for players in (2, 5):
        state = GAME.new_game({"map": "Japan", "players": players})
        assert state.deck == len(GAME.boards["Japan"].deck) - 6 * players
    state = GAME.new_game({"map": "minnesota", "players": 4})
    assert state.map == "Minnesota" and state.players == ("Red", "Blue", "Green", "Yellow")
    assert state.deck == len(GAME.boards["Minnesota"].deck) - 6 * 4 - 2  # the standard two beside the board
    with pytest.raises(RuleError, match="map: expected one of Japan, Minnesota, got 'Kansas'"):
        GAME.new_game({"map": "Kansas"})
    with pytest.raises(RuleError, match=r"players: Age of Industry is for 2\.\.5 players"):
        GAME.new_game({"map": "Japan", "players": 6})


# -- the Japan card display ---------------------------------------------------------------------------


def test_six_cards_are_dealt_face_up_at_the_start_and_each_lowers_the_deck():
    """"At the start of the game place six cards face up in the spaces indicated on the card display.\""""
    start = GAME.new_game({"map": "Japan", "players": 3})
    assert start.phase == "deal" and GAME.prompt(start).short == "Space 1: which card?"
    labels = [o.label for o in GAME.choices(start)]
    # the most numerous in the deck first: 28 location cards, then 6 cotton mills and 6 goods, ...
    assert labels == ["Location card", "Cotton mill", "Manufactured goods", "Coal mine", "Ironworks", "Port", "Ship"]
    state = japan()
    assert state.phase == "play" and state.deck == start.deck - 6
    assert [s.card for s in state.display] == list(SIX)
    with pytest.raises(RuleError, match="no card 'steam'"):
        do(start, "deal", card="steam")


def test_a_card_taken_free_or_paid_marks_its_space():
    """"You can choose to take cards from here if you choose the Take Cards action, at no cost. Alternatively, you
    can pay the amount marked under the space to take a card and use it immediately.\""""
    state = do(japan(), "card", space=1, how="free", player="Blue")
    assert state.display[1].taken == "Blue free" and state.recent == ("Blue takes Cotton mill from space 2: free "
                                                                      "(Take Cards)",)
    state = do(state, "card", space=4, how="paid", player="Red")
    assert state.recent == ("Red takes Ironworks from space 5: pay $5",)
    refused(state, "card", "the card in space 2 is taken already (Blue)", space=1, how="paid", player="Red")
    assert [o.label for o in GAME.choices(do(state, "card"))][:2] == ["1 $1 Coal mine", "3 $3 Osaka"]


def test_the_display_is_not_refilled_until_the_end_of_the_turn_then_slides_and_is_refilled():
    """"Do not refill the display until the end of the turn. At the end of the turn remove any coal or ironworks
    cards and place in the discard pile. Then move all of the remaining cards to the lower value spaces, retaining
    their relative positions. Then refill the display to six cards, if possible.\""""
    state = do(do(japan(), "card", space=1, how="free", player="Blue"), "card", space=5, how="paid", player="Red")
    assert state.phase == "play" and [s.card for s in state.display] == list(SIX)  # not refilled yet
    deck = state.deck
    state = do(state, "end_turn")
    assert state.turn == 2 and state.phase == "deal"
    assert [s.card for s in state.display] == ["at:osaka", "ship", "", "", "", ""]
    assert "Discarded: Coal mine, Ironworks" in state.recent
    assert GAME.prompt(state).short == "Space 3: which card?"
    for card in ("port", "coal", "cotton", "at:kobe"):
        state = do(state, "deal", card=card)
    assert state.phase == "play" and state.deck == deck - 4
    assert [s.card for s in state.display] == ["at:osaka", "ship", "port", "coal", "cotton", "at:kobe"]


def test_a_full_display_with_nothing_to_discard_needs_no_deal_at_the_end_of_the_turn():
    """"Then refill the display to six cards, if possible": with no card taken and no coal or ironworks card
    on display, the six stay as they are and the next turn begins (there is nothing to deal)."""
    state = japan(cards=("cotton", "at:osaka", "ship", "goods", "port", "cotton"))
    deck = state.deck
    state = do(state, "end_turn")
    assert state.turn == 2 and state.phase == "play" and state.deck == deck
    assert GAME.prompt(state).short == "Turn 2: entry?"
    assert state.recent == ("Turn 2: the display is full, nothing to deal",)


def test_the_game_ends_when_the_deck_is_exhausted_even_with_cards_on_display():
    """Second edition, point 3: "The game ends when the deck has been exhausted, even if there are still cards on
    display." Reading in force: the turn the deck runs out in is played to its end."""
    state = japan()
    state = do(state, "draw", count=state.deck)
    assert state.deck == 0 and "the game ends at the end of this turn" in state.recent[-1]
    refused(state, "draw", "no entry 'draw'", count=1)
    state = do(state, "end_turn")
    assert state.phase == "over" and all(s.card for s in state.display)
    assert GAME.prompt(state).done and "the deck is exhausted" in GAME.prompt(state).text
    refused(state, "end_turn", "the game is over")


def test_a_refill_that_empties_the_deck_ends_the_game_at_once():
    """"Then refill the display to six cards, if possible" -- and the deck exhausted ends the game."""
    state = japan()
    state = do(state, "draw", count=state.deck - 2)
    state = do(do(state, "card", space=2, how="free", player="Red"), "end_turn")  # coal and iron leave: 3 to deal
    state = do(do(state, "deal", card="port"), "deal", card="goods")
    assert state.deck == 0 and state.phase == "over" and state.display[-1].card == ""


def test_the_box_says_a_round_ahead_that_the_deck_runs_out():
    """The issue: "the box says so a round ahead": three players drawing two each and a display refill of six."""
    state = japan()
    state = do(state, "draw", count=state.deck - 13)
    assert not GAME.last_round(state) and "last round" not in GAME.status(state)
    state = do(state, "draw", count=1)
    assert state.deck == 12 and GAME.status(state).endswith("last round?")
    assert "The deck may run out this round" in GAME.prompt(state).text


def test_the_box_can_deal_the_display_from_its_own_deck_shuffled():
    """The issue: "Optionally the box deals the display from its own deck list shuffled": the list is the deck as
    it stands, so the cards dealt to the hands and drawn since leave it (unseen) before the display is dealt, and a
    card it names is never one in a hand (Prompt(shuffle=N, deal=K): only the cards used are picked)."""
    state = GAME.new_game({"map": "Japan", "players": 3, "display": "box"})
    board = GAME.boards["Japan"]
    hands = GAME.rules.hand * 3
    prompt = GAME.prompt(state)
    assert prompt.shuffle == len(board.deck) and prompt.deal == hands + 6 and GAME.choices(state) == []
    order = tuple(reversed(range(len(board.deck))))
    state = GAME.apply(state, Shuffled(order))
    in_hands = {board.deck[i] for i in order[:hands]}
    assert [s.card for s in state.display] == [board.deck[i] for i in order[hands:hands + 6]]
    assert len(state.box_deck) == state.deck == len(board.deck) - hands - 6 and state.phase == "play"
    assert sorted(state.box_deck) == sorted(board.deck[i] for i in order[hands + 6:])
    assert len(in_hands) > 1  # named cards, none of them left in the list beyond their copies in the rest
    state = do(do(do(state, "card", space=0, how="free", player="Red"), "draw", count=2), "end_turn")
    wanted = sum(1 for s in state.display if not s.card)
    prompt = GAME.prompt(state)
    assert prompt.shuffle == len(state.box_deck) == state.deck + 2 and prompt.deal == 2 + wanted
    before = state.box_deck
    state = GAME.apply(state, Shuffled(tuple(range(len(before)))))
    assert [s.card for s in state.display][-wanted:] == list(before[2:2 + wanted])
    assert len(state.box_deck) == state.deck and sorted(state.box_deck) == sorted(before[2 + wanted:])
    with pytest.raises(RuleError, match="need a shuffle of"):
        GAME.apply(do(do(state, "card", space=0, how="free", player="Red"), "end_turn"), Shuffled((1, 0)))


# -- building, ships and sea lanes (Japan) -------------------------------------------------------------


def test_an_entry_is_made_step_by_step_with_short_lists():
    """The issue: "pick an action kind, then a location/link from a list sorted by name, then owner/kind"."""
    state = do(japan(), "link")
    pages = [o.label for o in GAME.choices(state)]
    assert pages == ["Aomori to Kumamoto", "Kyoto to Osaka", "Sapporo to Yubari", "Cancel"]
    names = [o.label for o in GAME.choices(do(state, "link", page=1))]
    assert names == [*sorted(names[:-1]), "Cancel"] and len(names) <= 11 and "Osaka" in names
    state = do(state, "link", **{"from": "osaka"})
    assert [o.label for o in GAME.choices(state)] == ["Kobe", "Kyoto", "Other start", "Cancel"]
    assert GAME.prompt(state).short == "From Osaka to?"  # the OLED says which end the link starts from
    refused(state, "industry", "finish or cancel 'Build rail link' first", location="osaka")
    assert do(state, "cancel").pending == ""


def test_a_link_between_locations_that_are_not_adjacent_is_refused():
    """The issue: "a link between locations that are not adjacent ... refused with a one-line reason"."""
    state = japan()
    refused(state, "link", "Osaka and Sapporo are not adjacent: no rail link joins them",
            **{"from": "osaka", "to": "sapporo", "owner": "Red"})
    assert state.rails == ()
    state = rail(state, "osaka", "kobe", "Red")
    refused(state, "link", "Kobe - Osaka is built already (Red)", **{"from": "kobe", "to": "osaka", "owner": "Blue"})


def test_an_ironworks_only_in_the_space_with_the_ironworks_symbol():
    """"You can only build an ironworks in the space containing an ironworks symbol. You cannot build an ironworks
    in a clear space.\""""
    state = japan()
    refused(state, "industry", "Kyoto has no ironworks symbol", location="kyoto", kind="iron", owner="Red")
    state = build(state, "kamaishi", "iron", "Red")
    assert state.at("kamaishi")[0].space == 0 and state.at("kamaishi")[0].cubes == 2
    refused(state, "industry", "no free space for a ironworks in Kamaishi", location="kamaishi", kind="iron",
            owner="Blue")


def test_ships_hold_their_cubes_and_flip_when_emptied_and_their_market_sold_to():
    """"When you build a ship place coal and iron cubes in the connected spaces. Flip the ship when all of the coal
    and iron have been taken and the market (if there is one) has been sold to.\""""
    state = do(japan(), "ship", space="sanriku", owner="Red", tech=1)
    ship = state.ship("sanriku")
    assert (ship.coal, ship.iron, ship.flipped) == (1, 1, False)
    state = do(state, "take", source="ship:sanriku", cube="coal")
    state = do(state, "take", source="ship:sanriku")  # only iron is left: no question
    assert state.ship("sanriku").iron == 0 and not state.ship("sanriku").flipped
    refused(state, "take", "no cubes on that ship space", source="ship:sanriku")
    state = do(state, "market", space="sanriku")
    assert state.ship("sanriku").flipped and "Red's ship flips" in state.recent[0]
    refused(state, "market", "is sold to already", space="sanriku")


def test_overbuilding_a_ship_refills_nothing():
    """"You can overbuild a ship but doing so will not refill the coal/iron spaces or replace the market counter
    with a new one.\""""
    state = do(japan(), "ship", space="enshu", owner="Red", tech=1)
    state = do(state, "take", source="ship:enshu")
    refused(state, "ship", "overbuilding needs a technology above 1", space="enshu", owner="Blue", tech=1)
    state = do(state, "ship", space="enshu", owner="Blue", tech=2)
    ship = state.ship("enshu")
    assert (ship.owner, ship.iron, ship.market_sold, ship.flipped) == ("Blue", 0, False, False)
    state = do(state, "market", space="enshu")
    assert state.ship("enshu").flipped


def test_a_ship_space_no_one_can_build_on_is_not_offered_and_a_journal_that_chose_one_still_replays():
    """"You can overbuild a ship" with a technology above its own (maps/industry.toml overbuild_higher_tech): a
    space holding a ship of the highest technology takes no ship, so the box does not offer it (the entry would end
    in a step with no answer but Cancel); typed whole, it is refused in one line. A journal from before, which
    offered it, picked it and then cancelled, replays as it was."""
    top = max(GAME.rules.ship_tech)
    state = do(japan(), "ship", space="enshu", owner="Red", tech=top)
    offered = {o.event.args["space"] for o in GAME.choices(do(state, "ship")) if "space" in o.event.args}
    assert "enshu" not in offered and "sanriku" in offered
    lower = do(japan(), "ship", space="enshu", owner="Red", tech=top - 1)  # a lower one still leaves it open
    assert "enshu" in {o.event.args["space"] for o in GAME.choices(do(lower, "ship")) if "space" in o.event.args}
    refused(state, "ship", f"overbuilding needs a technology above {top}", space="enshu", owner="Blue", tech=top)
    from_before = do(do(state, "ship", space="enshu"), "cancel")  # the old box's dead end, as journaled
    assert from_before.ships == state.ships and not from_before.pending


def test_a_minnesota_ship_space_nobody_may_overbuild_yet_is_not_offered():
    """A Minnesota ship is overbuilt only by its owner, once flipped (maps: ship_overbuild_owner_flipped): until
    then its space is not offered to build on."""
    state = do(minnesota(), "ship", space="duluth_harbor", owner="Red", tech=1)
    assert not state.ship("duluth_harbor").flipped
    offered = {o.event.args["space"] for o in GAME.choices(do(state, "ship")) if "space" in o.event.args}
    assert "duluth_harbor" not in offered and offered


def test_a_sea_lane_is_a_rail_link_of_every_player_with_a_port_at_each_end_and_a_ship_between():
    """"You can use a sea lane ... in the same way as a rail connection IF there is a constructed port at each end
    of the sea lane and a constructed ship in between. It does not matter if the counters are flipped or not. A sea
    lane counts as a rail link that belongs to all players.\""""
    board = GAME.boards["Japan"]
    state = rail(japan(), "aomori", "morioka", "Red")
    state = build(build(state, "aomori", "port", "Blue"), "hakodate", "port", "Green")
    assert "hakodate" not in ledger.reachable(board, state, "morioka")  # no ship yet
    state = do(state, "ship", space="tsugaru", owner="Green", tech=1)
    assert "hakodate" in ledger.reachable(board, state, "morioka")
    assert GAME.ledger_json(state)["lanes"] == [["aomori", "hakodate"]]
    state = do(state, "take", source="ship:tsugaru")
    assert state.ship("tsugaru").flipped and "hakodate" in ledger.reachable(board, state, "morioka")
    state = do(state, "remove", counter="hakodate/2")
    assert GAME.ledger_json(state)["lanes"] == [] and "hakodate" not in ledger.reachable(board, state, "morioka")


def test_a_rail_link_is_worth_3_plus_the_counters_at_either_end():
    """"At the end of the game each rail link is worth $3 plus the number of counters at either end.\""""
    state = rail(japan(), "osaka", "kobe", "Red")
    assert value(state, "osaka", "kobe") == 3
    state = build(build(build(state, "osaka", "iron", "Red"), "kobe", "port", "Blue"), "kobe", "cotton", "Green")
    assert value(state, "osaka", "kobe") == 6
    state = do(state, "flip", counter="kobe/0")
    assert value(state, "osaka", "kobe") == 6  # flipped or not: "counters"
    state = rail(state, "kobe", "okayama", "Blue")
    assert ledger.totals(GAME.board(state), GAME.rules, state) == {"Red": 6, "Blue": 5, "Green": 0}
    assert "Red $6, Blue $5, Green $0" in GAME.prompt(state).text


def test_a_coal_mine_flips_when_its_last_cube_is_taken():
    state = build(japan(), "omuta", "coal", "Red")
    state = do(do(state, "take", source="omuta/0"), "take", source="omuta/0")
    assert state.at("omuta")[0].flipped and state.at("omuta")[0].cubes == 0
    refused(state, "flip", "is flipped already", counter="omuta/0")


# -- Minnesota --------------------------------------------------------------------------------------


def test_minnesota_coal_only_from_the_coal_demand_display_and_only_where_a_port_connects():
    """"Whenever you want to build an industry or rail that requires a coal cube, you must take the cube from the
    Coal Demand Display. ... In order to have access to coal, the location must be connected to a constructed port
    or distant port, such as Chicago.\""""
    state = minnesota()
    refused(state, "industry", "no coal for Moorhead: not connected to a built port or Chicago",
            location="moorhead", kind="cotton", owner="Red")
    refused(state, "link", "no coal for a rail link from Bemidji: not connected",
            **{"from": "bemidji", "to": "moorhead", "owner": "Red"})
    state = build(state, "duluth", "port", "Red")  # a port takes no coal
    assert state.cubes_on("coal") == 4
    state = build(state, "duluth", "cotton", "Blue")
    assert state.recent[-1] == "1 coal from the Coal Demand Display: pay $3" and state.cubes_on("coal") == 3
    state = rail(state, "duluth", "brainerd", "Blue")
    assert state.recent[-1] == "1 coal from the Coal Demand Display: pay $3"
    state = build(state, "brainerd", "goods", "Green")  # connected to Duluth's port now
    assert state.recent[-1] == "1 coal from the Coal Demand Display: pay $4" and state.cubes_on("coal") == 1
    state = build(state, "brainerd", "cotton", "Green")
    state = rail(state, "brainerd", "little_falls", "Red")  # the display is empty: the empty price
    assert state.recent[-1] == "1 coal from the Coal Demand Display: pay $5" and state.cubes_on("coal") == 0
    state = do(state, "connected", location="little_falls")
    assert state.recent == ("Little Falls: connected to Duluth",)


def test_minnesota_never_takes_coal_from_a_mine():
    """"You can never take cubes directly from a coal mine.\""""
    state = build(minnesota(), "braidwood", "coal", "Red")
    refused(state, "take", "Minnesota: coal comes only from the Coal Demand Display", source="braidwood/0")


def test_hydro_towns_need_no_coal_for_cotton_mills_and_manufactured_goods():
    """"You do not require coal when you build a cotton mill or manufactured goods factory in Bemidji, Fergus Falls,
    or St. Anthony Falls.\""""
    state = build(build(minnesota(), "bemidji", "cotton", "Red"), "fergus_falls", "goods", "Blue")
    state = build(state, "st_anthony_falls", "goods", "Green")
    assert state.cubes_on("coal") == 4 and len(state.counters) == 3
    refused(state, "industry", "no coal for Moorhead", location="moorhead", kind="cotton", owner="Red")


def test_the_chicago_area_one_coal_mine_each_all_connected_to_chicago_and_each_other():
    """"Treat as individual locations for the purposes of building coal mines. You can have a maximum of one coal
    mine per location. All coal mines are connected to Chicago and also to each other.\""""
    board = GAME.boards["Minnesota"]
    state = build(minnesota(), "braidwood", "coal", "Red")
    refused(state, "industry", "Braidwood has its coal mine: one coal mine per location", location="braidwood",
            kind="coal", owner="Blue")
    refused(state, "industry", "no free space for a cotton mill in Coal City", location="coal_city", kind="cotton",
            owner="Blue")
    assert {"coal_city", "wilmington", "chicago_east", "chicago_south"} <= set(ledger.reachable(board, state,
                                                                                                  "braidwood"))
    assert ledger.port_for(board, state, "wilmington") in {"chicago_east", "chicago_southeast", "chicago_south"}


def test_a_link_from_a_chicago_name_box_needs_a_coal_mine_or_a_start_in_minnesota():
    """"If you have at least one coal mine, you may build a rail link from any of the three 'Chicago' name boxes.
    You may also build to a 'Chicago' name box from an adjacent Minnesota location.\""""
    state = minnesota()
    refused(state, "link", "nobody has a coal mine or anything at Red Wing to build to Chicago (east) from",
            **{"from": "chicago_east", "to": "winona", "owner": "Red"})
    refused(build(state, "braidwood", "coal", "Blue"), "link",
            "Red has no coal mine and nothing at Winona to build to Chicago from",
            **{"from": "chicago_east", "to": "winona", "owner": "Red"})
    with_mine = rail(build(state, "wilmington", "coal", "Red"), "chicago_east", "winona", "Red")
    assert with_mine.rails[0].owner == "Red"
    at_winona = rail(build(state, "winona", "port", "Blue"), "winona", "chicago_southeast", "Blue")
    assert at_winona.rails[0].owner == "Blue"


def test_sell_cubes_to_the_demand_displays_only_from_ones_own_mines_and_ironworks():
    """"You may only sell cubes to the demand displays from your own coal mines or ironworks. You earn money equal
    to the amount shown for each space filled.\""""
    state = build(minnesota(), "coal_city", "coal", "Red")
    refused(state, "sell", "Blue sells to the demand displays only from her own mines and ironworks",
            player="Blue", source="coal_city/0")
    state = do(state, "sell", player="Red", source="coal_city/0", target="demand:coal")
    assert state.recent[-1] == "to the Coal Demand Display: earn $2" and state.cubes_on("coal") == 5
    state = do(state, "sell", player="Red", source="coal_city/0", target="demand:coal")
    assert state.recent[-1] == "to the Coal Demand Display: earn $2" and state.at("coal_city")[0].flipped
    refused(state, "sell", "no cubes left", player="Red", source="coal_city/0")


def iron_country(state: IndustryState) -> IndustryState:
    """A port in Duluth, a link to Eveleth (Iron Range) and an ironworks there, Blue's."""
    state = rail(build(state, "duluth", "port", "Red"), "duluth", "eveleth", "Red")
    return build(state, "eveleth", "iron", "Blue")


def test_the_iron_range_adds_a_cube_and_two_dollars_on_the_flip():
    """"All brown locations are part of the Iron Range. Add one extra iron cube if you build an ironworks here.
    Earn an extra $2 when you flip an ironworks here.\""""
    state = iron_country(minnesota())
    assert state.at("eveleth")[0].cubes == 3
    for _ in range(3):
        state = do(state, "sell", player="Blue", source="eveleth/0", target="demand:iron")
    assert state.at("eveleth")[0].flipped and "Blue's ironworks in Eveleth flips, +$2 Iron Range" in state.recent


def test_iron_markets_take_two_cubes_then_a_face_down_counter_and_flip_the_ship():
    """"Each iron market space requires two iron cubes to satisfy demand. If one cube is sold to such a space then it
    remains there. Once a second cube is sold ... an unused market counter is placed in the space, face down." and
    "Building a ship makes the connected iron market space available. A ship counter is flipped when two cubes have
    been sold to the iron market.\""""
    state = iron_country(minnesota())
    refused(state, "sell", "no ship has opened an iron market there", player="Red", source="eveleth/0",
            target="market:duluth")
    state = do(state, "ship", space="duluth_harbor", owner="Red", tech=1)
    assert state.market("duluth") is not None
    refused(state, "sell", "does not sell to the Coal Demand Display", player="Blue", source="eveleth/0",
            target="demand:coal")
    refused(state, "sell", "Red sells to the demand displays only from her own", player="Red", source="eveleth/0",
            target="demand:iron")
    state = do(state, "sell", player="Red", source="eveleth/0", target="market:duluth")  # any source's iron
    assert state.market("duluth").cubes == 1 and not state.ship("duluth_harbor").flipped
    assert value(state, "duluth", "eveleth") == 5
    state = do(state, "sell", player="Red", source="eveleth/0", target="market:duluth")
    assert state.market("duluth").counter and state.market("duluth").cubes == 0
    assert state.ship("duluth_harbor").flipped
    assert value(state, "duluth", "eveleth") == 6  # the face-down counter now adds to the link
    refused(state, "sell", "the iron market at Duluth is satisfied", player="Red", source="eveleth/0",
            target="market:duluth")


def test_a_flipped_ship_is_overbuilt_by_its_owner_with_higher_tech_and_the_market_reopens():
    """"A flipped ship can be overbuilt by the owning player, as long as it has a higher technology value. If a ship
    is overbuilt then the market counter on the iron market is removed, allowing a further two cubes to be sold.\""""
    state = do(iron_country(minnesota()), "ship", space="duluth_harbor", owner="Red", tech=1)
    refused(state, "ship", "only Red may overbuild that ship, once it is flipped", space="duluth_harbor",
            owner="Red", tech=2)
    for _ in range(2):
        state = do(state, "sell", player="Blue", source="eveleth/0", target="market:duluth")
    refused(state, "ship", "only Red may overbuild", space="duluth_harbor", owner="Blue", tech=2)
    refused(state, "ship", "overbuilding needs a technology above 1", space="duluth_harbor", owner="Red", tech=1)
    state = do(state, "ship", space="duluth_harbor", owner="Red", tech=2)
    assert not state.market("duluth").counter and not state.ship("duluth_harbor").flipped
    assert value(state, "duluth", "eveleth") == 5
    state = do(state, "sell", player="Blue", source="eveleth/0", target="market:duluth")
    assert state.market("duluth").cubes == 1


def test_iron_from_the_iron_demand_display_only_when_none_is_on_the_map():
    """"You can only take iron from the Iron Demand Display if there is none available on the main map.\""""
    state = do(iron_country(minnesota()), "ship", space="duluth_harbor", owner="Red", tech=1)
    refused(state, "sell", "iron is on the map", player="Red", source="display:iron")
    for _ in range(3):
        state = do(state, "sell", player="Blue", source="eveleth/0", target="demand:iron")
    state = do(state, "sell", player="Red", source="display:iron", target="market:duluth")
    assert state.recent[0] == "1 iron from the Iron Demand Display: pay $1" and state.market("duluth").cubes == 1


def test_the_twin_cities_are_connected_to_each_other_one_industry_each_and_valued_apart():
    """"St. Paul, St. Anthony Falls, and Downtown Minneapolis are all connected to each other. You can have a
    maximum of one industry counter in each individual location." and "Treat [them] as individual locations when
    calculating the value of rail links.\""""
    board = GAME.boards["Minnesota"]
    state = build(minnesota(), "st_anthony_falls", "cotton", "Red")
    refused(state, "industry", "St. Anthony Falls holds one industry counter at most", location="st_anthony_falls",
            kind="goods", owner="Blue")
    assert {"st_paul", "downtown_minneapolis"} <= set(ledger.reachable(board, state, "st_anthony_falls"))
    state = build(state, "st_paul", "port", "Blue")
    state = rail(state, "st_cloud", "downtown_minneapolis", "Green")  # coal through the Twin Cities to St. Paul
    assert value(state, "st_cloud", "downtown_minneapolis") == 3  # St. Anthony's and St. Paul's counters apart
    state = build(state, "downtown_minneapolis", "goods", "Green")
    assert value(state, "st_cloud", "downtown_minneapolis") == 4


def test_a_link_to_a_chicago_name_box_is_worth_all_counters_of_the_chicago_area():
    """"The monetary value of a rail link connected to a 'Chicago' name box is equal to the total number of counters
    in the entire Chicago area.\""""
    state = build(build(minnesota(), "braidwood", "coal", "Red"), "wilmington", "coal", "Blue")
    state = rail(build(state, "winona", "port", "Green"), "winona", "chicago_east", "Green")
    assert value(state, "winona", "chicago_east") == 3 + 1 + 2
    state = build(state, "coal_city", "coal", "Green")
    assert ledger.totals(GAME.board(state), GAME.rules, state)["Green"] == 7


def test_an_entry_refused_midway_leaves_the_state_unchanged():
    state = do(minnesota(), "industry", location="duluth")
    with pytest.raises(RuleError, match="no player 'Mauve'"):
        do(state, "industry", location="duluth", kind="port", owner="Mauve")
    assert state.pending == "industry" and state.pending_args() == {"location": "duluth"}
