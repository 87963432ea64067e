"""The recorder's own commands: the words ``coimbra record``'s prompt reads before a line is the game's input.

``undo``, ``correct N DECISION``, ``accept DECISION because REASON``, ``note``,
``bookmark``, ``roll``, ``show``, ``legal``, ``help`` and ``quit`` are the
terminal recorder's vocabulary, not the game's: ``read_typed`` reads them and
hands any other line to the read side (``projections.recording.read_line``),
which any front-end shares.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Mapping

from coimbra_events.state import GameState
from projections.recording import Numbers, Reading, Unreadable, read_line

ALONE: Mapping[str, str] = {"undo": "undo", "show": "show", "legal": "legal", "help": "help", "?": "help", "quit": "quit",
                            "q": "quit", "exit": "quit", "r": "roll", "roll": "roll"}
"""The recorder's commands typed alone, and the command each means."""
COMMAND_WORDS: tuple[str, ...] = ("undo", "correct", "accept", "note", "bookmark", "show", "legal", "roll", "help", "quit")
"""The recorder's own commands, for completion and for "did you mean"."""
_SEQ_TEXT = re.compile(r"(correct|note|bookmark)\s+(\d+)\s+(\S.*)", re.IGNORECASE)
_USAGE = {
    "correct": "write 'correct N DECISION', e.g. 'correct 16 place white-1 central'",
    "note": "write 'note N TEXT', e.g. 'note 16 dice knocked over, re-rolled'",
    "bookmark": "write 'bookmark N LABEL', e.g. 'bookmark 40 the big castle turn'",
    "accept": "write 'accept DECISION because REASON', e.g. 'accept buy c-II-05 because we misread the price'",
}


@dataclass(frozen=True)
class Command:
    """A recorder command: undo, correct, accept, note, bookmark, show, legal, help, quit, roll."""

    word: str
    seq: int | None = None
    text: str = ""
    reason: str = ""


Typed = Command | Reading
"""What a line typed at the recorder's prompt asks for."""


def read_typed(line: str, state: GameState, numbers: Numbers | None = None) -> Typed:
    """A recorder command, else what the line means as the game's input (``projections.recording.read_line``)."""
    text = " ".join(line.split())
    word = text.split(" ", 1)[0].lower() if text else ""
    if text.lower() in ALONE:
        return Command(ALONE[text.lower()])
    if word in _USAGE:
        return _command(word, text)
    if not text and state.pending is not None:
        return Unreadable("type a number, a decision, or 'help'")
    return read_line(text, state, numbers, COMMAND_WORDS)


def _command(word: str, text: str) -> Typed:
    if word == "accept":
        decision, sep, reason = text[len(word):].partition(" because ")
        if not sep or not decision.strip() or not reason.strip():
            return Unreadable(_USAGE[word])
        return Command("accept", text=decision.strip(), reason=reason.strip())
    match = _SEQ_TEXT.fullmatch(text)
    if not match:
        return Unreadable(_USAGE[word])
    return Command(word, int(match.group(2)), match.group(3))
