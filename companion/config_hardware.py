"""From configuration sections to the settings the hardware parts take: one small function each.

Kept apart from companion.config so reading a file never imports gpiozero or luma.
"""

from __future__ import annotations

from typing import Any

from companion.config import ButtonsConfig, OledConfig


def button_pins(cfg: ButtonsConfig) -> Any:
    """hardware.buttons.ButtonPins for the [buttons] section."""
    from hardware.buttons import ButtonPins

    return ButtonPins(roll=cfg.roll, up=cfg.up, down=cfg.down, left=cfg.left, right=cfg.right, ok=cfg.ok,
                      back=cfg.back)


def button_options(cfg: ButtonsConfig) -> dict[str, float]:
    """Keyword arguments for hardware.buttons.Buttons: debounce and hold time."""
    return {"bounce_ms": float(cfg.bounce_ms), "hold_time": cfg.hold_s}


def oled_settings(cfg: OledConfig) -> Any:
    """hardware.oled.OledSettings for the [oled] section (``port`` is the I2C bus or the SPI port)."""
    from hardware.oled import OledSettings

    if cfg.interface == "i2c":
        return OledSettings(driver=cfg.driver, interface="i2c", i2c_port=cfg.port, i2c_address=cfg.address,
                            rotation=cfg.rotation, contrast=cfg.contrast)
    return OledSettings(driver=cfg.driver, interface="spi", spi_port=cfg.port, rotation=cfg.rotation,
                        contrast=cfg.contrast)
