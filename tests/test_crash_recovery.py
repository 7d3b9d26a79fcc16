"""Power cut at any moment: kill -9 a scripted game night at random points, then restart from the journal.

The child is this file run as a script: the demo's game-night driver on the simulated table (virtual
tower on a pty, real link, mock pins, OLED on luma's dummy device, session, journal), playing
a few Kansas tornado moves, Stormfury games to the end and games of the small race of test_session.
It traces "pending ID DIGEST" just before each journal commit and "shown ID DIGEST" just after
each frame reaches the views. After the kill, the state rebuilt from the journal must be the last
shown state -- or one being committed after it (accepted, not yet drawn): nothing shown is ever
lost, nothing unseen is invented.
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

from companion.games import load_game
from companion.journal import Journal
from companion.session import Session

sys.path.insert(0, str(Path(__file__).resolve().parent))
from test_session import loader as race_loader


def loader(key, maps):
    """The real engines, plus the small race game of test_session."""
    return race_loader(key, maps) if key == "race" else load_game(key, maps)

KILL_POINTS = 20
REPO = Path(__file__).resolve().parent.parent


def _trace(path: Path) -> list[tuple[str, int, str]]:
    if not path.exists():
        return []
    out = []
    for line in path.read_text().splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[1] != "None":  # a torn last line is simply not there yet
            out.append((parts[0], int(parts[1]), parts[2]))
    return out


def _wait_for(condition, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.005)  # polling a file for a condition, not synchronising by sleeping
    return condition()


def test_kill_9_at_random_points_loses_nothing_shown(tmp_path):
    rng = random.Random(1123)
    journal = tmp_path / "journal.sqlite"
    env = {**os.environ, "SDL_VIDEODRIVER": "offscreen", "SDL_AUDIODRIVER": "dummy",
           "GPIOZERO_PIN_FACTORY": "mock", "PYGAME_HIDE_SUPPORT_PROMPT": "1"}
    checked = killed = 0
    games_hit: set[str] = set()
    for point in range(KILL_POINTS):
        trace = tmp_path / f"trace{point}.txt"
        target = rng.randint(2, 60)
        child = subprocess.Popen(
            [sys.executable, __file__, str(journal), str(trace), str(point)],
            cwd=REPO, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        try:
            reached = _wait_for(lambda trace=trace, target=target, child=child:
                                sum(1 for t in _trace(trace) if t[0] == "shown") >= target
                                or child.poll() is not None, 30)
            assert reached, f"kill point {point}: the demo showed too little within 30 s"
            if child.poll() is not None:
                assert child.returncode == 0, child.stderr.read().decode()
            else:
                os.kill(child.pid, signal.SIGKILL)
                killed += 1
        finally:
            child.wait(timeout=10)
            child.stderr.close()
        lines = _trace(trace)
        shown = [i for i, t in enumerate(lines) if t[0] == "shown"]
        if not shown:
            continue
        last = shown[-1]
        game_id = lines[last][1]
        allowed = {lines[last][2]} | {t[2] for t in lines[last + 1:] if t[0] == "pending" and t[1] == game_id}
        with Journal(journal) as j:
            session = Session(j, loader=loader)
            session.resume(j.game(game_id))
            assert session.digest() in allowed, f"kill point {point} after {len(shown)} frames"
            games_hit.add(j.game(game_id).game)
            if not j.game(game_id).finished and j.games()[0].id == game_id:
                again = Session(j, loader=loader)
                again.start()  # what `companion run` does on start: resume the last unfinished game
                assert again.current.game_id == game_id and again.digest() == session.digest()
        checked += 1
    assert checked >= KILL_POINTS - 2 and killed >= KILL_POINTS - 2
    assert {"kansas", "stormfury"} <= games_hit  # power cuts in the middle of both real games
    with Journal(journal) as j:  # and the nights had undos and re-rolls to recover, not only plain events
        kinds = {e.kind for g in j.games() for e in j.entries(g.id)}
    assert kinds == {"event", "undo", "reroll"}


def _child(journal: str, trace: str, seed: str) -> int:
    from companion.commands.demo import play_night
    from companion.session.autoplay import ScriptedGame

    # Both real games early in the night, where the kill points fall (2..60 frames), then the small race.
    night = [ScriptedGame("kansas", {"players": 5}, max_events=9), ScriptedGame("stormfury"),
             ScriptedGame("race", {"players": 3}, max_events=7)] * 2
    with Journal(Path(journal)) as j:
        return play_night(j, night, seed=int(seed), undo_every=5, reroll_every=7, trace_path=Path(trace),
                          loader=loader)


if __name__ == "__main__":
    raise SystemExit(_child(*sys.argv[1:4]))
