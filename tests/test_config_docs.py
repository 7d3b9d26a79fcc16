"""docs/configuration.md names every key with its true default, and nothing else."""

from __future__ import annotations

import dataclasses
import re
import tomllib
from pathlib import Path

from companion.config import Config

DOC = Path(__file__).resolve().parent.parent / "docs" / "configuration.md"


def documented() -> dict[str, dict[str, object]]:
    sections: dict[str, dict[str, object]] = {}
    current = None
    for line in DOC.read_text().splitlines():
        heading = re.match(r"^## \[(\w+)\]", line)
        if heading:
            current = sections.setdefault(heading.group(1), {})
            continue
        row = re.match(r"^\| `(\w+)` \| `(.*?)` \|", line)
        if row and current is not None:
            current[row.group(1)] = tomllib.loads(f"v = {row.group(2)}")["v"]
    return sections


def test_every_key_and_default_documented():
    config = Config()
    expected = {s.name: {f.name: getattr(getattr(config, s.name), f.name)
                         for f in dataclasses.fields(getattr(config, s.name))}
                for s in dataclasses.fields(config) if s.name not in ("sources", "outputs")}  # [sources.NAME]: by type
    assert documented() == expected
