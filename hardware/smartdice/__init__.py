"""Smart dice over Bluetooth LE (GoDice, Pixels): a third dice source beside the tower and the buttons.

Each family has a pure decoder (``godice``, ``pixels``: bytes in, a :class:`Reading` out), one
:class:`~hardware.smartdice.track.RollTracker` per die turns readings into settled rolls exactly
once, and ``adapter`` runs bleak on its own thread and puts only ``companion.inputs`` values
(Roll, SourceStatus, SourceFault) on the session's queue. ``store`` keeps which dice a group
paired; ``pairing`` is the pure model the menu and ``companion dice pair`` drive. Importing this
package imports no bleak: a box without Bluetooth never needs it.
"""

from hardware.smartdice.reading import Reading

__all__ = ["Reading"]
