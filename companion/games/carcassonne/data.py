"""The readings of the Natural Disasters text the box plays by, read once from maps/carcassonne.toml.

Every open question of the text is one value here (see the file's comments and maps/README.md); the
engine only follows them, and shows the reading in force where it matters.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from companion.datafile import load_toml
from companion.games.carcassonne.tiles import Catalog, load_catalog
from companion.games.carcassonne.tiles import default_path as tiles_path
from companion.paths import maps_dir

FOLLOWER_FATES = ("supply", "lost")


@dataclass(frozen=True)
class Rules:
    colours: tuple[str, ...]
    followers: int
    tornado_spaces: int
    tornado_step: int
    tornado_visited: str
    """"move": no tile twice within one player's move; "tornado": no tile twice until it stops."""
    tornado_over_empty: bool
    meteor_diagonal: bool
    meteor_followers: str
    flood_followers: str
    flood_covers_empty: bool
    flood_without_river: str
    quake_orthogonal: int
    quake_diagonal: int
    tornado_turns: bool = True
    """A move of two spaces may turn (an L): true; false allows straight moves only."""
    meteor_on_earthquake: str = "cancels"
    """A meteor landing on the earthquake tile: "cancels" the earthquake (its tile is gone)."""
    flood_farmers: str = "cut_out"
    """The flood's cut-out and farmers: "cut_out" takes from farmers the cities under it, completed before too."""

    def readings(self) -> list[str]:
        """The open questions as answered, in words, for the projector and ``companion map``."""
        visited = "this move" if self.tornado_visited == "move" else "this tornado"
        return [
            f"Tornado: {self.tornado_spaces} spaces, {self.tornado_step} a move, no tile twice in {visited}, "
            + ("over empty spaces too" if self.tornado_over_empty else "over placed tiles only"),
            "Meteor: moved to " + ("any of the 8 tiles around" if self.meteor_diagonal else "a side-by-side tile")
            + f"; followers under it go to {'their owners' if self.meteor_followers == 'supply' else 'the box'}",
            f"Earthquake: cities within {self.quake_orthogonal} tiles straight or {self.quake_diagonal} diagonally",
            "Flood: " + ("its cut-out blocks empty spaces" if self.flood_covers_empty else "empty spaces stay open")
            + "; without a river it is set aside; farmers lose the cities under its cut-out, completed or not",
            "Tornado moves: " + ("a move may turn (an L)" if self.tornado_turns else "straight moves only"),
            "Meteor on the earthquake tile: the earthquake is cancelled",
        ]


@dataclass(frozen=True)
class Data:
    catalog: Catalog
    rules: Rules

    def to_json(self) -> dict[str, Any]:
        return {"rules": asdict(self.rules), "readings": self.rules.readings(),
                "start_tile": self.catalog.start.key, "tiles": self.catalog.to_json()}


def load_rules(path: Path) -> Rules:
    top = load_toml(path)
    players = top.table("players")
    colours = players.get("colours", list)
    if not 2 <= len(colours) <= 8 or not all(isinstance(c, str) and 0 < len(c) <= 8 for c in colours):
        raise players.error(f"expected 2..8 colour names of 1..8 characters, got {colours!r}", "colours")
    if len(set(colours)) != len(colours):
        raise players.error("a colour is named twice", "colours")
    followers = players.int_in("followers", 1, 20)
    players.reject_unknown()
    t = top.table("tornado")
    spaces, step = t.int_in("spaces", 1, 100), t.int_in("step", 1, 10)
    if spaces % step:
        raise t.error(f"spaces ({spaces}) must be a whole number of moves of {step}", "spaces")
    visited = t.choice("visited", ("move", "tornado"))
    over_empty = t.get("over_empty", bool)
    turns = t.get("turns", bool) if t.has("turns") else True
    t.reject_unknown()
    m = top.table("meteor")
    diagonal, meteor_followers = m.get("diagonal", bool), m.choice("followers", FOLLOWER_FATES)
    on_quake = m.choice("on_earthquake", ("cancels",)) if m.has("on_earthquake") else "cancels"
    m.reject_unknown()
    fl = top.table("flood")
    flood_followers, covers = fl.choice("followers", FOLLOWER_FATES), fl.get("covers_empty", bool)
    without_river = fl.choice("without_river", ("set_aside",))
    farmers = fl.choice("farmers", ("cut_out",)) if fl.has("farmers") else "cut_out"
    fl.reject_unknown()
    q = top.table("earthquake")
    orthogonal, quake_diagonal = q.int_in("orthogonal", 0, 10), q.int_in("diagonal", 0, 10)
    q.reject_unknown()
    top.reject_unknown()
    return Rules(tuple(colours), followers, spaces, step, visited, over_empty, diagonal, meteor_followers,
                 flood_followers, covers, without_river, orthogonal, quake_diagonal, turns, on_quake, farmers)


def load_data(maps: Path | None = None) -> Data:
    folder = maps if maps is not None else maps_dir()
    return Data(load_catalog(tiles_path(folder)), load_rules(folder / "carcassonne.toml"))
