"""Minnesota: the standard game's two cards face up beside the board, kept by name, through the real session.

The expansion's text names them only to keep them off the Japan map ("Do not place another two by the side of the
board as you would do in the standard game"); when a taken one is replaced is a reading in maps/
(``rules.faceup_refill``), shown on the side panel and by ``companion map industry``. A game journaled before the
box kept them (tests/fixtures/industry_minnesota_main.jsonl: exported from a game played with the engine before
this one, its map files with it) still resumes, to the same board, and the box then asks for their names."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
from entry_presses import Presses, enter

from companion.cli import main
from companion.dice import Choice
from companion.errors import DataError
from companion.games.industry.data import load_all
from companion.games.industry.painter import IndustryPainter
from companion.inputs import Decide
from companion.journal import Journal
from companion.journal.boards import CHANGED
from companion.paths import maps_dir
from companion.session import Hold, Press, Session
from companion.session.drawn import painter_of

FIXTURE = Path(__file__).parent / "fixtures" / "industry_minnesota_main.jsonl"


@pytest.fixture
def journal(tmp_path: Path):
    with Journal(tmp_path / "j.sqlite") as j:
        yield j


def refused(s: Session, action: str, reason: str, **args: object) -> None:
    assert s.current is not None
    before = len(s.journal.events(s.current.game_id))
    s.handle(Decide(Choice(action, args)))
    assert reason in s.message and "\n" not in s.message, s.message
    assert len(s.journal.events(s.current.game_id)) == before


def side_lines(s: Session) -> list[str]:
    assert s.current is not None
    painter = painter_of(s.current.game, s.current.state)  # handed the rules' answers for this state
    assert isinstance(painter, IndustryPainter)
    return [line for line, _ in painter.side_lines(s.current.state)]


def named(s: Session, *cards: str) -> None:
    p = Presses(s)
    for card in cards:
        enter(p, "deal", card=card)


def test_the_two_face_up_cards_are_named_at_the_start_and_shown_by_name(journal: Journal) -> None:
    s = Session(journal)
    s.start(game="industry", options={"map": "Minnesota", "players": 3})
    assert s.current is not None
    deck = s.current.state.deck
    assert s.current.state.beside == ("?", "?") and s.panel.prompt is not None
    assert s.panel.prompt.short == "Face up: which card?"
    menu = s.panel.menu
    assert menu is not None and menu.items[menu.selected] == "Location card"  # the most numerous kind first
    assert "Take face-up card" not in s.panel.menu.items
    assert "(not named yet)" in side_lines(s)
    named(s, "coal", "location")
    state = s.current.state
    assert state.beside == ("coal", "location") and state.deck == deck  # dealt with the hands: counted at the start
    assert s.panel.result == ("Face up beside the board: Location card",)
    lines = side_lines(s)
    at = lines.index("Face up beside the board")
    assert lines[at + 1:at + 3] == ["Coal mine", "Location card"]
    assert "A face-up card taken from beside the board: replaced from the deck at once" in lines
    refused(s, "deal", "no card is being dealt face up", card="port")  # two, no more
    again = Session(journal)
    again.start()
    assert again.current is not None and again.current.state.beside == ("coal", "location")


def test_a_card_taken_names_its_taker_and_is_replaced_at_once(journal: Journal) -> None:
    """The shipped reading (``faceup_refill = "at_once"``): the card dealt in its place is asked before any
    other entry, and lowers the deck; held BACK takes it back."""
    s = Session(journal)
    s.start(game="industry", options={"map": "Minnesota", "players": 3})
    named(s, "coal", "location")
    assert s.current is not None
    deck = s.current.state.deck
    p = Presses(s)
    p.pick("Take face-up card")
    menu = s.panel.menu
    assert menu is not None and set(menu.items) == {"Coal mine", "Location card", "Cancel"}
    assert menu.items[menu.selected] == "Coal mine" and menu.items[menu.selected + 1] == "Location card"
    p.pick("Coal mine")
    p.pick("Blue")
    assert s.panel.result == ("Blue takes Coal mine (face up)", "Deal a card face up in its place")
    assert s.current.state.beside == ("", "location") and s.panel.prompt is not None
    assert s.panel.prompt.short == "Face up: which card?"
    refused(s, "industry", "a card is being dealt face up", location="duluth", kind="port", owner="Red")
    p.pick("Port")
    assert s.current.state.beside == ("port", "location") and s.current.state.deck == deck - 1
    refused(s, "faceup", "no face-up card 5 beside the board", card=5, player="Red")
    refused(s, "faceup", "no player 'Pink'", card=0, player="Pink")
    s.handle(Hold("BACK"))
    s.handle(Press("OK"))  # "Undo last?" yes: the replacement is taken back, the place waits again
    assert s.current.state.beside == ("", "location") and s.current.state.deck == deck


def test_the_deck_running_out_ends_the_game_with_face_up_cards_still_there(journal: Journal) -> None:
    """Second edition, point 3: "The game ends when the deck has been exhausted, even if there are still cards on
    display": a replacement that takes the last card ends the game at the end of that turn; a card taken from an
    exhausted deck's side is not replaced."""
    s = Session(journal)
    s.start(game="industry", options={"map": "Minnesota", "players": 3})
    named(s, "coal", "location")
    assert s.current is not None
    s.handle(Decide(Choice("draw", {"count": s.current.state.deck - 1})))
    s.handle(Decide(Choice("faceup", {"card": 1, "player": "Green"})))
    s.handle(Decide(Choice("deal", {"card": "ship"})))
    assert s.current.state.deck == 0 and s.current.state.beside == ("coal", "ship")
    assert s.panel.result[-1] == "The deck is exhausted: the game ends at the end of this turn"
    s.handle(Decide(Choice("faceup", {"card": 0, "player": "Red"})))
    assert s.panel.result == ("Red takes Coal mine (face up)", "The deck is exhausted: nothing to replace it")
    assert s.current.state.beside == ("-", "ship")
    refused(s, "faceup", "face-up place 1 beside the board holds no card", card=0, player="Blue")
    s.handle(Decide(Choice("end_turn", {})))
    assert s.panel.prompt is not None and s.panel.prompt.done


def test_the_reading_end_of_turn_replaces_a_taken_card_when_the_turn_ends(tmp_path: Path) -> None:
    """The other reading, set in the map's data: the place stays empty until End turn, then its card is asked."""
    maps = tmp_path / "maps"
    shutil.copytree(maps_dir(), maps)
    path = maps / "industry_minnesota.toml"
    path.write_text(path.read_text().replace('faceup_refill = "at_once"', 'faceup_refill = "end_of_turn"'))
    with Journal(tmp_path / "j.sqlite") as journal:
        s = Session(journal, maps=maps)
        s.start(game="industry", options={"map": "Minnesota", "players": 3})
        named(s, "coal", "location")
        assert s.current is not None
        deck = s.current.state.deck
        s.handle(Decide(Choice("faceup", {"card": 0, "player": "Blue"})))
        assert s.panel.result == ("Blue takes Coal mine (face up)", "Its place is dealt at the end of the turn")
        assert s.current.state.beside == ("-", "location") and "(empty)" in side_lines(s)
        assert "A face-up card taken from beside the board: replaced from the deck at the end of the turn" \
            in side_lines(s)
        s.handle(Decide(Choice("industry", {"location": "duluth", "kind": "port", "owner": "Red"})))
        assert not s.message, s.message
        s.handle(Decide(Choice("end_turn", {})))
        assert s.current.state.beside == ("", "location") and s.panel.prompt is not None
        assert s.panel.prompt.short == "Face up: which card?"
        named(s, "iron")
        assert s.current.state.beside == ("iron", "location") and s.current.state.deck == deck - 1


def test_the_reading_is_shown_by_the_map_command(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["map", "industry"]) == 0
    out = capsys.readouterr().out
    assert "reading: A face-up card taken from beside the board: replaced from the deck at once" in out
    assert main(["map", "industry", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)["maps"]
    assert data["Minnesota"]["faceup_refill"] == "at_once" and data["Minnesota"]["beside_board"] == 2
    assert "A face-up card taken from beside the board: replaced from the deck at once" in \
        data["Minnesota"]["readings"]
    assert "faceup_refill" not in data["Japan"]  # the Japan map has its display instead


def test_a_bad_reading_in_the_map_file_is_one_line_naming_file_and_field(tmp_path: Path) -> None:
    maps = tmp_path / "maps"
    shutil.copytree(maps_dir(), maps)
    path = maps / "industry_minnesota.toml"
    path.write_text(path.read_text().replace('faceup_refill = "at_once"', 'faceup_refill = "later"'))
    with pytest.raises(DataError) as refused_file:
        load_all(maps)
    said = str(refused_file.value)
    assert "industry_minnesota.toml" in said and "faceup_refill" in said and "\n" not in said


def test_a_minnesota_game_journaled_before_the_face_up_cards_were_kept_resumes(journal: Journal) -> None:
    """Exported from a game played with the engine before this one (its map files, without the reading, travel
    with it): it resumes to the same board, deck and ledger; the face-up cards it never named are asked for, and
    the game goes on."""
    game_id = journal.import_lines(FIXTURE.read_text().splitlines(), FIXTURE.name)
    header = json.loads(FIXTURE.read_text().splitlines()[0])
    assert "faceup_refill" not in header["files"]["industry_minnesota.toml"]
    s = Session(journal)
    s.start()
    assert s.current is not None and s.current.game_id == game_id
    assert s.message == CHANGED  # it plays on the map files it began with, which lack the new reading
    state = s.current.state
    assert state.deck == 35 and state.turn == 2
    assert sorted((c.location, c.kind, c.owner, c.cubes) for c in state.counters) == [
        ("braidwood", "coal", "Green", 2), ("duluth", "port", "Red", 0), ("eveleth", "iron", "Blue", 2)]
    assert sorted((r.link.a, r.link.b, r.owner) for r in state.rails) == [
        ("austin", "chicago_south", "Green"), ("duluth", "eveleth", "Red")]
    assert s.panel.status == "Minnesota turn 2 - deck 35"
    # the two cards it never named: asked for now, and the game goes on
    assert state.beside == ("?", "?") and s.panel.prompt is not None
    assert s.panel.prompt.short == "Face up: which card?"
    named(s, "port", "iron")
    assert s.current.state.beside == ("port", "iron") and s.current.state.deck == 35
    assert s.panel.prompt is not None and "Rail links: Red $5, Blue $0, Green $4" in s.panel.prompt.text
    s.handle(Decide(Choice("draw", {"count": 2})))
    assert not s.message and s.current.state.deck == 33


def test_the_fixture_is_an_export_of_the_engine_before(journal: Journal) -> None:
    """The fixture's own story, so it is read as what it is: button steps (pages, single steps), typed entries,
    an undo and a cancel, as that engine journaled them."""
    lines = [json.loads(line) for line in FIXTURE.read_text().splitlines()[1:]]
    actions = [line.get("action", line["type"]) for line in lines]
    assert actions.count("undo") == 1 and "cancel" in actions and {"page": 0} in [x.get("args") for x in lines]
    assert not any(re.match(r"deal|faceup", a) for a in actions)


def test_japan_places_no_cards_beside_the_board(journal: Journal) -> None:
    """Japan: "Do not place another two by the side of the board as you would do in the standard game": its deck
    loses only the hands, and nothing beside the board is asked for or offered."""
    s = Session(journal)
    s.start(game="industry", options={"map": "Japan", "players": 3})
    assert s.current is not None
    state = s.current.state
    _rules, boards = load_all()
    assert state.beside == () and state.deck == len(boards["Japan"].deck) - 6 * 3
    assert s.panel.prompt is not None and s.panel.prompt.short == "Space 1: which card?"
    named(s, "coal", "cotton", "location", "ship", "iron", "goods")
    assert s.panel.menu is not None and "Take face-up card" not in s.panel.menu.items
    refused(s, "faceup", "no entry 'faceup'", card=0, player="Red")
