"""Where one can go in a folded game: phase and round starts, marks, each player's decisions.

A ``Navigator`` indexes a ``Timeline`` once (phase and round starts, bookmarks
and notes, each player's decisions) so that every move is a binary search,
never a fold: the states themselves were folded once by ``projections.timeline``.
It knows nothing of keys: the terminal replayer's keys are ``cli.replay_keys``,
and any other front-end asks the same questions of the same index.

Position ``n`` is the table after ``n`` entries of the record (0: before the
first); the entry shown as "current" at ``n`` is entry ``n``.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from dataclasses import dataclass
from typing import Iterable, Mapping, Sequence

from coimbra_events.events import HISTORY_TYPES
from coimbra_events.game import Game
from coimbra_events.history import is_plain
from coimbra_events.state import TABLE
from projections.sections import sections
from projections.timeline import Timeline

_HISTORY = frozenset(HISTORY_TYPES)


@dataclass(frozen=True)
class Mark:
    """What the record says about one entry besides the move: notes, a bookmark, a table-accepted rule break."""

    notes: tuple[str, ...] = ()
    bookmark: str | None = None
    override: tuple[str, str] | None = None
    """``(rule, reason)``: the rule the table accepted this move against, and why."""

    @property
    def is_jump_target(self) -> bool:
        """Whether ``b`` / ``B`` stop here: a bookmark or a note."""
        return bool(self.notes) or self.bookmark is not None


def merge_marks(*sources: Mapping[int, Mark]) -> dict[int, Mark]:
    """Marks by position from several sources, combined per position."""
    out: dict[int, Mark] = {}
    for source in sources:
        for n, m in source.items():
            old = out.get(n, Mark())
            out[n] = Mark(old.notes + m.notes, m.bookmark if m.bookmark is not None else old.bookmark,
                          m.override if m.override is not None else old.override)
    return out


def marks_by_entry(notes: Mapping[int, Sequence[str]] = {}, bookmarks: Mapping[int, str] = {},
                   overrides: Iterable[tuple[int, str, str]] = ()) -> dict[int, Mark]:
    """Marks keyed by entry number, from a line of play's notes and bookmarks and ``(entry, rule, reason)`` overrides."""
    return merge_marks(
        {seq: Mark(notes=tuple(texts)) for seq, texts in notes.items()},
        {seq: Mark(bookmark=label) for seq, label in bookmarks.items()},
        {seq: Mark(override=(rule, reason)) for seq, rule, reason in overrides},
    )


def marks_of(game: Game) -> dict[int, Mark]:
    """Notes, bookmarks and table-accepted rule breaks of a game, by entry; read from its line of play, no fold."""
    if is_plain(game.events):
        return {}
    line = game.line
    overrides = [(p.source, *p.override) for p in line.plays if p.override is not None]
    return marks_by_entry(line.notes, line.bookmarks, overrides)


def _previous(starts: Sequence[int], n: int) -> int | None:
    """The largest start strictly before ``n``."""
    k = bisect_left(starts, n)
    return starts[k - 1] if k else None


def _next(starts: Sequence[int], n: int) -> int | None:
    """The smallest start strictly after ``n``."""
    k = bisect_right(starts, n)
    return starts[k] if k < len(starts) else None


class Navigator:
    """A timeline indexed for moving: where phases and rounds begin, marks, and each player's decisions.

    Building it reads each state's round and phase once (no fold); every
    move afterwards is a lookup.
    """

    def __init__(self, line: Timeline, marks: Mapping[int, Mark] | None = None) -> None:
        self.line = line
        self.last = len(line.states) - 1
        self.marks: dict[int, Mark] = {n: m for n, m in (marks or {}).items() if 0 < n <= self.last}
        self.players: tuple[str, ...] = tuple(name for name, _ in line.log.players)
        parts = sections(line)
        self.phase_starts: tuple[int, ...] = tuple(s.start for s in parts)
        self.round_starts: tuple[int, ...] = tuple(s.start for s in parts if s.new_round)
        self.mark_stops: tuple[int, ...] = tuple(sorted(n for n, m in self.marks.items() if m.is_jump_target))
        decisions: dict[str, list[int]] = {name: [] for name in self.players}
        for n, event in enumerate(line.events, 1):
            if event.actor != TABLE and type(event) not in _HISTORY and event.actor in decisions:
                decisions[event.actor].append(n)
        self.decisions: dict[str, tuple[int, ...]] = {k: tuple(v) for k, v in decisions.items()}

    def next_phase(self, n: int) -> int | None:
        return _next(self.phase_starts, n)

    def previous_phase(self, n: int) -> int | None:
        """The start of the phase ``n`` is in, or of the one before if ``n`` is where it starts."""
        return _previous(self.phase_starts, n)

    def next_round(self, n: int) -> int | None:
        return _next(self.round_starts, n)

    def previous_round(self, n: int) -> int | None:
        """The start of the round ``n`` is in, or of the one before if ``n`` is where it starts."""
        return _previous(self.round_starts, n)

    def next_mark(self, n: int) -> int | None:
        return _next(self.mark_stops, n)

    def previous_mark(self, n: int) -> int | None:
        return _previous(self.mark_stops, n)

    def next_decision(self, n: int, player: str) -> int | None:
        return _next(self.decisions.get(player, ()), n)

    def previous_decision(self, n: int, player: str) -> int | None:
        return _previous(self.decisions.get(player, ()), n)

    def player(self, text: str) -> tuple[str | None, str]:
        """The player ``text`` names (a number in seating order of the log, or an initial); else ``None`` and why."""
        text = text.strip()
        if text.isdigit():
            k = int(text)
            if 1 <= k <= len(self.players):
                return self.players[k - 1], ""
            return None, f"no player {k}: choose 1 to {len(self.players)}"
        found = [p for p in self.players if p.casefold().startswith(text.casefold())] if text else []
        if len(found) == 1:
            return found[0], ""
        if found:
            return None, f"{text!r} matches {', '.join(found)}: type the player's number instead"
        return None, f"no player starts with {text!r}: {self.player_keys()}"

    def find(self, text: str, n: int) -> int | None:
        """The next entry after ``n`` whose notes or bookmark hold ``text`` (any case), from the start again past the end."""
        wanted = text.casefold()
        found = [m for m, mark in sorted(self.marks.items())
                 if any(wanted in t.casefold() for t in (*mark.notes, mark.bookmark or ""))]
        return next((m for m in found if m > n), found[0] if found else None)

    def player_keys(self) -> str:
        """``1 Ana · 2 Bruno · 3 Carla``: the numbers ``player`` reads."""
        return " · ".join(f"{k} {p}" for k, p in enumerate(self.players, 1))


__all__ = ["Mark", "Navigator", "marks_by_entry", "marks_of", "merge_marks"]
