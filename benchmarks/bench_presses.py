"""Presses a table makes, counted over whole scripted games through the real session (``python -m benchmarks presses``).

Each game is played by :func:`benchmarks.presses_play.play`: a seeded table picks its answer to each decision, and
the press planner finds the fewest presses that reach it by trying the session's own buttons (so the figure follows
the menus as they are, a list or a board cursor). Dice come from the tower and cost no press; a shuffle is one
ROLL press. The rows: presses per ordinary turn (median, p90) and per game, beside the targets, and beside the
figures measured on the code before the board cursor and the shorter entries (the ``BEFORE`` baseline).
"""

from __future__ import annotations

import random
import statistics
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from benchmarks._table import Row, percentile
from benchmarks.presses_play import Choose, Played, Turn, TurnOf, any_option, play
from companion.session.choices import ends

AREA = "presses"
SEEDS = (1, 2, 3, 4, 5)
"""Games played per game (each its own seed); the per-turn figures pool their turns."""


TILES = 72
"""Carcassonne's tiles: a game in a mode without the bag is ended by its table once as many are on the board."""


def carcassonne_table(rng: random.Random, game: Any, state: Any, options: list[Any]) -> Any:
    """A Carcassonne table: the tile drawn is the bag's chance (the meteor and the flood too), laid on any space
    it fits, its kind and turn as drawn, a follower or none at random; never "final scoring" while tiles are left
    (in a mode that keeps no bag: once ``TILES`` are on the board). A follower said home now and then."""
    def left(key: str) -> int:
        tile = game.catalog.by_key.get(key)
        return game.remaining(state, tile) if tile is not None else 1

    ends_now = [o for o in options if o.event.action == "end"]
    if ends_now and state.mode != "tiles" and len(state.board) > TILES:  # a mode without the bag: the table stops
        return ends_now[0]
    bag = max(1, game.bag_left(state))
    kinds = [o for o in options if o.event.action in ("kind", "lay") and "kind" in o.event.args]
    if kinds:
        offered = [o.event.args["kind"] for o in kinds]  # a kind that fits several ways is offered once a way
        weights = [max(0, left(kind)) / offered.count(kind) for kind in offered]
        if sum(weights) > 0:
            return rng.choices(kinds, weights)[0]
    for action, disaster in (("meteor", "meteor"), ("flood", "flood")):
        drawn = [o for o in options if o.event.action == action]
        if drawn:
            tile = next(t for t in game.catalog.types if t.disaster == disaster)
            if rng.random() < game.remaining(state, tile) / bag:
                return drawn[0]
    rest = [o for o in options if o.event.action not in ("end", "meteor", "flood", "home")]
    home = [o for o in options if o.event.action == "home"]
    if home and (not rest or rng.random() < 0.05):  # a follower back home (a feature completed), now and then
        return rng.choice(home)
    return rng.choice(rest) if rest else options[0]


def industry_table() -> Choose:
    """An Age of Industry table playing a turn as the rules have it: the players in an order of their own each turn
    (the box does not see how it is set), each making her two actions (the base rules' figure) one after the other,
    each a building, a rail link, a ship, a card or a sale (any legal one, every answer at random) in her own colour,
    then the end of the turn: with the last action's answer ("Green, end turn") where the box offers it, else
    *End turn*. The display is dealt from a deck shuffled once a game, the hands dealt from it first (the table
    deals; the box does not see the cards). The table counts its own actions, so it plays the same on any version
    of the box."""
    seen: dict[str, Any] = {"turn": -1, "order": [], "made": 0, "deck": None}

    def deal(rng: random.Random, game: Any, state: Any, options: list[Any]) -> Any:
        if seen["deck"] is None:
            cards = ["location" if c.startswith("at:") else c for c in game.board(state).deck]
            rng.shuffle(cards)
            seen["deck"] = cards[game.rules.hand * len(state.players):]
        by = {o.event.args["card"]: o for o in options}
        while seen["deck"]:
            card = seen["deck"].pop()
            if card in by:
                return by[card]
        return rng.choice(options)

    def choose(rng: random.Random, game: Any, state: Any, options: list[Any]) -> Any:
        if options and options[0].event.action == "deal":
            return deal(rng, game, state, options)
        if state.turn != seen["turn"]:
            order = list(state.players)
            rng.shuffle(order)
            seen.update(turn=state.turn, order=order, made=0)
        order, made = seen["order"], seen["made"]
        rest = [o for o in options if not ends(o) and o.event.action != "cancel"]
        if not state.pending:  # the turn's own prompt: the next action, or the end of the turn
            actions = [o for o in rest if o.event.action in INDUSTRY_ACTIONS]
            if made >= ACTIONS * len(order) or not actions:
                return next((o for o in options if ends(o)), None) or rng.choice(rest)
            seen["made"] += 1
            return rng.choice(actions)
        actor = order[min(made - 1, ACTIONS * len(order) - 1) // ACTIONS]
        mine = [o for o in options if actor in (o.event.args.get("owner"), o.event.args.get("player"))]
        pool = mine or rest or options
        last = made == ACTIONS * len(order)
        return rng.choice([o for o in pool if ends(o) == last] or pool)
    return choose


ACTIONS = 2
"""A player's actions a turn (the base rules' figure; maps/industry.toml ``players.actions_per_turn``)."""
INDUSTRY_ACTIONS = ("industry", "link", "ship", "card", "faceup", "sell")
"""Age of Industry's entries a player makes as an action (a card taken, free or paid, is counted as one by the
table; the box counts a paid one with the building it is used for)."""


INDUSTRY_BUILDS = ("industry", "link", "ship")
"""Age of Industry's entries that put something on the board."""


def industry_builder() -> Choose:
    """An Age of Industry table that builds and never takes cards: up to three building entries a turn (a building,
    a link, a ship), then the end of the turn. It fills the board (every space and link, with enough turns): the
    press timings' full board, not a game a table plays."""
    seen = {"turn": -1, "entries": 0}

    def choose(rng: random.Random, game: Any, state: Any, options: list[Any]) -> Any:
        if state.turn != seen["turn"]:
            seen["turn"], seen["entries"] = state.turn, 0
        enders = [o for o in options if ends(o)]
        rest = [o for o in options if not ends(o) and o.event.action != "cancel"]
        if enders:
            builds = [o for o in rest if o.event.action in INDUSTRY_BUILDS]
            if seen["entries"] >= 3 or not builds:
                return enders[0]
            seen["entries"] += 1
            return rng.choice(builds)
        return rng.choice(rest or options)
    return choose


ALLEGHENY_TRACKS = 45
"""Links on the board before the Allegheny table calls the game over (the box leaves its end to the table)."""


def allegheny_table(rng: random.Random, game: Any, state: Any, options: list[Any]) -> Any:
    """An Allegheny table: in an auction the lowest bid or a pass (a raise of a few dollars now and then); on its
    turn a build most often, a railroad's build one to three links long; the game called over once the board
    holds ``ALLEGHENY_TRACKS`` links."""
    by = {o.event.action: o for o in options}
    if "bid" in by:
        bids = [o for o in options if o.event.action == "bid"]
        if "pass" in by and rng.random() < 0.6:
            return by["pass"]
        return bids[0] if rng.random() < 0.7 else rng.choice(bids[:4])
    if "end_game" in by:
        if len(state.tracks) >= ALLEGHENY_TRACKS:  # (an engine without tracks: the model's fallback, counted)
            return by["end_game"]
        builds = [o for o in options if o.event.action == "build_track"]
        if builds and rng.random() < 0.7:
            return rng.choice(builds)
        return rng.choice([o for o in options if o.event.action != "end_game"])
    if "done_building" in by and (rng.random() < 0.5 or len(options) == 1):
        return by["done_building"]
    rest = [o for o in options if o.event.action not in ("done_building", "build_back")]
    return rng.choice(rest) if rest else options[0]


@dataclass(frozen=True)
class Script:
    game: str
    options: dict[str, Any]
    turn_of: TurnOf
    table: Callable[[], Choose] = any_option
    """Makes the table's chooser for one game (a fresh one per game: some keep count within a turn)."""
    ordinary: Callable[[Turn], bool] = lambda turn: True
    """The turns a table plays again and again (not Allegheny's opening offering)."""
    piece: tuple[str, Callable[[list[Turn]], list[int]], float] | None = None
    """A named piece of play: its name, its presses in a game, the figure before (the limit: no worse)."""
    turn_is: str = ""
    """What one turn of the game is, said beside its row where that is more than one player's turn."""


def one_link_builds(turns: list[Turn]) -> list[int]:
    """Presses of each Allegheny turn that built exactly one link (choosing to build included)."""
    return [t.presses for t in turns if t.key[0] == "turn" and len(t.last.tracks) - len(t.first.tracks) == 1]


SCRIPTS: dict[str, Script] = {
    "carcassonne": Script("carcassonne", {"players": 3}, lambda s: s.turn, lambda: carcassonne_table),
    "industry": Script("industry", {"map": "Japan", "players": 3}, lambda s: s.turn, industry_table,
                       turn_is="a turn is a round of 3 players: two actions each, the refill"),
    "allegheny": Script("allegheny", {"players": 3},
                        lambda s: ("offering", s.offered) if s.phase == "offering" else ("turn", s.current),
                        lambda: allegheny_table, ordinary=lambda t: t.key[0] == "turn",
                        piece=("a build of one link, every answer at random", one_link_builds, 9)),
    "kansas": Script("kansas", {"players": 4}, lambda s: s.turn),
    "stormfury": Script("stormfury", {"players": 2}, lambda s: s.turn),
}


def scripts() -> dict[str, Script]:
    """The scripts, and one more per Carcassonne mode its engine offers beside tile mode (what the table enters
    differs by mode: spaces only, or only what the disasters need), asked of the engine so a new mode is counted."""
    from companion.games.registry import load_game
    from companion.session.choices import setup_questions

    out = dict(SCRIPTS)
    base = SCRIPTS["carcassonne"]
    for name, _label, values in setup_questions(load_game("carcassonne")):
        if name == "board":
            for mode in values:
                if mode != base.options.get("board", "tiles"):
                    out[f"carcassonne, {mode} mode"] = Script("carcassonne", {**base.options, "board": mode},
                                                              base.turn_of, base.table)
    return out


def play_all(seeds: tuple[int, ...] = SEEDS) -> dict[str, list[Played]]:
    """Every script played once per seed, each game in a journal of its own."""
    from companion.journal import Journal
    from companion.session import Session

    out: dict[str, list[Played]] = {}
    for name, script in scripts().items():
        for seed in seeds:
            with tempfile.TemporaryDirectory(prefix="bench-presses-") as tmp, \
                    Journal(Path(tmp) / "journal.sqlite") as journal:
                played = play(Session(journal), script.game, script.options, seed=seed, turn_of=script.turn_of,
                              choose=script.table())
            if not played.finished:
                raise RuntimeError(f"{name}, seed {seed}: the game did not end")
            out.setdefault(name, []).append(played)
    return out


BEFORE: dict[str, tuple[float, float]] = {
    "carcassonne": (13, 1060),
    "carcassonne, cells mode": (16, 1250),
    "industry": (67, 1261),
    "allegheny": (6, 714),
    "kansas": (28.5, 407),
    "stormfury": (17, 153),
}
"""The figures before, the baseline no game may be worse than: per game (median presses per ordinary turn, median
presses per game), measured with these scripts and seeds on the code of 2026-11-26 before the board cursor and the
shorter entries (commit 3f3e299: the session's option lists, docs/performance.md). Age of Industry's table was
written again on 2026-11-27 to play the rules' turn (each player's two actions; it had ended the turn after any two
entries, so a "round" held three ends of the turn and three refills) and measured again on that code."""

TARGETS: dict[str, tuple[float | None, float | None]] = {"carcassonne": (7, 550)}
"""The issue's own targets where it gives one: (median presses per ordinary turn, presses per game)."""

ROUND_TARGET = 35
"""The issue's target for an Age of Industry round for three players (73 presses before, on such a round)."""
BUILD_TARGET = 5
"""The issue's target for an Allegheny one-link build (10 presses before, on such a build)."""


def scripted_rows() -> list[Row]:
    """The issue's pieces of play as a group enters them (:mod:`benchmarks.presses_scripted`), beside its
    targets: where the whole games above draw every answer at random, these give the answers a group gives."""
    from benchmarks.presses_scripted import allegheny_build, industry_round

    table_entries, table_round = industry_round("table")
    _, box_round = industry_round("box")
    return [
        Row(AREA, "industry: the round of docs/games/industry.md, its six entries", table_entries, "presses",
            "62 before"),
        Row(AREA, "industry: that round, the table dealing the refill", table_round, "presses", most=ROUND_TARGET),
        Row(AREA, "industry: that round, the box dealing the refill", box_round, "presses", most=ROUND_TARGET),
        Row(AREA, "allegheny: the one-link build of docs/games/allegheny.md", allegheny_build(), "presses",
            most=BUILD_TARGET),
    ]


def rows_of(played: dict[str, list[Played]]) -> list[Row]:
    rows: list[Row] = []
    known = scripts()
    for name, games in played.items():
        script = known[name]
        turns = [t.presses for p in games for t in p.turns if script.ordinary(t)]
        totals = [float(p.total) for p in games]
        before = BEFORE.get(name)
        turn_most, game_most = TARGETS.get(name, (None, None))
        turn_note = "" if turn_most is not None or before is None else f"today {before[0]:g}"
        game_note = "" if game_most is not None or before is None else f"today {before[1]:g}"
        turn_limit = turn_most if turn_most is not None else (before[0] if before else None)
        game_limit = game_most if game_most is not None else (before[1] if before else None)
        turn_note = "; ".join(n for n in (script.turn_is, turn_note) if n)
        rows.append(Row(AREA, f"{name}: presses per ordinary turn, median", statistics.median(turns), "presses",
                        turn_note, most=turn_limit))
        rows.append(Row(AREA, f"{name}: presses per ordinary turn, p90", percentile(turns, 90), "presses"))
        rows.append(Row(AREA, f"{name}: presses per game, median of {len(games)}", statistics.median(totals),
                        "presses", game_note, most=game_limit))
        if script.piece is not None:
            what, count, most = script.piece
            pieces = [n for p in games for n in count(p.turns)]
            if pieces:
                rows.append(Row(AREA, f"{name}: {what}, median of {len(pieces)} (mean {statistics.mean(pieces):.2f})",
                                statistics.median(pieces), "presses", most=most))
        if before is not None and turn_most is not None:
            rows.append(Row(AREA, f"{name}: no worse than today, per game", statistics.median(totals), "presses",
                            most=before[1]))
        if any(p.guessed for p in games):
            rows.append(Row(AREA, f"{name}: decisions the table model could not read the engine for",
                            sum(p.guessed for p in games), "decisions", most=0))
        if any(p.unreachable for p in games):
            rows.append(Row(AREA, f"{name}: options the arrows cannot reach", sum(p.unreachable for p in games),
                            "options", most=0))
    return rows


def run() -> list[Row]:
    from benchmarks.presses_frames import frame_rows

    frames = frame_rows(AREA, SCRIPTS)  # first: the timings in a process not yet filled by the counted games
    return [*rows_of(play_all()), *scripted_rows(), *frames]
