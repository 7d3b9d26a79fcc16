"""The paired dice over bleak: one thread, one asyncio loop, one task per die; rolls out on a queue.

Only ``companion.inputs`` values leave this module: a ``Roll`` of one die per settled throw (its
source names the die, "godice:Blue D8"), a ``SourceStatus`` when a die's state changes (waiting,
connected, rolling, away; the detail says its battery), a ``SourceFault`` when a throw must be
made again (landed crooked, or the link dropped while it was in the air: that roll is asked for
again, never guessed).

One scanner listens for every paired die (BlueZ runs one discovery per D-Bus client, and bleak
has one client per event loop: a second scanner, or a ``BleakClient`` made from a bare address,
which looks the address up with a discovery of its own, fails with "InProgress" while it runs). It
hands each die's ``BLEDevice`` to that die's task, which connects with ``bleak-retry-connector``
(it knows BlueZ's transient errors, "le-connection-abort-by-local" among them, and backs off between
attempts) through bleak's ``BleakClient`` with the ``backend=`` the caller gives (None: the
platform's, BlueZ on the Pi). Whatever a connection raises, of any type (bleak on BlueZ has raised
KeyError), ends that connection only: the die shows as away with the reason, and is connected again
``retry`` seconds after the scanner hears it. Every connection has its own generation number and a
notification from an older one is ignored, so a subscription BlueZ left behind cannot double a
roll; the die's :class:`RollTracker` drops a rest notified twice or a bounce within ``debounce``,
and the landing of a throw whose link dropped mid-air (the box already asked for it again).
Pixels may instead be read from their advertisements (``pixels_via="advert"``): no connection,
the same scanner asking BlueZ for duplicate advertisements.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import queue
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from bleak import BleakClient, BleakScanner
from bleak.backends.device import BLEDevice
from bleak.backends.scanner import AdvertisementData
from bleak.exc import BleakError
from bleak_retry_connector import establish_connection

from companion.dice import Die
from companion.errors import RuleError
from companion.inputs import Roll, SourceFault, SourceStatus
from hardware.smartdice import godice, pixels
from hardware.smartdice.reading import Reading, battery_detail
from hardware.smartdice.store import PairedDie
from hardware.smartdice.track import RollTracker

log = logging.getLogger(__name__)

LINK_ERRORS = (BleakError, OSError, asyncio.TimeoutError, EOFError)
"""What a connection attempt or a live link may raise that means: try again later (dbus-fast raises
OSError and EOFError when BlueZ goes away; a connect timeout is asyncio's)."""


@dataclass
class _DieState:
    paired: PairedDie
    tracker: RollTracker
    state: str = "off"
    detail: str = ""
    battery: int | None = None
    charging: bool = False
    generation: int = 0
    connected_once: bool = False
    last_advert: float | None = None
    last_advert_key: tuple[str, int | None] | None = None
    counts: dict[str, int] = field(default_factory=dict)
    heard: asyncio.Event | None = None
    """Set by the scanner when it hears the die (made on the loop)."""


class SmartDice:
    """Reads the paired dice and puts Roll / SourceStatus / SourceFault on ``events``.

    ``client_backend`` and ``scanner_backend`` go to bleak unchanged (None: the platform's);
    ``clock`` is the tracker's (debounce and stuck rolls), injectable so tests need no sleeps.
    ``landing``: after a link drops mid-throw, a rest within this many seconds of the link coming
    back is that lost throw landing, not a roll (the box has asked for the throw again).
    """

    def __init__(self, events: queue.Queue[Any], dice: tuple[PairedDie, ...] | list[PairedDie], *,
                 debounce: float = 1.0, retry: float = 2.0, pixels_via: str = "connect",
                 abort_retries: int = 3, connect_timeout: float = 20.0, settle_timeout: float = 5.0,
                 advert_timeout: float = 10.0, tick: float = 0.25, landing: float = 3.0,
                 client_backend: type | None = None, scanner_backend: type | None = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        if pixels_via not in ("connect", "advert"):
            raise ValueError(f"pixels_via must be 'connect' or 'advert', not {pixels_via!r}")
        self.events = events
        self.dice = [_DieState(d, RollTracker(debounce)) for d in dice]
        self.retry = retry
        self.pixels_via = pixels_via
        self.abort_retries = abort_retries
        self.connect_timeout = connect_timeout
        self.settle_timeout = settle_timeout
        self.advert_timeout = advert_timeout
        self.tick = tick
        self.landing = landing
        self.client_backend = client_backend
        self.scanner_backend = scanner_backend
        self.clock = clock
        self._loop: asyncio.AbstractEventLoop | None = None
        self._stop: asyncio.Event | None = None
        self._thread: threading.Thread | None = None
        self._ready = threading.Event()
        self._devices: dict[str, BLEDevice] = {}
        """The scanner's latest BLEDevice of each paired die, by address."""

    # -- lifecycle -----------------------------------------------------------------------------
    def start(self) -> SmartDice:
        for die in self.dice:
            self._set_state(die, "waiting", "looking for it")
        self._thread = threading.Thread(target=self._run, name="smartdice", daemon=True)
        self._thread.start()
        self._ready.wait(5.0)
        return self

    def close(self, timeout: float = 5.0) -> None:
        """Disconnect every die and stop the thread (safe to call twice)."""
        loop, stop = self._loop, self._stop
        if loop is not None and stop is not None and not loop.is_closed():
            with contextlib.suppress(RuntimeError):  # the loop closed meanwhile
                loop.call_soon_threadsafe(stop.set)
        if self._thread is not None:
            self._thread.join(timeout)
            self._thread = None

    def __enter__(self) -> SmartDice:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()

    def flush(self, timeout: float = 5.0) -> None:
        """Return once the loop has handled everything handed to it before this call (notifications a
        radio delivered from another thread included: the loop takes them in order)."""
        if self._loop is None:
            return

        async def nothing() -> None:
            return None

        asyncio.run_coroutine_threadsafe(nothing(), self._loop).result(timeout)

    def counts(self) -> dict[str, dict[str, int]]:
        """Per die: rolls, drops by reason, reconnects, stale callbacks; for logs and tests."""
        return {d.paired.label: {**d.tracker.counts, **d.counts} for d in self.dice}

    # -- the loop thread -----------------------------------------------------------------------
    def _run(self) -> None:
        try:
            asyncio.run(self._main())
        except Exception:  # a bug here must not take the box down; the dice show as away
            log.exception("smart dice: the Bluetooth loop failed")
            for die in self.dice:
                self._set_state(die, "away", "Bluetooth loop failed (see the log)")
        finally:
            self._ready.set()

    async def _main(self) -> None:
        self._loop = asyncio.get_running_loop()
        self._stop = asyncio.Event()
        for die in self.dice:
            die.heard = asyncio.Event()
        self._ready.set()
        connected = [d for d in self.dice if d.paired.family == "godice" or self.pixels_via == "connect"]
        adverts = [d for d in self.dice if d not in connected]
        tasks = [asyncio.create_task(self._keep(d), name=f"die {d.paired.label}") for d in connected]
        tasks.append(asyncio.create_task(self._scan(adverts), name="smartdice scanner"))
        tasks.append(asyncio.create_task(self._watch_time(), name="smartdice clock"))
        await self._stop.wait()
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    async def _pause(self, seconds: float) -> bool:
        """Wait ``seconds`` or until closed; True when closed."""
        assert self._stop is not None
        with contextlib.suppress(asyncio.TimeoutError):
            await asyncio.wait_for(self._stop.wait(), seconds)
        return self._stop.is_set()

    # -- one connected die ---------------------------------------------------------------------
    async def _keep(self, die: _DieState) -> None:
        """Connect the die whenever the scanner hears it, for as long as the box runs. Nothing that
        one connection raises ends this task: any error is said on the die's status, and it goes on."""
        assert self._stop is not None
        while not self._stop.is_set():
            try:
                await self._session(die)
            except Exception as exc:  # any type at all: bleak on BlueZ has raised KeyError, ValueError...
                log.warning("%s: %s", die.paired.label, _short(exc), exc_info=not isinstance(exc, LINK_ERRORS))
                die.counts["errors"] = die.counts.get("errors", 0) + 1
                self._set_state(die, "away" if die.connected_once else "waiting", _reason(exc))
            if await self._pause(self.retry):
                return

    async def _device(self, die: _DieState) -> BLEDevice | None:
        """The die's BLEDevice once the scanner has heard it; None when the box closes first."""
        assert self._stop is not None and die.heard is not None
        while not self._stop.is_set():
            device = self._devices.get(die.paired.address)
            if device is not None:
                return device
            heard = asyncio.create_task(die.heard.wait())
            stop = asyncio.create_task(self._stop.wait())
            try:
                await asyncio.wait({heard, stop}, return_when=asyncio.FIRST_COMPLETED)
            finally:
                heard.cancel()
                stop.cancel()
        return None

    async def _session(self, die: _DieState) -> None:
        """Connect, subscribe, wait until the link drops or the box closes."""
        assert self._stop is not None
        device = await self._device(die)
        if device is None:
            return
        dropped = asyncio.Event()
        try:
            client = await establish_connection(
                BleakClient, device, die.paired.label, disconnected_callback=lambda _c: dropped.set(),
                max_attempts=self.abort_retries + 1, timeout=self.connect_timeout, backend=self.client_backend)
        except Exception as exc:  # of any type: the next attempt follows after ``retry``
            log.info("%s: %s", die.paired.label, _short(exc), exc_info=not isinstance(exc, LINK_ERRORS))
            self._set_state(die, "away" if die.connected_once else "waiting", _reason(exc))
            return
        die.generation += 1
        generation = die.generation
        try:
            notify, write, ask = self._channels(client, die.paired)
            await client.start_notify(notify, lambda _char, data: self._on_data(die, generation, bytes(data)))
            if die.connected_once:
                die.counts["reconnects"] = die.counts.get("reconnects", 0) + 1
            die.connected_once = True
            die.tracker.back(self.clock(), self.landing)
            self._set_state(die, "connected", battery_detail(die.battery, die.charging))
            await client.write_gatt_char(write, ask, response=False)
            stop = asyncio.create_task(self._stop.wait())
            drop = asyncio.create_task(dropped.wait())
            try:
                await asyncio.wait({stop, drop}, return_when=asyncio.FIRST_COMPLETED)
            finally:
                stop.cancel()
                drop.cancel()
        finally:
            die.generation += 1  # whatever this connection's subscription still delivers is stale now
            if self._stop.is_set() or client.is_connected:
                with contextlib.suppress(Exception):
                    await client.disconnect()
            if not self._stop.is_set():
                self._link_lost(die)

    def _channels(self, client: BleakClient, paired: PairedDie) -> tuple[str, str, bytes]:
        """The notify and write characteristics of this die's service, and what to ask it on connect."""
        if paired.family == "godice":
            return godice.NOTIFY, godice.WRITE, godice.ASK_BATTERY
        if client.services.get_characteristic(pixels.NOTIFY) is not None:
            return pixels.NOTIFY, pixels.WRITE, pixels.ASK_ROLL_STATE
        return pixels.LEGACY_NOTIFY, pixels.LEGACY_WRITE, pixels.ASK_ROLL_STATE

    def _on_data(self, die: _DieState, generation: int, data: bytes) -> None:
        if generation != die.generation:
            die.counts["stale_callbacks"] = die.counts.get("stale_callbacks", 0) + 1
            return
        try:
            if die.paired.family == "godice":
                reading = godice.decode(data, die.paired.kind)
            else:
                reading = pixels.decode(data, die.paired.firmware)
        except Exception:  # a message we cannot read must not end the connection
            log.exception("%s: cannot decode %s", die.paired.label, data.hex())
            return
        self._reading(die, reading)

    def _link_lost(self, die: _DieState) -> None:
        if die.tracker.lost(self.clock()):
            self.events.put(SourceFault(die.paired.source, "lost its link mid-throw"))
        self._set_state(die, "away", "link lost")

    # -- readings, from a connection or an advertisement ---------------------------------------
    def _reading(self, die: _DieState, reading: Reading) -> None:
        label = die.paired.label
        if reading.battery is not None and (reading.battery, reading.charging) != (die.battery, die.charging):
            die.battery, die.charging = reading.battery, reading.charging
            if die.state in ("connected", "rolling"):
                self._set_state(die, die.state, battery_detail(die.battery, die.charging), force=True)
        verdict = die.tracker.feed(reading, self.clock())
        if reading.motion == "rolling" and die.state == "connected":
            self._set_state(die, "rolling", battery_detail(die.battery, die.charging))
        if verdict.kind == "roll":
            assert verdict.face is not None
            try:
                rolled = Die(die.paired.kind, verdict.face)
            except RuleError:
                self.events.put(SourceFault(die.paired.source, f"showed {verdict.face}, which a "
                                            f"{die.paired.kind.upper()} has not (check its kind in the pairing)"))
            else:
                self.events.put(Roll((rolled,), source=die.paired.source))
        elif verdict.kind == "crooked":
            self.events.put(SourceFault(die.paired.source, "landed crooked"))
        elif verdict.kind == "dropped":
            log.debug("%s: rest ignored: %s", label, verdict.why)
        if verdict.kind != "none" and die.state == "rolling":
            self._set_state(die, "connected", battery_detail(die.battery, die.charging))

    async def _scan(self, adverts: list[_DieState]) -> None:
        """The one scanner: hands every paired die's BLEDevice to its task, and reads the ``adverts`` dice
        (Pixels read from their advertisements) as they advertise."""
        by_address = {d.paired.address: d for d in self.dice}
        read = {d.paired.address for d in adverts}

        def heard(device: BLEDevice, adv: AdvertisementData) -> None:
            die = by_address.get(device.address.upper())
            if die is None:
                return
            self._devices[die.paired.address] = device
            assert die.heard is not None
            die.heard.set()
            if die.paired.address in read:
                try:
                    self._advert(die, adv)
                except Exception:  # an advertisement we cannot read must not stop the scanner
                    log.exception("%s: cannot read its advertisement", die.paired.label)

        while True:
            scanner = BleakScanner(heard, bluez={"filters": {"DuplicateData": True}}, backend=self.scanner_backend)
            try:
                await scanner.start()
            except Exception as exc:  # no adapter, BlueZ gone, or anything else: said, and tried again
                log.info("smart dice scanner: %s", _short(exc), exc_info=not isinstance(exc, LINK_ERRORS))
                for die in self.dice:
                    self._set_state(die, "away" if die.connected_once else "waiting", _reason(exc))
                if await self._pause(self.retry):
                    return
                continue
            try:
                assert self._stop is not None
                await self._stop.wait()
                return
            finally:
                with contextlib.suppress(Exception):
                    await scanner.stop()

    def _advert(self, die: _DieState, adv: AdvertisementData) -> None:
        advert = next((a for a in (pixels.decode_advert(m, die.paired.firmware)
                                   for m in adv.manufacturer_data.values()) if a is not None), None)
        if advert is None:
            return
        die.last_advert = self.clock()
        if die.state != "connected" and die.state != "rolling":
            if die.connected_once:
                die.counts["reconnects"] = die.counts.get("reconnects", 0) + 1
            die.connected_once = True
            die.tracker.back(die.last_advert, self.landing)
            die.battery, die.charging = advert.reading.battery, advert.reading.charging
            self._set_state(die, "connected", battery_detail(die.battery, die.charging))
        key = (advert.reading.detail, advert.reading.face)
        if key != die.last_advert_key:  # the same advertisement heard again says nothing new
            die.last_advert_key = key
            self._reading(die, advert.reading)

    async def _watch_time(self) -> None:
        """Rolls that never settle, and Pixels whose advertisements stopped."""
        while not await self._pause(self.tick):
            now = self.clock()
            for die in self.dice:
                if die.tracker.stuck(now, self.settle_timeout) and die.state == "rolling":
                    self._set_state(die, "connected", "no roll came")
                if (die.last_advert is not None and now - die.last_advert > self.advert_timeout
                        and die.state in ("connected", "rolling")):
                    die.last_advert = None
                    die.last_advert_key = None
                    self._link_lost(die)

    # -- status ----------------------------------------------------------------------------------
    def _set_state(self, die: _DieState, state: str, detail: str = "", *, force: bool = False) -> None:
        if state != die.state or detail != die.detail or force:
            die.state, die.detail = state, detail
            self.events.put(SourceStatus(die.paired.source, state, detail))


def _reason(exc: BaseException) -> str:
    """What a die's status says of an error: Bluetooth's own words for a Bluetooth error; for any other
    (a bug in a library, on a path it did not expect) no Python internals, just what happens next."""
    if isinstance(exc, LINK_ERRORS):
        return _short(exc)
    return "Bluetooth error, connecting again"


def _short(exc: BaseException) -> str:
    """One line for a status detail: the error's own words, or its type when it has none."""
    text = " ".join(str(a) for a in exc.args if a) if exc.args else ""
    return text.splitlines()[0][:80] if text else type(exc).__name__
