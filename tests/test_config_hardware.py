"""The configuration's defaults are the hardware parts' defaults, and values reach them."""

from __future__ import annotations

import dataclasses
import inspect

from companion.config import ButtonsConfig, OledConfig
from companion.config_hardware import button_options, button_pins, oled_settings
from hardware.buttons import ButtonPins, Buttons
from hardware.oled import OledSettings


def test_button_defaults_match_hardware():
    assert button_pins(ButtonsConfig()) == ButtonPins()
    params = inspect.signature(Buttons.__init__).parameters
    opts = button_options(ButtonsConfig())
    assert opts == {"bounce_ms": params["bounce_ms"].default, "hold_time": params["hold_time"].default}


def test_oled_defaults_match_hardware():
    assert oled_settings(OledConfig()) == OledSettings()


def test_values_reach_hardware_settings():
    pins = button_pins(dataclasses.replace(ButtonsConfig(), roll=4))
    assert pins.roll == 4
    oled = oled_settings(OledConfig(driver="sh1106", i2c_address=0x3D, rotation=2))
    assert (oled.driver, oled.i2c_address, oled.rotation) == ("sh1106", 0x3D, 2)
    spi = oled_settings(OledConfig(interface="spi", spi_port=0))
    assert spi.interface == "spi" and spi.spi_port == 0
