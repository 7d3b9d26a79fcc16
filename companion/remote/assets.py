"""The page's files: a fixed list read from the package once, never a path from a request.

Plain HTML, CSS and an ES module, no build step and nothing fetched from elsewhere (the page works on a
table with no internet). A name not in :data:`FILES` is a 404 before any file is touched.
"""

from __future__ import annotations

from functools import cache
from importlib import resources

FILES = {"index.html": "text/html", "app.js": "text/javascript", "app.css": "text/css"}


@cache
def _read(name: str) -> bytes:
    return resources.files("companion.remote").joinpath("page", name).read_bytes()


def get(name: str) -> tuple[bytes, str] | None:
    """The file's bytes and type; None for a name not listed (the server's 404)."""
    kind = FILES.get(name)
    if kind is None:
        return None
    return _read(name), kind


def total_size() -> int:
    """The page's whole size in bytes (everything a phone loads but the pictures)."""
    return sum(len(_read(name)) for name in FILES)
