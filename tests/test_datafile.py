import pytest

from companion.datafile import DATA_LIMIT, load_toml, read_text, staged
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


# -- files that are no data file: one line naming the file, never a traceback, never a hang -------------------

def test_not_utf8_names_the_file_and_the_line(tmp_path):
    path = tmp_path / "kansas.toml"
    path.write_bytes(b'# a board\n[board]\nname = "Caf\xe9"\n')
    with pytest.raises(DataError) as caught:
        load_toml(path)
    assert str(caught.value) == f"{path}: line 3: not UTF-8 text (byte 29 is 0xe9)"


def test_a_byte_order_mark_is_read_past(tmp_path):
    path = tmp_path / "a.toml"
    path.write_bytes(b"\xef\xbb\xbfplayers = 4\n")
    assert load_toml(path).get("players", int) == 4


def test_a_folder_a_pipe_and_a_huge_file_are_refused_unread(tmp_path):
    import os

    folder = tmp_path / "folder.toml"
    folder.mkdir()
    with pytest.raises(DataError, match=r"folder\.toml: is a folder, not a file$"):
        load_toml(folder)
    pipe = tmp_path / "pipe.toml"
    os.mkfifo(pipe)  # nothing writes to it: reading it to its end would wait for ever
    with pytest.raises(DataError, match=r"pipe\.toml: is a named pipe, not a file$"):
        load_toml(pipe)
    huge = tmp_path / "huge.toml"
    with huge.open("wb") as fh:
        fh.truncate(DATA_LIMIT + 1)
    with pytest.raises(DataError, match=r"huge\.toml: too large \(1\.0 MB; at most 1\.0 MB\)"):
        load_toml(huge)
    assert load_toml(write(tmp_path, "a = 1\n"), limit=6).get("a", int) == 1
    with pytest.raises(DataError, match="too large"):
        load_toml(write(tmp_path, "a = 1\n"), limit=5)


def test_nested_too_deeply_is_one_line(tmp_path):
    with pytest.raises(DataError, match="not valid TOML: nested too deeply"):
        load_toml(write(tmp_path, "a = " + "[" * 5000 + "]" * 5000 + "\n"))


def test_unreadable_is_one_line(tmp_path):
    import os

    if os.geteuid() == 0:
        path = tmp_path / "missing-folder" / "a.toml"  # root reads every file: a path through no folder
        with pytest.raises(DataError, match="file not found"):
            load_toml(path)
        return
    path = write(tmp_path, "a = 1\n")
    path.chmod(0)
    with pytest.raises(DataError, match=r"board\.toml: cannot read: Permission denied"):
        load_toml(path)


def test_staged_text_is_read_instead_of_the_file_and_named_as_it(tmp_path):
    path = tmp_path / "board.toml"
    with staged(path, "a = 2\n"):
        assert load_toml(path).get("a", int) == 2
        with pytest.raises(DataError, match=rf"^{path}: a: expected a string"):
            load_toml(path).get("a", str)
    assert not path.exists()
    with pytest.raises(DataError, match="file not found"):
        load_toml(path)


def test_read_text_is_what_the_other_readers_share(tmp_path):
    path = tmp_path / "x.jsonl"
    path.write_bytes(b'{"a": 1}\n\xff\n')
    with pytest.raises(DataError, match=r"x\.jsonl: line 2: not UTF-8 text"):
        read_text(path)
    path.write_bytes(b'{"a": 1}\n')
    assert read_text(path) == '{"a": 1}\n'
