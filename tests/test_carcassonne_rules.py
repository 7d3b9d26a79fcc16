"""Carcassonne "Natural Disasters" through the engine: laying tiles, followers, and each disaster's procedure.

Each test cites the sentence of the text (Carcassonne Central, v1.0) it enforces.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from companion.dice import Choice, DiceRolled
from companion.errors import RuleError
from companion.games.carcassonne import load
from companion.games.carcassonne.engine import CarcassonneGame
from companion.games.carcassonne.state import CarcState, Follower, Laid, Tornado
from companion.places import Cell

G = CarcassonneGame(load().data, fold=False)
"""The engine asking every step, as it did when older journals were written (they still replay): each rule's
procedure seen step by step. tests/test_carcassonne_presses.py checks the steps the box takes itself."""
RED, BLUE, YELLOW = 0, 1, 2


def variant(**rules) -> CarcassonneGame:
    """The engine under other readings of the text (what a group's maps/carcassonne.toml may say)."""
    return CarcassonneGame(replace(G.data, rules=replace(G.rules, **rules)), fold=False)


def new(players: int = 2, **options) -> CarcState:
    return G.new_game({"players": players, **options})


def lay(state: CarcState, x: int, y: int, kind: str = "", quarters: int = 0) -> CarcState:
    return G.apply(state, Choice("lay", {"x": x, "y": y, "kind": kind, "quarters": quarters}))


def deploy(state: CarcState, segment: int = -1) -> CarcState:
    assert state.last is not None
    return G.apply(state, Choice("deploy", {"x": state.last.x, "y": state.last.y, "segment": segment}))


def skip(state: CarcState) -> CarcState:
    return G.apply(state, Choice("pass", {}))


def seg(state: CarcState, cell: Cell, text: str) -> int:
    """The segment of the tile on ``cell`` a player would pick by its OLED name ("city N", "road EW")."""
    names = [G.feature_name(state, cell, i) for i in range(8)]
    return names.index(text)


def refused(state: CarcState, event: Choice, reason: str) -> None:
    """Refused with a one-line reason naming what was wrong; the state is unchanged."""
    before = repr(state)
    with pytest.raises(RuleError) as err:
        G.apply(state, event)
    assert reason in str(err.value) and "\n" not in str(err.value)
    assert repr(state) == before


def line_of_cells(players: int, n: int) -> CarcState:
    """Spaces only: a row of n plain tiles east of the start, every player passing on followers."""
    s = new(players, board="cells")
    for x in range(1, n + 1):
        s = skip(lay(s, x, 0))
    return s


def tornado(state: CarcState, *cells: tuple[int, int]) -> CarcState:
    return G.apply(state, Choice("tornado", {"path": [list(c) for c in cells]}))


# -- the board ------------------------------------------------------------------------------------------------

def test_a_new_game_lays_the_start_tile_and_counts_the_bag():
    s = new(3)
    assert s.tiles == {Cell(0, 0): Laid("city_edge_road")}
    assert G.bag_left(s) == 71 + 6  # 72 base tiles but the start tile, and the 6 new ones (no river)
    assert s.supply == (7, 7, 7) and G.prompt(s).short == "Red: lay a tile"


def test_laying_a_tile_in_three_steps_cell_kind_rotation():
    """A tile is laid by pointing at a cell and picking its kind from a short list; rotation is its own step."""
    s = new()
    labels = [o.label for o in G.choices(s)]
    assert labels[:4] == ["1 west", "1 north", "1 south", "1 east"] and "Drew the meteor" in labels
    s = G.apply(s, Choice("cell", {"x": 0, "y": -1}))
    kinds = [o.label for o in G.choices(s)]
    assert "City edge" in kinds and "City all sides" in kinds and "Cloister" not in kinds  # a city side south
    s = G.apply(s, Choice("kind", {"kind": "city_corner"}))
    turns = [o.label for o in G.choices(s)]
    assert turns == ["city ES", "city SW"]  # only the turns whose city meets the start's city
    s = G.apply(s, Choice("rotate", {"quarters": 2}))
    assert s.phase == "deploy" and s.tiles[Cell(0, -1)] == Laid("city_corner", 2)


def test_a_cell_not_next_to_a_laid_tile_is_refused():
    """Bad input: a cell that is not adjacent to a laid tile."""
    s = new()
    refused(s, Choice("cell", {"x": 2, "y": 0}), "2 east of the start is not next to a laid tile")
    refused(s, Choice("lay", {"x": 1, "y": 1, "kind": "road"}), "is not next to a laid tile")
    refused(s, Choice("cell", {"x": 0, "y": 0}), "the start tile already holds a tile")


def test_a_tile_must_match_its_neighbours_edges():
    s = new()
    refused(s, Choice("lay", {"x": 0, "y": -1, "kind": "cloister"}),
            "Cloister does not fit on 1 north of the start: its field on the south meets a city")


def test_a_completed_city_scores_and_its_follower_goes_home():
    s = new()
    s = lay(s, 0, -1, "city_edge", 2)  # its city faces the start's city: closed, 2 tiles
    s = deploy(s, seg(s, Cell(0, -1), "city S"))
    assert s.scores == (4, 0) and s.supply == (7, 7) and s.followers == ()
    assert "Red +4: city" in s.recent


def test_a_follower_only_on_an_unoccupied_feature():
    s = new()
    s = lay(s, 1, 0, "road", 1)
    s = deploy(s, seg(s, Cell(1, 0), "road EW"))  # Red on the road through the start
    s = lay(s, -1, 0, "road", 1)
    refused(s, Choice("deploy", {"x": -1, "y": 0, "segment": seg(s, Cell(-1, 0), "road EW")}), "road EW is taken")
    assert [o.label for o in G.choices(s)] == ["No follower", "Blue: farmer ESW", "Blue: farmer NEW"]


def test_river_tiles_only_with_the_river():
    s = new()
    refused(s, Choice("lay", {"x": 0, "y": 1, "kind": "spring"}), "is a river tile and this game has no river")


# -- the tornado ----------------------------------------------------------------------------------------------

def test_the_tornado_moves_two_spaces_from_the_placer_clockwise_with_the_spaces_left_shown():
    """"Starting with the player who placed the tornado tile, each player takes turn in a clockwise order moving
    the tornado 2 spaces orthogonally." The OLED: "Blue: move the tornado 2 (8 of 12 left)"."""
    s = line_of_cells(3, 8)  # 8 turns: Yellow is next... then Red lays the tornado
    assert s.current == 2
    s = skip(lay(s, 9, 0))
    assert s.current == RED
    s = lay(s, 10, 0, "tornado_field")
    assert s.phase == "tornado" and G.prompt(s).short == "Red: move the tornado 2 (12 of 12 left)"
    assert [o.label for o in G.choices(s)] == ["west, west"]
    s = tornado(s, (9, 0), (8, 0))
    assert G.prompt(s).short == "Blue: move the tornado 2 (10 of 12 left)"
    s = tornado(s, (7, 0), (6, 0))
    assert G.prompt(s).short == "Yellow: move the tornado 2 (8 of 12 left)"
    assert "tornado 8 of 12 left" in G.status(s)


def test_a_tornado_move_of_three_or_over_an_empty_space_or_back_is_refused():
    """Bad input: a tornado move of 3; "may not be moved to the same tile twice per turn" (read: this move);
    across placed tiles only (a reading in maps/carcassonne.toml)."""
    s = lay(line_of_cells(2, 4), 5, 0, "tornado_field")
    refused(s, Choice("tornado", {"path": [[4, 0], [3, 0], [2, 0]]}), "the tornado moves 2 spaces a move, not 3")
    refused(s, Choice("tornado", {"path": [[4, 0], [5, 0]]}), "was already on 5 east of the start this move")
    refused(s, Choice("tornado", {"path": [[5, 1], [4, 1]]}), "holds no tile: the tornado moves over placed tiles")
    refused(s, Choice("tornado", {"path": [[3, 0], [2, 0]]}), "3 east of the start is not one space straight")


def test_visited_this_move_only_lets_a_later_move_come_back():
    """The reading "this move": the next player may move the tornado back over tiles it crossed before."""
    s = lay(line_of_cells(2, 4), 5, 0, "tornado_field")
    s = tornado(s, (4, 0), (3, 0))
    assert [o.label for o in G.choices(s)] == ["east, east", "west, west"]
    strict = variant(tornado_visited="tornado")
    assert [o.label for o in strict.choices(s)] == ["west, west"]


def test_a_follower_crossed_or_landed_on_goes_into_the_tornado_and_one_inside_is_swapped():
    """"If the tornado moves across or lands on a tile with a follower on it, then that follower is placed in the
    tornado ... If there is a follower already in the tornado, then swap the places of the two followers.\""""
    s = new(2, board="cells")
    s = deploy(lay(s, 1, 0))      # Red on 1 east
    s = skip(lay(s, 2, 0))        # Blue
    s = skip(lay(s, 3, 0))        # Red
    s = deploy(lay(s, 4, 0))      # Blue on 4 east
    s = lay(s, 5, 0, "tornado_field")  # Red's tornado
    s = tornado(s, (4, 0), (3, 0))  # crosses Blue's follower: Blue is inside
    assert s.tornado.inside == BLUE and s.followers_at(Cell(4, 0)) == []
    assert "Blue inside" in G.status(s)
    s = tornado(s, (2, 0), (1, 0))  # Blue moves it onto Red's follower: Red in, Blue put where Red stood
    assert s.tornado.inside == RED and s.followers_at(Cell(1, 0)) == [Follower(BLUE, Cell(1, 0), -1)]
    assert s.supply == (6, 6)


def test_the_mover_chooses_which_follower_when_a_tile_holds_several():
    """"If a tile has more than the one follower on it, then the player that moved the tornado to that tile decides
    which follower will be placed in the tornado.\""""
    s = lay(line_of_cells(2, 4), 5, 0, "tornado_field")
    s = replace(s, followers=(Follower(RED, Cell(3, 0)), Follower(BLUE, Cell(3, 0))),
                supply=(6, 6))
    s = tornado(s, (4, 0), (3, 0))
    assert s.phase == "tornado_pick" and G.prompt(s).short == "Red: take which?"
    assert [o.label for o in G.choices(s)] == ["Red the tile", "Blue the tile"]
    s = G.apply(s, Choice("pick", {"player": BLUE, "segment": -1}))
    assert s.tornado.inside == BLUE and s.followers_at(Cell(3, 0)) == [Follower(RED, Cell(3, 0))]
    assert s.phase == "tornado"


def test_it_stops_after_twelve_spaces_then_the_owner_places_the_follower_inside():
    """"... until the tornado has either moved 12 spaces or may not be moved any further. If there is a follower
    in the tornado after it has finished moving, then the owner decides where to place the follower on that
    tile." Spaces only: the owner says whether it stands there or goes back to supply."""
    s = new(2, board="cells")
    s = deploy(lay(s, 1, 0))
    for x in range(2, 13):
        s = skip(lay(s, x, 0))
    s = lay(s, 13, 0, "tornado_field")  # Red's tornado: 6 moves west, the last lands on Red's own follower
    assert s.current == RED
    for x in (11, 9, 7, 5, 3, 1):
        s = tornado(s, (x + 1, 0), (x, 0))
    assert s.phase == "tornado_land" and s.tornado.left == 0 and s.tornado.inside == RED
    assert G.prompt(s).short == "Red: place follower"
    assert [o.label for o in G.choices(s)] == ["Red: the tile", "Back to supply"]
    s = G.apply(s, Choice("pass", {}))
    assert s.phase == "deploy" and s.supply == (7, 7) and s.followers == ()


def test_it_stops_when_it_cannot_move():
    """"... or may not be moved any further": a tornado whose only neighbour leads nowhere stops at once."""
    s = lay(new(2, board="cells"), 1, 0, "tornado_field")
    assert s.phase == "deploy" and "The tornado stops: it cannot move on" in s.recent


def tornado_west_of_the_start(spaces: int):
    """Tiles mode, a tornado budget of one move (a variant of the data): the tornado tile west of the start,
    Blue's follower on the start's road, a road east of the start under a finished city."""
    g = variant(tornado_spaces=spaces)
    s = new()
    board = {**s.tiles, Cell(1, 0): Laid("city_edge_road"), Cell(1, -1): Laid("city_edge", 2)}
    s = replace(s, board=tuple(board.items()), followers=(Follower(BLUE, Cell(0, 0), 1),), supply=(7, 6))
    assert g.feature_name(s, Cell(0, 0), 1) == "road EW"
    return g, g.apply(s, Choice("lay", {"x": -1, "y": 0, "kind": "tornado_road", "quarters": 1}))


def test_the_owner_places_the_follower_on_an_unoccupied_uncompleted_feature_of_the_final_tile():
    """"The follower can only be placed on an unoccupied and uncompleted feature": not the finished city."""
    g, s = tornado_west_of_the_start(2)
    s = g.apply(s, Choice("tornado", {"path": [[0, 0], [1, 0]]}))
    assert s.phase == "tornado_land" and g.prompt(s).short == "Blue: place follower"
    assert [o.label for o in g.choices(s)] == ["Blue: road EW", "Blue: farmer EW", "Blue: farmer ESW"]
    refused_by(g, s, Choice("land", {"segment": 0}), "city N is taken, completed or not on the tile")
    s = g.apply(s, Choice("land", {"segment": 1}))
    assert s.phase == "deploy" and Follower(BLUE, Cell(1, 0), 1) in s.followers and s.last == Cell(-1, 0)


def test_a_follower_with_nowhere_to_stand_returns_to_its_owners_supply():
    """"... otherwise the follower is returned to its owner's supply": the tornado ends on a meteor."""
    g, s = tornado_west_of_the_start(2)
    s = replace(s, board=tuple((c, Laid("meteor") if c == Cell(1, 0) else t) for c, t in s.board))
    s = g.apply(s, Choice("tornado", {"path": [[0, 0], [1, 0]]}))
    assert s.phase == "deploy" and s.supply == (7, 7) and "Blue's follower returns to supply" in s.recent


def refused_by(g, state, event, reason):
    before = repr(state)
    with pytest.raises(RuleError, match=reason):
        g.apply(state, event)
    assert repr(state) == before


def test_a_follower_goes_on_a_tornado_tile_only_after_the_tornado_has_moved():
    """"A follower can be deployed ... to a tile with a tornado icon on it, but only after the tornado has made its
    movement.\""""
    s = lay(line_of_cells(2, 2), 3, 0, "tornado_field")
    refused(s, Choice("deploy", {"x": 3, "y": 0, "segment": -1}), "only after the tornado has moved")
    s = tornado(s, (2, 0), (1, 0))
    while s.phase == "tornado":  # every player moves it on until its 12 spaces are spent
        s = G.apply(s, G.choices(s)[0].event)
    assert s.phase == "deploy" and s.last == Cell(3, 0)
    s = deploy(s)
    assert Follower(RED, Cell(3, 0)) in s.followers


# -- the earthquake -------------------------------------------------------------------------------------------

def quake_board() -> CarcState:
    """The earthquake south of the start (its city facing south), a closed city north of it with a farmer
    beside it, and far to the east a city closed with a farmer beside it too."""
    s = new()
    s = skip(lay(s, 0, 1, "earthquake", 2))                  # Red: the quake, its city south (open)
    s = deploy(lay(s, 0, -1, "city_edge", 2), 1)             # Blue: closes the start's city; farmer beside it
    s = skip(lay(s, 1, 0, "road", 1))                        # Red
    s = skip(lay(s, 2, 0, "road", 1))                        # Blue
    s = skip(lay(s, 3, 0, "road", 1))                        # Red
    s = deploy(lay(s, 4, 0, "city_edge_road", 0), 0)         # Blue: a follower in the city far east (open)
    s = deploy(lay(s, 4, -1, "city_edge", 2), 1)             # Red: closes it (Blue +4), a farmer beside it
    return s


def test_the_earthquake_zone_is_the_tile_and_the_twelve_spaces_around():
    """"... each city that has a section within two tiles orthogonally, or one tile diagonally from the earthquake
    tile": 12 spaces and the earthquake tile itself, drawn from the moment it is laid."""
    s = skip(lay(new(), 0, 1, "earthquake", 2))
    zone = G.quake_zone(s)
    assert len(zone) == 13 and Cell(0, 1) in zone and Cell(0, 3) in zone and Cell(1, 2) in zone
    assert Cell(1, 3) not in zone and Cell(2, 2) not in zone
    assert "earthquake zone drawn" in G.status(s)


def test_every_city_with_a_section_in_the_zone_is_listed():
    s = quake_board()
    assert G.quake_report(s) == ["finished city at the start tile", "unfinished city at 1 south of the start"]


def test_an_unfinished_city_hit_scores_nothing_and_a_finished_one_gives_no_farmer_points():
    """"Any unfinished city with an earthquake token in it does not score any points. If a finished city has an
    earthquake marker in it, then that city does not score any points for the farmers.\""""
    s = quake_board()
    s = G.apply(s, Choice("end", {}))
    assert s.phase == "final" and "it hits 2 cities" in G.prompt(s).text
    before = s.scores
    s = G.apply(s, Choice("score", {}))
    assert s.phase == "over" and G.prompt(s).done
    text = "\n".join(s.final)
    assert "Earthquake tokens: 2 cities" in text
    assert "Blue +0: farmers (1 city lost to the earthquake)" in text
    assert "Red +3: farmers" in text  # the finished city far east, out of the zone, feeds its farmer
    assert before == (0, 4) and s.scores == (3, 4)


def test_an_unfinished_city_in_the_zone_with_a_follower_scores_nothing():
    s = skip(lay(new(), 1, 0, "road", 1))
    s = deploy(lay(s, 0, 1, "earthquake", 2), 0)  # Blue in the earthquake's own open city
    s = G.apply(G.apply(s, Choice("end", {})), Choice("score", {}))
    assert "Blue +0: unfinished city hit by the earthquake" in s.final and s.scores[BLUE] == 0


# -- the meteor -----------------------------------------------------------------------------------------------

def meteor_board(players: int = 3) -> CarcState:
    """A road from a junction west of the start through the start to 2 east, Red's follower on it."""
    s = new(players)
    s = skip(lay(s, -1, 0, "junction", 0))                   # Red
    s = deploy(lay(s, 1, 0, "road", 1), 0)                   # Blue: on the road
    s = skip(lay(s, 2, 0, "road", 1))                        # Yellow (or Red)
    return s


def test_the_meteor_is_aimed_moved_clockwise_and_the_drawer_has_the_last_word():
    """"Each player continuing clockwise may choose to move the landing position of the meteor or pass ... must
    choose a tile adjacent to the last tile chosen. A player may not choose a tile that was previously chosen ...
    then the player that drew the meteor gets one last chance.\""""
    s = meteor_board(3)
    s = skip(lay(s, 3, 0, "road", 1))                        # Red; Blue draws the meteor
    s = G.apply(s, Choice("meteor", {}))
    assert s.phase == "meteor_aim" and G.prompt(s).short == "Blue: aim the meteor"
    assert "start tile" not in [o.label for o in G.choices(s)]
    s = G.apply(s, Choice("aim", {"x": 3, "y": 0}))
    assert G.prompt(s).short == "Yellow: move meteor?"
    assert [o.label for o in G.choices(s)] == ["Pass", "2 east"]
    s = G.apply(s, Choice("aim", {"x": 2, "y": 0}))
    assert G.prompt(s).short == "Red: move meteor?"
    refused(s, Choice("aim", {"x": 3, "y": 0}), "was already chosen for this meteor")
    refused(s, Choice("aim", {"x": -1, "y": 0}), "is not next to 2 east of the start")
    s = G.apply(s, Choice("pass", {}))
    assert G.prompt(s).short == "Blue: last word"
    assert [o.label for o in G.choices(s)] == ["Leave it here", "1 east"]
    s = G.apply(s, Choice("pass", {}))
    assert s.tiles[Cell(2, 0)] == Laid("meteor") and s.phase == "cell" and s.current == YELLOW


def test_the_meteor_may_not_land_on_the_start_tile():
    """Bad input: a meteor on the start tile ("except for the starting tile")."""
    s = G.apply(meteor_board(), Choice("meteor", {}))
    refused(s, Choice("aim", {"x": 0, "y": 0}), "the meteor may not land on the start tile")
    refused(s, Choice("aim", {"x": 9, "y": 9}), "9 east, 9 south of the start holds no tile")


def test_features_touching_the_meteor_end_there_and_a_completed_one_with_a_follower_scores():
    """"Any features that touch the meteor are considered to end at the meteor. If this completes a feature that
    has at least one follower, then that feature is scored as normal.\""""
    s = G.apply(meteor_board(2), Choice("meteor", {}))  # Red draws it (2 players)
    s = G.apply(s, Choice("aim", {"x": 2, "y": 0}))
    s = G.apply(G.apply(s, Choice("pass", {})), Choice("pass", {}))
    assert s.tiles[Cell(2, 0)] == Laid("meteor")
    assert s.scores == (0, 3) and s.followers == () and s.supply == (7, 7)  # junction, start, 1 east
    assert "Blue +3: road" in s.recent


def test_followers_on_the_tile_the_meteor_replaces_go_home():
    """The text is silent; the reading in force (maps/carcassonne.toml meteor.followers = "supply")."""
    s = meteor_board(2)
    s = G.apply(s, Choice("meteor", {}))
    s = G.apply(s, Choice("aim", {"x": 1, "y": 0}))  # Blue's follower stands there
    s = G.apply(G.apply(s, Choice("pass", {})), Choice("pass", {}))
    assert s.followers == () and s.supply == (7, 7) and "Blue's follower goes home" in s.recent


def test_a_cloister_next_to_a_meteor_counts_it_as_a_gap():
    """"If a cloister is completed that contains 1 meteor tile in its surrounding tiles, then that meteor does not
    count towards the score. A player would only gain 8 points for that cloister instead of 9.\""""
    s = new()
    ring = [Cell(x, y) for y in (1, 2, 3) for x in (-1, 0, 1) if (x, y) != (0, 2)]
    board = dict(s.tiles)
    board[Cell(0, 2)] = Laid("cloister")
    for c in ring[:-1]:  # all but the last space of the ring (1 east, 3 south) are fields
        board[c] = Laid("tornado_field")
    s = replace(s, board=tuple(board.items()), followers=(Follower(RED, Cell(0, 2), 1),), supply=(6, 7))
    assert G.feature_name(s, Cell(0, 2), 1) == "monk"
    s = G.apply(s, Choice("meteor", {}))
    s = G.apply(s, Choice("aim", {"x": -1, "y": 1}))
    s = G.apply(G.apply(s, Choice("pass", {})), Choice("pass", {}))
    assert s.scores == (0, 0)
    s = skip(lay(s, 1, 3, "cloister"))  # Blue fills the ring: the cloister is complete
    assert s.scores == (8, 0) and "Red +8: cloister" in s.recent


def test_no_follower_on_a_meteor_tile():
    """"A follower may not be deployed on a meteor or flood tile": the meteor ends the turn, nothing to deploy."""
    s = G.apply(meteor_board(2), Choice("meteor", {}))
    s = G.apply(s, Choice("aim", {"x": 2, "y": 0}))
    s = G.apply(G.apply(s, Choice("pass", {})), Choice("pass", {}))
    refused(s, Choice("deploy", {"x": 2, "y": 0, "segment": -1}), "point at a space for the tile")
    assert not any(o.event.action == "deploy" for o in G.choices(s))


# -- the flood ------------------------------------------------------------------------------------------------

def river_board() -> CarcState:
    s = new(2, river="yes")
    s = skip(lay(s, 0, 1, "spring", 0))              # Red: the spring south of the start, river running south
    s = skip(lay(s, 0, 2, "river_cities", 0))        # Blue: river with a city either side
    s = deploy(lay(s, 1, 2, "city_edge", 3), 0)      # Red: closes the east city, Red on it ... scored at once
    return s


def test_the_flood_replaces_a_river_tile_and_what_touches_it_can_no_longer_complete():
    """"Choose a river, spring or lake tile and remove that tile from the game while replacing it with the flood
    tile. Any features that touch the flood tile are considered uncompleted and can't be completed.\""""
    s = new(2, river="yes")
    s = skip(lay(s, 0, 1, "spring", 0))
    s = skip(lay(s, 0, 2, "river", 0))
    s = G.apply(s, Choice("flood", {}))
    assert s.phase == "flood_aim" and [o.label for o in G.choices(s)] == ["1 south", "2 south"]
    refused(s, Choice("aim", {"x": 0, "y": 0}), "the start tile is not a river, spring or lake tile")
    s = G.apply(s, Choice("aim", {"x": 0, "y": 2}))
    assert s.tiles[Cell(0, 2)] == Laid("flood") and s.current == BLUE
    # a city east of the flood, closed on every side but the flood's: it can never be completed
    s = deploy(lay(s, 1, 2, "city_edge", 3), 0)
    an = G.analysis(s)
    city = an.at(Cell(1, 2), 0)
    assert city.doomed and not city.complete and s.scores == (0, 0) and len(s.followers) == 1


def test_on_the_flooding_players_next_turn_the_flood_spreads_before_drawing():
    """"On your next turn, the flood continues to spread. Before you draw a tile, take the large flood cut-out piece
    and place it so that it covers the 8 surrounding tiles around the flood tile.\""""
    s = new(2, river="yes")
    s = skip(lay(s, 0, 1, "spring", 0))
    s = skip(lay(s, 0, 2, "river", 0))
    s = G.apply(G.apply(s, Choice("flood", {})), Choice("aim", {"x": 0, "y": 2}))  # Red floods
    s = skip(lay(s, 1, 0, "road", 1))                                               # Blue
    assert s.phase == "flood_spread" and s.current == RED and G.prompt(s).short == "Flood spreads: OK"
    refused(s, Choice("cell", {"x": 2, "y": 0}), "before drawing, the flood spreads")
    s = G.apply(s, Choice("spread", {}))
    assert G.covered(s) == frozenset({Cell(x, y) for x in (-1, 0, 1) for y in (1, 2, 3)} - {Cell(0, 2)})
    refused(s, Choice("cell", {"x": 1, "y": 1}), "1 east, 1 south of the start lies under the flood")
    # the start's east road touches nothing flooded; the start's field lies beside the covered spring: doomed
    an = G.analysis(s)
    assert an.at(Cell(0, 1), 0).doomed  # the spring's river, under the cut-out


def test_without_the_river_the_flood_is_set_aside():
    s = G.apply(new(), Choice("flood", {}))
    assert s.phase == "cell" and s.current == RED and "no river in play" in s.recent[0]
    refused(s, Choice("flood", {}), "the flood is already out of the bag")


def test_no_follower_on_a_flood_tile():
    """"A follower may not be deployed on a meteor or flood tile.\""""
    s = new(2, river="yes")
    s = skip(lay(s, 0, 1, "spring", 0))
    s = skip(lay(s, 0, 2, "river", 0))
    s = G.apply(G.apply(s, Choice("flood", {})), Choice("aim", {"x": 0, "y": 2}))
    assert s.phase == "cell" and s.last is None


# -- the end and bad events -----------------------------------------------------------------------------------

def test_dice_are_not_a_decision():
    refused(new(), DiceRolled.of(("d6", 3)), "a decision, not a DiceRolled")


def test_players_and_options_are_checked():
    with pytest.raises(RuleError, match=r"2\.\.6 players"):
        G.new_game({"players": 7})
    with pytest.raises(RuleError, match=r"board: expected tiles, cells or light"):
        G.new_game({"players": 2, "board": "hexes"})


def test_a_tornado_state_is_immutable_and_replayable():
    from companion.games.base import replay

    events = [Choice("lay", {"x": 1, "y": 0, "kind": "", "quarters": 0}), Choice("pass", {}),
              Choice("lay", {"x": 2, "y": 0, "kind": "tornado_field", "quarters": 0})]
    s = replay(G, {"players": 2, "board": "cells"}, events)
    assert isinstance(s.tornado, Tornado) and s.phase == "tornado"
    assert replay(G, {"players": 2, "board": "cells"}, events) == s


# -- spaces only: the box asks what the disasters need when they need it ----------------------------------------

def test_spaces_only_the_earthquake_asks_about_each_tile_in_its_zone():
    """A group marking only the spaces: before final scoring the box asks, tile by tile in the zone, whether it
    holds a city, and lists the cities that take an earthquake token."""
    s = new(2, board="cells")
    s = skip(lay(s, 1, 0))                 # a plain tile
    s = skip(lay(s, 2, 0, "earthquake"))   # the earthquake tile
    s = G.apply(s, Choice("end", {}))
    assert s.phase == "quake_ask" and G.prompt(s).text == "Earthquake: does 2 east of the start hold a city?"
    refused(s, Choice("quake", {"x": 1, "y": 0, "city": True}), "the question is about 2 east of the start")
    s = G.apply(s, Choice("quake", {"x": 2, "y": 0, "city": False}))
    assert G.prompt(s).short == "City on 1 east?"
    s = G.apply(s, Choice("quake", {"x": 1, "y": 0, "city": True}))
    assert G.prompt(s).short == "City on start tile?"
    s = G.apply(s, Choice("quake", {"x": 0, "y": 0, "city": True}))
    assert s.phase == "final"
    s = G.apply(s, Choice("score", {}))
    assert s.final[0] == "Earthquake tokens: cities on 1 east of the start, the start tile"


def test_spaces_only_a_follower_goes_home_when_the_table_says_so():
    s = deploy(lay(new(2, board="cells"), 1, 0))
    assert "Red home: 1 east" in [o.label for o in G.choices(s)]
    s = G.apply(s, Choice("home", {"x": 1, "y": 0, "player": RED}))
    assert s.followers == () and s.supply == (7, 7)
    refused(s, Choice("home", {"x": 1, "y": 0, "player": RED}), "no follower of that colour on 1 east")


def test_spaces_only_a_follower_from_the_tornado_never_lands_on_the_meteor_or_the_flood():
    """Spaces only: the tornado ends on the meteor: no "feature -1" to stand on, the follower goes home."""
    g = variant(tornado_spaces=2)
    s = new(board="cells")
    board = {**s.tiles, Cell(1, 0): Laid("meteor"), Cell(2, 0): Laid("")}
    s = replace(s, board=tuple(board.items()), followers=(Follower(BLUE, Cell(0, 0), -1),), supply=(7, 6))
    twister = next(t for t in g.catalog.types if t.disaster == "tornado")
    s = g.apply(s, Choice("lay", {"x": -1, "y": 0, "kind": twister.key}))
    s = g.apply(s, Choice("tornado", {"path": [[0, 0], [1, 0]]}))
    assert s.phase == "deploy" and s.supply == (7, 7) and "Blue's follower returns to supply" in s.recent
    assert not any("feature" in o.label for o in g.choices(s))


def test_a_follower_on_a_whole_tile_is_said_the_tile_never_feature_minus_one():
    s = deploy(lay(new(board="cells"), 1, 0))
    assert G.feature_name(s, Cell(1, 0), -1) == "the tile"
    assert all("-1" not in line for line in s.recent)


def test_the_flood_drawn_as_the_last_tile_ends_the_game_instead_of_waiting():
    """No river in play and the flood is the bag's last tile: set aside, and final scoring comes."""
    s = new()
    flood = next(t for t in G.catalog.types if t.disaster == "flood")
    drawn = tuple((t.key, t.count) for t in G.catalog.types if G.in_play(s, t) and t.key != flood.key)
    s = replace(s, drawn=drawn)
    assert G.bag_left(s) == 1
    s = G.apply(s, Choice("flood", {}))
    assert s.phase in ("final", "quake_ask", "over") and "The flood was the last tile" in " ".join(s.recent)
    assert G.prompt(s).actions or G.prompt(s).done


def test_l_shaped_tornado_moves_are_a_reading_in_the_data():
    """The text does not say whether a move of two spaces may turn: maps/carcassonne.toml tornado.turns."""
    assert G.rules.tornado_turns and "Tornado moves: a move may turn (an L)" in G.rules.readings()
    assert "Tornado moves: a move may turn (an L)" in G.map_json()["readings"]
    for g, straight_only in ((variant(tornado_spaces=2), False),
                             (variant(tornado_spaces=2, tornado_turns=False), True)):
        s = new()
        board = {**s.tiles, **{Cell(x, y): Laid("") for x in range(-2, 3) for y in range(-2, 3) if (x, y) != (0, 0)}}
        s = replace(s, board=tuple(board.items()), mode="cells")
        s = g.apply(s, Choice("lay", {"x": 3, "y": 0, "kind": next(t for t in g.catalog.types
                                                                     if t.disaster == "tornado").key}))
        labels = [o.label for o in g.choices(s)]
        turning = [label for label in labels if len(set(label.split(", "))) > 1]
        assert bool(turning) != straight_only, labels
