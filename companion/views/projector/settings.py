"""What the projector's outputs read of the ``[projector]`` section, as a protocol.

The section itself is ``companion.config.ProjectorConfig``; the toolkit does not import it, because the
configuration imports the parts that import the toolkit (the calibration's reader). Any object with these
fields will do, which is also what lets a test hand an output a plain stand-in of its own settings.
"""

from __future__ import annotations

from typing import Protocol


class ProjectorSettings(Protocol):
    """The ``[projector]`` fields an output reads (each described on ``companion.config.ProjectorConfig``)."""

    @property
    def enabled(self) -> bool: ...
    @property
    def driver(self) -> str: ...
    @property
    def framebuffer(self) -> str: ...
    @property
    def framebuffer_sysfs(self) -> str: ...
    @property
    def width(self) -> int: ...
    @property
    def height(self) -> int: ...
    @property
    def fullscreen(self) -> bool: ...
    @property
    def display(self) -> int: ...
    @property
    def calibration(self) -> str | tuple[tuple[float, float, float, float], ...]: ...
