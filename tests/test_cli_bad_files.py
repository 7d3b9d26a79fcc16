"""Every command that reads a file, fed the files a table's USB stick or a bad copy brings: bytes that are not
UTF-8, a file far too large, an empty file, a folder and a named pipe where a file should be. Each is one line
naming the file and exit 2 (or, where such a file is valid, a normal exit), never a traceback and never a hang;
and a command refusing a file writes nothing.

The files come in three ways: named on the command line, named by the configuration (the calibration, the
paired dice) and the group's own board in the configuration directory (which the box falls back from to the
shipped board, saying so in one line). ``python -m tests.test_cli_bad_files`` prints the tally of every
input tried (docs/reliability.md gives the figures)."""

from __future__ import annotations

import contextlib
import logging
import os
import sys
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

BAD = ("not-utf8", "huge", "empty", "folder", "fifo")
"""The kinds of bad file; ``huge`` is a sparse file of HUGE bytes (no disk used)."""
HUGE = 40 * 1024 * 1024
NOT_UTF8 = b"# caf\xe9 (a Latin-1 editor)\n[game]\nplayers = 4\n\x80\xff\xfe\n"
WAIT_S = float(os.environ.get("WAIT_S", "60"))
"""A command that has not finished by then is hung (a named pipe read to its end blocks for ever)."""


def make_bad(kind: str, path: Path) -> Path:
    """``path`` made into a bad file of ``kind`` (its parent made as needed)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    if kind == "not-utf8":
        path.write_bytes(NOT_UTF8)
    elif kind == "huge":
        with path.open("wb") as fh:
            fh.truncate(HUGE)
    elif kind == "empty":
        path.write_bytes(b"")
    elif kind == "folder":
        path.mkdir()
    elif kind == "fifo":
        os.mkfifo(path)
    else:
        raise ValueError(kind)
    return path


@dataclass(frozen=True)
class Case:
    """One command and where the bad file goes: ``{bad}`` in ``argv``, or the configuration's ``config`` text
    naming it (``{cfg}`` in ``argv``), or the group's board ``board`` in the configuration directory."""

    name: str
    argv: tuple[str, ...]
    config: str = ""
    board: str = ""
    valid_empty: bool = False
    """An empty file is a valid input here (a configuration of defaults, a script of nothing, a new journal)."""
    falls_back: bool = False
    """The group's board: the command plays on the shipped one, saying so (exit 0), or refuses in one line."""
    writes: bool = False
    """The command writes when its input is good (read-only commands never do)."""
    valid_any: bool = False
    """Any bytes are an input (a salvage reads what it can and says what it saved, exit 0)."""


CASES = [
    Case("config check", ("config", "check", "{bad}"), valid_empty=True),
    Case("config show", ("config", "show", "{bad}"), valid_empty=True),
    Case("calibrate --config", ("calibrate", "kansas", "--config", "{bad}"), valid_empty=True, writes=True),
    Case("dice list --config", ("dice", "list", "--config", "{bad}"), valid_empty=True),
    Case("dice pair --config", ("dice", "pair", "--config", "{bad}"), valid_empty=True, writes=True),
    Case("run --config", ("run", "--sim", "--headless", "--config", "{bad}", "--journal", "{tmp}/j.sqlite"),
         valid_empty=True, writes=True),
    Case("import", ("import", "{bad}", "--journal", "{tmp}/j.sqlite"), writes=True),
    Case("snapshot --state", ("snapshot", "kansas", "--state", "{bad}", "--out", "{tmp}/a.png"), valid_empty=True,
         writes=True),
    Case("hurricane --replay", ("hurricane", "--replay", "{bad}"), valid_empty=True),
    Case("tower virtual --script", ("tower", "virtual", "--script", "{bad}"), valid_empty=True),
    Case("board edit --photo", ("board", "edit", "kansas", "--photo", "{bad}"), writes=True),
    Case("journal salvage", ("journal", "salvage", "{bad}", "--out", "{tmp}/saved.sqlite"), writes=True,
         valid_any=True),
    Case("journal check", ("journal", "check", "--journal", "{bad}"), valid_empty=True),
    Case("games --journal", ("games", "--journal", "{bad}"), valid_empty=True),
    Case("export --journal", ("export", "1", "--out", "-", "--journal", "{bad}"), valid_empty=True),
    Case("config check calibration", ("config", "check", "{cfg}"), config='[projector]\ncalibration = "{bad}"\n'),
    Case("config check paired dice", ("config", "check", "{cfg}"), config='[dice]\npairing = "{bad}"\n',
         valid_empty=True),
    Case("dice list paired dice", ("dice", "list", "--config", "{cfg}"), config='[dice]\npairing = "{bad}"\n',
         valid_empty=True),
    Case("config check group board", ("config", "check"), board="kansas.toml"),
    Case("config show group board", ("config", "show"), board="kansas.toml", falls_back=True),
    Case("map group board", ("map", "kansas"), board="kansas.toml", falls_back=True),
    Case("cards group board", ("cards", "stormfury"), board="stormfury.toml", falls_back=True),
    Case("map allegheny group board", ("map", "allegheny"), board="allegheny.toml", falls_back=True),
    Case("risk group board", ("risk", "kansas", "--players", "4", "--turn", "2"), board="kansas.toml",
         falls_back=True),
    Case("tornado group board", ("tornado", "--players", "4", "--turn", "2", "--seed", "3"), board="kansas.toml",
         falls_back=True),
    Case("snapshot group board", ("snapshot", "stormfury", "--out", "{tmp}/a.png"), board="stormfury.toml",
         falls_back=True, writes=True),
    Case("map industry group map", ("map", "industry"), board="industry_japan.toml", falls_back=True),
    Case("board edit group board", ("board", "edit", "kansas"), board="kansas.toml", writes=True),
    Case("board edit group map", ("board", "edit", "industry", "--map", "Japan"), board="industry_japan.toml",
         writes=True),
]


class Reached(Exception):
    """The command got past reading its files to the part that would run a window, the tower or a night."""


@pytest.fixture
def stops(monkeypatch):
    """Commands that would run until stopped stop once their files are read (exit 0, as a good file would)."""
    install_stops(monkeypatch)


def install_stops(monkeypatch) -> None:
    from companion.commands import demo, run

    def reached(*_args, **_kwargs):
        raise Reached

    monkeypatch.setattr(run, "build_table", reached)
    monkeypatch.setattr(demo, "play_night", reached)
    import companion.board_editor.window
    import companion.views.projector.outputs
    import firmware_bridge.virtual
    import hardware.smartdice.pairing

    monkeypatch.setattr(firmware_bridge.virtual, "VirtualTower", reached)
    monkeypatch.setattr(hardware.smartdice.pairing, "scan", reached)
    monkeypatch.setattr(companion.board_editor.window.EditorWindow, "run", reached)
    monkeypatch.setattr(companion.views.projector.outputs, "open_projector", reached)
    import companion.config

    monkeypatch.setattr(companion.config, "DEFAULT_PATH", Path("/nonexistent/companion/config.toml"))


@dataclass
class Outcome:
    code: int | None
    """None: still running after WAIT_S (hung)."""
    out: str
    err: str
    wrote: list[str]


def tree(folder: Path) -> dict[str, tuple[int, int]]:
    """Every entry under ``folder`` with its size and time of change: what a command wrote shows here."""
    found = {}
    for root, dirs, names in os.walk(folder):
        for name in dirs + names:
            path = Path(root) / name
            st_ = path.lstat()
            found[str(path.relative_to(folder))] = (st_.st_size, st_.st_mtime_ns)
    return found


def try_case(case: Case, kind: str, tmp: Path, capsys, monkeypatch) -> Outcome:
    """Run ``case`` with a bad file of ``kind`` in the folder ``tmp`` (made fresh), in-process."""
    from companion.cli import main

    tmp.mkdir(parents=True)
    conf = tmp / "conf"
    conf.mkdir()
    monkeypatch.setenv("COMPANION_CONFIG_DIR", str(conf))
    monkeypatch.delenv("COMPANION_MAPS", raising=False)
    monkeypatch.setenv("COMPANION_JOURNAL", str(tmp / "default.sqlite"))
    monkeypatch.chdir(tmp)
    bad = make_bad(kind, conf / "maps" / case.board if case.board else tmp / f"bad-{kind}")
    fields = {"bad": str(bad), "tmp": str(tmp), "cfg": str(tmp / "config.toml")}
    if case.config:
        (tmp / "config.toml").write_text(case.config.format(**fields))
    argv = [a.format(**fields) for a in case.argv]
    before = tree(tmp)
    capsys.readouterr()
    result: list[int] = []

    def work() -> None:
        try:
            result.append(main(argv))
        except Reached:
            result.append(0)
        except SystemExit as exc:
            result.append(exc.code if isinstance(exc.code, int) else 2)
        except BaseException:
            import traceback

            traceback.print_exc()
            result.append(-1)

    thread = threading.Thread(target=work, daemon=True)
    thread.start()
    thread.join(WAIT_S)
    hung = thread.is_alive()
    if hung and kind == "fifo":  # a pipe read for ever: give it a writer that leaves, so the read ends
        with contextlib.suppress(OSError):
            os.close(os.open(bad, os.O_WRONLY | os.O_NONBLOCK))
        thread.join(WAIT_S)
    captured = capsys.readouterr()
    after = tree(tmp)
    wrote = sorted(k for k in after.keys() | before.keys() if after.get(k) != before.get(k))
    return Outcome(None if hung else result[0], captured.out, captured.err, wrote)


def verdict(case: Case, kind: str, outcome: Outcome) -> str:
    """"" when the command did what it must with this file, else what went wrong."""
    if outcome.code is None:
        return "hung"
    if "Traceback" in outcome.err or outcome.code == -1:
        return "traceback"
    lines = outcome.err.splitlines()
    ignored = case.board and kind in ("folder", "fifo")  # not a file: the group has no board of its own
    good = (case.valid_empty and kind == "empty") or ignored or case.falls_back or (
        case.valid_any and kind not in ("folder", "fifo"))
    if outcome.code == 2:
        if len(lines) != 1:
            return f"{len(lines)} lines"
        if case.board and not ignored and case.board not in lines[0]:
            return "does not name the file"
    elif outcome.code == 0:
        if not good:
            return "accepted"
        if len(lines) > 1:
            return f"{len(lines)} lines"
    else:
        return f"exit {outcome.code}"
    if outcome.wrote and (outcome.code == 2 or not case.writes):
        return "wrote " + ", ".join(outcome.wrote)
    return ""


@pytest.mark.parametrize("kind", BAD)
@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_a_bad_file_is_one_line_and_exit_2(case, kind, tmp_path, capsys, monkeypatch, stops, restore_logging):
    outcome = try_case(case, kind, tmp_path / "t", capsys, monkeypatch)
    assert verdict(case, kind, outcome) == "", (outcome.code, outcome.err, outcome.wrote)


OTHER = ["kansas", "stormfury", "industry", "1", "-1", "x", "--json", "--players", "3", "--seed", "7", "--menu"]


@settings(max_examples=int(os.environ.get("FUZZ_EXAMPLES", "12")), deadline=None,
          derandomize=not os.environ.get("FUZZ_EXAMPLES"), database=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(case=st.sampled_from(CASES), kind=st.sampled_from(BAD),
       extra=st.lists(st.sampled_from(OTHER), max_size=2))
def test_fuzz_bad_files_among_other_arguments(case, kind, extra, tmp_path_factory, capsys, monkeypatch, stops,
                                              restore_logging):
    """The same files with other arguments drawn around them: the file is refused (or the arguments are, in
    argparse's one line), never a traceback, and a refusal writes nothing."""
    tmp = tmp_path_factory.mktemp("bad")
    with monkeypatch.context() as m:
        outcome = try_case(Case(**{**case.__dict__, "argv": (*case.argv, *extra)}), kind, tmp / "t", capsys, m)
    assert outcome.code is not None and outcome.code in (0, 2), (outcome.code, outcome.err)
    assert "Traceback" not in outcome.err
    if outcome.code == 2:
        assert len(outcome.err.splitlines()) == 1, outcome.err
        assert not outcome.wrote, outcome.wrote


def tally() -> Iterator[tuple[str, str, str]]:
    """Every case and kind with its verdict, for the figures (``python -m tests.test_cli_bad_files``)."""
    import tempfile

    from _pytest.capture import CaptureFixture, SysCapture
    from _pytest.monkeypatch import MonkeyPatch

    skipped = {tuple(item.split(":")) for item in os.environ.get("TALLY_HUNG", "").split(",") if item}
    for case in CASES:
        for kind in BAD:
            if (case.name, kind) in skipped:  # blocks holding the interpreter's lock: the tally would stop too
                yield case.name, kind, "hung"
                continue
            mp = MonkeyPatch()
            root = logging.getLogger()
            handlers, level = list(root.handlers), root.level  # `companion run` sets the root logger up
            capture = CaptureFixture(SysCapture, None, _ispytest=True)  # type: ignore[arg-type]
            capture._start()
            try:
                install_stops(mp)
                with tempfile.TemporaryDirectory() as folder:
                    outcome = try_case(case, kind, Path(folder) / "t", capture, mp)
            finally:
                capture.close()
                mp.undo()
                root.handlers[:], root.level = handlers, level
            yield case.name, kind, verdict(case, kind, outcome) or "ok"


if __name__ == "__main__":
    os.environ.setdefault("SDL_VIDEODRIVER", "offscreen")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    os.environ.setdefault("GPIOZERO_PIN_FACTORY", "mock")
    counts: dict[str, int] = {}
    for name, kind, said in tally():
        counts[said.split(" ")[0]] = counts.get(said.split(" ")[0], 0) + 1
        if said != "ok":
            print(f"{name:28} {kind:9} {said}", flush=True)
    total = sum(counts.values())
    print(f"{total} bad inputs: " + ", ".join(f"{n} {k}" for k, n in sorted(counts.items())), file=sys.stderr)
