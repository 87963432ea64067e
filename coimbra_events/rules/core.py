"""The rules core: ``initial_state``, ``pending``, ``legal``, ``check``, ``apply``.

Pure and deterministic: the same state and event always give the same result,
nothing is mutated, no random generator is called. ``check`` says whether an
event is legal (``None``) or which rule it breaks (a ``RuleViolation``);
``apply`` folds a legal event and then runs the game forward through every
deterministic consequence (die tokens, phase D, income, end of round) until the
next input is due. The aggregate, the validator and every projection go
through these functions and no others; ``Fold``, ``fold`` and ``narrate_all``
are the folds of events here (which fold serves which view: the table in
``projections/__init__.py``).
"""

from __future__ import annotations

from typing import Any, Callable, Final, Sequence

from coimbra_events import events as ev
from coimbra_events.catalog import Catalog
from coimbra_events.catalog.effect_kinds import TRACKS
from coimbra_events.events import GameEvent
from coimbra_events.rules import choices, dice, income, outcomes, pilgrim, retrieval, scoring, setup, voyages
from coimbra_events.rules.narration import Record, records
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
    PlayerState,
)
from coimbra_events.violations import RuleViolation, Seen, held

ACCEPTS: Final[dict[str, tuple[type[GameEvent], ...]]] = {
    "monasteries": (ev.MonasteriesDrawn,),
    "scoring-tiles": (ev.ScoringTilesPlaced,),
    "voyages": (ev.VoyagesDrawn,),
    "seating": (ev.SeatingDrawn,),
    "rows": (ev.CharacterRowsDealt,),
    "start-groups": (ev.StartGroupsDealt,),
    "dice": (ev.DiceRolled,),
    "start-choice": (ev.StartGroupTaken, ev.PilgrimPlaced),
    "track-choice": (ev.TrackChosen,),
    "steps": (ev.PilgrimStepped, ev.PilgrimStopped),
    "draft": (ev.DiePlaced,),
    "retrieve": (ev.FavorTileTaken, ev.CardBought, ev.AlternativeTaken),
    "income": (ev.IncomeActivated, ev.PointsExchanged, ev.IncomeEnded),
    "voyage": (ev.VoyageInvested, ev.VoyagePassed),
}
"""Which event types answer each kind of pending input."""

_ACCEPTED: Final = {kind: frozenset(types) for kind, types in ACCEPTS.items()}

CHECKS: Final[dict[type, Callable[[GameState, Any, Seen | None], RuleViolation | None]]] = {
    **outcomes.CHECKS,
    ev.StartGroupTaken: setup.check_group,
    ev.PilgrimPlaced: setup.check_pilgrim,
    ev.TrackChosen: choices.check_track,
    ev.PilgrimStepped: pilgrim.check_step,
    ev.DiePlaced: dice.check_place,
    ev.FavorTileTaken: retrieval.check_tile,
    ev.CardBought: retrieval.check_card,
    ev.AlternativeTaken: retrieval.check_alternative,
    ev.IncomeActivated: income.check_activate,
    ev.PointsExchanged: income.check_exchange,
    ev.VoyageInvested: voyages.check_invest,
}

TURN_RULES: Final[tuple[str, ...]] = ("GAME.over", "TURN.actor", "TURN.kind")
"""What ``check`` verifies for every event before its type's own checker runs."""

RULES_CHECKED: Final[dict[type[GameEvent], tuple[str, ...]]] = {
    ev.MonasteriesDrawn: TURN_RULES + ("SETUP.monasteries",),
    ev.ScoringTilesPlaced: TURN_RULES + ("SETUP.scoring-tiles",),
    ev.VoyagesDrawn: TURN_RULES + ("SETUP.voyages",),
    ev.SeatingDrawn: TURN_RULES + ("SETUP.seating",),
    ev.CharacterRowsDealt: TURN_RULES + ("SETUP.rows",),
    ev.StartGroupsDealt: TURN_RULES + ("SETUP.start-groups",),
    ev.DiceRolled: TURN_RULES + ("A.dice",),
    ev.StartGroupTaken: TURN_RULES + ("START.once", "START.group"),
    ev.PilgrimPlaced: TURN_RULES + ("START.once", "START.space"),
    ev.TrackChosen: TURN_RULES + ("CHOICE.track",),
    ev.PilgrimStepped: TURN_RULES + ("PILGRIM.adjacent",),
    ev.PilgrimStopped: TURN_RULES,
    ev.DiePlaced: TURN_RULES + ("B.die", "B.location"),
    ev.FavorTileTaken: TURN_RULES + ("C.location", "C.tile"),
    ev.CardBought: TURN_RULES + ("C.location", "C.card", "C.cost"),
    ev.AlternativeTaken: TURN_RULES + ("C.alternative",),
    ev.IncomeActivated: TURN_RULES + ("E.die", "E.track"),
    ev.PointsExchanged: TURN_RULES + ("E.exchange",),
    ev.IncomeEnded: TURN_RULES,
    ev.VoyageInvested: TURN_RULES + ("F.voyage", "F.once", "F.cost"),
    ev.VoyagePassed: TURN_RULES,
}
"""Rule ids ``check`` covers for each event type, in the order they are checked.

``check(state, event, seen)`` notes each of them as it holds, with its facts; this
map also names the rules after a broken one, which ``check`` never reaches (the
audit trail lists them as not checked). ``tests/test_explain.py`` holds it to
what ``check`` notes for every event of the corpus.
"""

def initial_state(catalog: Catalog, players: Sequence[tuple[str, str]]) -> GameState:
    """The table before setup: players (name, colour) with their starting resources.

    Raises ``ValueError`` for a player count the catalog does not support or
    repeated names or colours: such a game cannot begin.
    """
    n = len(players)
    if not catalog.min_players <= n <= catalog.max_players:
        raise ValueError(f"{n} {'player' if n == 1 else 'players'}; the catalog supports {catalog.min_players}-{catalog.max_players}")
    names = [p[0] for p in players]
    if len(set(names)) != n or len({p[1] for p in players}) != n:
        raise ValueError("player names and colours must be unique")
    if TABLE in names:
        raise ValueError(f"'{TABLE}' is reserved for the table's random outcomes")
    zero = tuple(0 for _ in TRACKS)
    people = tuple(
        PlayerState(
            name=name, color=color, coins=catalog.start_coins, guards=catalog.start_guards, points=0,
            influence=zero, arrivals=zero, pilgrim=None, start_cards=(), cards=(), monasteries=(), voyages=(),
            shutter=(), favor_tiles=(), crown_tokens=(), crowns_total=0, income_left=(), points_by_source=(),
            start_choices=(),
        )
        for name, color in players
    )
    state = GameState(
        catalog=catalog, index={name: k for k, name in enumerate(names)}, players=people, order=(), round=0,
        phase=SETUP, cursor=(0,), monasteries=(), scoring_tiles=(), voyages=(), voyage_discs=(), start_groups=(),
        start_groups_taken=(), pilgrims_placed=(), dealt=frozenset(), rows=((), (), ()), crowns_on_cards=(),
        discard=(), favor_available=tuple(catalog.favor_tiles), dice=(), pool=(),
        locations=dice.token_slots(catalog.die_tokens_for(n)), stack=(), pending=None, tick=0,
    )
    tx = Tx(state)
    _settle(tx)
    return tx.freeze()


def pending(state: GameState) -> Pending | None:
    """Who must act next and what kind of input is due; ``None`` once the game is over."""
    return state.pending


def check(state: GameState, event: GameEvent, seen: Seen | None = None) -> RuleViolation | None:
    """``None`` if the event is legal now, else the rule it breaks, why, and the facts checked.

    With ``seen``, also notes each rule that holds, in the order checked, with
    the facts it checked (the audit trail's "why it was legal").
    """
    due = state.pending
    if due is None:
        return RuleViolation("GAME.over", "the game is over; no more events can be added", {"round": state.round})
    if seen is not None:
        held(seen, "GAME.over", {"round": state.round, "phase": state.phase})
    if (broken := event.actor != due.actor) or seen is not None:
        facts: dict[str, Any] = {"due": due.actor, "kind": due.kind, "actor": event.actor}
        if broken:
            return RuleViolation("TURN.actor", f"{due.actor} must act now ({due.kind}), not {event.actor}", facts)
        held(seen, "TURN.actor", facts)
    if (broken := type(event) not in _ACCEPTED[due.kind]) or seen is not None:
        wanted = ", ".join(t.TYPE for t in ACCEPTS[due.kind])
        facts = {"kind": due.kind, "accepted": wanted, "event": event.TYPE}
        if broken:
            return RuleViolation("TURN.kind", f"{due.actor} must answer {due.kind} now ({wanted}), not {event.TYPE}", facts)
        held(seen, "TURN.kind", facts)
    checker = CHECKS.get(type(event))
    return checker(state, event, seen) if checker else None


def apply(state: GameState, event: GameEvent) -> GameState:
    """The state after a legal event and all its deterministic consequences.

    ``apply`` does not check; fold untrusted events through ``step``.
    """
    return apply_in(Tx(state), event)


def apply_in(tx: Tx, event: GameEvent) -> GameState:
    """``apply`` in a given working copy of the state before the event (afterwards, of the state after it)."""
    _apply_event(tx, event)
    _settle(tx)
    return tx.freeze()


def _apply_event(tx: Tx, event: GameEvent) -> None:
    """What one event does to the table, by its type, the kinds a game has most of first.

    Direct calls rather than a dict of handlers: compiled, a handler looked up in a dict is called
    through Python's calling convention, and with ``_settle``'s and ``options``' it cost a playout
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

    ``apply`` gives what ``core.apply`` gives. Going on from the state it returned
    last costs no new copy (``Tx.freeze`` leaves the copy on that state); from any
    other state, a new copy is made. A narrating fold writes what the rules told of
    each event at the end of ``tape``, as ``narrate_into`` does.

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
        """The state after a legal event and all its deterministic consequences."""
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


def narrate(state: GameState, event: GameEvent) -> tuple[GameState, list[Record]]:
    """``apply``, and every change the rules made on the table, in order, each with its rule and facts.

    The same rules as ``apply`` (the state is the same); the event that ends the
    game also brings the end-game scoring (``scoring.end_game_told``).
    """
    tape: list[object] = []
    after = narrate_into(tape, state, event)
    return after, records(tape, 0, len(tape))


def narrate_into(tape: list[object], state: GameState, event: GameEvent) -> GameState:
    """``narrate``, writing the fields of what the rules told at the end of ``tape`` (``narration.Record``)."""
    return Fold(True, tape).apply(state, event)


def narrate_all(state: GameState, events: Sequence[GameEvent]) -> tuple[list[GameState], list[object], list[int]]:
    """Every state of a fold of legal events from ``state`` (``state`` first), and what each event changed.

    ``narrate`` event by event, in one native loop writing one list of fields
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


def step(state: GameState, event: GameEvent, carried: Fold | None = None) -> GameState:
    """Check, then apply (with ``carried``: in that fold): raises ``RuleViolation`` for an illegal event."""
    violation = check(state, event)
    if violation is not None:
        raise violation
    return apply(state, event) if carried is None else carried.apply(state, event)


def legal(state: GameState) -> list[GameEvent] | OutcomeSpace:
    """Every legal decision for the player due to act, or the table's possible outcomes.

    Empty list once the game is over.
    """
    found = options(state)
    return found if isinstance(found, OutcomeSpace) else found.events()


def options(state: GameState) -> Options | OutcomeSpace:
    """``legal``'s decisions as the rule modules give them (``rules.options``): a long run of one kind is built only
    when asked for. What a playout reads."""
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


def _settle(tx: Tx) -> None:
    """Run the game forward until an input is due (or the game is over)."""
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


def fold(state: GameState, events: Sequence[GameEvent]) -> GameState:
    """Check and apply events in order (raises ``RuleViolation`` at the first illegal one)."""
    carried = Fold()
    for e in events:
        state = step(state, e, carried)
    return state


__all__ = ["initial_state", "pending", "legal", "options", "check", "apply", "Fold", "narrate", "narrate_all", "narrate_into", "step",
           "fold", "PlayerState"]
