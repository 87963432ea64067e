"""The line of play a record describes, once corrections, retractions and overrides are read.

A log is append-only: a mistake is fixed by a ``Corrected`` entry (followed by
the replacement event), an undo by a ``Retracted`` entry, a move the table
accepted against the rules by a ``RuleOverridden`` entry (followed by that
move), a comment by ``Noted`` / ``Bookmarked``. ``resolve`` turns the entries
into the *line of play*: the game events in force, in order, each with the log
entry that recorded it. ``replay`` folds a line through the rules core, either
stopping at the first illegal event (what ``validate`` reports) or skipping
illegal events and listing them (what a game shows after a correction made
later events illegal; nothing is dropped from the record). ``advance`` takes one
more entry of a stored record, and ``LineFold`` folds a record entry by entry,
keeping every table (which fold serves which view: the table in
``projections/__init__.py``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Mapping, Sequence

from coimbra_events.events import (  # is_plain: the history module's question, asked by the events module
    HISTORY_TYPES,
    Bookmarked,
    Corrected,
    GameEvent,
    Noted,
    Retracted,
    RuleOverridden,
    is_plain,  # noqa: F401  (re-exported, as said above)
)
from coimbra_events.rules.core import check
from coimbra_events.rules.fast import Fold
from coimbra_events.state import GameState
from coimbra_events.violations import RuleViolation

_HISTORY = frozenset(HISTORY_TYPES)


@dataclass(frozen=True)
class Play:
    """A game event in force: where it stands in the line and which log entry says it.

    ``seq`` is the entry that first recorded this move (what corrections and
    notes refer to); ``source`` is the entry whose content is in force (the
    replacement's entry after a correction). ``override`` is the (rule, reason)
    the table accepted, if any.
    """

    seq: int
    source: int
    event: GameEvent
    override: tuple[str, str] | None = None


@dataclass(frozen=True)
class Line:
    """The line of play of a record, with the notes and bookmarks on it."""

    plays: tuple[Play, ...]
    notes: Mapping[int, tuple[str, ...]] = field(default_factory=dict)
    bookmarks: Mapping[int, str] = field(default_factory=dict)
    corrections: Mapping[int, tuple[int, ...]] = field(default_factory=dict)
    problem: tuple[int, RuleViolation] | None = None

    def index_of(self, seq: int) -> int | None:
        """Position in the line of the play recorded as entry ``seq`` (first or as corrected)."""
        for k, play in enumerate(self.plays):
            if play.seq == seq or play.source == seq:
                return k
        return None


def resolve(events: Sequence[GameEvent]) -> Line:
    """The line of play of a record; ``problem`` is the first entry that names nothing valid."""
    plays: list[Play] = []
    notes: dict[int, list[str]] = {}
    bookmarks: dict[int, str] = {}
    corrections: dict[int, list[int]] = {}
    introduced: GameEvent | None = None  # the Corrected / RuleOverridden waiting for its event

    def fail(seq: int, rule: str, reason: str, **facts: object) -> Line:
        return Line(tuple(plays), _frozen(notes), dict(bookmarks), _frozen(corrections), (seq, RuleViolation(rule, reason, facts)))

    def target(entry: int) -> int | None:
        return next((k for k, p in enumerate(plays) if entry in (p.seq, p.source)), None)

    for seq, event in enumerate(events, 1):
        kind = type(event)
        if introduced is not None and kind in _HISTORY:
            return fail(seq, "HISTORY.pair", f"entry {seq - 1} ({introduced.TYPE}) must be followed by the game event it introduces",
                        entry=seq - 1, found=event.TYPE)
        if kind is Corrected or kind is RuleOverridden:
            if kind is Corrected and target(event.seq) is None:
                return fail(seq, "HISTORY.target", f"entry {event.seq} is not a game event in the line of play", entry=event.seq)
            introduced = event
        elif kind is Retracted or kind is Noted or kind is Bookmarked:
            k = target(event.seq)
            if k is None:
                return fail(seq, "HISTORY.target", f"entry {event.seq} is not a game event in the line of play", entry=event.seq)
            if kind is Retracted:
                del plays[k]
            elif kind is Noted:
                notes.setdefault(plays[k].seq, []).append(event.text)
            else:
                bookmarks[plays[k].seq] = event.label
        elif type(introduced) is Corrected:
            k = target(introduced.seq)
            plays[k] = Play(plays[k].seq, seq, event)
            corrections.setdefault(plays[k].seq, []).append(seq)
            introduced = None
        elif type(introduced) is RuleOverridden:
            plays.append(Play(seq, seq, event, (introduced.rule, introduced.reason)))
            introduced = None
        else:
            plays.append(Play(seq, seq, event))
    if introduced is not None:
        return fail(len(events), "HISTORY.pair", f"entry {len(events)} ({introduced.TYPE}) is not followed by the game event it introduces",
                    entry=len(events))
    return Line(tuple(plays), _frozen(notes), dict(bookmarks), _frozen(corrections))


def _frozen(d: dict[int, list]) -> dict[int, tuple]:
    return {k: tuple(v) for k, v in d.items()}


@dataclass(frozen=True)
class Replayed:
    """A line folded through the rules: the state reached, and what did not fold cleanly."""

    state: GameState
    applied: int
    skipped: tuple[tuple[Play, RuleViolation], ...] = ()
    overrides: tuple[tuple[Play, RuleViolation], ...] = ()

    @property
    def first_violation(self) -> tuple[Play, RuleViolation] | None:
        return self.skipped[0] if self.skipped else None


OVERRIDABLE: frozenset[str] = frozenset(
    {"C.cost", "C.alternative", "E.track", "E.exchange", "F.once", "F.cost", "PILGRIM.adjacent", "START.space"}
)
"""Rules a table can break with what is on the table: paying what one lacks, taking too much,
a pilgrim jumping, a second disc on a voyage. The other rules name a die, card, tile, space or
turn that is not there: no table can play such a move, so it cannot be accepted either."""


def _names_real_spaces(state: GameState, event: GameEvent) -> bool:
    space = getattr(event, "to", None) or getattr(event, "space", None)
    return space is None or space in state.catalog.map.spaces


def play_override(state: GameState, play: Play) -> tuple[GameState, RuleViolation]:
    """Apply a table-accepted move without its rule check; the violation it was accepted against.

    ``RuleViolation`` (``HISTORY.override``) when the entry does not hold up: the
    move breaks no rule (it should be an ordinary entry), breaks another rule
    than the one named, or cannot be laid out on a table at all.
    """
    violation = check(state, play.event)
    named = play.override[0] if play.override else None
    facts = {"entry": play.seq, "named": named}
    if violation is None:
        raise RuleViolation("HISTORY.override", f"entry {play.seq} ({play.event.TYPE}) breaks no rule here; "
                            "it belongs in the record as an ordinary entry", facts)
    if violation.rule != named:
        raise RuleViolation("HISTORY.override", f"entry {play.seq} is accepted against rule {named}, but it breaks "
                            f"{violation.rule}: {violation.reason}", {**facts, "breaks": violation.rule})
    if violation.rule not in OVERRIDABLE or not _names_real_spaces(state, play.event):
        raise RuleViolation("HISTORY.override", f"{play.event.TYPE} cannot be played on the table even as an accepted "
                            f"rule break: {violation.reason}", {**facts, "breaks": violation.rule})
    try:
        return Fold().apply(state, play.event), violation
    except (KeyError, ValueError, IndexError, TypeError) as exc:
        raise RuleViolation("HISTORY.override", f"{play.event.TYPE} names something not on the table ({exc}); "
                            "it cannot be played even as an accepted rule break", facts) from None


Observer = Callable[[GameEvent, GameState, GameState], None]
"""Told of each play a replay applies: the event, the table before it and after it."""


def replay(state: GameState, line: Line, stop_at_violation: bool, observe: Observer | None = None) -> Replayed:
    """Fold a line of play from ``state``: stop at the first illegal play, or skip and list them.

    ``observe``, if given, is called with every play applied (skipped ones are not).
    """
    skipped: list[tuple[Play, RuleViolation]] = []
    overrides: list[tuple[Play, RuleViolation]] = []
    applied = 0
    carried = Fold()
    for play in line.plays:
        before = state
        if play.override is not None:
            try:
                state, violation = play_override(state, play)
            except RuleViolation as v:
                skipped.append((play, v))
                if stop_at_violation:
                    break
                continue
            overrides.append((play, violation))
        else:
            violation = check(state, play.event)
            if violation is not None:
                skipped.append((play, violation))
                if stop_at_violation:
                    break
                continue
            state = carried.apply(state, play.event)
        applied += 1
        if observe is not None:
            observe(play.event, before, state)
    return Replayed(state, applied, tuple(skipped), tuple(overrides))


def advance(state: GameState, introduced: GameEvent | None, event: GameEvent,
            carried: Fold) -> tuple[GameState | None, GameEvent | None]:
    """The table after one more entry of a stored record, when the line of play only grows.

    Returns the new state and the ``Corrected`` or ``RuleOverridden`` entry now
    waiting for its event. A plain play is checked and applied (it was checked
    when it was recorded, against this very state, but its hash only shows what was
    recorded: a store changed behind coimbra's back, hashes and all, may hold one
    that breaks a rule); a play accepted against a rule is laid out as accepted;
    notes change nothing. The state is ``None`` when the entry changes the line
    instead (a correction's replacement, a retraction) or breaks a rule: then the
    line must be resolved and replayed, which skips and lists such a play. ``carried``
    is the caller's fold, kept from one entry to the next (``fast.Fold``).
    """
    kind = type(event)
    if kind is Corrected or kind is RuleOverridden:
        return state, event
    if kind is Noted or kind is Bookmarked:
        return state, introduced
    if kind is Retracted or type(introduced) is Corrected:
        return None, None
    if type(introduced) is RuleOverridden:
        try:
            return play_override(state, Play(0, 0, event, (introduced.rule, introduced.reason)))[0], None
        except RuleViolation:
            return None, None
    if check(state, event) is not None:
        return None, None
    return carried.apply(state, event), None


class LineFold:
    """A record folded entry by entry, its line of play kept with the table before and after every play.

    What ``resolve`` then ``replay`` (skipping illegal plays) give for the whole
    record, ``LineFold`` gives after every entry, at the cost of one fold plus,
    for each history entry, the plays it touches: a correction or a retraction
    of play k replays the plays from k on (with their rule checks), an undo of
    the latest play costs nothing, notes nothing. ``tests/test_history.py`` holds
    it equal to ``resolve`` + ``replay`` after every entry of random records.
    Every play is checked where it stands. While ``narrating``, each play pushed
    at the end is narrated as it is applied (a narrating ``fast.Fold``): what the
    rules told of it is written at the end of ``tape``.
    """

    def __init__(self, initial: GameState, narrating: bool = False) -> None:
        self.initial = initial
        self.narrating = narrating
        self.tape: list[object] = []
        """The fields of what the rules told of each play pushed while narrating (``narration.records``)."""
        self.plays: list[Play] = []
        self.after: list[GameState] = []
        """The table after each play (the one before it, where the play is skipped)."""
        self.verdicts: list[RuleViolation | None] = []
        """Why each play is skipped, or ``None`` where it is in force."""
        self.seq = 0
        self.problem: tuple[int, RuleViolation] | None = None
        self._introduced: GameEvent | None = None
        self._told = Fold(True, self.tape)  # plays pushed while narrating
        self._folded = Fold()  # every other play

    @property
    def state(self) -> GameState:
        return self.after[-1] if self.after else self.initial

    def push(self, event: GameEvent) -> None:
        """Read the next entry of the record."""
        self.seq += 1
        seq, kind = self.seq, type(event)
        if self.problem is not None:
            return  # as ``resolve``: nothing after the first entry that names nothing valid counts
        introduced = self._introduced
        if introduced is not None and kind in _HISTORY:
            self._fail(seq, "HISTORY.pair", f"entry {seq - 1} ({introduced.TYPE}) must be followed by the game event it introduces",
                       entry=seq - 1, found=event.TYPE)
        elif kind is Corrected or kind is RuleOverridden:
            if kind is Corrected and self._target(event.seq) is None:
                self._fail(seq, "HISTORY.target", f"entry {event.seq} is not a game event in the line of play", entry=event.seq)
            self._introduced = event
        elif kind is Retracted or kind is Noted or kind is Bookmarked:
            k = self._target(event.seq)
            if k is None:
                self._fail(seq, "HISTORY.target", f"entry {event.seq} is not a game event in the line of play", entry=event.seq)
            elif kind is Retracted:
                del self.plays[k], self.after[k], self.verdicts[k]
                self._refold(k)
        elif type(introduced) is Corrected:
            k = self._target(introduced.seq)
            assert k is not None
            self.plays[k] = Play(self.plays[k].seq, seq, event)
            self._introduced = None
            self._refold(k)
        else:
            override = (introduced.rule, introduced.reason) if isinstance(introduced, RuleOverridden) else None
            self._introduced = None
            self.plays.append(Play(seq, seq, event, override))
            state, verdict = self._play(self.state, self.plays[-1], self.narrating)
            self.after.append(state)
            self.verdicts.append(verdict)

    def skipped(self) -> tuple[tuple[Play, RuleViolation], ...]:
        """The plays not in force, with the rule each breaks, in line order (as ``Replay.skipped``)."""
        return tuple((p, v) for p, v in zip(self.plays, self.verdicts) if v is not None)

    def _target(self, entry: int) -> int | None:
        return next((k for k, p in enumerate(self.plays) if entry in (p.seq, p.source)), None)

    def _fail(self, seq: int, rule: str, reason: str, **facts: object) -> None:
        self.problem = (seq, RuleViolation(rule, reason, facts))

    def _refold(self, k: int) -> None:
        """Fold the plays from position ``k`` on again, each checked, from the table before ``k``."""
        state = self.after[k - 1] if k else self.initial
        for i in range(k, len(self.plays)):
            state, self.verdicts[i] = self._play(state, self.plays[i])
            self.after[i] = state

    def _play(self, state: GameState, play: Play, narrating: bool = False) -> tuple[GameState, RuleViolation | None]:
        """The table after a play, and why it is skipped (the table unchanged then), as ``replay`` folds it;
        ``narrating``: what the rules told of it written to ``tape``."""
        if play.override is not None:
            try:
                after = play_override(state, play)[0]
            except RuleViolation as v:
                return state, v
            if narrating:  # an accepted rule break, told as the rules carry it out (rare: applied once more)
                self._told.apply(state, play.event)
            return after, None
        violation = check(state, play.event)
        if violation is not None:
            return state, violation
        return (self._told if narrating else self._folded).apply(state, play.event), None
