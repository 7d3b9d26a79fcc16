"""A damaged journal never empties the box: read-only commands leave it be, `run` keeps it aside and copies
back every whole game; a bad row leaves out its own game only."""

from __future__ import annotations

import json
import logging
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from benchmarks.bench_journal import scripted_events
from companion.cli import main
from companion.dice import Choice, DiceRolled
from companion.errors import RuleError
from companion.games.registry import GameSpec, load_game, register
from companion.journal import Entry, Journal
from companion.journal.salvage import salvage

GAMES = 12


class LedgerGame:
    """The game of the 12 games below: any roll, and notes (names as long as Kansas's and Stormfury's keys, so the
    file's pages are laid out as a night of those); its rules refuse any other choice, so a salvaged game is
    counted saved only when its rows replay here too."""

    title = "Ledger"

    def __init__(self, key: str) -> None:
        self.key = key

    def new_game(self, options: dict[str, Any]) -> tuple[Any, ...]:
        if not isinstance(options.get("players"), int):
            raise RuleError("players: a number")
        return ()

    def apply(self, state: tuple[Any, ...], event: Any) -> tuple[Any, ...]:
        if not isinstance(event, DiceRolled) and not (isinstance(event, Choice) and event.action == "note"):
            raise RuleError(f"not a roll or a note: {event}")
        return (*state, event)


def load_ledger(maps: Path | None = None) -> LedgerGame:
    return LedgerGame("ledger")


def load_ledgerbig(maps: Path | None = None) -> LedgerGame:
    return LedgerGame("ledgerbig")


@pytest.fixture(autouse=True)
def ledger_games() -> Iterator[None]:
    undo = [register(GameSpec(key=key, title="Ledger", engine=f"tests.test_journal_salvage:load_{key}", order=990))
            for key in ("ledger", "ledgerbig")]
    yield
    for remove in undo:
        remove()


def twelve_games(path: Path) -> dict[int, list[Entry]]:
    """A journal of 12 games, 5 to 60 entries each (a few undos and re-rolls), some finished; what each holds."""
    made: dict[int, list[Entry]] = {}
    with Journal(path) as j:
        for n in range(GAMES):
            gid = j.new_game("ledger" if n % 2 else "ledgerbig", {"players": 4 + n % 3, "note": "x" * (n * 7)})
            entries = []
            for i in range(5 + 5 * n):
                if i % 9 == 8:
                    entry = Entry("undo")
                elif i % 11 == 10:
                    entry = Entry("reroll", DiceRolled.of(("d6", 1 + i % 6), ("d6", 6)))
                elif i % 4 == 3:
                    entry = Entry("event", Choice("note", {"text": f"game {gid} entry {i} " + "y" * 40}))
                else:
                    entry = Entry("event", DiceRolled.of(("d8", 1 + i % 8), source="tower"))
                j.append(gid, entry)
                entries.append(entry)
            if n % 3 == 0:
                j.mark_finished(gid)
            made[gid] = entries
    return made


def page_size(path: Path) -> int:
    with sqlite3.connect(path) as db:
        return db.execute("PRAGMA page_size").fetchone()[0]


def cut_in_half(path: Path) -> None:
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])


def header_zeroed(path: Path) -> None:
    data = path.read_bytes()
    path.write_bytes(b"\x00" * 100 + data[100:])


def page_overwritten(path: Path) -> None:
    """One page in the middle of the file replaced by noise (a sector the card returned wrong)."""
    size = page_size(path)
    data = bytearray(path.read_bytes())
    middle = (len(data) // size // 2) * size
    data[middle:middle + size] = bytes((i * 37 + 11) % 256 for i in range(size))
    path.write_bytes(bytes(data))


DAMAGE = {"cut in half": (cut_in_half, 7), "header zeroed": (header_zeroed, GAMES),
          "one page overwritten": (page_overwritten, GAMES - 1)}
"""Each way of damaging the journal, and how many of the 12 games at least must come back whole."""


def assert_same_games(path: Path, made: dict[int, list[Entry]], gids: list[int]) -> None:
    with Journal(path, readonly=True) as j:
        for gid in gids:
            assert j.entries(gid) == made[gid], gid


@pytest.mark.parametrize("damage", DAMAGE)
def test_salvage_brings_back_every_whole_game_and_counts_the_rest(tmp_path, damage):
    path = tmp_path / "j.sqlite"
    made = twelve_games(path)
    spoil, at_least = DAMAGE[damage]
    spoil(path)
    found = salvage(path)
    saved = [g.id for g in found.saved]
    assert len(saved) >= at_least and len(saved) + len(found.lost) == GAMES, found.summary()
    out = tmp_path / "saved.sqlite"
    assert main(["journal", "salvage", str(path), "--out", str(out)]) == 0
    assert_same_games(out, made, saved)  # what comes back is exactly what was written, under the same ids


@pytest.mark.parametrize("damage", DAMAGE)
def test_read_only_commands_never_move_a_damaged_journal(tmp_path, capsys, damage):
    path = tmp_path / "j.sqlite"
    twelve_games(path)
    DAMAGE[damage][0](path)
    before = path.read_bytes()
    for argv in (["games"], ["export", "1"], ["journal", "check"]):
        assert main([*argv, "--journal", str(path)]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "damaged" in err and "journal salvage" in err, err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["j.sqlite"] and path.read_bytes() == before


@pytest.mark.parametrize("damage", DAMAGE)
def test_the_box_keeps_the_damaged_file_aside_and_starts_with_its_games(tmp_path, caplog, damage):
    path = tmp_path / "j.sqlite"
    made = twelve_games(path)
    spoil, at_least = DAMAGE[damage]
    spoil(path)
    (tmp_path / "j.sqlite-wal").write_bytes(b"")  # leftovers of the damaged file go aside with it
    (tmp_path / "j.sqlite-shm").write_bytes(b"")
    with Journal(path) as j:
        games = j.games()
        assert len(games) >= at_least
        assert f"{len(games)} games saved, {GAMES - len(games)} not" in j.notice and "kept as" in j.notice
        gids = [g.id for g in games]
    assert_same_games(path, made, gids)
    aside = sorted(p.name for p in tmp_path.iterdir() if ".aside" in p.name)
    assert len(aside) == 3 and aside[1].endswith(".aside-shm") and aside[2].endswith(".aside-wal")


def test_a_wal_the_box_left_behind_is_read_too(tmp_path):
    """A box killed before a checkpoint has its last games only in the -wal file: salvage reads them there."""
    path = tmp_path / "j.sqlite"
    made = twelve_games(path)
    keep = sqlite3.connect(path)  # a reader keeps the WAL from being checkpointed away at close
    keep.execute("PRAGMA wal_autocheckpoint=0")
    keep.execute("SELECT 1 FROM games").fetchall()
    j = Journal(path)
    j._db.execute("PRAGMA wal_autocheckpoint=0")
    gid = j.new_game("kansas", {"players": 5})
    late = [Entry("event", DiceRolled.of(("d8", 3)))]
    j.append(gid, late[0])
    wal = (tmp_path / "j.sqlite-wal").read_bytes()
    j.close()
    keep.close()
    (tmp_path / "j.sqlite-wal").write_bytes(wal)
    header_zeroed(path)
    found = salvage(path)
    assert gid in [g.id for g in found.saved] and len(found.saved) == GAMES + 1
    made[gid] = late


@pytest.mark.parametrize(("options", "why"), [("{not json", "not JSON"), ("[1, 2]", "a JSON list")])
def test_a_bad_options_value_leaves_out_its_game_alone(tmp_path, capsys, caplog, options, why):
    path = tmp_path / "j.sqlite"
    with Journal(path) as j:
        good = j.new_game("kansas", {"players": 4})
        bad = j.new_game("kansas", {"players": 5})
        j._db.execute("UPDATE games SET options=? WHERE id=?", (options, bad))
    assert main(["games", "--json", "--journal", str(path)]) == 0
    out, err = capsys.readouterr()
    assert [json.loads(line)["id"] for line in out.splitlines()] == [good]
    assert err == f"companion: journal j.sqlite: game {bad}: column options: {why}; game left out\n"
    assert main(["journal", "check", "--journal", str(path)]) == 2
    assert f"game {bad}: column options: {why}" in capsys.readouterr().err
    caplog.clear()
    with caplog.at_level(logging.WARNING), Journal(path) as j:  # what `run` does at start: resume the last open game
        assert j.last_unfinished().id == good
    assert [r.getMessage() for r in caplog.records] == [f"journal j.sqlite: game {bad}: column options: {why}; "
                                                        "game left out"]


def test_the_box_starts_beside_a_bad_games_row(tmp_path):
    """Through the session: the bad row is left out and the other game resumes (once a traceback at every start)."""
    from companion.session.core import Session

    path = tmp_path / "j.sqlite"
    with Journal(path) as j:
        good = j.new_game("kansas", {"players": 4})
        j.append(good, Entry("event", DiceRolled.of(("d8", 4))))
        bad = j.new_game("kansas", {"players": 4})
        j._db.execute("UPDATE games SET options='[]' WHERE id=?", (bad,))
    with Journal(path) as j:
        session = Session(j)
        session.start()
        assert session.current is not None and session.current.game_id == good
        assert j.problems == [f"journal j.sqlite: game {bad}: column options: a JSON list; game left out"]


def test_an_unreadable_entry_names_its_game_and_the_others_are_listed(tmp_path, capsys):
    path = tmp_path / "j.sqlite"
    with Journal(path) as j:
        a = j.new_game("kansas", {})
        j.append(a, Entry("event", DiceRolled.of(("d8", 4))))
        b = j.new_game("kansas", {})
        j.append(b, Entry("event", DiceRolled.of(("d8", 4))))
        j._db.execute("UPDATE entries SET event='{\"type\": \"dice\", \"dice\": [[\"d8\", 1e400]]}' WHERE game_id=?",
                      (a,))
    assert main(["games", "--journal", str(path)]) == 0
    out, err = capsys.readouterr()
    assert f"   {b}  kansas" in out and f"   {a}  kansas" not in out
    assert err.strip().endswith(f"game {a} entry 0: a number out of range; game left out") and err.count("\n") == 1


def test_read_only_commands_create_nothing(tmp_path, capsys):
    missing = tmp_path / "typo" / "j.sqlite"
    assert main(["games", "--journal", str(missing)]) == 0
    assert "no saved games" in capsys.readouterr().out
    assert main(["export", "1", "--journal", str(missing)]) == 2
    assert main(["journal", "check", "--journal", str(missing)]) == 0
    assert list(tmp_path.iterdir()) == []
    path = tmp_path / "j.sqlite"
    twelve_games(path)
    assert main(["games", "--journal", str(path)]) == 0
    assert main(["journal", "check", "--journal", str(path)]) == 0
    assert "sound, 12 games (8 open)" in capsys.readouterr().out
    assert sorted(p.name for p in tmp_path.iterdir()) == ["j.sqlite"]  # no -wal, -shm or lock file left


def test_salvage_refuses_to_overwrite(tmp_path, capsys):
    path = tmp_path / "j.sqlite"
    twelve_games(path)
    assert main(["journal", "salvage", str(path), "--out", str(path)]) == 2
    assert main(["journal", "salvage", str(tmp_path / "none.sqlite")]) == 2
    assert capsys.readouterr().err.count("\n") == 2
    assert main(["journal", "salvage", str(path)]) == 0
    assert (tmp_path / "j.sqlite.salvaged.sqlite").exists()
    assert "12 games saved, 0 not" in capsys.readouterr().out


def sweep(tmp: Path) -> list[tuple[str, int, int]]:
    """Every way of damaging the 12-game journal one page at a time: each page overwritten with noise, the file
    cut at each page boundary, and the header zeroed. For each: games back after `run`'s own start (set aside,
    salvaged), games not; asserts every game back is the one written, entry for entry."""
    clean = tmp / "clean.sqlite"
    made = twelve_games(clean)
    data = clean.read_bytes()
    size = page_size(clean)
    pages = len(data) // size
    noise = bytes((i * 37 + 11) % 256 for i in range(size))
    cases = {"header zeroed": b"\x00" * 100 + data[100:]}
    for n in range(pages):
        cases[f"page {n + 1} overwritten"] = data[:n * size] + noise + data[(n + 1) * size:]
    for n in range(1, pages):
        cases[f"cut after page {n}"] = data[:n * size]
    rows = []
    for name, damaged in cases.items():
        path = tmp / "j.sqlite"
        for old in tmp.iterdir():
            if old.name.startswith("j.sqlite"):
                old.unlink()
        path.write_bytes(damaged)
        with Journal(path) as j:
            back = [g.id for g in j.games()]
        assert_same_games(path, made, back)
        rows.append((name, len(back), GAMES - len(back)))
    return rows


def test_every_page_overwritten_and_every_cut_starts_the_box_with_what_can_be_read(tmp_path):
    """38 damaged journals, each started as `run` starts (no case raises). One page lost costs at most the games
    with rows on it, except the games table's own page (12 rows on one page: its loss leaves no game whole)."""
    rows = sweep(tmp_path)
    clean = tmp_path / "clean.sqlite"
    assert len(rows) == 2 * (len(clean.read_bytes()) // page_size(clean))
    with sqlite3.connect(clean) as db:
        games_page = db.execute("SELECT rootpage FROM sqlite_master WHERE name='games'").fetchone()[0]
    back = {name: n for name, n, _ in rows}
    assert back["header zeroed"] == GAMES and back[f"page {games_page} overwritten"] == 0
    others = [n for name, n in back.items() if "overwritten" in name and name != f"page {games_page} overwritten"]
    assert min(others) >= GAMES - 4
    cuts = [n for name, n in back.items() if name.startswith("cut")]
    assert cuts == sorted(cuts) and cuts[-1] == GAMES - 1  # the longer the file, the more comes back


if __name__ == "__main__":  # python -m tests.test_journal_salvage: the figures in docs/reliability.md
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        result = sweep(Path(folder))
    for name, back, lost in result:
        print(f"{name:<24} {back:>2} games back, {lost:>2} not")
    print(f"{len(result)} damaged journals: every start succeeded; {sum(b for _, b, _ in result)} games back, "
          f"{sum(x for _, _, x in result)} not, 0 changed")


def test_entries_lost_at_the_end_are_noticed_even_when_written_a_moment_apart(tmp_path):
    """A game's last entries written within the same moment as the one before them (an undo and a decision, a
    journal filled fast) and then lost with their page: the game is named, not saved short. Its ``updated``
    time is the last write's, so it must tell two writes apart however close they came."""
    path = tmp_path / "j.sqlite"
    with Journal(path) as j:
        gid = j.new_game("kansas", {"players": 4})
        for value in range(1, 9):
            j.append(gid, Entry("event", DiceRolled.of(("d8", value), source="tower")))
    with sqlite3.connect(path) as db:
        stamps = [row[0] for row in db.execute("SELECT accepted_at FROM entries ORDER BY idx")]
        db.execute("DELETE FROM entries WHERE game_id=? AND idx>=6", (gid,))  # the tail's page, lost
    assert len(set(stamps)) == len(stamps)  # every write its own time
    found = salvage(path)
    assert not found.saved and "entries from 6 on are gone" in found.lost[gid]


def games_only_in_the_wal(tmp_path: Path, main_file: str) -> tuple[Path, bytes, dict[int, list[Entry]]]:
    """A journal whose every game is still in its -wal (a box cut off before its first checkpoint), beside a main
    file emptied to 0 bytes (or gone): what SQLite would take for a new journal."""
    path = tmp_path / "j.sqlite"
    made: dict[int, list[Entry]] = {}
    j = Journal(path)
    j._db.execute("PRAGMA wal_autocheckpoint=0")
    for n in range(4):
        gid = j.new_game("kansas", {"players": 3 + n})
        made[gid] = [Entry("event", DiceRolled.of(("d8", 1 + (n + i) % 8), source="tower")) for i in range(6 + n)]
        for entry in made[gid]:
            j.append(gid, entry)
    wal = (tmp_path / "j.sqlite-wal").read_bytes()
    j.close()
    if main_file == "emptied":
        path.write_bytes(b"")
    else:
        path.unlink()
    (tmp_path / "j.sqlite-wal").write_bytes(wal)
    assert len(wal) > 4096
    return path, wal, made


@pytest.mark.parametrize("main_file", ["emptied", "gone"])
def test_an_empty_journal_beside_a_wal_holding_games_is_never_read_as_none(tmp_path, capsys, main_file):
    path, wal, made = games_only_in_the_wal(tmp_path, main_file)
    for command in (["games"], ["journal", "check"], ["export", "1"]):
        assert main([*command, "--journal", str(path)]) == 2
        err = capsys.readouterr().err
        assert "write-ahead log" in err and "salvage" in err and err.count("\n") == 1
    assert path.exists() == (main_file == "emptied")  # read-only: nothing made, moved or written
    assert not path.exists() or path.read_bytes() == b""
    assert (tmp_path / "j.sqlite-wal").read_bytes() == wal
    with Journal(path) as j:
        assert "kept as" in j.notice and "4 games saved, 0 not" in j.notice
        assert [g.id for g in j.games()] == sorted(made, reverse=True)
        for gid, entries in made.items():
            assert j.entries(gid) == entries
    aside = sorted(p for p in tmp_path.iterdir() if ".aside" in p.name)
    assert aside[0].name.endswith(".aside") and len(aside) in (2, 3)  # with its -wal (and -shm, when there is one)
    assert aside[0].stat().st_size == 0 and aside[-1].name.endswith(".aside-wal") and aside[-1].read_bytes() == wal
    assert main(["games", "--journal", str(path)]) == 0
    assert capsys.readouterr().out.count("kansas") == 4


def test_a_game_counts_as_saved_only_when_it_replays(tmp_path, capsys):
    """A flipped bit that leaves a row parsing (a D8 read as a D6, same length, same page) made salvage call a
    game saved that no longer resumes. The box's salvage (`run`, `journal salvage`) replays each game on its
    engine: that one is named as not saved, the sound one beside it comes back."""
    from companion.journal.replays import replay_check

    path = tmp_path / "j.sqlite"
    engine = load_game("kansas")
    events = scripted_events(engine, {"players": 4}, 30, seed=5)
    with Journal(path) as j:
        good, flipped = j.new_game("kansas", {"players": 4}), j.new_game("kansas", {"players": 4})
        for gid in (good, flipped):
            for event in events:
                j.append(gid, Entry("event", event))
    with sqlite3.connect(path) as db:  # the first roll of the second game: a grid line's D8
        (text,) = db.execute("SELECT event FROM entries WHERE game_id=? AND idx=0", (flipped,)).fetchone()
        assert '"d8"' in text
        db.execute("UPDATE entries SET event=? WHERE game_id=? AND idx=0", (text.replace('"d8"', '"d6"'), flipped))
    header_zeroed(path)
    assert {g.id for g in salvage(path).saved} == {good, flipped}  # the rows alone: both parse
    found = salvage(path, replay_check())
    assert [g.id for g in found.saved] == [good] and "does not replay" in found.lost[flipped]
    out = tmp_path / "saved.sqlite"
    assert main(["journal", "salvage", str(path), "--out", str(out)]) == 0
    assert "1 game saved, 1 not" in capsys.readouterr().out
    with Journal(path, replays=replay_check()) as j:  # the box's own start
        assert "1 game saved, 1 not" in j.notice and f"game {flipped}: does not replay" in j.notice
        assert [g.id for g in j.games()] == [good]
        assert [x.event for x in j.events(good)] == events
