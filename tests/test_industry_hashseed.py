"""A seeded Age of Industry game plays the same in every Python process: no list the table sees, and no choice a
seeded table makes from it, may follow the order of a set (string hashes are salted per process,
PYTHONHASHSEED). A short Minnesota game (the Chicago area, the implicit connections, the coal network) is played
through the real session in two processes with different hash seeds, and what each offered and entered compared."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

PLAY = r"""
import hashlib, json, random, sys, tempfile
from pathlib import Path
from companion.dice import event_to_dict
from companion.inputs import Decide, Press
from companion.journal import Journal
from companion.session import Session

game_map, seed, decisions = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
rng = random.Random(seed)
seen = []
with tempfile.TemporaryDirectory() as tmp, Journal(Path(tmp) / "j.sqlite") as journal:
    s = Session(journal)
    s.start(game="industry", options={"map": game_map, "players": 3})
    for _ in range(decisions):
        prompt = s.current.prompt()
        if prompt.done:
            break
        if prompt.shuffle:
            s.handle(Press("ROLL"))
            continue
        options = s.options()
        seen.append([o.label for o in options])
        rest = [o for o in options if o.event.action != "cancel"] or options
        s.handle(Decide(rng.choice(rest).event))
    events = [event_to_dict(x.event) for x in s.current.live if x.event.__class__.__name__ == "Choice"]
    digest = hashlib.sha1(json.dumps([seen, events], sort_keys=True).encode()).hexdigest()
    print(json.dumps({"digest": digest, "decisions": len(seen), "events": len(events)}))
"""


def played(game_map: str, hash_seed: str, seed: int = 3, decisions: int = 160) -> dict[str, object]:
    env = {**os.environ, "PYTHONHASHSEED": hash_seed, "PYTHONPATH": str(ROOT)}
    out = subprocess.run([sys.executable, "-c", PLAY, game_map, str(seed), str(decisions)], cwd=ROOT, env=env,
                         capture_output=True, text=True, timeout=300, check=True)
    result: dict[str, object] = json.loads(out.stdout.strip().splitlines()[-1])
    return result


def test_a_seeded_minnesota_game_plays_the_same_under_two_hash_seeds() -> None:
    one, two = played("Minnesota", "1"), played("Minnesota", "2")
    assert one["decisions"] == 160 and int(str(one["events"])) > 100  # a game long enough to build across the map
    assert one == two
