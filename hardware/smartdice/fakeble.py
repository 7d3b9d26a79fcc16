"""Dice on a simulated radio, plugged into bleak through its own ``backend=`` seam.

``BleakClient(address, backend=radio.client_backend)`` and ``BleakScanner(..., backend=radio.scanner_backend)``
run bleak's real front classes (characteristic lookup, callback wrapping, ``discover``) over
:class:`FakeClient` and :class:`FakeScanner`, which subclass bleak's backend base classes. The test
(or the benchmark, or the simulated table) plays the dice from its own thread: a notification,
an advertisement, a dropped link, a connection BlueZ aborts. Everything reaches the adapter on its
own event loop, as BlueZ's D-Bus messages do. Two BlueZ habits are reproduced on request: an old
connection's notification subscription that keeps firing after a reconnect (``leak_subscriptions``),
and every notification delivered twice (``double``).

One BlueZ rule always holds: a D-Bus client runs one discovery at a time. bleak keeps one D-Bus
connection per event loop, so a second scanner started on a loop whose scanner runs, or a
``BleakClient`` made from a bare address (BlueZ's backend then runs a discovery of its own to find
the device) while one runs, fails with ``org.bluez.Error.InProgress``, as on a Pi. A client made from
the ``BLEDevice`` a scanner handed over needs no discovery.
"""

from __future__ import annotations

import asyncio
import itertools
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from bleak.backends.characteristic import BleakGATTCharacteristic
from bleak.backends.client import BaseBleakClient, NotifyCallback
from bleak.backends.device import BLEDevice
from bleak.backends.scanner import AdvertisementData, AdvertisementDataCallback, BaseBleakScanner
from bleak.backends.service import BleakGATTService, BleakGATTServiceCollection
from bleak.exc import BleakDBusError, BleakDeviceNotFoundError, BleakError

from hardware.smartdice import godice, pixels

ABORT = "le-connection-abort-by-local"
IN_PROGRESS = "org.bluez.Error.InProgress"
DEVICE_INFORMATION = "0000180a-0000-1000-8000-00805f9b34fb"
"""The service id Pixels put their 8 bytes of service data under (die id, firmware build time)."""


@dataclass
class FakePeripheral:
    """One die on the air: its GATT layout, what it advertises, and what it answers to a write."""

    address: str
    name: str
    services: dict[str, tuple[str, str]]
    """service uuid -> (notify characteristic, write characteristic)."""
    manufacturer_data: dict[int, bytes] = field(default_factory=dict)
    service_data: dict[str, bytes] = field(default_factory=dict)
    replies: dict[bytes, list[bytes]] = field(default_factory=dict)
    """A write of these bytes makes the die notify those messages."""
    present: bool = True
    connect_errors: list[BaseException] = field(default_factory=list)
    """Raised by the next connects, one each, before one succeeds."""
    subscribe_errors: list[BaseException] = field(default_factory=list)
    """Raised by the next subscriptions, one each (bleak on BlueZ has raised KeyError, ValueError... there)."""
    writes: list[bytes] = field(default_factory=list)


@dataclass
class _Subscription:
    client: FakeClient
    uuid: str
    callback: NotifyCallback
    loop: asyncio.AbstractEventLoop


class FakeRadio:
    """The air between the box and its dice. Thread-safe: the test plays it from its own thread."""

    def __init__(self, *, leak_subscriptions: bool = False, double: bool = False, adapter: bool = True) -> None:
        self.peripherals: dict[str, FakePeripheral] = {}
        self.leak_subscriptions = leak_subscriptions
        self.double = double
        self.adapter = adapter
        """False: no Bluetooth adapter, as on a server or a build machine."""
        self.connects: dict[str, int] = {}
        self.scanner_args: list[dict[str, Any]] = []
        self._subs: list[_Subscription] = []
        self._clients: set[FakeClient] = set()
        self._scanners: set[FakeScanner] = set()
        self._discovering: dict[asyncio.AbstractEventLoop, int] = {}
        """Discoveries running, per event loop (bleak's D-Bus client)."""
        self.refused_discoveries = 0
        self.lookup_s = 0.05
        """How long the discovery of a client made from a bare address runs (until the die is heard)."""
        self._lock = threading.Lock()
        radio = self
        self.client_backend: type[FakeClient] = type("FakeClient", (FakeClient,), {"radio": radio})
        self.scanner_backend: type[FakeScanner] = type("FakeScanner", (FakeScanner,), {"radio": radio})

    # -- dice on the air ---------------------------------------------------------------------------
    def add_godice(self, address: str, name: str = "GoDice_0A1B2C_K_v04", battery: int = 80) -> FakePeripheral:
        die = FakePeripheral(address.upper(), name, {godice.SERVICE: (godice.NOTIFY, godice.WRITE)},
                             replies={godice.ASK_BATTERY: [b"Bat" + bytes([battery])]})
        self.peripherals[die.address] = die
        return die

    def add_pixels(self, address: str, name: str = "Pixel 1", *, face_index: int = 0, state: int = 5,
                   battery: int = 70, die_type: int = 3, legacy_service: bool = False) -> FakePeripheral:
        service = ((pixels.LEGACY_SERVICE, (pixels.LEGACY_NOTIFY, pixels.LEGACY_WRITE)) if legacy_service
                   else (pixels.SERVICE, (pixels.NOTIFY, pixels.WRITE)))
        company = pixels.LEGACY_COMPANY_ID if legacy_service else pixels.COMPANY_ID
        die = FakePeripheral(address.upper(), name, dict([service]),
                             manufacturer_data={company: bytes([8, die_type << 4, state, face_index, battery])},
                             service_data={DEVICE_INFORMATION: bytes(8)},
                             replies={pixels.ASK_ROLL_STATE: [bytes([pixels.ROLL_STATE, state, face_index])]})
        self.peripherals[die.address] = die
        return die

    def add(self, die: FakePeripheral) -> FakePeripheral:
        """Put any die on the air (tests build them from the vendors' own ids and bytes)."""
        die.address = die.address.upper()
        self.peripherals[die.address] = die
        return die

    def fail_next_connects(self, address: str, count: int = 1, reason: str = ABORT) -> None:
        """The next ``count`` connects to ``address`` fail as BlueZ fails them (D-Bus error with ``reason``)."""
        self.peripherals[address.upper()].connect_errors.extend(
            BleakDBusError("org.bluez.Error.Failed", [reason]) for _ in range(count))

    def notify(self, address: str, data: bytes) -> None:
        """The die at ``address`` sends ``data`` to every subscription it has (a leaked one too)."""
        with self._lock:
            subs = [s for s in self._subs if s.client.address == address.upper()]
        for sub in subs:
            for _ in range(2 if self.double else 1):
                sub.loop.call_soon_threadsafe(sub.callback, bytearray(data))

    def drop(self, address: str) -> None:
        """The link to ``address`` breaks (out of range, battery, BlueZ): the client hears of it."""
        with self._lock:
            clients = [c for c in self._clients if c.address == address.upper() and c.connected]
        for client in clients:
            client.lost()

    def vanish(self, address: str) -> None:
        """The die goes away: the link drops and connects fail until :meth:`appear`."""
        self.peripherals[address.upper()].present = False
        self.drop(address)

    def appear(self, address: str) -> None:
        """The die is back, and advertises (as a die does when it wakes)."""
        self.peripherals[address.upper()].present = True
        self.advertise(address)

    def advertise(self, address: str, manufacturer_data: bytes | None = None) -> None:
        """The die at ``address`` advertises (new manufacturer data, or what it had)."""
        die = self.peripherals[address.upper()]
        if manufacturer_data is not None:
            die.manufacturer_data = {next(iter(die.manufacturer_data), 0xFFFF): bytes(manufacturer_data)}
        with self._lock:
            scanners = list(self._scanners)
        for scanner in scanners:
            scanner.hear(die)

    # -- used by the backend classes ---------------------------------------------------------------
    def _start_discovery(self) -> None:
        """BlueZ's StartDiscovery for the D-Bus client of the running loop: one at a time."""
        loop = asyncio.get_running_loop()
        with self._lock:
            if self._discovering.get(loop, 0):
                self.refused_discoveries += 1
                raise BleakDBusError(IN_PROGRESS, ["Operation already in progress"])
            self._discovering[loop] = 1

    def _stop_discovery(self, loop: asyncio.AbstractEventLoop | None) -> None:
        with self._lock:
            if loop is not None:
                self._discovering.pop(loop, None)

    def _connect(self, client: FakeClient) -> FakePeripheral:
        die = self.peripherals.get(client.address)
        if die is None or not die.present:
            raise BleakDeviceNotFoundError(client.address, f"Device with address {client.address} was not found.")
        if die.connect_errors:
            raise die.connect_errors.pop(0)
        with self._lock:
            self.connects[die.address] = self.connects.get(die.address, 0) + 1
            self._clients.add(client)
        return die

    def _disconnect(self, client: FakeClient) -> None:
        with self._lock:
            self._clients.discard(client)
            self._subs = [s for s in self._subs if s.client is not client]

    def _lost(self, client: FakeClient) -> None:
        with self._lock:
            self._clients.discard(client)
            if not self.leak_subscriptions:
                self._subs = [s for s in self._subs if s.client is not client]

    def _subscribe(self, client: FakeClient, uuid: str, callback: NotifyCallback) -> None:
        with self._lock:
            self._subs.append(_Subscription(client, uuid, callback, asyncio.get_running_loop()))

    def _unsubscribe(self, client: FakeClient, uuid: str) -> None:
        with self._lock:
            self._subs = [s for s in self._subs if not (s.client is client and s.uuid == uuid)]

    def _write(self, client: FakeClient, data: bytes) -> None:
        die = self.peripherals[client.address]
        die.writes.append(bytes(data))
        for reply in die.replies.get(bytes(data), []):
            self.notify(die.address, reply)


class FakeClient(BaseBleakClient):
    """bleak's client backend over :class:`FakeRadio` (a class made per radio by ``radio.client_backend``)."""

    radio: FakeRadio
    _handles = itertools.count(1)

    def __init__(self, address_or_ble_device: BLEDevice | str, *, disconnected_callback: Callable[[], None] | None,
                 timeout: float = 10.0, **kwargs: Any) -> None:
        super().__init__(address_or_ble_device, disconnected_callback=disconnected_callback, timeout=timeout)
        self._from_device = isinstance(address_or_ble_device, BLEDevice)
        self.address = self.address.upper()
        self.connected = False
        self._loop: asyncio.AbstractEventLoop | None = None
        self._peripheral: FakePeripheral | None = None

    @property
    def name(self) -> str:
        return self._peripheral.name if self._peripheral else self.address

    @property
    def mtu_size(self) -> int:
        return 23

    @property
    def is_connected(self) -> bool:
        return self.connected

    async def connect(self, pair: bool, **kwargs: Any) -> None:
        self._loop = asyncio.get_running_loop()
        if not self._from_device:  # BlueZ's backend looks a bare address up with a discovery of its own
            self.radio._start_discovery()
            try:
                await asyncio.sleep(self.radio.lookup_s)  # a discovery lasts until the die is heard
            finally:
                self.radio._stop_discovery(self._loop)
        die = self.radio._connect(self)
        self._peripheral = die
        services = BleakGATTServiceCollection()
        for service_uuid, (notify, write) in die.services.items():
            service = BleakGATTService(None, next(self._handles), service_uuid)
            services.add_service(service)
            for uuid, props in ((notify, ["notify"]), (write, ["write", "write-without-response"])):
                services.add_characteristic(BleakGATTCharacteristic(
                    None, next(self._handles), uuid, props, lambda: 20, service))  # type: ignore[arg-type]
        self.services = services
        self.connected = True

    async def disconnect(self) -> None:
        self.connected = False
        self.radio._disconnect(self)

    def lost(self) -> None:
        """Called from the radio's thread: the link broke without the box asking."""
        self.connected = False
        self.radio._lost(self)
        callback, loop = self._disconnected_callback, self._loop
        if callback is not None and loop is not None:
            loop.call_soon_threadsafe(callback)

    async def pair(self, *args: Any, **kwargs: Any) -> None:
        return None

    async def unpair(self) -> None:
        return None

    def _require(self) -> None:
        if not self.connected:
            raise BleakError("Not connected")

    async def read_gatt_char(self, characteristic: BleakGATTCharacteristic, **kwargs: Any) -> bytearray:
        self._require()
        return bytearray()

    async def read_gatt_descriptor(self, descriptor: Any, **kwargs: Any) -> bytearray:
        self._require()
        return bytearray()

    async def write_gatt_char(self, characteristic: BleakGATTCharacteristic, data: Any, response: bool) -> None:
        self._require()
        self.radio._write(self, bytes(data))

    async def write_gatt_descriptor(self, descriptor: Any, data: Any) -> None:
        self._require()

    async def start_notify(self, characteristic: BleakGATTCharacteristic, callback: NotifyCallback,
                           **kwargs: Any) -> None:
        self._require()
        assert self._peripheral is not None
        if self._peripheral.subscribe_errors:
            raise self._peripheral.subscribe_errors.pop(0)
        self.radio._subscribe(self, characteristic.uuid, callback)

    async def stop_notify(self, characteristic: BleakGATTCharacteristic) -> None:
        self.radio._unsubscribe(self, characteristic.uuid)


class FakeScanner(BaseBleakScanner):
    """bleak's scanner backend over :class:`FakeRadio`: every present die advertises when a scan starts."""

    radio: FakeRadio

    def __init__(self, detection_callback: AdvertisementDataCallback | None, service_uuids: list[str] | None,
                 scanning_mode: str = "active", **kwargs: Any) -> None:
        super().__init__(detection_callback, service_uuids)
        self.radio.scanner_args.append({"scanning_mode": scanning_mode, **kwargs})
        self._loop: asyncio.AbstractEventLoop | None = None

    async def start(self) -> None:
        if not self.radio.adapter:
            raise BleakError("No Bluetooth adapters found.")
        self.radio._start_discovery()
        self.seen_devices = {}
        self._loop = asyncio.get_running_loop()
        with self.radio._lock:
            self.radio._scanners.add(self)
        for die in list(self.radio.peripherals.values()):
            if die.present:
                self._seen(die)

    async def stop(self) -> None:
        with self.radio._lock:
            self.radio._scanners.discard(self)
        self.radio._stop_discovery(self._loop)
        self._loop = None

    def hear(self, die: FakePeripheral) -> None:
        if self._loop is not None:
            self._loop.call_soon_threadsafe(self._seen, die, self._advert(die))

    @staticmethod
    def _advert(die: FakePeripheral) -> AdvertisementData:
        """What the die sends now (taken when sent, not when the loop gets to it)."""
        return AdvertisementData(local_name=die.name, manufacturer_data=dict(die.manufacturer_data),
                                 service_data=dict(die.service_data), service_uuids=list(die.services),
                                 tx_power=None, rssi=-60, platform_data=())

    def _seen(self, die: FakePeripheral, adv: AdvertisementData | None = None) -> None:
        adv = adv or self._advert(die)
        uuids = adv.service_uuids
        if not self.is_allowed_uuid(uuids):
            return
        device = self.create_or_update_device(die.address, die.address, die.name, None, adv)
        self.call_detection_callbacks(device, adv)
