"""Where pairing writes, and who can read it: the box's menu runs as the service's own unprivileged user,
and ``sudo companion dice pair`` runs as root; either way the service reads (and may replace) the file.

Run for real as ``nobody`` (subprocess.run with ``user=``) when the tests run as root, as CI's do; the
interpreter must be one that user may execute (a Python under /root is not), so the system's Python of
the same version is used with this checkout and the venv's packages on PYTHONPATH.
"""

from __future__ import annotations

import argparse
import builtins
import os
import pwd
import shutil
import stat
import subprocess
import sys
import sysconfig
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.commands.dice import pair_main
from companion.config import DiceConfig
from hardware.smartdice.fakeble import FakeRadio
from hardware.smartdice.store import PairedDie, load_pairing

ROOT = Path(__file__).resolve().parents[1]
MENU = """
import asyncio, os, sys
from types import SimpleNamespace
from hardware.smartdice.fakeble import FakeRadio
from hardware.smartdice.pairing import PairingModel, finish_pairing, open_pairing
radio = FakeRadio()
radio.add_godice("AA:00:00:00:00:07", "GoDice_MENU_K_v04", battery=70)
section = SimpleNamespace(pairing=sys.argv[1])
model = open_pairing(section, 0.01, scanner_backend=radio.scanner_backend, client_backend=radio.client_backend)
row = next(i for i, o in enumerate(model.options()) if o.startswith("GoDice_MENU"))
for index in (row, 1, 2):  # the die, D8, green
    assert model.pick(index) == "stay", model.message
assert model.pick(model.options().index("Save")) == "save"
print(finish_pairing(section, model))
print(os.geteuid())
"""


def _searchable(path: Path) -> bool:
    return all(p.stat().st_mode & stat.S_IXOTH for p in [path, *path.parents] if p != Path("/"))


def unprivileged_python() -> str:
    """An interpreter of this Python's version that any user may run."""
    mine = Path(os.path.realpath(sys.executable))
    if _searchable(mine.parent) and mine.stat().st_mode & stat.S_IXOTH:
        return str(mine)
    version = f"python{sys.version_info.major}.{sys.version_info.minor}"
    for candidate in (shutil.which(version, path="/usr/bin:/usr/local/bin:/bin"),):
        if candidate:
            return candidate
    pytest.fail(f"no {version} that an unprivileged user may run (install Debian's python3)")


@pytest.fixture
def service_folder() -> Iterator[Path]:
    """The service's state folder: owned by the unprivileged user, as StateDirectory= makes it."""
    folder = Path(tempfile.mkdtemp(prefix="companion-state-"))
    folder.chmod(0o755)
    if os.geteuid() == 0:
        nobody = pwd.getpwnam("nobody")
        os.chown(folder, nobody.pw_uid, nobody.pw_gid)
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def as_service_user(code: str, *args: str) -> subprocess.CompletedProcess[str]:
    env = {"PATH": "/usr/bin:/bin", "PYTHONPATH": os.pathsep.join([str(ROOT), sysconfig.get_paths()["purelib"],
                                                                    sysconfig.get_paths()["platlib"]]),
           "HOME": "/nonexistent", "PYTHONDONTWRITEBYTECODE": "1"}
    user = {"user": "nobody", "group": pwd.getpwnam("nobody").pw_gid, "extra_groups": []} if os.geteuid() == 0 else {}
    return subprocess.run([unprivileged_python(), "-c", code, *args], env=env, cwd="/",
                          capture_output=True, text=True, timeout=120, **user)  # type: ignore[call-overload]


def test_the_menu_pairs_as_the_unprivileged_service_user(service_folder: Path) -> None:
    store = service_folder / "dice.toml"
    done = as_service_user(MENU, str(store))
    assert done.returncode == 0, done.stderr
    said, uid = done.stdout.splitlines()
    assert said == "1 dice paired (Green D8)"
    assert uid != "0" or os.geteuid() != 0
    info = store.stat()
    assert stat.S_IMODE(info.st_mode) == 0o644 and info.st_uid == service_folder.stat().st_uid
    assert sorted(p.name for p in service_folder.iterdir()) == ["dice.toml"]  # no temporary file left
    assert [d.label for d in load_pairing(store)] == ["Green D8"]


def test_sudo_dice_pair_leaves_a_file_the_service_reads_and_replaces(service_folder: Path, tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    store = service_folder / "dice.toml"
    config = tmp_path / "companion.toml"
    config.write_text(f'[dice]\nenabled = true\npairing = "{store}"\n')
    radio = FakeRadio()
    radio.add_godice("AA:00:00:00:00:01", "GoDice_SUDO_K_v04", battery=80)
    answers = iter(["1", "1", "2", "2"])  # the die, D6, blue; then Save (the second line after the die)
    monkeypatch.setattr(builtins, "input", lambda _prompt="": next(answers))
    args = argparse.Namespace(config=config, seconds=0.01)
    assert pair_main(args, scanner_backend=radio.scanner_backend, client_backend=radio.client_backend) == 0
    assert load_pairing(store) == (PairedDie("godice", "AA:00:00:00:00:01", "GoDice_SUDO_K_v04", "d6", "blue"),)
    info = store.stat()
    assert stat.S_IMODE(info.st_mode) == 0o644
    assert (info.st_uid, info.st_gid) == (service_folder.stat().st_uid, service_folder.stat().st_gid)
    # The service, as its own user, reads it and replaces it from the menu.
    done = as_service_user(MENU, str(store))
    assert done.returncode == 0, done.stderr
    assert [d.label for d in load_pairing(store)] == ["Blue D6", "Green D8"]


def test_the_shipped_default_is_the_services_state_folder() -> None:
    assert DiceConfig().pairing == "/var/lib/companion/dice.toml"
