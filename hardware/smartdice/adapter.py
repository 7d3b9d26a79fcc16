"""The paired dice over bleak: one thread, one asyncio loop, one task per die; rolls out on a queue.

Only ``companion.inputs`` values leave this module: a ``Roll`` of one die per settled throw (its
source names the die, "godice:Blue D8"), a ``SourceStatus`` when a die's state changes (waiting,
connected, rolling, away; the detail says its battery), a ``SourceFault`` when a throw must be
made again (landed crooked, or the link dropped while it was in the air: that roll is asked for
again, never guessed).

Each die keeps a connection: bleak's ``BleakClient`` with the ``backend=`` the caller gives (None:
the platform's, BlueZ on the Pi). A connect BlueZ aborts with "le-connection-abort-by-local" is
retried at once a few times (the radio was busy), anything else waits ``retry`` seconds; a link
that drops is reconnected the same way. Every connection has its own generation number and a
notification from an older one is ignored, so a subscription BlueZ left behind cannot double a
roll; the die's :class:`RollTracker` drops a rest notified twice or a bounce within ``debounce``.
Pixels may instead be read from their advertisements (``pixels_via="advert"``): no connection,
one scanner asking BlueZ for duplicate advertisements.
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
from bleak.exc import BleakDBusError, BleakError

from companion.dice import Die
from companion.errors import RuleError
from companion.inputs import Roll, SourceFault, SourceStatus
from hardware.smartdice import godice, pixels
from hardware.smartdice.reading import Reading, battery_detail
from hardware.smartdice.store import PairedDie
from hardware.smartdice.track import RollTracker

log = logging.getLogger(__name__)

ABORT = "le-connection-abort-by-local"
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


class SmartDice:
    """Reads the paired dice and puts Roll / SourceStatus / SourceFault on ``events``.

    ``client_backend`` and ``scanner_backend`` go to bleak unchanged (None: the platform's);
    ``clock`` is the tracker's (debounce and stuck rolls), injectable so tests need no sleeps.
    """

    def __init__(self, events: queue.Queue[Any], dice: tuple[PairedDie, ...] | list[PairedDie], *,
                 debounce: float = 1.0, retry: float = 2.0, pixels_via: str = "connect",
                 abort_retries: int = 3, connect_timeout: float = 20.0, settle_timeout: float = 5.0,
                 advert_timeout: float = 10.0, tick: float = 0.25,
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
        self.client_backend = client_backend
        self.scanner_backend = scanner_backend
        self.clock = clock
        self._loop: asyncio.AbstractEventLoop | None = None
        self._stop: asyncio.Event | None = None
        self._thread: threading.Thread | None = None
        self._ready = threading.Event()

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
        self._ready.set()
        connected = [d for d in self.dice if d.paired.family == "godice" or self.pixels_via == "connect"]
        adverts = [d for d in self.dice if d not in connected]
        tasks = [asyncio.create_task(self._keep(d), name=f"die {d.paired.label}") for d in connected]
        if adverts:
            tasks.append(asyncio.create_task(self._watch_adverts(adverts), name="pixels adverts"))
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
        assert self._stop is not None
        while not self._stop.is_set():
            await self._session(die)
            if await self._pause(self.retry):
                return

    async def _connect(self, client: BleakClient, die: _DieState) -> None:
        for attempt in range(self.abort_retries + 1):
            try:
                await client.connect()
                return
            except BleakDBusError as exc:
                if ABORT not in exc.args or attempt == self.abort_retries:
                    raise
                die.counts["connect_aborts"] = die.counts.get("connect_aborts", 0) + 1
                log.debug("%s: %s, connecting again", die.paired.label, ABORT)

    async def _session(self, die: _DieState) -> None:
        """Connect, subscribe, wait until the link drops or the box closes."""
        assert self._stop is not None
        dropped = asyncio.Event()
        client = BleakClient(die.paired.address, disconnected_callback=lambda _c: dropped.set(),
                             timeout=self.connect_timeout, backend=self.client_backend)
        try:
            await self._connect(client, die)
        except LINK_ERRORS as exc:
            self._set_state(die, "away" if die.connected_once else "waiting", _short(exc))
            return
        die.generation += 1
        generation = die.generation
        try:
            notify, write, ask = self._channels(client, die.paired)
            await client.start_notify(notify, lambda _char, data: self._on_data(die, generation, bytes(data)))
            if die.connected_once:
                die.counts["reconnects"] = die.counts.get("reconnects", 0) + 1
            die.connected_once = True
            self._set_state(die, "connected", battery_detail(die.battery, die.charging))
            await client.write_gatt_char(write, ask, response=False)
            stop = asyncio.create_task(self._stop.wait())
            drop = asyncio.create_task(dropped.wait())
            try:
                await asyncio.wait({stop, drop}, return_when=asyncio.FIRST_COMPLETED)
            finally:
                stop.cancel()
                drop.cancel()
        except LINK_ERRORS as exc:
            log.info("%s: %s", die.paired.label, _short(exc))
        finally:
            die.generation += 1  # whatever this connection's subscription still delivers is stale now
            if self._stop.is_set():
                with contextlib.suppress(*LINK_ERRORS):
                    await client.disconnect()
            else:
                if client.is_connected:
                    with contextlib.suppress(*LINK_ERRORS):
                        await client.disconnect()
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
        if die.tracker.lost():
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

    async def _watch_adverts(self, dice: list[_DieState]) -> None:
        by_address = {d.paired.address: d for d in dice}

        def heard(device: BLEDevice, adv: AdvertisementData) -> None:
            die = by_address.get(device.address.upper())
            if die is None:
                return
            advert = next((a for a in (pixels.decode_advert(m, die.paired.firmware)
                                       for m in adv.manufacturer_data.values()) if a is not None), None)
            if advert is None:
                return
            die.last_advert = self.clock()
            if die.state != "connected" and die.state != "rolling":
                if die.connected_once:
                    die.counts["reconnects"] = die.counts.get("reconnects", 0) + 1
                die.connected_once = True
                die.battery, die.charging = advert.reading.battery, advert.reading.charging
                self._set_state(die, "connected", battery_detail(die.battery, die.charging))
            key = (advert.reading.detail, advert.reading.face)
            if key != die.last_advert_key:  # the same advertisement heard again says nothing new
                die.last_advert_key = key
                self._reading(die, advert.reading)

        while True:
            scanner = BleakScanner(heard, bluez={"filters": {"DuplicateData": True}}, backend=self.scanner_backend)
            try:
                await scanner.start()
            except LINK_ERRORS as exc:
                for die in dice:
                    self._set_state(die, "away" if die.connected_once else "waiting", _short(exc))
                if await self._pause(self.retry):
                    return
                continue
            try:
                assert self._stop is not None
                await self._stop.wait()
                return
            finally:
                with contextlib.suppress(*LINK_ERRORS):
                    await scanner.stop()

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


def _short(exc: BaseException) -> str:
    """One line for a status detail: the error's own words, or its type when it has none."""
    text = " ".join(str(a) for a in exc.args if a) if exc.args else ""
    return text.splitlines()[0][:80] if text else type(exc).__name__
