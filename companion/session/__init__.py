"""The session: one event loop between the inputs, the game, the journal and the views."""

from companion.inputs import Decide, Hold, InputEvent, Notice, Press, Quit, Roll, Say, SourceFault, SourceStatus
from companion.session.core import Frame, Session

__all__ = ["Decide", "Frame", "Hold", "InputEvent", "Notice", "Press", "Quit", "Roll", "Say", "Session",
           "SourceFault", "SourceStatus"]
