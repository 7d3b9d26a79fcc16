"""Smart dice over Bluetooth as a source: starting it reads the pairing file and adds "Pair dice" to the main menu,
which restarts the dice once the pairing changes. Whatever keeps the dice off (none paired, bleak missing) is said
by the source itself. Its type (options: the ``[dice]`` section's ``DiceConfig``, read by the same reader) is
declared in companion.config, which knows the section; this module imports nothing above the registry."""

from __future__ import annotations

from typing import Any

from companion.sources import Closeable, SourceContext


def start(options: Any, context: SourceContext) -> Closeable:
    """Start the paired dice with ``options`` (a ``DiceConfig``)."""
    from hardware.smartdice.menu import DiceSourceHolder, pair_action  # bleak and the pairing: only when enabled
    from hardware.smartdice.source import start_smartdice

    holder = DiceSourceHolder(lambda: start_smartdice(options, context.inbox))
    context.add_action("Pair dice", pair_action(options, context.inbox, holder))
    return holder


def describe(options: Any, holder: Any) -> str:
    from hardware.smartdice.source import describe

    return describe(holder.current)

