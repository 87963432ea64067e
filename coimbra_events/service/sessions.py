"""A game a front-end keeps between calls, so that an input costs one save and no read.

The live table holds one for the game it serves and the recorder one for the game
it records: the application writes to the copy a session holds instead of reading
the game again, and a write that fails after triggering something (another writer
saved first) drops the copy, so that the next call reads the game as stored.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from coimbra_events.game import Game


@dataclass(eq=False)
class Session:
    """The game GAME names (``ref``), as last read or saved through the application (``None``: read it again)."""

    ref: str
    game: Game | None = None


GameRef = str | Session
"""What a use case takes as GAME: a stored game's name, a JSON log file or a move list, or a session."""
