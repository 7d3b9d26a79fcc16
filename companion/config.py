"""The box's configuration: one TOML file, every key optional, every mistake named in one line.

The file lives at /etc/companion/config.toml unless ``--config`` says otherwise. A missing
default file means "all defaults", so a fresh install runs before anyone edits anything; a
missing file named explicitly is an error (a typo in a path must not silently mean defaults).
Each section is a frozen dataclass read by one small function. A part's section *is* its settings: the
buttons' and the OLED's sections subclass the parts' own dataclasses (hardware.buttons.ButtonPins and
ButtonTiming, hardware.oled.OledSettings), so each default is declared once, by the part, and the section
only adds its ``type``: which registered part fills it (companion.sources), "disabled" leaving it out.
The sections are compared (a configuration read back equals the one written) but never printed
(``companion config show`` writes TOML), so they have no generated ``__repr__``: each generated
method is compiled when the class is made, and this module is part of every start of the box.
"""

from __future__ import annotations

import dataclasses
import ipaddress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from companion import sources as source_types
from companion.datafile import Fields, load_toml
from companion.errors import CompanionError
from companion.games import game_keys
from companion.source_types import buttons as buttons_part
from companion.source_types import camera as camera_source
from companion.source_types import gamepad as gamepad_source
from companion.source_types import oled as oled_part
from companion.source_types import projector as projector_part
from companion.source_types import smartdice as smartdice_source
from companion.source_types import tower as tower_part
from companion.source_types import typed as typed_source
from firmware_bridge.link_options import TowerOptions
from hardware.buttons import ButtonPins, ButtonTiming
from hardware.oled import OledSettings

DEFAULT_PATH = Path("/etc/companion/config.toml")


@dataclass(frozen=True, repr=False)
class GameConfig:
    """Which game the box starts with and for how many players (None: no count preferred, the setup menu
    starts at its first answer, as the simulated table's scripts expect)."""

    default: str = "kansas"
    players: int | None = 4


@dataclass(frozen=True, repr=False)
class TowerConfig(TowerOptions):
    """The dice tower on USB serial (the link's own settings and defaults); ``port`` empty means: find it by
    ``usb_id``. ``type``: "serial" (the tower), "virtual" (a virtual tower on a pty, opened by the same link: the
    simulated table) or "disabled"."""

    type: str = "serial"

    @property
    def enabled(self) -> bool:
        return self.type != source_types.DISABLED


@dataclass(frozen=True, repr=False)
class ButtonsConfig(ButtonPins, ButtonTiming):
    """The buttons' pins, debounce and hold time (the part's own defaults); ``type``: "gpio" (gpiozero's pin
    factory of the machine), "mock" (gpiozero's MockFactory pins driven by keys: the simulated table) or
    "disabled"."""

    type: str = "gpio"

    @property
    def enabled(self) -> bool:
        return self.type != source_types.DISABLED


@dataclass(frozen=True, repr=False)
class OledConfig(OledSettings):
    """How the OLED is wired (the part's own defaults: I2C bus 1 at 0x3C); ``type``: "luma" (the panel, a
    ``driver`` of luma.oled), "dummy" (luma's dummy device: the simulated table) or "disabled"."""

    type: str = "luma"

    @property
    def enabled(self) -> bool:
        return self.type != source_types.DISABLED

    @property
    def port(self) -> int:
        """The file's ``port``: the I2C bus, or the SPI port."""
        return self.i2c_port if self.interface == "i2c" else self.spi_port

    @property
    def address(self) -> int:
        """The file's ``address``: the I2C address."""
        return self.i2c_address


@dataclass(frozen=True, repr=False)
class ProjectorConfig:
    """The map on the projector (HDMI). ``driver``: "fbdev" writes the Linux framebuffer (no OpenGL: the
    box's memory budget), "kmsdrm" SDL without a desktop (OpenGL ES), "auto" fbdev on a console when
    ``framebuffer`` exists, else kmsdrm, and the desktop's own driver under one. ``type``: "screen" (the map on
    that driver), "window" (the laptop window: the map with the OLED beside it, keys as buttons), "frames"
    (drawn off screen, and written with the OLED's as PNGs into ``frames`` when it names a folder) or
    "disabled"."""

    type: str = "screen"
    driver: str = "auto"
    framebuffer: str = "/dev/fb0"
    framebuffer_sysfs: str = ""
    """Where the kernel describes ``framebuffer`` (size, depth, stride); "" means /sys/class/graphics/<its name>."""
    width: int = 1920
    height: int = 1080
    fullscreen: bool = True
    display: int = 0
    calibration: str | tuple[tuple[float, float, float, float], ...] = ""
    """Drawing onto the printed board: "" (no), a file ``companion calibrate`` writes, or four
    [frame x, frame y, projector x, projector y] pairs for every game."""
    frames: str = ""
    """With ``type = "frames"``: the folder every changed screen is written to as PNGs ("" writes none)."""

    @property
    def enabled(self) -> bool:
        return self.type != source_types.DISABLED


@dataclass(frozen=True, repr=False)
class JournalConfig:
    """Where every event is written before it is shown."""

    path: str = "/var/lib/companion/journal.sqlite3"


@dataclass(frozen=True, repr=False)
class DiceConfig:
    """Smart dice over Bluetooth LE (GoDice, Pixels): which were paired, and how rolls are taken."""

    enabled: bool = False
    pairing: str = "/var/lib/companion/dice.toml"
    debounce_s: float = 1.0
    retry_s: float = 2.0
    pixels: str = "connect"


@dataclass(frozen=True, repr=False)
class CameraConfig:
    """A camera over the tray reading plain dice: ``capture`` "usb" (V4L2 ``device``), "picamera" (the Pi's
    camera module) or "folder" (photographs in ``folder``: the simulated table's camera); ``dice_set`` names the
    taught set in ``sets``."""

    enabled: bool = False
    capture: str = "usb"
    device: str = "/dev/video0"
    folder: str = ""
    width: int = 640
    height: int = 480
    fps: float = 10.0
    settle_frames: int = 3
    dice_set: str = "default"
    sets: str = "/var/lib/companion/dice-sets"


@dataclass(frozen=True, repr=False)
class RemoteConfig:
    """[remote]: the page the box serves to the players' phones on the local network (off unless enabled)."""

    enabled: bool = False
    port: int = 8080
    bind: str = "0.0.0.0"


@dataclass(frozen=True, repr=False)
class SourceEntry:
    """``[sources.NAME]`` (one more input source) or ``[outputs.NAME]`` (one more output), found by its
    ``type`` (companion.sources), with that type's options dataclass read from the same table."""

    name: str
    type: str
    enabled: bool = True
    options: Any = None


@dataclass(frozen=True, repr=False)
class Config:
    """The whole configuration: one field per TOML section, and the input sources named by type."""

    game: GameConfig = field(default_factory=GameConfig)
    tower: TowerConfig = field(default_factory=TowerConfig)
    buttons: ButtonsConfig = field(default_factory=ButtonsConfig)
    oled: OledConfig = field(default_factory=OledConfig)
    projector: ProjectorConfig = field(default_factory=ProjectorConfig)
    journal: JournalConfig = field(default_factory=JournalConfig)
    dice: DiceConfig = field(default_factory=DiceConfig)
    camera: CameraConfig = field(default_factory=CameraConfig)
    remote: RemoteConfig = field(default_factory=RemoteConfig)
    sources: tuple[SourceEntry, ...] = ()
    outputs: tuple[SourceEntry, ...] = ()


OLED_DRIVERS = ("ssd1306", "sh1106", "ssd1309")
PROJECTOR_DRIVERS = ("auto", "fbdev", "kmsdrm", "x11", "wayland", "offscreen", "dummy")
BUTTON_NAMES = ("roll", "up", "down", "left", "right", "ok", "back")


def _game(f: Fields) -> GameConfig:
    d = GameConfig()
    return GameConfig(default=f.choice("default", game_keys(), d.default),
                      players=f.int_in("players", 1, 8, d.players) if f.has("players") or d.players is None
                      else d.players)


def _tower(f: Fields) -> TowerConfig:
    d = TowerConfig()
    usb_id = f.get("usb_id", str, d.usb_id)
    parts = usb_id.split(":")
    if len(parts) != 2 or not all(len(p) == 4 and all(c in "0123456789abcdefABCDEF" for c in p) for p in parts):
        raise f.error(f"expected VID:PID in hex like '2E8A:0005', got {usb_id!r}", "usb_id")
    return TowerConfig(
        type=_part_type(f, "tower", d.type),
        port=f.get("port", str, d.port),
        baud=f.int_in("baud", 300, 4_000_000, d.baud),
        usb_id=usb_id.upper(),
    )


def _buttons(f: Fields) -> ButtonsConfig:
    d = ButtonsConfig()
    pins = {name: f.int_in(name, 0, 27, getattr(d, name)) for name in BUTTON_NAMES}
    seen: dict[int, str] = {}
    for name, pin in pins.items():
        if pin in seen:
            raise f.error(f"BCM {pin} is already used by {seen[pin]}", name)
        seen[pin] = name
    hold_s = f.get("hold_s", float, d.hold_s)
    if not 0.1 <= hold_s <= 10.0:
        raise f.error(f"expected 0.1..10 seconds, got {hold_s!r}", "hold_s")
    bounce_ms = f.get("bounce_ms", float, d.bounce_ms)
    if not 0 <= bounce_ms <= 1000:
        raise f.error(f"expected 0..1000 milliseconds, got {bounce_ms!r}", "bounce_ms")
    return ButtonsConfig(type=_part_type(f, "buttons", d.type), bounce_ms=float(bounce_ms), hold_s=hold_s, **pins)


def _part_type(f: Fields, role: str, default: str) -> str:
    """The section's ``type``: a part registered for ``role`` or "disabled"; ``enabled = false`` (the key of
    files written before parts had types) is "disabled" too."""
    enabled = f.get("enabled", bool, True)
    known = (*source_types.names(role), source_types.DISABLED)
    kind = f.get("type", str, default)
    if kind not in known:
        raise f.error(f"expected one of {', '.join(known)}, got {kind!r}", "type")
    return kind if enabled else source_types.DISABLED


def _oled(f: Fields) -> OledConfig:
    """``port`` and ``address`` are the file's short names for the bus the interface uses and the I2C address;
    the settings' own names (``i2c_port``, ``spi_port``, ...) are read too (``config show`` writes them)."""
    d = OledConfig()
    interface = f.choice("interface", ("i2c", "spi"), d.interface)
    ports = {"i2c_port": f.int_in("i2c_port", 0, 10, d.i2c_port), "spi_port": f.int_in("spi_port", 0, 10, d.spi_port)}
    if f.has("port"):
        own = f"{interface}_port"
        if f.has(own):
            raise f.error(f"give the port once: 'port' or {own!r}", "port")
        ports[own] = f.int_in("port", 0, 10)
    if f.has("address") and f.has("i2c_address"):
        raise f.error("give the address once: 'address' or 'i2c_address'", "address")
    key = "address" if f.has("address") else "i2c_address"
    return OledConfig(
        type=_part_type(f, "oled", d.type),
        driver=f.choice("driver", OLED_DRIVERS, d.driver),
        interface=interface,
        i2c_address=f.int_in(key, 0x03, 0x77, d.i2c_address),
        spi_device=f.int_in("spi_device", 0, 1, d.spi_device),
        gpio_dc=f.int_in("gpio_dc", 0, 27, d.gpio_dc),
        gpio_rst=f.int_in("gpio_rst", 0, 27, d.gpio_rst),
        rotation=_rotation(f, d.rotation),
        contrast=f.int_in("contrast", 0, 255, d.contrast),
        width=f.int_in("width", 32, 256, d.width),
        height=f.int_in("height", 16, 128, d.height),
        persist=f.get("persist", bool, d.persist),
        **ports,
    )


def _rotation(f: Fields, default: int) -> int:
    """0, or 2 for a panel mounted upside down: the screens are drawn landscape (128x64), and a
    quarter turn would make luma expect a 64x128 image the box does not draw."""
    value = f.int_in("rotation", 0, 3, default)
    if value not in (0, 2):
        raise f.error(f"expected 0 or 2 (the screens are landscape), got {value!r}", "rotation")
    return value


def _projector(f: Fields) -> ProjectorConfig:
    d = ProjectorConfig()
    return ProjectorConfig(
        type=_part_type(f, "projector", d.type),
        driver=f.choice("driver", PROJECTOR_DRIVERS, d.driver),
        framebuffer=_path(f, "framebuffer", d.framebuffer),
        framebuffer_sysfs=f.get("framebuffer_sysfs", str, d.framebuffer_sysfs),
        width=f.int_in("width", 160, 7680, d.width),
        height=f.int_in("height", 120, 4320, d.height),
        fullscreen=f.get("fullscreen", bool, d.fullscreen),
        display=f.int_in("display", 0, 7, d.display),
        calibration=_calibration(f, d.calibration),
        frames=f.get("frames", str, d.frames),
    )


def _path(f: Fields, key: str, default: str) -> str:
    path = f.get(key, str, default)
    if not path:
        raise f.error("expected a file path, got ''", key)
    return path


def _calibration(f: Fields, default: Any) -> str | tuple[tuple[float, float, float, float], ...]:
    """A file name, or four point pairs checked here (numbers, no three points in a line)."""
    if not f.has("calibration") or isinstance(f.data["calibration"], str):
        return f.get("calibration", str, default)
    from companion.views.projector.warp import read_pairs  # numpy and the projector package: only for pairs

    return read_pairs(f, "calibration")


def _journal(f: Fields) -> JournalConfig:
    d = JournalConfig()
    path = f.get("path", str, d.path)
    if not path:
        raise f.error("expected a file path, got ''", "path")
    return JournalConfig(path=path)


def _dice(f: Fields) -> DiceConfig:
    d = DiceConfig()
    pairing = f.get("pairing", str, d.pairing)
    if not pairing:
        raise f.error("expected a file path, got ''", "pairing")
    seconds = {}
    for key, low, high in (("debounce_s", 0.0, 10.0), ("retry_s", 0.1, 60.0)):
        seconds[key] = f.get(key, float, getattr(d, key))
        if not low <= seconds[key] <= high:
            raise f.error(f"expected {low:g}..{high:g} seconds, got {seconds[key]!r}", key)
    return DiceConfig(enabled=f.get("enabled", bool, d.enabled), pairing=pairing,
                      pixels=f.choice("pixels", ("connect", "advert"), d.pixels), **seconds)


def _camera(f: Fields) -> CameraConfig:
    d = CameraConfig()
    capture = f.choice("capture", ("usb", "picamera", "folder"), d.capture)
    folder = f.get("folder", str, d.folder)
    if capture == "folder" and not folder:
        raise f.error("capture = 'folder' needs a folder of photographs", "folder")
    fps = f.get("fps", float, d.fps)
    if not 1.0 <= fps <= 60.0:
        raise f.error(f"expected 1..60 frames a second, got {fps!r}", "fps")
    return CameraConfig(enabled=f.get("enabled", bool, d.enabled), capture=capture,
                        device=f.get("device", str, d.device), folder=folder,
                        width=f.int_in("width", 160, 4096, d.width), height=f.int_in("height", 120, 4096, d.height),
                        fps=fps, settle_frames=f.int_in("settle_frames", 2, 30, d.settle_frames),
                        dice_set=f.get("dice_set", str, d.dice_set), sets=_path(f, "sets", d.sets))


def _remote(f: Fields) -> RemoteConfig:
    d = RemoteConfig()
    bind = f.get("bind", str, d.bind)
    try:
        ipaddress.ip_address(bind)
    except ValueError:
        raise f.error(f"expected an IP address such as '0.0.0.0' or '127.0.0.1', got {bind!r}", "bind") from None
    return RemoteConfig(enabled=f.get("enabled", bool, d.enabled), port=f.int_in("port", 1, 65535, d.port),
                        bind=bind)


_SECTIONS = {"game": _game, "tower": _tower, "buttons": _buttons, "oled": _oled,
             "projector": _projector, "journal": _journal, "dice": _dice, "camera": _camera,
             "remote": _remote}


SOURCE_KEYS = ("type", "enabled")
"""The keys of a ``[sources.NAME]`` table that are the box's, not the type's options."""


def _source_name_ok(name: str) -> bool:
    return bool(name) and len(name) <= 32 and all(c.isascii() and (c.isalnum() or c in "-_") for c in name)


def _sources(root: Fields, section: str = "sources", role: str = "source") -> tuple[SourceEntry, ...]:
    """Each ``[sources.NAME]`` (or ``[outputs.NAME]``) table: a ``type`` the registry knows for the role,
    ``enabled``, and the type's options checked against its dataclass (unknown keys refused, defaults for the
    absent ones)."""
    table = root.table(section, default={})
    entries: list[SourceEntry] = []
    for name in list(table.data):
        f = table.table(name)
        if not _source_name_ok(name):
            raise f.error("a source's name is letters, digits, '-' and '_' (at most 32)")
        type_name = f.get("type", str)
        try:
            source_type = source_types.get(type_name, role)
        except CompanionError as exc:
            raise f.error(str(exc), "type") from None
        except Exception as exc:  # an installed type that does not import: named here, not at the table
            raise f.error(f"source type {type_name!r} does not load: {exc}", "type") from None
        own = {o.name for o in dataclasses.fields(source_type.options)} if source_type.read is None else set()
        clash = [key for key in SOURCE_KEYS if key in own]
        if clash:
            raise f.error(f"source type {type_name!r} has an option named {clash[0]!r}, which is the box's key")
        enabled = f.get("enabled", bool, True)
        options = source_types.read_options(source_type, f)
        if "enabled" in {o.name for o in dataclasses.fields(options)}:  # a box's own section: one switch, on by default
            options = dataclasses.replace(options, enabled=enabled)
        entries.append(SourceEntry(name, type_name, enabled, options))
    return tuple(entries)


# The box's own source types, declared beside the sections whose options they take, so a ``[sources.NAME]`` of a
# built-in type is checked exactly as its section is.
# The box's own parts are declared the same way, by the role of their section: the simulated table is these
# sections' stand-in types (companion.sim.sim_config), not a flag through the wiring.
Part = source_types.SourceType
source_types.provide(
    Part("camera", CameraConfig, camera_source.start, describe=camera_source.describe, read=_camera),
    Part("smartdice", DiceConfig, smartdice_source.start, describe=smartdice_source.describe, read=_dice),
    Part("typed", typed_source.TypedOptions, typed_source.start, describe=typed_source.describe),
    Part("gamepad", gamepad_source.GamepadOptions, gamepad_source.start, describe=gamepad_source.describe),
    Part("serial", TowerConfig, tower_part.start_serial, describe=tower_part.describe, read=_tower, role="tower"),
    Part("virtual", TowerConfig, tower_part.start_virtual, describe=tower_part.describe, read=_tower, role="tower"),
    Part("gpio", ButtonsConfig, buttons_part.start_gpio, describe=buttons_part.describe, read=_buttons,
         role="buttons"),
    Part("mock", ButtonsConfig, buttons_part.start_mock, describe=buttons_part.describe, read=_buttons,
         role="buttons"),
    Part("luma", OledConfig, oled_part.start_luma, describe=oled_part.describe, read=_oled, role="oled"),
    Part("dummy", OledConfig, oled_part.start_dummy, describe=oled_part.describe, read=_oled, role="oled"),
    Part("screen", ProjectorConfig, projector_part.start_screen, describe=projector_part.describe,
         read=_projector, role="projector"),
    Part("window", ProjectorConfig, projector_part.start_window, describe=projector_part.describe,
         read=_projector, role="projector"),
    Part("frames", ProjectorConfig, projector_part.start_frames, describe=projector_part.describe,
         read=_projector, role="projector"),
)


def parse_config(root: Fields) -> Config:
    """A Config from a parsed file; unknown sections or keys are refused by name."""
    sections: dict[str, Any] = {}
    for name, reader in _SECTIONS.items():
        table = root.table(name, default={})
        sections[name] = reader(table)
        table.reject_unknown()
    sources = _sources(root)
    outputs = _sources(root, "outputs", "output")
    root.reject_unknown()
    return Config(**sections, sources=sources, outputs=outputs)


def load_config(path: str | Path | None = None) -> Config:
    """The configuration from ``path`` (default /etc/companion/config.toml; absent default = all defaults).

    Raises DataError (one line, ``file: section.key: what``) on bad TOML, unknown keys or bad values.
    """
    if path is None:
        if not DEFAULT_PATH.exists():
            return Config()
        path = DEFAULT_PATH
    return parse_config(load_toml(path))


def check_files(config: Config) -> list[str]:
    """Read every file the configuration points to as the box will (the calibration, the paired dice, the
    group's own boards): a DataError naming the first that does not read, else what was read, one line each.
    ``companion config check`` runs this, so an empty or half-written calibration is found there and not at
    the table (where the box falls back: the map drawn flat, the shipped board)."""
    read: list[str] = []
    calibration = config.projector.calibration
    if isinstance(calibration, str) and calibration:
        from companion.views.projector.warp import load_calibration

        load_calibration(calibration, (config.projector.width, config.projector.height))
        read.append(f"calibration: {calibration}")
    pairing = Path(config.dice.pairing)
    if pairing.exists():  # none yet: no dice paired
        from hardware.smartdice.store import load_pairing

        load_pairing(pairing)
        read.append(f"paired dice: {pairing}")
    from companion.games.registry import check_own_boards

    read += [f"the group's board: {path}" for path in check_own_boards()]
    return read


def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(value, tuple):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    return repr(value)


def to_toml(config: Config) -> str:
    """The configuration as TOML that :func:`load_config` reads back to an equal Config."""
    lines: list[str] = []
    for section in dataclasses.fields(config):
        if section.name in ("sources", "outputs"):
            continue
        lines.append(f"[{section.name}]")
        values = getattr(config, section.name)
        for f in sorted(dataclasses.fields(values), key=lambda f: f.name != "type"):  # a part's type first
            if getattr(values, f.name) is not None:  # None: not set (the game's preferred count)
                lines.append(f"{f.name} = {_toml_value(getattr(values, f.name))}")
        lines.append("")
    for kind, entry in [*(("sources", e) for e in config.sources), *(("outputs", e) for e in config.outputs)]:
        lines.append(f"[{kind}.{entry.name}]")
        lines.append(f"type = {_toml_value(entry.type)}")
        lines.append(f"enabled = {_toml_value(entry.enabled)}")
        for f in dataclasses.fields(entry.options):
            if f.name in SOURCE_KEYS:  # the box's key, written above
                continue
            lines.append(f"{f.name} = {_toml_value(getattr(entry.options, f.name))}")
        lines.append("")
    return "\n".join(lines)
