"""Readings in force: where the rule texts leave a question open the answer is data in maps/, shown in
`companion map GAME --json` and on the projector's side panel, and a group's other reading changes the play."""

from __future__ import annotations

import json
from dataclasses import replace

from companion.cli import main
from companion.games import load_game
from companion.games.industry import ledger
from companion.places import Link


def map_json(capsys, game: str) -> dict:
    assert main(["map", game, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_every_open_question_is_a_reading_in_map_json(capsys):
    carcassonne = map_json(capsys, "carcassonne")
    assert carcassonne["rules"]["tornado_turns"] is True
    assert carcassonne["rules"]["meteor_on_earthquake"] == "cancels"
    assert carcassonne["rules"]["flood_farmers"] == "cut_out"
    said = " ".join(carcassonne["readings"])
    assert "a move may turn (an L)" in said and "the earthquake is cancelled" in said and "completed or not" in said
    industry = map_json(capsys, "industry")
    assert industry["maps"]["Minnesota"]["readings"] == [
        "A link to a Chicago name box: the base value + the Chicago area's counters + the other end's",
        "A face-up card taken from beside the board: replaced from the deck at once"]
    allegheny = map_json(capsys, "allegheny")
    assert allegheny["rules"]["single_track"] == "one_track_per_link"
    assert any("Pittsburgh" in r for r in allegheny["readings"])
    assert main(["map", "industry"]) == 0
    out = capsys.readouterr().out
    assert "reading: A link to a Chicago name box" in out and "tile by tile" not in out


def test_the_chicago_links_value_follows_the_reading():
    game = load_game("industry")
    board = game.boards["Minnesota"]
    state = game.new_game({"map": "Minnesota", "players": 3})
    box = next(k for k, s in board.spots.items() if s.chicago)
    link = next(k for k in board.links if box in k.ends())
    assert isinstance(link, Link)
    base, _ = ledger.link_value(board, game.rules, state, link)
    literal, _ = ledger.link_value(replace(board, chicago_link="chicago_area"), game.rules, state, link)
    assert base == game.rules.link_base + literal and literal == 0


def test_the_readings_are_on_the_side_panels():
    from companion.session.drawn import painter_of
    from companion.views.projector.layout import Layout

    for key, options, words in (("industry", {"map": "Minnesota", "players": 3}, "Chicago name box"),
                                ("allegheny", {"players": 3}, "No double track into and out of Pittsburgh")):
        game = load_game(key)
        state = game.new_game(options)
        painter = painter_of(game, state)  # handed the rules' answers for this state, as the renderer does
        board = game.board_for(state) if hasattr(game, "board_for") else None
        layout = Layout.for_board(board, 1920, 1080)
        keys = " ".join(str(p.key) for p in painter.side_pieces(layout, layout.side, state))
        assert words in keys, key
