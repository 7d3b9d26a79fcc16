"""``python -m benchmarks``: each area in a process of its own, its rows handed back whole, misses and failures
in the exit status."""

from __future__ import annotations

import dataclasses
import json
import subprocess
import sys
from pathlib import Path

from benchmarks import __main__ as bench
from benchmarks._table import Row

ROOT = Path(__file__).resolve().parent.parent


def test_a_row_survives_the_trip_from_its_areas_process() -> None:
    row = Row("service", "start-up p99", 12.5, "ms", "a note", most=20.0)
    assert Row(**json.loads(json.dumps(dataclasses.asdict(row)))) == row


def test_an_area_runs_in_a_process_of_its_own_and_its_rows_come_back(tmp_path: Path) -> None:
    rows = bench.run_apart("buttons_oled")
    assert rows is not None
    assert {row.area for row in rows} == {"buttons_oled"}
    assert any(row.most is not None for row in rows)
    assert "benchmarks.bench_buttons_oled" not in sys.modules  # measured over there, not in this process


def test_unknown_areas_and_bad_area_arguments_exit_2(tmp_path: Path) -> None:
    for args in (["no_such_area"], ["--area", "no_such_area", str(tmp_path / "rows.json")], ["--area"],
                 ["--pin", "x"]):
        done = subprocess.run([sys.executable, "-m", "benchmarks", *args], cwd=ROOT, capture_output=True, text=True)
        assert done.returncode == 2, args
        assert done.stderr.startswith("benchmarks: ") and len(done.stderr.strip().splitlines()) == 1, done.stderr
    assert not (tmp_path / "rows.json").exists()


def test_an_area_that_fails_is_named_and_the_run_exits_1(monkeypatch, capsys) -> None:
    monkeypatch.setattr(bench, "run_apart", lambda name: None)
    assert bench.main(["tower"]) == 1
    assert "benchmarks: tower failed" in capsys.readouterr().err
