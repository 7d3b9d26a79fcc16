import pytest

from companion.datafile import load_toml
from companion.errors import DataError


def write(tmp_path, text):
    path = tmp_path / "board.toml"
    path.write_text(text)
    return path


def test_errors_name_file_and_field(tmp_path):
    path = write(tmp_path, '[[hexes]]\nq = 1\nr = 2\nterrain = "lake"\n')
    fields = load_toml(path)
    hexes = list(fields.tables("hexes"))
    with pytest.raises(DataError, match=r"board\.toml: hexes\[0\]\.terrain: expected one of plain, hill, got 'lake'"):
        hexes[0].choice("terrain", ("plain", "hill"))


def test_type_range_missing_and_unknown_keys(tmp_path):
    fields = load_toml(write(tmp_path, 'players = "four"\nturn = 12\ntypo = 1\n'))
    with pytest.raises(DataError, match="players: expected an integer, got 'four'"):
        fields.get("players", int)
    with pytest.raises(DataError, match=r"turn: expected 1\.\.8, got 12"):
        fields.int_in("turn", 1, 8)
    with pytest.raises(DataError, match="missing: missing"):
        fields.get("missing", int)
    with pytest.raises(DataError, match="typo: unknown key"):
        fields.reject_unknown()


def test_bad_toml_and_missing_file_are_one_line(tmp_path):
    with pytest.raises(DataError, match="not valid TOML"):
        load_toml(write(tmp_path, "q = = 1"))
    with pytest.raises(DataError, match="file not found"):
        load_toml(tmp_path / "nope.toml")
