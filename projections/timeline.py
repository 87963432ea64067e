"""Every state of a game, folded once, for stepping and jumping through it.

A replayer that asked the store for "the game at version k" for every k would
fold the game again at each step (O(N²), eventsourcing pitfall 7). A
``Timeline`` folds the events once through the rules core and keeps every
state: state 0 is the table before any event, state k the table after event k.
States are immutable and share their unchanged parts, so keeping all of them
costs little, and any step or jump afterwards is a lookup. The same fold keeps
what the rules told of each entry as they applied it (``changes[k]``,
``projections.consequences``).

Events of a stored game were checked by the rules when they were recorded, so
they are only applied here; a log file is validated first (``validate``) and an
illegal one is refused with ``IllegalLog``, the same refusal the store gives.
Which fold serves which view: the table in ``projections/__init__.py``.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Sequence

from coimbra_events.catalog import Catalog
from coimbra_events.events import GameEvent
from coimbra_events.game import Game, IllegalLog
from coimbra_events.log import GameLog
from coimbra_events.rules import core as rules
from coimbra_events.state import GAME_OVER, PHASE_A, PHASE_B, PHASE_C, PHASE_D, PHASE_E, PHASE_F, SETUP, START, GameState
from coimbra_events.validation import validate
from coimbra_events.rules.narration import Record
from projections.consequences import Changes, Entry, fold

PHASES: tuple[str, ...] = (SETUP, START, PHASE_A, PHASE_B, PHASE_C, PHASE_D, PHASE_E, PHASE_F, GAME_OVER)
"""Phases in the order a game passes through them (rounds run A to F)."""


class TimelineError(ValueError):
    """A point that is not in this game: out of range, unknown phase, or not reached."""


def phase_name(text: str) -> str:
    """A phase as typed (``c``, ``Setup``) in the spelling of the state; ``TimelineError`` if unknown."""
    for phase in PHASES:
        if text.strip().lower() == phase.lower():
            return phase
    raise TimelineError(f"unknown phase {text!r}: expected one of {', '.join(PHASES)}")


def _position(state: GameState) -> tuple[int, int]:
    """Where a state stands in the game; never decreases from one state to the next."""
    return state.round, PHASES.index(state.phase)


@dataclass(frozen=True)
class Timeline:
    """A game and every state it passed through: ``states[k]`` is the table after ``k`` events.

    ``entries[k - 1]`` is what kind of entry ``k`` was and ``told[k - 1]`` what
    the rules told of it as the fold applied it; ``changes[k]`` its changes of the
    table (put in the table's terms when first read).
    """

    log: GameLog
    states: tuple[GameState, ...]
    entries: tuple[Entry, ...]
    told: Sequence[Sequence[Record]]

    @property
    def events(self) -> tuple[GameEvent, ...]:
        return self.log.events

    @cached_property
    def changes(self) -> Changes:
        """``changes[k]``: what entry ``k`` changed on the table, in order, each with its rule and facts."""
        return Changes(self)

    @property
    def final(self) -> GameState:
        return self.states[-1]

    def __len__(self) -> int:
        """The number of states: one more than the number of events."""
        return len(self.states)

    def at(self, n: int) -> GameState:
        """The table after ``n`` events (0: before the first); ``TimelineError`` outside 0..len(events)."""
        if not 0 <= n < len(self.states):
            raise TimelineError(f"no table after {n} events: the game has {len(self.events)}; choose 0 to {len(self.events)}")
        return self.states[n]

    def index_of(self, round: int | None, phase: str) -> int:
        """The first state of ``round`` in ``phase``: the table right when that phase begins.

        ``round`` ``None`` means the first time the phase begins (meant for
        ``setup``, ``start`` and ``over``, which happen once). A phase the
        rules run through without waiting for anyone (D, new player order)
        begins and ends inside one event; its state is the first one after it,
        in the same round. ``TimelineError`` if the game never gets there.
        """
        wanted = phase_name(phase)
        if round is None:
            for k, state in enumerate(self.states):
                if state.phase == wanted:
                    return k
            if wanted not in (SETUP, START, GAME_OVER):  # a phase that waits for nobody (D): where round 1 passes it
                return self.index_of(1, wanted)
            raise TimelineError(f"phase {wanted} is not reached in this game ({self._reached()})")
        if wanted != GAME_OVER and (round == 0) != (wanted in (SETUP, START)):
            raise TimelineError(f"round {round} has no phase {wanted}: setup and start are round 0, phases A to F rounds 1 on")
        target = (round, PHASES.index(wanted))
        k = next((k for k, state in enumerate(self.states) if _position(state) >= target), len(self.states))
        if k == len(self.states) or self.states[k].round != round:
            raise TimelineError(f"round {round} phase {wanted} is not reached in this game ({self._reached()})")
        return k

    def _reached(self) -> str:
        last = self.final
        where = "game over" if last.over else f"round {last.round}, phase {last.phase}"
        return f"{len(self.events)} events, last state: {where}"


def timeline(source: Game | GameLog, catalog: Catalog | None = None, name: str = "<log>") -> Timeline:
    """Fold a stored game or a log once into every state it passed through.

    A ``Game``'s events were checked when they were recorded and are only
    applied (``catalog`` is ignored: the game knows its own). A ``GameLog`` is
    validated first: ``LogError`` if its catalog or players are unusable,
    ``IllegalLog`` at its first illegal event.
    """
    if isinstance(source, Game):
        log = source.to_log()
        start = rules.start(source.catalog, log.players)
    else:
        log = source
        result = validate(log, catalog, name)
        if not result.valid:
            raise IllegalLog(result)
        start = rules.start(result.state.catalog, log.players)
    folded = fold(start, log.events)
    return Timeline(log, folded.states, folded.entries, folded.told)


__all__ = ["PHASES", "Timeline", "TimelineError", "phase_name", "timeline"]
