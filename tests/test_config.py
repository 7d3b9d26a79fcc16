"""The configuration file: defaults, round trip, one-line errors naming the key, exit 2 from the CLI."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.cli import main
from companion.config import Config, load_config, to_toml
from companion.errors import DataError


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "config.toml"
    path.write_text(text)
    return path


def test_empty_file_means_defaults(tmp_path):
    assert load_config(write(tmp_path, "")) == Config()


def test_values_are_read(tmp_path):
    cfg = load_config(write(tmp_path, '[tower]\nport = "/dev/dice-tower"\n[oled]\ndriver = "sh1106"\naddress = 0x3D\n'))
    assert cfg.tower.port == "/dev/dice-tower"
    assert cfg.oled.driver == "sh1106" and cfg.oled.address == 0x3D
    assert cfg.buttons == Config().buttons


def test_show_round_trips(tmp_path):
    cfg = load_config(write(tmp_path, '[game]\nplayers = 3\n[projector]\nwidth = 1280\nfullscreen = false\n'))
    assert load_config(write(tmp_path, to_toml(cfg))) == cfg


@pytest.mark.parametrize(("text", "needle"), [
    ("[oled]\ndrivr = 'sh1106'\n", "oled.drivr: unknown key"),
    ("[olde]\n", "olde: unknown key"),
    ("[oled]\ndriver = 'st7735'\n", "oled.driver: expected one of"),
    ("[buttons]\nroll = 40\n", "buttons.roll: expected 0..27"),
    ("[buttons]\nup = 17\n", "buttons.up: BCM 17 is already used by roll"),
    ("[tower]\nbaud = 'fast'\n", "tower.baud: expected an integer"),
    ("[oled]\nrotation = 1\n", "oled.rotation: expected 0 or 2"),
    ("[tower]\nusb_id = '2E8A'\n", "tower.usb_id: expected VID:PID"),
    ("[game\n", "not valid TOML"),
])
def test_bad_file_is_one_line_naming_the_key(tmp_path, text, needle):
    path = write(tmp_path, text)
    with pytest.raises(DataError) as info:
        load_config(path)
    message = str(info.value)
    assert needle in message and str(path) in message and "\n" not in message


def test_cli_check_ok(tmp_path, capsys):
    assert main(["config", "check", str(write(tmp_path, "[oled]\nrotation = 2\n"))]) == 0
    assert capsys.readouterr().out == "ok\n"


def test_cli_corrupt_config_exits_2_with_one_line(tmp_path, capsys):
    path = tmp_path / "config.toml"
    path.write_bytes(b"\x00\xff garbage = = [\n")
    assert main(["config", "check", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and str(path) in err and "Traceback" not in err


def test_cli_missing_named_file_is_an_error(tmp_path, capsys):
    assert main(["config", "check", str(tmp_path / "nope.toml")]) == 2
    assert "file not found" in capsys.readouterr().err


def test_cli_show_prints_toml(tmp_path, capsys):
    assert main(["config", "show", str(write(tmp_path, "[game]\nplayers = 2\n"))]) == 0
    assert "[game]\ndefault = \"kansas\"\nplayers = 2\n" in capsys.readouterr().out


def test_the_service_refuses_a_corrupt_config_in_one_line_before_touching_anything(tmp_path, capsys):
    import logging

    path = tmp_path / "config.toml"
    path.write_text("[tower]\nport = /dev/ttyACM0\n")  # unquoted: not TOML
    root = logging.getLogger()
    saved = (list(root.handlers), root.level)
    try:
        assert main(["run", "--headless", "--config", str(path), "--journal", str(tmp_path / "j.sqlite")]) == 2
    finally:
        root.handlers[:] = saved[0]
        root.setLevel(saved[1])
    err = capsys.readouterr().err
    assert err.startswith(f"companion: {path}: not valid TOML") and err.count("\n") == 1
    assert not (tmp_path / "j.sqlite").exists()
