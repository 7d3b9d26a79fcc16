"""Pairing from the box: the main menu's "Pair dice" entry, run off the loop, answered as an ``Ask``.

The scan blocks for seconds (and asks each GoDice its battery), so the menu entry only starts a thread;
the thread puts the pairing model on the box's queue as an :class:`~companion.inputs.Ask`, which
the session shows as a menu. On "save" the choice is written to the pairing file and the smart dice source
is started again on it. Anything that keeps the scan from running is said in one line.
"""

from __future__ import annotations

import logging
import queue
import threading
from collections.abc import Callable
from typing import Any

from companion.errors import CompanionError
from companion.inputs import Ask, AskModel, Say

log = logging.getLogger(__name__)


class DiceSourceHolder:
    """The running smart dice source, restarted when the pairing changes."""

    def __init__(self, start: Callable[[], Any]) -> None:
        self._start = start
        self.current = start()

    def restart(self) -> None:
        self.current.close()
        self.current = self._start()

    def close(self) -> None:
        self.current.close()


def pair_action(section: Any, inbox: queue.Queue[Any], holder: DiceSourceHolder, seconds: float = 5.0,
                **backends: Any) -> Callable[[], None]:
    """What the menu's "Pair dice" does: scan on a thread, then ask the table through the OLED."""

    def done(model: AskModel) -> str:
        from hardware.smartdice.pairing import PairingModel, finish_pairing

        assert isinstance(model, PairingModel)
        said = finish_pairing(section, model)
        holder.restart()
        return said

    def scan() -> None:
        try:
            from hardware.smartdice.pairing import open_pairing

            model = open_pairing(section, seconds, **backends)
        except (CompanionError, ImportError, OSError) as exc:
            inbox.put(Say(f"pair dice: {exc}"))
            return
        except Exception as exc:  # bleak raises its own errors for a radio that is off or absent
            log.warning("pairing scan failed: %s", exc)
            inbox.put(Say(f"pair dice: no Bluetooth ({type(exc).__name__})"))
            return
        inbox.put(Ask(model, done))

    def start() -> None:
        threading.Thread(target=scan, name="pair-dice", daemon=True).start()

    return start
