"""A game divided where its table enters a new round or phase: the headings of a move list, the jumps of a replay.

Read off the states a timeline folded once: state ``n`` (the table after ``n``
entries) begins a section when its round or phase differs from state ``n - 1``'s,
and the entries from ``n + 1`` on are played in it, until the next section.
"""

from __future__ import annotations

from dataclasses import dataclass

from coimbra_events.state import GAME_OVER, SETUP, START
from projections.board import PHASE_NAMES
from projections.timeline import Timeline


@dataclass(frozen=True)
class Section:
    """Where the table enters a round's phase: state ``start``, ``new_round`` if the round changes there."""

    start: int
    round: int
    phase: str
    new_round: bool

    @property
    def round_title(self) -> str:
        """``Round 2``; the rounds before the first and after the last are named by their phase."""
        if self.phase in (SETUP, START, GAME_OVER):
            return PHASE_NAMES[self.phase][:1].upper() + PHASE_NAMES[self.phase][1:]
        return f"Round {self.round}"

    @property
    def title(self) -> str:
        """``Round 2 · B: drafting and placing dice``, or ``Setup``."""
        if self.phase in (SETUP, START, GAME_OVER):
            return self.round_title
        return f"{self.round_title} · {PHASE_NAMES[self.phase]}"


def sections(line: Timeline) -> list[Section]:
    """Every section of the game, in order (the first begins at state 0)."""
    out: list[Section] = []
    before: tuple[int, str] | None = None
    for n, state in enumerate(line.states):
        key = (state.round, state.phase)
        if key != before:
            out.append(Section(n, state.round, state.phase, before is None or before[0] != state.round))
            before = key
    return out


def headings(line: Timeline) -> dict[int, list[str]]:
    """The heading lines of a move list, by the entry they come before: ``== Round 2 ==``, ``-- B: … --``."""
    out: dict[int, list[str]] = {}
    for s in sections(line):
        if s.start >= len(line.events):
            continue  # the table after the last entry: no entry to head
        lines = out.setdefault(s.start + 1, [])
        once = s.phase in (SETUP, START, GAME_OVER)  # phases that are a part of the game of their own
        if s.new_round or once:
            lines.append(f"== {s.round_title} ==")
        if not once:
            lines.append(f"-- {PHASE_NAMES[s.phase]} --")
    return out


__all__ = ["Section", "headings", "sections"]
