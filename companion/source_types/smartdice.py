"""Smart dice over Bluetooth as a source type: its options are the ``[dice]`` section's (checked by the same
reader); starting it reads the pairing file and adds "Pair dice" to the main menu, which restarts the dice once
the pairing changes. Whatever keeps the dice off (none paired, bleak missing) is said by the source itself."""

from __future__ import annotations

from typing import Any

from companion.config import DiceConfig, read_section
from companion.datafile import Fields
from companion.sources import Closeable, SourceContext, SourceType


def _read(f: Fields) -> DiceConfig:
    options: DiceConfig = read_section("dice", f)
    return options


def _start(options: DiceConfig, context: SourceContext) -> Closeable:
    from hardware.smartdice.menu import DiceSourceHolder, pair_action  # bleak and the pairing: only when enabled
    from hardware.smartdice.source import start_smartdice

    holder = DiceSourceHolder(lambda: start_smartdice(options, context.inbox))
    context.add_action("Pair dice", pair_action(options, context.inbox, holder))
    return holder


def _describe(options: DiceConfig, holder: Any) -> str:
    from hardware.smartdice.source import describe

    return describe(holder.current)


SMARTDICE = SourceType("smartdice", DiceConfig, _start, describe=_describe, read=_read)
