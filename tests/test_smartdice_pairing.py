"""Pairing: what a scan recognises, the pure pairing model, the pairing file, and the `companion dice` commands."""

from __future__ import annotations

import argparse
import asyncio
import sys

import pytest

from companion.cli import main
from companion.config import DiceConfig, load_config
from companion.errors import DataError
from hardware.smartdice import pixels
from hardware.smartdice.fakeble import FakeRadio
from hardware.smartdice.pairing import Found, PairingModel, classify, finish_pairing, scan
from hardware.smartdice.store import PairedDie, load_pairing, save_pairing

GODICE = Found("godice", "AA:00:00:00:00:01", "GoDice_0A1B2C_K_v04", battery=80)
GODICE_2 = Found("godice", "AA:00:00:00:00:02", "GoDice_99FF00_K_v04", battery=9)
PIXEL_D6 = Found("pixels", "AA:00:00:00:00:03", "Pixel 6", battery=55, die_type="d6")
PIXEL_D20 = Found("pixels", "AA:00:00:00:00:04", "Pixel 20", battery=90, die_type="d20")


def test_a_scan_recognises_godice_by_name_and_pixels_by_service_and_firmware():
    assert classify("aa:00:00:00:00:01", "GoDice_0A1B2C_K_v04", {}, {}, []) == Found(
        "godice", "AA:00:00:00:00:01", "GoDice_0A1B2C_K_v04")
    current = classify("AA:00:00:00:00:03", "Pixel 6", {0xFFFF: bytes([6, 0x20, 5, 1, 0x80 | 55])},
                       {pixels.SERVICE: bytes(8)}, [pixels.SERVICE.upper()])
    assert current == Found("pixels", "AA:00:00:00:00:03", "Pixel 6", 55, "d6", "current")
    old = classify("AA:00:00:00:00:05", None, {0x0801: bytes([1, 2, 3, 4, 1, 0, 255])}, {}, [pixels.SERVICE])
    assert old == Found("pixels", "AA:00:00:00:00:05", "Pixels die", 100, "d8", "legacy")
    assert classify("AA:00:00:00:00:06", "Kettle", {76: b"\x02\x15"}, {}, []) is None


def test_scan_through_bleak_lists_dice_with_battery_asking_each_godice(tmp_path):
    radio = FakeRadio()
    radio.add_godice(GODICE.address, GODICE.name, battery=80)
    radio.add_pixels(PIXEL_D6.address, PIXEL_D6.name, battery=55, die_type=2)
    found = asyncio.run(scan(0.01, scanner_backend=radio.scanner_backend, client_backend=radio.client_backend))
    assert [(f.family, f.name, f.battery, f.kind) for f in found] == [
        ("godice", GODICE.name, 80, None), ("pixels", "Pixel 6", 55, "d6")]
    assert radio.connects == {GODICE.address: 1}  # Pixels say their battery without a connection


def test_the_group_pairs_three_dice_and_the_file_reads_back_the_same(tmp_path):
    model = PairingModel([GODICE, GODICE_2, PIXEL_D6, PIXEL_D20])
    assert model.title() == "Pair dice: pick one"
    assert model.options() == ["GoDice_0A1B2C_K_v04, battery 80 %, not paired",
                               "GoDice_99FF00_K_v04, battery low (9 %), not paired",
                               "Pixels Pixel 6, battery 55 %, not paired", "Pixels Pixel 20, battery 90 %, not paired",
                               "Save", "Leave without saving"]
    for step in (0, 1, 1):  # the first GoDice: D8, blue
        assert model.pick(step) == "stay"
    assert model.message == "GoDice_0A1B2C_K_v04 is the Blue D8"
    model.pick(1)
    model.pick(1)  # the second GoDice as a D8 too...
    assert model.options()[1] == "Blue (taken by GoDice_0A1B2C_K_v04)"
    model.pick(1)
    assert model.screen == "colour" and "pick another colour" in model.message
    model.pick(0)  # ...red
    model.pick(2)
    model.pick(1)  # the Pixels D6 says what it is
    assert model.message == "this die says it is a D6" and model.screen == "kind"
    model.pick(0)
    model.pick(1)
    model.pick(3)
    model.pick(0)
    assert model.message == "this die says it is a D20: the games use D6 and D8"
    assert model.back() and model.screen == "dice" and not model.back()
    assert model.pick(4) == "save"
    store = tmp_path / "conf" / "dice.toml"
    said = finish_pairing(DiceConfig(pairing=str(store)), model)
    assert said == "3 dice paired (Blue D8, Red D8, Blue D6)"
    assert load_pairing(store) == model.paired()
    assert load_pairing(store)[2] == PairedDie("pixels", PIXEL_D6.address, "Pixel 6", "d6", "blue", "current")


def test_a_paired_die_out_of_range_is_listed_and_can_be_forgotten():
    paired = PairedDie("godice", "AA:00:00:00:00:09", "GoDice_OLD", "d6", "green")
    model = PairingModel([GODICE], [paired])
    assert model.options()[0] == "GoDice_OLD, not in range, Green D6"
    model.pick(0)
    assert model.options() == ["D6", "D8", "Not used: forget it"]
    model.pick(2)
    assert model.paired() == () and model.changed
    assert model.pick(model.options().index("Leave without saving")) == "leave"


def test_the_pairing_file_refuses_mistakes_in_one_line(tmp_path):
    store = tmp_path / "dice.toml"
    blue = PairedDie("godice", "AA:00:00:00:00:01", "a", "d8", "blue")
    save_pairing(store, [blue])
    text = store.read_text()
    store.write_text(text + text.replace("AA:00:00:00:00:01", "AA:00:00:00:00:02"))
    with pytest.raises(DataError, match=r"dice\.toml: \(top level\): die\[1\]: same colour and kind as die\[0\]"):
        load_pairing(store)
    store.write_text(text.replace('"d8"', '"d20"'))
    with pytest.raises(DataError, match=r"die\[0\]\.kind: expected one of d6, d8, got 'd20'"):
        load_pairing(store)
    store.write_text(text + "shell = 'd8'\n")
    with pytest.raises(DataError, match=r"die\[0\]\.shell: unknown key"):
        load_pairing(store)
    assert load_pairing(tmp_path / "none.toml") == ()


def test_dice_scan_without_bluetooth_says_so_in_one_line(monkeypatch, tmp_path, capsys):
    monkeypatch.setenv("DBUS_SYSTEM_BUS_ADDRESS", f"unix:path={tmp_path}/no-bus")
    assert main(["dice", "scan", "--seconds", "0.05"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("companion: no Bluetooth on this machine (") and err.count("\n") == 1


def test_dice_commands_without_bleak_say_how_to_install_it(monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "bleak", None)
    monkeypatch.setitem(sys.modules, "bleak.exc", None)
    assert main(["dice", "scan"]) == 2
    assert capsys.readouterr().err == "companion: bleak is not installed (pip install 'storm-companion[ble]')\n"


def test_dice_pair_by_typed_numbers_then_list(monkeypatch, tmp_path, capsys):
    from companion.commands import dice

    store = tmp_path / "dice.toml"
    config = tmp_path / "config.toml"
    config.write_text(f'[dice]\nenabled = true\npairing = "{store}"\n')
    radio = FakeRadio()
    radio.add_godice(GODICE.address, GODICE.name, battery=80)
    answers = iter(["1", "x", "2", "b", "2", "2", "2"])  # die 1, a typo, D8, back, D8, blue, save
    monkeypatch.setattr("builtins.input", lambda _prompt: next(answers))
    args = argparse.Namespace(config=config, seconds=0.01)
    assert dice.pair_main(args, scanner_backend=radio.scanner_backend, client_backend=radio.client_backend) == 0
    out = capsys.readouterr().out
    assert "type a number 1-2, or b to go back" in out
    assert out.rstrip().endswith(f"1 dice paired (Blue D8), saved in {store}")
    assert main(["dice", "list", "--config", str(config)]) == 0
    assert capsys.readouterr().out == f"Blue D8: godice {GODICE.name} at {GODICE.address}\n"
    store.write_text("[[die]]\nfamily = 'dice'\n")
    assert main(["dice", "list", "--config", str(config)]) == 2
    assert capsys.readouterr().err == f"companion: {store}: die[0].family: expected one of godice, pixels, got 'dice'\n"


def test_dice_section_of_the_configuration(tmp_path):
    path = tmp_path / "config.toml"
    path.write_text('[dice]\nenabled = true\ndebounce_s = 0.5\npixels = "advert"\n')
    assert load_config(path).dice == DiceConfig(enabled=True, debounce_s=0.5, pixels="advert")
    for text, message in (('pixels = "radio"', "dice.pixels: expected one of connect, advert, got 'radio'"),
                          ("debounce_s = 20", "dice.debounce_s: expected 0..10 seconds, got 20.0"),
                          ('pairing = ""', "dice.pairing: expected a file path, got ''"),
                          ("retry_s = 0", "dice.retry_s: expected 0.1..60 seconds, got 0.0")):
        path.write_text(f"[dice]\n{text}\n")
        with pytest.raises(DataError) as caught:
            load_config(path)
        assert str(caught.value) == f"{path}: {message}"
