"""The rules core's fast paths: folds that trust their events, for callers that fold many.

``core`` is what a reader needs (start, due, legal, check, apply, fold), and its
``apply`` and ``fold`` check every event. What is here trusts the caller to have
checked (or to be playing the core's own ``options``) and saves the work a
reader's verb does once per call: the playouts, the bots and the analysis fold
millions of events with it; the aggregate, the validator and the read side's
folds go through it too, each checking where it must.

- ``Fold``: events applied one after another on one working copy of the table
  (narrating: writing what the rules told; scratch: a playout's, refilling one table).
- ``apply_in``: one event applied in a given working copy (``Tx``).
- ``options``: ``core.legal``'s decisions as the rule modules give them, a long run built only when asked for.
- ``narrate``: every state of a fold of legal events, and what the rules told of each, in one native loop.
- ``settle``: the game run forward in a working copy until an input is due (``core.start``).

``core.apply`` is ``check`` then ``apply_in``; ``core.legal`` is ``options`` as a list.
"""

from __future__ import annotations

from typing import Sequence

from coimbra_events import events as ev
from coimbra_events.events import GameEvent
from coimbra_events.rules import choices, dice, income, outcomes, pilgrim, retrieval, scoring, setup, voyages
from coimbra_events.rules.options import NONE, Options
from coimbra_events.rules.outcomes import OutcomeSpace
from coimbra_events.rules.tx import Tx
from coimbra_events.state import (
    GAME_OVER,
    PHASE_A,
    PHASE_B,
    PHASE_C,
    PHASE_D,
    PHASE_E,
    PHASE_F,
    SETUP,
    START,
    TABLE,
    GameState,
    Pending,
)


def apply_in(tx: Tx, event: GameEvent) -> GameState:
    """The state after a legal event and all its deterministic consequences (die tokens, phase D, income, end of
    round) until the next input is due, worked out in ``tx``, a working copy of the state before the event
    (afterwards, of the state after it). Does not check: ``core.apply`` does."""
    _apply_event(tx, event)
    settle(tx)
    return tx.freeze()


def _apply_event(tx: Tx, event: GameEvent) -> None:
    """What one event does to the table, by its type, the kinds a game has most of first.

    Direct calls rather than a dict of handlers: compiled, a handler looked up in a dict is called
    through Python's calling convention, and with ``settle``'s and ``options``' it cost a playout
    some 4 % of its work (a playout applies some sixty events and asks for options at most of them).
    """
    if isinstance(event, ev.IncomeActivated):
        income.apply_activate(tx, event)
    elif isinstance(event, ev.DiePlaced):
        dice.apply_place(tx, event)
    elif isinstance(event, ev.PilgrimStepped):
        pilgrim.apply_step(tx, event)
    elif isinstance(event, ev.CardBought):
        retrieval.apply_card(tx, event)
    elif isinstance(event, ev.PointsExchanged):
        income.apply_exchange(tx, event)
    elif isinstance(event, ev.AlternativeTaken):
        retrieval.apply_alternative(tx, event)
    elif isinstance(event, ev.VoyageInvested):
        voyages.apply_invest(tx, event)
    elif isinstance(event, ev.VoyagePassed):
        voyages.apply_pass(tx, event)
    elif isinstance(event, ev.FavorTileTaken):
        retrieval.apply_tile(tx, event)
    elif isinstance(event, ev.DiceRolled):
        dice.apply_dice(tx, event)
    elif isinstance(event, ev.CharacterRowsDealt):
        setup.apply_rows(tx, event)
    elif isinstance(event, ev.PilgrimStopped):
        pilgrim.apply_stop(tx, event)
    elif isinstance(event, ev.TrackChosen):
        choices.apply_track(tx, event)
    elif isinstance(event, ev.IncomeEnded):
        income.apply_end(tx, event)
    elif isinstance(event, ev.StartGroupTaken):
        setup.apply_group(tx, event)
    elif isinstance(event, ev.PilgrimPlaced):
        setup.apply_pilgrim(tx, event)
    elif isinstance(event, ev.MonasteriesDrawn):
        setup.apply_monasteries(tx, event)
    elif isinstance(event, ev.ScoringTilesPlaced):
        setup.apply_scoring_tiles(tx, event)
    elif isinstance(event, ev.VoyagesDrawn):
        setup.apply_voyages(tx, event)
    elif isinstance(event, ev.SeatingDrawn):
        setup.apply_seating(tx, event)
    elif isinstance(event, ev.StartGroupsDealt):
        setup.apply_start_groups(tx, event)
    else:
        raise TypeError(f"{event.TYPE} is not a move of the game: it cannot be applied to the table")


class Fold:
    """Legal events applied one after another, one working copy of the table carried from each to the next.

    ``apply`` gives what ``core.apply`` gives, without its check. Going on from the
    state it returned last costs no new copy (``Tx.freeze`` leaves the copy on that
    state); from any other state, a new copy is made. A narrating fold writes the
    fields of what the rules told of each event at the end of ``tape``
    (``narration.Record``); the event that ends the game also brings the end-game
    scoring (``scoring.end_game_told``).

    A scratch fold (``scratch=True``) is for a playout, which keeps none of the
    states it goes through: going on from the state it returned last changes that
    very state in place (``Tx``), so a state it returned holds only until the
    next ``apply`` from it; the state it first started from is never changed.
    """

    def __init__(self, narrating: bool = False, tape: list[object] | None = None, scratch: bool = False) -> None:
        self.narrating = narrating
        self.scratch = scratch
        self.tape: list[object] = [] if tape is None else tape
        self._tx: Tx | None = None
        self._after: GameState | None = None

    def apply(self, state: GameState, event: GameEvent) -> GameState:
        """The state after a legal event and all its deterministic consequences (``apply_in``); does not check."""
        tx = self._tx if state is self._after else None
        self._tx = None  # an event that cannot be applied leaves no half-changed copy to go on from
        if tx is None:
            tx = Tx(state, self.narrating, self.tape, self.scratch)
        after = apply_in(tx, event)
        if self.narrating and after.over and not state.over:
            for record in scoring.end_game_told(after):
                self.tape.extend(record)
        self._tx, self._after = tx, after
        return after


def narrate(state: GameState, events: Sequence[GameEvent]) -> tuple[list[GameState], list[object], list[int]]:
    """Every state of a fold of legal events from ``state`` (``state`` first), and every change the rules made on
    the table, in order, each with its rule and facts.

    A narrating ``Fold`` in one native loop writing one list of fields
    (``narration.Record``): event ``k``'s records are those from ``ends[k]`` to
    ``ends[k + 1]`` (``narration.records``). The fold a timeline makes.
    """
    states = [state]
    fold = Fold(True)
    tape = fold.tape
    ends = [0]
    for event in events:
        state = fold.apply(state, event)
        states.append(state)
        ends.append(len(tape))
    return states, tape, ends


def options(state: GameState) -> Options | OutcomeSpace:
    """``core.legal``'s decisions as the rule modules give them (``rules.options``): a long run of one kind is built
    only when asked for. What a playout reads."""
    due = state.pending
    if due is None:
        return NONE
    kind = due.kind
    if due.actor == TABLE:
        return outcomes.KINDS[kind].space(state)
    if kind == "income":  # direct calls, as in ``_apply_event``
        return income.legal_income(state, due)
    if kind == "draft":
        return dice.legal_place(state, due)
    if kind == "retrieve":
        return retrieval.legal_retrieve(state, due)
    if kind == "steps":
        return pilgrim.legal_steps(state, due)
    if kind == "voyage":
        return voyages.legal_voyage(state, due)
    if kind == "track-choice":
        return choices.legal_track(state, due)
    if kind == "start-choice":
        return setup.legal_start(state, due)
    raise KeyError(f"no decision of the kind {kind!r}")


def settle(tx: Tx) -> None:
    """Run the game forward in ``tx`` until an input is due (or the game is over)."""
    g = tx.g
    while True:
        tx.flush()
        stack = g.stack
        if stack:
            g.pending = stack[-1]
            return
        phase = g.phase
        if phase == GAME_OVER:
            g.pending = None
            return
        due = _automaton(tx, phase)
        if due is not None:
            g.pending = due
            return


def _automaton(tx: Tx, phase: str) -> Pending | None:
    """For each phase: the next input due, or ``None`` after moving the game on by itself (direct calls, as in
    ``_apply_event``)."""
    if phase == PHASE_E:
        return income.auto_e(tx)
    if phase == PHASE_C:
        return retrieval.auto_c(tx)
    if phase == PHASE_B:
        return dice.auto_b(tx)
    if phase == PHASE_F:
        return voyages.auto_f(tx)
    if phase == PHASE_D:
        income.auto_d(tx)
        return None
    if phase == PHASE_A:
        return dice.auto_a(tx)
    if phase == START:
        return setup.auto_start(tx)
    if phase == SETUP:
        return setup.auto_setup(tx)
    raise KeyError(f"no phase {phase!r}")


__all__ = ["Fold", "apply_in", "narrate", "options", "settle"]
