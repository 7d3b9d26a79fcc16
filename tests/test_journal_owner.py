"""One box per journal, and nothing acknowledged lost at a stop while the journal refuses writes."""

from __future__ import annotations

import logging
import os
import selectors
import signal
import sqlite3
import subprocess
import sys
import time

import pytest

from companion.cli import main
from companion.dice import DiceRolled
from companion.journal import Entry, Journal
from companion.journal.recovery import recovery_path
from tests.test_e2e_service import ENV, REPO, _lines_until_ready, _start, _stop

D8 = DiceRolled.of(("d8", 5), source="tower")


@pytest.mark.usefixtures("restore_logging")
def test_a_second_box_on_the_same_journal_stops_at_start_naming_the_first(tmp_path, capsys):
    path = tmp_path / "j.sqlite"
    with Journal(path) as first:
        gid = first.new_game("kansas", {"players": 4})
        assert main(["run", "--sim", "--headless", "--journal", str(path)]) == 75
        err = capsys.readouterr().err
        assert err == (f"companion: journal {path}: in use by another companion (PID {os.getpid()}); "
                       "one box per journal\n")
        assert main(["import", str(tmp_path / "x.jsonl"), "--journal", str(path)]) == 2  # no such file: said first
        (tmp_path / "x.jsonl").write_text('{"game": "kansas", "options": {}}\n')
        assert main(["import", str(tmp_path / "x.jsonl"), "--journal", str(path)]) == 75
        capsys.readouterr()
        # reading beside the owner works
        assert main(["games", "--journal", str(path)]) == 0 and "kansas" in capsys.readouterr().out
        assert main(["export", str(gid), "--journal", str(path)]) == 0
        assert main(["journal", "check", "--journal", str(path)]) == 0
        assert f"in use by PID {os.getpid()}" in capsys.readouterr().out
        assert first.append(gid, Entry("event", D8))  # the owner's writes go on
    assert sorted(p.name for p in tmp_path.iterdir()) == ["j.sqlite", "x.jsonl"]  # the lock file goes with its owner
    with Journal(path) as again:
        assert [x.event for x in again.events(gid)] == [D8]


@pytest.mark.usefixtures("restore_logging")
def test_two_real_boxes(tmp_path, capsys):
    """A running `companion run` process: a second start exits 75 naming its PID; `games` still lists."""
    path = tmp_path / "j.sqlite"
    child = _start(path)
    try:
        _lines_until_ready(child)
        assert main(["run", "--sim", "--headless", "--journal", str(path)]) == 75
        assert f"(PID {child.pid})" in capsys.readouterr().err
        assert main(["games", "--journal", str(path)]) == 0
    finally:
        assert _stop(child) == 0


def hold_write_lock(path):
    """Another program holding the journal's write lock (sqlite3's own BEGIN IMMEDIATE): writes are refused."""
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    return holder


def test_a_write_refused_by_a_lock_waits_a_quarter_second_not_five(tmp_path):
    path = tmp_path / "j.sqlite"
    j = Journal(path)
    gid = j.new_game("kansas", {})
    holder = hold_write_lock(path)
    started = time.monotonic()
    assert j.append(gid, Entry("event", D8)) is False
    assert time.monotonic() - started < 2.0
    assert j.degraded and "cannot write (database is locked)" in j.notice
    holder.rollback()
    holder.close()
    j.close()


def test_a_stop_while_the_journal_refuses_writes_keeps_them_for_the_next_start(tmp_path, caplog):
    path = tmp_path / "j.sqlite"
    j = Journal(path)
    gid = j.new_game("kansas", {"players": 4})
    j.append(gid, Entry("event", D8))
    holder = hold_write_lock(path)
    late = [Entry("event", DiceRolled.of(("d8", 2))), Entry("undo"), Entry("event", DiceRolled.of(("d8", 7)))]
    other = None
    try:
        for entry in late:
            assert j.append(gid, entry) is False
        other = j.new_game("stormfury", {"players": 2})
        j.mark_finished(gid)
        with caplog.at_level(logging.WARNING, logger="companion.journal"):
            j.close(timeout=0.3)  # the lock stays: the stop gives up waiting and keeps them in the recovery file
        assert "5 waiting writes kept in j.sqlite.recovery.jsonl" in caplog.text  # 3 entries, a game, an end
    finally:
        holder.rollback()
        holder.close()
    assert recovery_path(path).exists()
    caplog.clear()
    with caplog.at_level(logging.WARNING, logger="companion.journal"), Journal(path) as again:
        assert [e for e in again.entries(gid)] == [Entry("event", D8), *late]
        assert [g.id for g in again.games()] == [other, gid] and again.game(gid).finished
    assert "put in the journal" in caplog.text
    assert not recovery_path(path).exists()
    with Journal(path) as third:  # imported once: nothing twice
        assert len(third.entries(gid)) == 4


def test_a_stop_waits_for_the_journal_to_come_free(tmp_path):
    """Disk full at the last write, space back within the wait: the entries reach the journal, no recovery file."""
    path = tmp_path / "j.sqlite"
    j = Journal(path)
    gid = j.new_game("kansas", {})
    pages = j._db.execute("PRAGMA page_count").fetchone()[0]
    j._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    j._db.execute(f"PRAGMA max_page_count={pages}")
    big = Entry("event", DiceRolled.of(*[("d6", 1 + i % 6) for i in range(3000)]))
    assert j.append(gid, big) is False
    j._db.execute("PRAGMA max_page_count=1000000")  # space comes back before the stop
    j.close(timeout=5)
    assert not recovery_path(path).exists()
    with Journal(path) as again:
        assert again.entries(gid) == [big]


def _read_until(child: subprocess.Popen[bytes], needle: str, seconds: float = 20) -> str:
    """stderr read raw from the fd until ``needle`` shows (or the child ends, or time runs out)."""
    fd = child.stderr.fileno()
    text = ""
    deadline = time.monotonic() + seconds
    with selectors.DefaultSelector() as sel:
        sel.register(fd, selectors.EVENT_READ)
        while needle not in text and time.monotonic() < deadline:
            if sel.select(timeout=0.5):
                chunk = os.read(fd, 4096)
                if not chunk:
                    break
                text += chunk.decode()
    return text


@pytest.mark.parametrize("stop", ["quit", "SIGTERM"])
def test_a_stop_while_the_journal_is_held_loses_nothing(tmp_path, stop):
    """The service, stopped (typed quit, or systemd's SIGTERM) while another program holds its journal: exit 0,
    the roll accepted before the stop is in the recovery file, and the next start puts it in the journal."""
    path = tmp_path / "j.sqlite"
    child = subprocess.Popen([sys.executable, "-m", "companion", "run", "--sim", "--headless", "--stdin",
                              "--game", "kansas", "--players", "4", "--journal", str(path)], cwd=REPO, env=ENV,
                             stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    holder = None
    try:
        _lines_until_ready(child)
        holder = hold_write_lock(path)
        child.stdin.write(b"d8 6\n")
        child.stdin.flush()
        err = _read_until(child, "game kept in memory")
        assert "game kept in memory" in err
        if stop == "quit":
            child.stdin.write(b"quit\n")
            child.stdin.close()
        else:
            child.send_signal(signal.SIGTERM)
            child.stdin.close()
        assert child.wait(timeout=20) == 0
        err += child.stderr.read().decode()
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
        child.stderr.close()
        if holder is not None:
            holder.rollback()
            holder.close()
    assert "waiting writes kept in j.sqlite.recovery.jsonl" in err and "Traceback" not in err
    with Journal(path) as j:
        [game] = j.games()
        assert [x.event for x in j.events(game.id)] == [DiceRolled.of(("d8", 6), source="typed")]


def test_a_recovery_file_the_journal_cannot_take_yet_keeps_its_game_ids(tmp_path):
    """Still refusing writes at the next start: the recovered game waits in memory, and a new game gets the next id."""
    path = tmp_path / "j.sqlite"
    j = Journal(path)
    holder = hold_write_lock(path)
    try:
        waiting = j.new_game("kansas", {})
        j.close(timeout=0)
        again = Journal(path)
        assert again.degraded and again.new_game("stormfury", {}) == waiting + 1
    finally:
        holder.rollback()
        holder.close()
    again.close()
    with Journal(path) as third:
        assert [(g.id, g.game) for g in third.games()] == [(waiting + 1, "stormfury"), (waiting, "kansas")]


@pytest.mark.usefixtures("restore_logging")
def test_a_start_on_a_full_disk_is_one_line_and_a_later_try(tmp_path, capsys, monkeypatch):
    """The lock file's PID is the first byte a start writes: on a full disk that write fails (ENOSPC). One line,
    exit 75 (systemd starts the box again later), no traceback; nothing left behind, the games untouched."""
    import errno

    from companion.journal import lock

    path = tmp_path / "j.sqlite"
    with Journal(path) as first:
        gid = first.new_game("kansas", {"players": 4})
        first.append(gid, Entry("event", D8))
    before = path.read_bytes()

    def full(fd: int, data: bytes, offset: int) -> int:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(lock.os, "pwrite", full)
    assert main(["run", "--sim", "--headless", "--journal", str(path)]) == 75
    err = capsys.readouterr().err
    assert err == f"companion: journal {path}: disk full, cannot write its lock file j.sqlite.lock; free some space\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["j.sqlite"] and path.read_bytes() == before
    monkeypatch.undo()
    with Journal(path) as again:  # space freed: the next start takes the lock as ever
        assert [x.event for x in again.events(gid)] == [D8]


def test_a_game_begun_while_writes_are_refused_keeps_its_board_through_the_recovery_file(tmp_path):
    path = tmp_path / "j.sqlite"
    j = Journal(path)
    holder = hold_write_lock(path)
    board = {"kansas.toml": "[rules]\nmarkers_per_tornado = 5\n# \u00e9\n".encode()}
    try:
        gid = j.new_game("kansas", {"players": 4}, board)
        assert j.append(gid, Entry("event", D8)) is False
        j.close(timeout=0.2)
    finally:
        holder.rollback()
        holder.close()
    assert '"type": "file"' in recovery_path(path).read_text()
    with Journal(path) as again:
        assert again.game_files(gid) == board and [e.event for e in again.entries(gid)] == [D8]
