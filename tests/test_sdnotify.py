"""sd_notify over a real AF_UNIX datagram socket, by path and by abstract name."""

from __future__ import annotations

import logging
import os
import socket

import pytest

from companion.logging_setup import setup_logging
from companion.sdnotify import Notifier


@pytest.fixture
def listener(tmp_path):
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    path = str(tmp_path / "notify")
    sock.bind(path)
    sock.settimeout(5)
    yield sock, path
    sock.close()


def test_messages_arrive(listener):
    sock, path = listener
    n = Notifier(path, "10000000")
    assert n.ready() and n.watchdog() and n.status("playing\nkansas") and n.stopping()
    got = [sock.recv(256).decode() for _ in range(4)]
    assert got == ["READY=1", "WATCHDOG=1", "STATUS=playing kansas", "STOPPING=1"]
    assert n.watchdog_interval == 10.0 and n.ping_every() == 5.0


def test_abstract_socket():
    name = f"companion-test-{os.getpid()}"
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind("\0" + name)
    sock.settimeout(5)
    try:
        assert Notifier("@" + name, "").ready()
        assert sock.recv(64) == b"READY=1"
    finally:
        sock.close()


def test_no_socket_is_a_noop(monkeypatch):
    monkeypatch.delenv("NOTIFY_SOCKET", raising=False)
    monkeypatch.delenv("WATCHDOG_USEC", raising=False)
    n = Notifier()
    assert not n.enabled and n.ready() is False and n.ping_every() is None


def test_gone_socket_never_raises(tmp_path):
    assert Notifier(str(tmp_path / "gone"), "x").watchdog() is False


def test_env_is_read(monkeypatch, listener):
    sock, path = listener
    monkeypatch.setenv("NOTIFY_SOCKET", path)
    monkeypatch.setenv("WATCHDOG_USEC", "2000000")
    n = Notifier()
    assert n.ping_every() == 1.0 and n.ready() and sock.recv(64) == b"READY=1"


def test_setup_logging_plain_lines(capsys):
    root = logging.getLogger()
    saved = (list(root.handlers), root.level)
    try:
        setup_logging()
        logging.getLogger("companion.x").warning("OLED gone")
        assert capsys.readouterr().err == "WARNING companion.x: OLED gone\n"
    finally:
        root.handlers[:] = saved[0]
        root.setLevel(saved[1])


def test_watchdog_pings_are_spaced_however_fast_the_loop_turns(listener):
    sock, path = listener
    now = [0.0]
    n = Notifier(path, "10000000", clock=lambda: now[0])  # 10 s watchdog: ping at most once a second
    sent = []
    for step in range(100):  # the loop turning at 20 Hz for 5 s
        now[0] = step * 0.05
        sent.append(n.watchdog())
    assert sent.count(True) == 5
    assert [sock.recv(64) for _ in range(5)] == [b"WATCHDOG=1"] * 5


def test_a_full_notify_socket_never_blocks_the_service(listener):
    _, path = listener
    n = Notifier(path)
    results = [n.status(f"turn {i}") for i in range(5000)]  # nobody reads: the queue fills up
    assert results[0] is True
    assert False in results  # dropped, not waited on (a blocking send would hang this test)


def test_under_journald_each_line_carries_its_syslog_priority(capsys):
    root = logging.getLogger()
    saved = (list(root.handlers), root.level)
    try:
        setup_logging(journald=True)
        logging.getLogger("companion.x").warning("tower lost")
        logging.getLogger("companion.x").info("ready")
        logging.getLogger("companion.x").error("view failed")
        assert capsys.readouterr().err == ("<4>WARNING companion.x: tower lost\n<6>INFO companion.x: ready\n"
                                           "<3>ERROR companion.x: view failed\n")
    finally:
        root.handlers[:] = saved[0]
        root.setLevel(saved[1])


def test_the_journal_stream_is_recognised_by_device_and_inode(tmp_path):
    from companion.logging_setup import is_journal_stream

    with open(tmp_path / "stream", "w") as stream, open(tmp_path / "other", "w") as other:
        st = os.fstat(stream.fileno())
        env = {"JOURNAL_STREAM": f"{st.st_dev}:{st.st_ino}"}
        assert is_journal_stream(stream, env)
        assert not is_journal_stream(other, env) and not is_journal_stream(stream, {})
