"""Pairing dice with the box: what a scan found, and a small pure model the menu and the CLI step through.

A scan lists the dice in range by name and battery. The group picks a die, says what it is (D6 or
D8: a GoDice does not know its shell) and gives it a colour, which is how players will tell it
from the others ("Blue D8"); the result is saved in the pairing file. :class:`PairingModel` holds
no I/O and no clock: a screen is a title and a list of options; the caller shows them, calls
:meth:`~PairingModel.pick` with the chosen index on OK and :meth:`~PairingModel.back` on BACK,
and saves :meth:`~PairingModel.paired` when ``pick`` answers "save".
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from hardware.smartdice import godice, pixels
from hardware.smartdice.reading import battery_detail
from hardware.smartdice.store import COLOURS, KINDS, PairedDie, load_pairing, save_pairing


@dataclass(frozen=True)
class Found:
    """A die a scan heard: its family, address, advertised name, and what it said of itself."""

    family: str
    address: str
    name: str
    battery: int | None = None
    die_type: str = ""
    """Pixels: the type it advertises ("d6", "d20"); "" when the die does not say (a GoDice)."""
    firmware: str = "current"
    device: Any = field(default=None, compare=False, repr=False)
    """bleak's BLEDevice from the scan, to connect without a second discovery (BlueZ refuses one
    while another of the same client runs)."""

    @property
    def kind(self) -> str | None:
        """The die kind it says it is, when it says one the games use."""
        return pixels.KINDS.get(self.die_type)


def classify(address: str, name: str | None, manufacturer_data: Mapping[int, bytes], service_data: Mapping[str, bytes],
             service_uuids: Sequence[str]) -> Found | None:
    """A die from one advertisement (bleak's AdvertisementData fields), or None when it is no die we know."""
    name = name or ""
    address = address.upper()
    if name.startswith(godice.NAME_PREFIX):
        return Found("godice", address, name)
    uuids = [u.lower() for u in service_uuids]
    if not any(u in uuids for u in pixels.SERVICES) and pixels.COMPANY_ID not in manufacturer_data:
        return None
    # Dice from before October 2024 advertise the legacy service (and company 0xFFFF) and number their
    # roll states the legacy way; without either id in this advertisement, the company id tells.
    legacy = pixels.LEGACY_SERVICE in uuids or (
        pixels.SERVICE not in uuids and pixels.COMPANY_ID not in manufacturer_data)
    for data in manufacturer_data.values():
        advert = pixels.decode_advert(data)
        if advert is not None:
            firmware = "legacy" if legacy else "current"
            return Found("pixels", address, name or "Pixels die", advert.reading.battery,
                         advert.die_type if advert.die_type != "unknown" else (advert.kind or "unknown"), firmware)
    for company, data in manufacturer_data.items():
        if len(data) == 7:  # the advertisement of Pixels firmware from before mid-2022: legacy roll states
            leds = company >> 8
            return Found("pixels", address, name or "Pixels die", round(data[6] / 255 * 100),
                         {6: "d6", 8: "d8"}.get(leds, "unknown"), "legacy")
    return None


async def _godice_battery(found: Found, client_backend: Any, seconds: float) -> Found:
    """Connect to a GoDice for a moment to ask its battery (it does not advertise it), through the
    BLEDevice the scan handed over (several at once: a bare address would mean a discovery each)."""
    from bleak import BleakClient
    from bleak_retry_connector import establish_connection

    answer: asyncio.Future[int] = asyncio.get_running_loop().create_future()

    def heard(_char: Any, data: bytearray) -> None:
        reading = godice.decode(bytes(data), "d6")
        if reading.battery is not None and not answer.done():
            answer.set_result(reading.battery)

    if found.device is None:
        return found
    try:
        client = await asyncio.wait_for(establish_connection(BleakClient, found.device, found.name, max_attempts=2,
                                                             backend=client_backend), seconds)
    except Exception:  # of any type: the die is listed without its battery
        return found
    try:
        await client.start_notify(godice.NOTIFY, heard)
        await client.write_gatt_char(godice.WRITE, godice.ASK_BATTERY, response=False)
        return replace(found, battery=await asyncio.wait_for(answer, seconds))
    except Exception:
        return found
    finally:
        with contextlib.suppress(Exception):
            await client.disconnect()


async def scan(seconds: float = 5.0, *, scanner_backend: Any = None, client_backend: Any = None,
               battery_timeout: float = 5.0) -> list[Found]:
    """The dice in range after listening ``seconds``, by name; GoDice are asked their battery.

    Raises bleak's and the OS's errors as they come (no adapter, no BlueZ, no D-Bus): the caller
    says them in one line.
    """
    from bleak import BleakScanner

    heard = await BleakScanner.discover(seconds, return_adv=True, backend=scanner_backend,
                                        bluez={"filters": {"DuplicateData": True}})
    found = []
    for dev, adv in heard.values():
        die = classify(dev.address, adv.local_name or dev.name, adv.manufacturer_data, adv.service_data,
                       adv.service_uuids)
        if die is not None:
            found.append(replace(die, device=dev))
    found = list(await asyncio.gather(*(_godice_battery(f, client_backend, battery_timeout)
                                        if f.family == "godice" else _same(f) for f in found)))
    return sorted(found, key=lambda f: (f.family, f.name, f.address))


async def _same(found: Found) -> Found:
    return found


@dataclass
class _Entry:
    """One row of the first screen: a die heard, paired, or both."""

    family: str
    address: str
    name: str
    firmware: str
    found: Found | None = None
    die: PairedDie | None = None


class PairingModel:
    """The pairing screens: the dice (found and already paired), then a die's kind, then its colour."""

    SAVE = "Save"
    LEAVE = "Leave without saving"
    FORGET = "Not used: forget it"

    def __init__(self, found: Sequence[Found], paired: Sequence[PairedDie] = ()) -> None:
        by_address: dict[str, _Entry] = {}
        for die in paired:
            by_address[die.address] = _Entry(die.family, die.address, die.name, die.firmware, die=die)
        for f in found:
            entry = by_address.setdefault(f.address, _Entry(f.family, f.address, f.name, f.firmware))
            entry.found = f
        self.entries = list(by_address.values())
        self.screen = "dice"
        self.message = ""
        self.changed = False
        self._entry: _Entry | None = None
        self._kind = ""

    # -- what to show ----------------------------------------------------------------------------
    def title(self) -> str:
        if self.screen == "dice":
            return "Pair dice: pick one" if self.entries else "No dice found: wake them and scan again"
        assert self._entry is not None
        if self.screen == "kind":
            return f"{self._entry.name}: which die is it?"
        return f"{self._entry.name} as a {self._kind.upper()}: which colour?"

    def options(self) -> list[str]:
        if self.screen == "dice":
            return [self._row(e) for e in self.entries] + [self.SAVE, self.LEAVE]
        if self.screen == "kind":
            assert self._entry is not None
            return [k.upper() for k in KINDS] + ([self.FORGET] if self._entry.die else [])
        return [self._colour_row(c) for c in COLOURS]

    def _row(self, entry: _Entry) -> str:
        family = "GoDice" if entry.family == "godice" else "Pixels"
        parts = [entry.name if entry.name.startswith(family) else f"{family} {entry.name}"]
        if entry.found is None:
            parts.append("not in range")
        elif entry.found.battery is not None:
            parts.append(battery_detail(entry.found.battery))
        parts.append(entry.die.label if entry.die else "not paired")
        return ", ".join(parts)

    def _taken_by(self, kind: str, colour: str) -> _Entry | None:
        return next((e for e in self.entries if e is not self._entry and e.die is not None
                     and e.die.kind == kind and e.die.colour == colour), None)

    def _colour_row(self, colour: str) -> str:
        other = self._taken_by(self._kind, colour)
        return colour.capitalize() + (f" (taken by {other.name})" if other else "")

    # -- what the buttons do -------------------------------------------------------------------
    def pick(self, index: int) -> str:
        """Act on option ``index`` of the screen shown: "save", "leave", or "stay" (the screen changed, or
        :attr:`message` says why not)."""
        options = self.options()
        if not 0 <= index < len(options):
            raise IndexError(f"option {index} of {len(options)}")
        self.message = ""
        if self.screen == "dice":
            if options[index] == self.SAVE:
                return "save"
            if options[index] == self.LEAVE:
                return "leave"
            self._entry, self.screen = self.entries[index], "kind"
            return "stay"
        assert self._entry is not None
        if self.screen == "kind":
            if options[index] == self.FORGET:
                self._entry.die = None
                if self._entry.found is None:  # not in range either: nothing left to show
                    self.entries.remove(self._entry)
                self.changed = True
                self.message = f"{self._entry.name} forgotten"
                self.screen = "dice"
                return "stay"
            kind = KINDS[index]
            says = self._entry.found.die_type if self._entry.found else ""
            if says and says != "unknown" and pixels.KINDS.get(says) != kind:
                self.message = f"this die says it is a {says.upper()}"
                if pixels.KINDS.get(says) is None:
                    self.message += ": the games use D6 and D8"
                return "stay"
            self._kind, self.screen = kind, "colour"
            return "stay"
        colour = COLOURS[index]
        other = self._taken_by(self._kind, colour)
        if other is not None:
            self.message = f"{colour.capitalize()} {self._kind.upper()} is {other.name} already: pick another colour"
            return "stay"
        entry = self._entry
        entry.die = PairedDie(entry.family, entry.address, entry.name, self._kind, colour, entry.firmware)
        self.changed = True
        self.message = f"{entry.name} is the {entry.die.label}"
        self.screen, self._entry = "dice", None
        return "stay"

    def back(self) -> bool:
        """One screen back; False on the first screen (the caller leaves, without saving)."""
        self.message = ""
        if self.screen == "colour":
            self.screen = "kind"
            return True
        if self.screen == "kind":
            self.screen, self._entry = "dice", None
            return True
        return False

    def paired(self) -> tuple[PairedDie, ...]:
        """The dice as the group left them, to save."""
        return tuple(e.die for e in self.entries if e.die is not None)


def open_pairing(section: Any, seconds: float = 5.0, **backends: Any) -> PairingModel:
    """Scan (blocking ``seconds`` plus the GoDice battery questions) and open the model on what was found
    and what the pairing file of ``section`` (the [dice] configuration) already holds. The menu calls
    this off its loop thread; ``backends`` are bleak's (tests pass a fake radio's)."""
    paired = load_pairing(section.pairing)
    return PairingModel(asyncio.run(scan(seconds, **backends)), paired)


def finish_pairing(section: Any, model: PairingModel) -> str:
    """Save what the group chose to the pairing file; the sentence to show."""
    dice = model.paired()
    save_pairing(section.pairing, dice)
    names = ", ".join(d.label for d in dice) or "none"
    return f"{len(dice)} dice paired ({names})"
