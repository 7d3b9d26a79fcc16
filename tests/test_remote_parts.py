"""The phones' page in parts: messages, codes, the view's snapshot, the inputs it makes, the join code on the
OLED (its QR code read back by a decoder-free check: segno's own matrix) and on the projector."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

import pytest

from companion.config import Config, RemoteConfig, parse_config
from companion.datafile import Fields
from companion.dice import Choice, Die
from companion.errors import DataError
from companion.inputs import Decide, Hold, Press, Roll, Say
from companion.journal import Journal
from companion.remote import messages
from companion.remote.codes import ALPHABET, CODE_LENGTH, Joining
from companion.remote.messages import Answer, Bid, Dice, Pick, Refused, Undo, parse
from companion.remote.source import PhoneInputs
from companion.remote.view import OptionView, RemoteView, Snapshot
from companion.session.core import Session
from companion.views.panel import Menu, Panel


def test_every_message_the_page_sends_parses():
    assert parse('{"t": "pick", "frame": 3, "option": 2}') == Pick(3, 2)
    assert parse('{"t": "dice", "frame": 1, "dice": [["d8", 8], ["d6", 1]]}') == Dice(1, (("d8", 8), ("d6", 1)))
    assert parse('{"t": "bid", "frame": 0, "amount": 17}') == Bid(0, 17)
    assert parse('{"t": "undo", "frame": 9}') == Undo(9)
    assert parse('{"t": "answer", "frame": 9, "yes": false}') == Answer(9, False)


@pytest.mark.parametrize("raw", [
    b'{"t": "undo", "frame": 1}', "", "null", "3", '"pick"', '{"t": 1, "frame": 1}', '{"frame": 1}',
    '{"t": "undo", "frame": -1}', '{"t": "undo", "frame": 1.5}', '{"t": "undo", "frame": "1"}',
    '{"t": "pick", "frame": 1, "option": 256}', '{"t": "bid", "frame": 1, "amount": 100001}',
    '{"t": "dice", "frame": 1, "dice": []}', '{"t": "dice", "frame": 1, "dice": [["d6", 0]]}',
    '{"t": "dice", "frame": 1, "dice": [["d6", true]]}', '{"t": "dice", "frame": 1, "dice": [["d6"]]}',
    '{"t": "dice", "frame": 1, "dice": [' + ",".join(['["d6", 1]'] * 9) + "]}",
    '{"t": "answer", "frame": 1, "yes": 1}', "[" * 100_000, '{"t": "undo", "frame": 1, "t2": 0}',
    '{"t": "undo", "frame": 1, "pad": "' + "x" * messages.MAX_MESSAGE + '"}',
])
def test_anything_else_is_refused_with_a_reason(raw):
    with pytest.raises(Refused) as refused:
        parse(raw)
    assert str(refused.value) and "\n" not in str(refused.value)


def test_codes_are_short_unambiguous_and_renewing_revokes_every_token():
    joining = Joining()
    revoked = []
    joining.on_revoke = lambda: revoked.append(True)
    code = joining.code
    assert len(code) == CODE_LENGTH and set(code) <= set(ALPHABET) and not set("0O1I2Z5S8B") & set(ALPHABET)
    blue = joining.join(code.lower(), "Blue")
    assert blue is not None and blue.name == "Blue's phone" and blue.player == 1
    other = joining.join(f" {code} ")
    assert other is not None and other.name == "phone 2" and other.player is None
    assert joining.join(code, "Mauve") is None and joining.join("WRONG1") is None
    assert joining.phone(blue.token) == blue and joining.phone("forged") is None and joining.phone(None) is None
    joining.renew()
    assert revoked and joining.phone(blue.token) is None and joining.join(code) is None and joining.code != code


def _snapshot(**kw):
    return Snapshot(7, (4, 2), b"\0" * 24, **kw)


def test_inputs_become_the_sessions_own_and_are_checked_against_the_frame():
    put = []
    clock = [0.0]
    inputs = PhoneInputs(put.append, clock=lambda: clock[0])
    joining = Joining()
    red = joining.join(joining.code, "Red")
    bids = (OptionView("+1 -> $6", None, Choice("bid", {"player": 2, "amount": 6})),
            OptionView("Pass", None, Choice("pass", {"player": 2})))
    assert inputs.act(red, Pick(7, 0)) == "the box is starting"
    inputs.update(_snapshot(options=bids, bid=bids[0]))
    assert inputs.act(red, Pick(6, 0)) == "the table moved on: look again"
    assert inputs.act(red, Pick(7, 2)) == "no such option now"
    assert inputs.act(red, Dice(7, (("d6", 3),))) == "no dice are asked now"
    assert inputs.act(red, Bid(7, 11)) == ""
    assert put == [Decide(Choice("bid", {"player": 2, "amount": 11}))]
    assert inputs.act(red, Pick(7, 1)) == "another player acted first"
    clock[0] += 5  # nothing changed on the screens for a while: the frame may be acted on again
    assert inputs.act(red, Pick(7, 1)) == ""
    inputs.update(_snapshot(options=(OptionView("Bid", None, Choice("bid", {"player": 1, "amount": 6})),)))
    put.clear()
    inputs.update(Snapshot(8, (4, 2), b"", options=(OptionView("Bid", None, Choice("bid", {"player": 1})),)))
    assert inputs.act(red, Pick(8, 0)) == "it is Blue's turn, not Red's"
    assert put == [Say("Red's phone: it is Blue's turn, not Red's")]
    put.clear()
    inputs.update(Snapshot(9, (4, 2), b"", dice=("d8", "d6")))
    assert inputs.act(red, Dice(9, (("d6", 7 - 1),))) == ""
    assert put == [Roll((Die("d6", 6),), "phone:Red")]
    inputs.update(Snapshot(10, (4, 2), b"", dice=("d8",)))
    assert inputs.act(red, Dice(10, (("d8", 1), ("d8", 2)))) == "no D8 is asked now"
    put.clear()
    inputs.update(Snapshot(11, (4, 2), b"", undo=True))
    assert inputs.act(red, Undo(11)) == "" and put == [Hold("BACK")]
    inputs.update(Snapshot(12, (4, 2), b"", question="Undo last?", yes_first=False))
    put.clear()
    assert inputs.act(red, Answer(12, True)) == "" and put == [Press("UP"), Press("OK")]
    inputs.update(Snapshot(13, (4, 2), b"", question="Undo last?"))
    put.clear()
    assert inputs.act(red, Answer(13, False)) == "" and put == [Press("BACK")]
    inputs.update(Snapshot(14, (4, 2), b"", menu="Menu"))
    assert inputs.act(red, Undo(14)) == "nothing to undo now"
    assert inputs.act(red, Answer(14, True)) == "no question is asked now"


def test_the_snapshot_carries_words_rectangles_and_no_events(tmp_path):
    from companion.session.core import Frame

    with Journal(tmp_path / "j.sqlite") as journal:
        session = Session(journal)
        session.start("carcassonne", {"players": 2, "board": "tiles", "river": "no"})
        published = []
        view = RemoteView(session, published.append, (480, 270))
        view.show(session.frame)
        snap = published[-1]
        assert snap.frame == 1 and len(snap.rgb) == 480 * 270 * 3
        assert "lay a tile" in snap.request and snap.options
        placed = [o for o in snap.options if o.rect]
        assert placed and all(o.rect[0] >= 0 and o.rect[0] + o.rect[2] <= 480 and o.rect[3] > 0 for o in placed)
        public = snap.public()
        text = json.dumps(public)
        assert "Choice" not in text and "'x'" not in text and '"args"' not in text
        assert public["options"][0]["label"] == snap.options[0].label
        watched = [False]
        view.watched = lambda: watched[0]
        view.show(session.frame)
        assert view.renderer is None and len(published) == 1  # no phone: nothing drawn, the surfaces let go
        watched[0] = True
        view.pump()  # a phone came: the frame it has not seen is drawn on the loop's next turn
        assert len(published) == 2 and view.renderer is not None
        view.pump()
        assert len(published) == 2
        menu = Frame(Panel(game="Kansas", menu=Menu("Undo last?", ("OK: yes", "BACK: no"), 1)))
        view.show(menu)
        assert published[-1].question == "Undo last?" and not published[-1].yes_first and not published[-1].options


def test_the_oled_shows_the_join_qr_code_beside_the_menu():
    from companion.views.oled import render
    from companion.views.qr import modules

    url = "HTTP://10.0.0.5:8080/J/K7PM2Q"
    plain = Panel(menu=Menu("Phones: 0 joined", ("K7PM2Q", "10.0.0.5:8080", "New code", "Done")))
    image = render(Panel(**{**plain.__dict__, "join": "10.0.0.5:8080  code K7PM2Q", "join_url": url}))
    rows = modules(url)
    side = (len(rows) + 2) * 2
    x0 = 128 - side
    for y, row in enumerate(rows):  # every module where the code says, two pixels a module, one module of border
        for x, dark in enumerate(row):
            assert image.getpixel((x0 + 2 + 2 * x, 2 + 2 * y)) == (0 if dark else 255)
    assert render(plain).crop((0, 0, x0 - 2, 64)).tobytes() == image.crop((0, 0, x0 - 2, 64)).tobytes()


def test_the_projector_shows_the_join_card_and_takes_it_away():
    import pygame

    from companion.session.core import Frame
    from companion.views.projector import ProjectorRenderer, render_frame

    plain = Frame(Panel(game="Kansas"))
    joined = Frame(Panel(game="Kansas", join="10.0.0.5:8080  code K7PM2Q", join_url="HTTP://10.0.0.5:8080/J/K7PM2Q"))
    renderer = ProjectorRenderer((960, 540))
    first = pygame.image.tobytes(renderer.render(plain).copy(), "RGB")
    with_card = pygame.image.tobytes(renderer.render(joined).copy(), "RGB")
    assert with_card != first and with_card == pygame.image.tobytes(render_frame(joined, (960, 540)), "RGB")
    assert pygame.image.tobytes(renderer.render(plain), "RGB") == first  # the map comes back whole


def test_the_remote_section_is_off_by_default_and_checked():
    assert Config().remote == RemoteConfig(enabled=False, port=8080, bind="0.0.0.0")
    config = parse_config(Fields("c.toml", {"remote": {"enabled": True, "port": 8123, "bind": "127.0.0.1"}}))
    assert config.remote == RemoteConfig(True, 8123, "127.0.0.1")
    for bad, key in (({"port": 0}, "port"), ({"bind": "my-box"}, "bind"), ({"enabled": "yes"}, "enabled"),
                     ({"shell": "sh"}, "shell")):
        with pytest.raises(DataError) as err:
            parse_config(Fields("c.toml", {"remote": bad}))
        assert "c.toml" in str(err.value) and key in str(err.value)


def test_a_taken_port_is_said_once_and_the_box_runs_on(tmp_path):
    import socket

    from companion.sim import build_table, sim_config

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        config = Config(remote=RemoteConfig(enabled=True, port=port, bind="127.0.0.1"))
        with Journal(tmp_path / "j.sqlite") as journal, build_table(journal, sim_config(config, headless=True),
                                                                    views=[]) as table:
            assert table.parts["remote"] == "off"
            assert any(n.startswith("phones: page not started") for n in table.session.notices)


def test_the_box_menu_offers_phones_with_the_code_and_address(tmp_path):
    from companion.remote.join import JoinDresser, PhonesMenu

    with tempfile.TemporaryDirectory() as folder, Journal(Path(folder) / "j.sqlite") as journal:
        session = Session(journal)
        session.start("kansas", {"players": 4})
        joining = Joining()
        dresser = JoinDresser(joining, session, "10.0.0.5:8080")
        menu = PhonesMenu(dresser)
        dresser.showing = True
        assert menu.options()[:2] == (joining.code, "10.0.0.5:8080")
        dressed = dresser.dress(session.frame)
        assert dressed.panel.join_url == f"HTTP://10.0.0.5:8080/J/{joining.code}"
        assert dresser.dress(session.frame) is dressed  # the same frame, the same dressed frame
        old = joining.code
        assert menu.pick(2) == "stay" and joining.code != old
        assert menu.pick(3) == "leave" and not dresser.showing
        assert dresser.dress(session.frame).panel.join_url == ""
        code = joining.code
        session.new_game("kansas", {"players": 5})  # a new game: every token revoked, a new code
        dresser.dress(session.frame)
        assert joining.code != code


def test_a_dressed_view_keeps_its_name_and_its_prepare():
    from companion.remote.join import Dressed, JoinDresser
    from companion.session.views import FrameFolder, OledView

    class Session:
        current = None

    dresser = JoinDresser(Joining(), Session(), "10.0.0.5:8080")
    oled = Dressed.of(OledView(None, lambda panel: None), dresser)
    assert type(oled).__name__ == "OledView" and hasattr(oled, "prepare")
    folder = Dressed.of(FrameFolder.__new__(FrameFolder), dresser)
    assert type(folder).__name__ == "FrameFolder" and not hasattr(folder, "prepare")


def test_the_phones_menu_from_the_buttons_shows_the_code_on_the_oled_and_the_projector(tmp_path):
    from remote_box import Box

    box = Box(tmp_path, "kansas", {"players": 4})
    try:
        session = box.table.session
        box.table.inbox.put(Press("BACK"))
        box.wait(lambda: session.panel.menu is not None and "Phones" in session.panel.menu.items)
        for _ in range(session.panel.menu.items.index("Phones")):
            box.table.inbox.put(Press("DOWN"))
        box.table.inbox.put(Press("OK"))
        box.wait(lambda: session.panel.menu is not None and session.panel.menu.title == "Phones: 0 joined")
        assert session.panel.menu.items[:2] == (box.code, f"127.0.0.1:{box.remote.server.port}")
        box.wait(lambda: any(p.key[0] == "join" for p in box.projector.renderer.shown_pieces))
        card = next(p for p in box.projector.renderer.shown_pieces if p.key[0] == "join")
        assert card.key[1] == f"HTTP://127.0.0.1:{box.remote.server.port}/J/{box.code}"
        assert box.remote.view.renderer is None  # no phone is connected: nothing is drawn for phones
        old = box.code
        box.table.inbox.put(Press("DOWN"))
        box.table.inbox.put(Press("DOWN"))
        box.table.inbox.put(Press("OK"))  # "New code"
        box.wait(lambda: box.code != old)
        box.wait(lambda: any(p.key[0] == "join" and box.code in p.key[1] for p in box.projector.renderer.shown_pieces))
        box.table.inbox.put(Press("BACK"))
        box.wait(lambda: not any(p.key[0] == "join" for p in box.projector.renderer.shown_pieces))
    finally:
        box.close()
