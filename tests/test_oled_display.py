"""Display over luma's dummy device: images arrive, I2C errors are retried and logged once, no OLED is fine."""

from __future__ import annotations

import logging

import pytest
from luma.core.device import dummy
from luma.core.error import DeviceNotFoundError

from companion.dice import Die, Prompt
from companion.errors import CompanionError
from companion.views.oled import render
from companion.views.panel import Panel
from hardware.oled import Display, OledSettings, open_device


class FlakyDummy(dummy):
    """luma's dummy device whose display() raises OSError (as an I2C write does) ``failures`` times."""

    def __init__(self, failures: int = 0, **kwargs):
        super().__init__(mode="1", **kwargs)
        self.failures = failures
        self.calls = 0

    def display(self, image):
        self.calls += 1
        if self.failures > 0:
            self.failures -= 1
            raise OSError(121, "Remote I/O error")
        super().display(image)


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def screen(value: int):
    return render(Panel(prompt=Prompt("roll", dice=("d8",)), dice=(Die("d8", value),)))


def test_image_reaches_the_dummy_device():
    device = dummy(mode="1")
    display = Display(device=device)
    image = screen(3)
    assert display.show(image) is True
    assert device.image.tobytes() == image.tobytes()
    assert display.show(screen(8)) is True
    assert device.image.tobytes() != image.tobytes()


def test_a_transient_i2c_error_is_retried_at_once():
    device = FlakyDummy(failures=1)
    display = Display(device=device, attempts=2)
    assert display.show(screen(5)) is True
    assert device.calls == 2 and not display.failing and display.errors == 1


def test_outage_backs_off_logs_once_and_recovers(caplog):
    clock = Clock()
    device = FlakyDummy(failures=10)
    display = Display(device=device, clock=clock, attempts=2, retry_s=1.0, max_backoff_s=4.0)
    with caplog.at_level(logging.WARNING, logger="companion.oled"):
        assert display.show(screen(1)) is False
        assert display.failing
        calls = device.calls
        assert display.show(screen(2)) is False  # inside the backoff: no bus traffic
        assert device.calls == calls
        for step in (1.0, 2.0, 4.0):  # doubling, bounded
            clock.now += step
            assert display.flush() is False
        clock.now += 4.0  # capped at max_backoff_s
        assert display.flush() is False
        clock.now += 4.0
        assert display.flush() is True  # failures exhausted: the newest image arrives
    assert device.image.tobytes() == screen(2).tobytes()
    failed = [r for r in caplog.records if "failed" in r.getMessage()]
    back = [r for r in caplog.records if "back" in r.getMessage()]
    assert len(failed) == 1 and len(back) == 1
    assert not display.failing


def test_no_oled_at_start_is_a_state_not_an_error(caplog):
    clock = Clock()
    with caplog.at_level(logging.WARNING, logger="companion.oled"):
        # the real luma i2c interface on a bus that does not exist
        display = Display(OledSettings(i2c_port=97), clock=clock, reopen_s=5.0)
        assert not display.present and display.absent_reason
        assert display.show(screen(4)) is False
        clock.now += 5.0
        assert display.show(screen(4)) is False
    assert len([r for r in caplog.records if "no OLED" in r.getMessage()]) == 1


def test_oled_plugged_in_later_is_picked_up():
    clock = Clock()
    device = dummy(mode="1")
    tries = []

    def opener(settings):
        tries.append(clock.now)
        if len(tries) == 1:
            raise DeviceNotFoundError("I2C device not found: /dev/i2c-1")
        return device

    display = Display(opener=opener, clock=clock, reopen_s=10.0)
    assert display.show(screen(6)) is False
    clock.now += 10.0
    assert display.show(screen(6)) is True
    assert display.present and device.image.tobytes() == screen(6).tobytes()


def test_open_device_real_luma_error_on_missing_bus():
    with pytest.raises(DeviceNotFoundError):
        open_device(OledSettings(i2c_port=97))


@pytest.mark.parametrize("field, value", [("driver", "ssd9999"), ("interface", "usb"), ("rotation", 4),
                                          ("contrast", 300)])
def test_bad_settings_are_one_line_errors(field, value):
    with pytest.raises(CompanionError, match=field):
        OledSettings(**{field: value})


def test_close_releases_the_device():
    device = dummy(mode="1")
    display = Display(device=device)
    display.show(screen(2))
    display.close()
    assert not display.present
    assert display.show(screen(3)) is False  # still never raises
