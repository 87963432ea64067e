"""A game's record and the table it folds into, folded once, lazily, and kept up to date.

A stored entry is only appended when read, and the table catches up on the entries
it has not folded when it is asked for: a plain play applies to it (it was checked
when it was recorded, against this same table), while a correction or retraction
has the line of play resolved and replayed again. Commands that do not look at the
table (``export``, ``verify``) fold nothing. Entries held elsewhere (a snapshot's
copy, ``HeldRecord``) are read only when something asks for one: the table, the
head and the number of entries do not need them.

``FoldedRecord`` is the part of the ``Game`` aggregate (``coimbra_events.game``)
that reads; the aggregate gives it its ``header`` and ``initial`` table, and
appends the entries.
"""

from __future__ import annotations

from typing import Protocol

from coimbra_events.events import Corrected, GameEvent, RuleOverridden
from coimbra_events.history import Line, Replayed, advance, replay, resolve
from coimbra_events.log import Stamp
from coimbra_events.rules.core import due
from coimbra_events.rules.fast import Fold
from coimbra_events.state import GameState, Pending

Entries = tuple[list[GameEvent], list[str], list[Stamp]]
"""A record's entries, their hashes and their stamps, in order."""


class HeldRecord(Protocol):
    """Entries of a game's record held elsewhere (a snapshot's copy), read only when something asks for one.

    ``read`` gives them checked against the header's ``anchor``, each hash chained on to ``head``,
    and whether the game's table must be folded again (they came from another source than the copy).
    """

    count: int
    head: str

    def read(self, anchor: str) -> tuple[Entries, bool]: ...


class FoldedRecord:
    """The entries of a record, their hashes and stamps, and the table they fold into (see the module docstring).

    Set by the aggregate (no annotations here: the library would take them for the
    aggregate's own fields): ``header`` (a ``GameLog`` without events), ``initial``
    (the table before any entry), ``_events``, ``_hashes`` and ``_stamps`` (the
    entries after those ``_held`` elsewhere, if any).
    """

    # -- the table, folded once

    def start_fold(self, state: GameState | None, folded: int) -> None:
        """The table after the first ``folded`` entries is ``state`` (``None``: not known, fold the line again)."""
        self._state = state
        self._folded = folded
        self._introduced: GameEvent | None = None
        self._line: tuple[int, Line] | None = None
        self._replay: tuple[int, Replayed] | None = None
        self._carried = Fold()  # the working copy of the table, kept from one new entry to the next

    @property
    def state(self) -> GameState:
        """The table now: the entries not folded yet are folded on, or the line is replayed if history changed it."""
        if self._state is not None and self._folded < self.entries:
            state: GameState | None = self._state
            for event in self.since(self._folded)[0]:
                state, self._introduced = advance(state, self._introduced, event, self._carried)
                if state is None:
                    break
                self._state, self._folded = state, self._folded + 1
            if state is None:
                self._state = None
        if self._state is None:
            self._state, self._folded = self.replay.state, self.entries
            last = self.events[-1] if self.events else None
            self._introduced = last if type(last) in (Corrected, RuleOverridden) else None
        return self._state

    @property
    def line(self) -> Line:
        """The line of play: the game events in force once corrections and overrides are read."""
        if self._line is None or self._line[0] != self.entries:
            self._line = (self.entries, resolve(self.events))
        return self._line[1]

    @property
    def replay(self) -> Replayed:
        """The line folded through the rules; plays a correction made illegal are skipped and listed."""
        if self._replay is None or self._replay[0] != self.entries:
            self._replay = (self.entries, replay(self.initial, self.line, stop_at_violation=False))
        return self._replay[1]

    # -- the record: read from a snapshot only when something asks for its entries

    @property
    def events(self) -> list[GameEvent]:
        """Every entry of the record, history entries included."""
        if self._held is not None:
            self._settle(self._held)
        return self._events

    @property
    def hashes(self) -> list[str]:
        """Each entry's hash, chained to the one before."""
        if self._held is not None:
            self._settle(self._held)
        return self._hashes

    @property
    def stamps(self) -> list[Stamp]:
        """When and by whom each entry was entered (``NO_STAMP`` where not known)."""
        if self._held is not None:
            self._settle(self._held)
        return self._stamps

    @property
    def entries(self) -> int:
        """How many entries the record has (a snapshot's entries are not read for it)."""
        return len(self._events) + (self._held.count if self._held is not None else 0)

    @property
    def head(self) -> str:
        """The newest hash of the chain (the header's hash before any event; a snapshot's entries are not read for it)."""
        if self._hashes:
            return self._hashes[-1]
        return self._held.head if self._held is not None else self.header.anchor()

    def since(self, k: int) -> tuple[list[GameEvent], list[Stamp]]:
        """The entries after the first ``k`` and their stamps: those recorded since the snapshot are served
        without reading it (the entries a change just recorded, as the game holds them: never decoded again)."""
        held = self._held.count if self._held is not None else 0
        if k >= held:
            return self._events[k - held:], self._stamps[k - held:]
        return self.events[k:], self.stamps[k:]

    def _settle(self, held: HeldRecord) -> None:
        """Read the entries held elsewhere, checked, in front of those recorded since (``HeldRecord``).

        If they had to be read from another source than the copy (the store's rows),
        the copy's table is not trusted either: it is folded again from them.
        """
        (events, hashes, stamps), refold = held.read(self.header.anchor())
        if refold:
            self.start_fold(None, 0)
        self._held = None
        self._events[:0], self._hashes[:0], self._stamps[:0] = events, hashes, stamps

    @property
    def pending(self) -> Pending | None:
        """Who must act next, and what kind of input is due (``None`` once the game is over)."""
        return due(self.state)

    @property
    def over(self) -> bool:
        return self.state.over
