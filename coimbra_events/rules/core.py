"""The rules core: the six verbs a reader needs to play a game of Coimbra.

- ``start(catalog, players)``: the table before setup, run forward to the first input due.
- ``due(state)``: who must act now and what kind of input is due (``None`` once the game is over).
- ``legal(state)``: every legal decision of the player due, or the table's possible random outcomes.
- ``check(state, event)``: ``None`` if the event is legal now, else the ``RuleViolation`` it commits.
- ``apply(state, event)``: check, then the state after the event and all its deterministic consequences.
- ``fold(state, events)``: ``apply`` each event in order.

Pure and deterministic: the same state and event always give the same result,
nothing is mutated, no random generator is called (the table's outcomes are
drawn by whoever holds the dice: ``legal(state).sample(rng)``). ``apply`` runs
the game forward through every deterministic consequence (die tokens, phase D,
income, end of round) until the next input is due. Two tables go with them:
``ACCEPTS`` (which events answer each kind of input) and ``RULES_CHECKED``
(which rules ``check`` covers). What the playouts, the bots and the read side's
folds use instead, for speed, trusting their events legal, is ``rules.fast``.

>>> import random
>>> from coimbra_events.catalog import standin_catalog
>>> from coimbra_events.events import StartGroupTaken
>>> from coimbra_events.rules.core import apply, check, due, fold, legal, start
>>> players = [("Ana", "red"), ("Bruno", "blue")]
>>> state = start(standin_catalog(), players)
>>> due(state)
Pending(actor='table', kind='monasteries', amount=0, source='', location='', die='')

The table's inputs are random outcomes; drawing them plays the setup out:

>>> legal(state).description
'monastery tiles drawn onto the map: 8 of pile I, 4 of pile II, 2 of pile III'
>>> dice, played = random.Random(1), []
>>> while due(state).actor == "table":
...     played.append(legal(state).sample(dice))
...     state = apply(state, played[-1])
>>> due(state)
Pending(actor='Ana', kind='start-choice', amount=0, source='', location='', die='')
>>> legal(state)
[StartGroupTaken(actor='Ana', group=1), StartGroupTaken(actor='Ana', group=2), PilgrimPlaced(actor='Ana', ...), ...]

An event out of turn breaks a rule, which ``check`` names and ``apply`` raises:

>>> check(state, StartGroupTaken("Bruno", 1))
RuleViolation('TURN.actor', 'Ana must act now (start-choice), not Bruno', {...})
>>> apply(state, StartGroupTaken("Bruno", 1))
Traceback (most recent call last):
...
coimbra_events.violations.RuleViolation: [TURN.actor] Ana must act now (start-choice), not Bruno
>>> played.append(StartGroupTaken("Ana", 1))
>>> state = apply(state, played[-1])
>>> due(state).actor
'Bruno'

A record is a fold of its events from the start:

>>> fold(start(standin_catalog(), players), played) == state
True
"""

from __future__ import annotations

from typing import Any, Callable, Final, Sequence

from coimbra_events import events as ev
from coimbra_events.catalog import Catalog
from coimbra_events.catalog.effect_kinds import TRACKS
from coimbra_events.events import GameEvent
from coimbra_events.rules import choices, dice, income, outcomes, pilgrim, retrieval, setup, voyages
from coimbra_events.rules.fast import Fold, apply_in, options, settle
from coimbra_events.rules.outcomes import OutcomeSpace
from coimbra_events.rules.tx import Tx
from coimbra_events.state import SETUP, TABLE, GameState, Pending, PlayerState
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

def start(catalog: Catalog, players: Sequence[tuple[str, str]]) -> GameState:
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
    settle(tx)
    return tx.freeze()


def due(state: GameState) -> Pending | None:
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



def legal(state: GameState) -> list[GameEvent] | OutcomeSpace:
    """Every legal decision for the player due to act, or the table's possible outcomes.

    Empty list once the game is over.
    """
    found = options(state)
    return found if isinstance(found, OutcomeSpace) else found.events()


def apply(state: GameState, event: GameEvent, carried: Fold | None = None) -> GameState:
    """Check, then the state after the event and all its deterministic consequences; raises the ``RuleViolation``
    of an illegal event.

    With ``carried``, applied in that fold (``fast.Fold``: no new copy of the table when going on from the state it
    gave last).
    """
    violation = check(state, event)
    if violation is not None:
        raise violation
    return apply_in(Tx(state), event) if carried is None else carried.apply(state, event)


def fold(state: GameState, events: Sequence[GameEvent]) -> GameState:
    """``apply`` each event in order, in one carried fold; raises the ``RuleViolation`` of the first illegal one."""
    carried = Fold()
    for event in events:
        state = apply(state, event, carried)
    return state


__all__ = ["start", "due", "legal", "check", "apply", "fold"]
