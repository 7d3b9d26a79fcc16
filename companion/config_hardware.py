"""From configuration sections to the settings the hardware parts take, for the commands that open one part
alone (``companion doctor``, ``companion calibrate``). The sections are the parts' own dataclasses
(``[buttons]`` a ButtonPins and ButtonTiming, ``[oled]`` an OledSettings), so this only takes the part's share
of a section: no default is written here."""

from __future__ import annotations

from dataclasses import fields

from companion.config import ButtonsConfig, OledConfig
from hardware.buttons import ButtonPins
from hardware.oled import OledSettings


def button_pins(cfg: ButtonsConfig) -> ButtonPins:
    """The [buttons] section's pins."""
    return cfg.pins()


def button_options(cfg: ButtonsConfig) -> dict[str, float]:
    """Keyword arguments for hardware.buttons.Buttons: debounce and hold time."""
    return {"bounce_ms": float(cfg.bounce_ms), "hold_time": cfg.hold_s}


def oled_settings(cfg: OledConfig) -> OledSettings:
    """The [oled] section's settings, without the section's ``type``."""
    return OledSettings(**{f.name: getattr(cfg, f.name) for f in fields(OledSettings)})
