"""Builders and assertions for the rule tests.

Games are built by folding explicit events through ``step`` (every event is
checked): deterministic table outcomes (``*_event``), decisions whose actor is
filled in from ``pending`` (``act``/``do``/``play``), and a deterministic
``passive`` policy to skip over parts of a game a test does not look at.
Where folding cannot reach an exact edge value (coins at 19, a disc on space
13 ...), ``with_player``/``with_state`` replace fields of the frozen state.
"""

from __future__ import annotations

import dataclasses
import json
from typing import Any, Callable, Iterable, Mapping, Sequence

import pytest

from coimbra_events import events as ev
from coimbra_events.catalog import Catalog, parse_catalog, standin_catalog
from coimbra_events.catalog.effect_kinds import TRACKS
from coimbra_events.events import GameEvent
from coimbra_events.rules.core import apply, check, legal, start
from coimbra_events.rules.fast import narrate
from coimbra_events.rules.narration import Told, records, told
from coimbra_events.record import Record, replace
from coimbra_events.state import TABLE, GameState
from coimbra_events.violations import RuleViolation

CAT = standin_catalog()

PLAYERS: tuple[tuple[str, str], ...] = (("Ana", "red"), ("Bruno", "blue"), ("Carla", "yellow"), ("Duarte", "green"))


def players(n: int) -> tuple[tuple[str, str], ...]:
    return PLAYERS[:n]


def names(n: int) -> tuple[str, ...]:
    return tuple(name for name, _ in PLAYERS[:n])


def catalog_with(change: Callable[[dict], None]) -> Catalog:
    """A variant of the stand-in catalog: ``change`` edits a copy of its JSON data."""
    data = json.loads(json.dumps(CAT.data))
    change(data)
    data["id"] = "standin-test-variant"
    return parse_catalog(data)


# --- table outcomes -------------------------------------------------------------------------

ROWS_R1: dict[str, tuple[str, ...]] = {
    # one card of each category per row; costs alternate coins/guards
    "upper": ("c-II-01", "c-II-07", "c-II-13", "c-II-19"),  # gray/coins 3, orange/guards 3, purple/coins 3, green/guards 3
    "central": ("c-II-02", "c-II-08", "c-II-14", "c-II-20"),  # gray/guards 2, orange/coins 2, purple/guards 2, green/coins 2
    "lower": ("c-II-03", "c-II-09", "c-II-15", "c-II-21"),  # gray/coins 1, orange/guards 1, purple/coins 1, green/guards 1
}

DEFAULT_GROUPS: tuple[tuple[str, ...], ...] = (
    ("c-I-01", "c-I-03"),  # immediate: +3 guards (gray 2), +3 coins (orange 2)
    ("c-I-02", "c-I-04"),  # phase C: gray card -> +1 guard (gray 1); coin-cost card -> +1 coin (orange 1)
    ("c-I-06", "c-I-08"),  # phase C: purple card -> 1 step (purple 1); green card -> 1 point (green 1)
    ("c-I-05", "c-I-07"),  # immediate: 2 steps (purple 2); +1 on a track of choice, +1 point (green 1)
)


def monasteries_event(cat: Catalog = CAT, swap: Mapping[str, str] | None = None) -> ev.MonasteriesDrawn:
    """Each pile's tiles, in file order, on that pile's spaces in map order; ``swap``: space -> tile instead."""
    placement: dict[str, str] = {}
    for pile, spaces in cat.map.monastery_spaces.items():
        placement.update(zip(spaces, cat.monasteries_of(pile)))
    placement.update(swap or {})
    return ev.MonasteriesDrawn(TABLE, tuple(sorted(placement.items())))


def scoring_tiles_event(tiles: Mapping[str, str] | None = None, cat: Catalog = CAT) -> ev.ScoringTilesPlaced:
    """Default: score-1 above gray, score-2 orange, score-3 purple, score-4 green."""
    placed = dict(tiles) if tiles is not None else dict(zip(TRACKS, cat.scoring_tiles))
    return ev.ScoringTilesPlaced(TABLE, tuple(sorted(placed.items())))


def voyages_event(voyages: Sequence[str] | None = None, cat: Catalog = CAT) -> ev.VoyagesDrawn:
    """Default: v-01 .. v-06 on the voyage spaces left to right."""
    return ev.VoyagesDrawn(TABLE, tuple(voyages) if voyages is not None else tuple(cat.voyages)[:6])


def seating_event(order: Sequence[str]) -> ev.SeatingDrawn:
    return ev.SeatingDrawn(TABLE, tuple(order))


def rows_event(rows: Mapping[str, Sequence[str]]) -> ev.CharacterRowsDealt:
    return ev.CharacterRowsDealt(TABLE, tuple(sorted((city, tuple(cards)) for city, cards in rows.items())))


def deck(state: GameState) -> tuple[str, ...]:
    """Cards still in the character deck, pile II first, in file order."""
    cat = state.catalog
    return tuple(c for pile in ("II", "III") for c in cat.pile(pile) if c not in state.dealt)


def next_rows_event(state: GameState) -> ev.CharacterRowsDealt:
    """The next 12 cards of the deck in file order: 4 upper, 4 central, 4 lower."""
    top = deck(state)
    per = state.catalog.cards_per_row
    return rows_event({city: top[k * per:(k + 1) * per] for k, city in enumerate(("upper", "central", "lower"))})


def start_groups_event(groups: Sequence[Sequence[str]]) -> ev.StartGroupsDealt:
    return ev.StartGroupsDealt(TABLE, tuple(tuple(g) for g in groups))


def dice_event(state: GameState, values: Mapping[str, int] | None = None, default: int = 3) -> ev.DiceRolled:
    """Every die of the pool rolled: ``values`` for the dice named, ``default`` for the others."""
    values = dict(values or {})
    pool = state.catalog.dice_for(len(state.players))
    unknown = set(values) - set(pool)
    assert not unknown, f"dice {sorted(unknown)} are not in the {len(state.players)}-player pool"
    return ev.DiceRolled(TABLE, tuple(sorted((d, values.get(d, default)) for d in pool)))


def table_event(state: GameState, dice: Mapping[str, int] | None = None) -> GameEvent:
    """A deterministic outcome for whatever the table must provide now."""
    kind = state.pending.kind
    if kind == "dice":
        return dice_event(state, dice)
    if kind == "rows":
        return next_rows_event(state)
    raise AssertionError(f"no default outcome for {kind}")


# --- decisions ------------------------------------------------------------------------------


def act(state: GameState, cls: type[GameEvent], *args: Any) -> GameEvent:
    """An event of ``cls`` by whoever must act now."""
    return cls(state.pending.actor, *args)


def do(state: GameState, cls: type[GameEvent], *args: Any) -> GameState:
    """Check and apply an event of ``cls`` by whoever must act now."""
    return apply(state, act(state, cls, *args))


def play(state: GameState, *moves: GameEvent | tuple) -> GameState:
    """Fold moves: a ``GameEvent`` as is, or ``(cls, *args)`` acted by the pending actor."""
    for move in moves:
        state = apply(state, move) if isinstance(move, GameEvent) else do(state, *move)
    return state


def passive(state: GameState) -> GameEvent:
    """A decision that changes as little as possible (table: the default outcome)."""
    due = state.pending
    who = due.actor
    if who == TABLE:
        return table_event(state)
    return {
        "draft": lambda: ev.DiePlaced(who, state.pool[0], "lower"),
        "retrieve": lambda: ev.AlternativeTaken(who, 0, 0),
        "income": lambda: ev.IncomeEnded(who),
        "voyage": lambda: ev.VoyagePassed(who),
        "steps": lambda: ev.PilgrimStopped(who),
        "track-choice": lambda: ev.TrackChosen(who, TRACKS[0]),
        "start-choice": lambda: legal(state)[0],
    }[due.kind]()


def drive(state: GameState, until: Callable[[GameState], bool], policy: Callable[[GameState], GameEvent] = passive,
          limit: int = 5000) -> GameState:
    """Fold ``policy``'s events until ``until(state)`` holds."""
    for _ in range(limit):
        if until(state):
            return state
        state = apply(state, policy(state))
    raise AssertionError("drive: limit reached")


def waiting_for(kind: str, actor: str | None = None) -> Callable[[GameState], bool]:
    """A stop condition: the game waits for this kind of input (by this actor)."""
    return lambda s: s.pending is not None and s.pending.kind == kind and actor in (None, s.pending.actor)


def in_phase(phase: str) -> Callable[[GameState], bool]:
    return lambda s: s.phase == phase


# --- scenarios --------------------------------------------------------------------------------


def new_game(n: int = 4, *, order: Sequence[str] | None = None, rows: Mapping[str, Sequence[str]] | None = None,
             groups: Sequence[Sequence[str]] | None = None, monasteries: Mapping[str, str] | None = None,
             cat: Catalog = CAT) -> GameState:
    """A game after the table's setup, waiting for the first start choice.

    Player order ``order`` (default Ana, Bruno, ...); rows ``ROWS_R1``; start groups
    ``DEFAULT_GROUPS[:n]``; monasteries as ``monasteries_event(swap=monasteries)``.
    """
    state = start(cat, players(n))
    return play(
        state,
        monasteries_event(cat, monasteries),
        scoring_tiles_event(cat=cat),
        voyages_event(cat=cat),
        seating_event(order or names(n)),
        rows_event(rows or ROWS_R1),
        start_groups_event(groups or DEFAULT_GROUPS[:n]),
    )


def start_choice(state: GameState, pilgrim_first: Iterable[str] = ()) -> GameEvent:
    """The planned start choice for the player due: the player at flag k takes group k and start space k."""
    who = state.pending.actor
    done = state.player(who).start_choices
    flag = state.order.index(state.index[who])
    wants_pilgrim = (who in pilgrim_first) != bool(done)
    if wants_pilgrim:
        return ev.PilgrimPlaced(who, state.catalog.map.start_spaces[flag])
    return ev.StartGroupTaken(who, flag + 1)


def started(n: int = 4, *, pilgrim_first: Iterable[str] = (), tweak: Callable[[GameState], GameState] | None = None,
            **game: Any) -> GameState:
    """Round 1, phase A, the table about to roll: start choices made as ``start_choice`` plans.

    Sub-decisions of start cards are resolved passively (steps stopped, track choice gray).
    ``tweak`` edits the state at that point.
    """
    pilgrim_first = tuple(pilgrim_first)
    state = new_game(n, **game)
    state = drive(state, waiting_for("dice"),
                  lambda s: start_choice(s, pilgrim_first) if s.pending.kind == "start-choice" else passive(s))
    return tweak(state) if tweak else state


def in_phase_b(n: int = 4, dice: Mapping[str, int] | None = None, **kw: Any) -> GameState:
    """Round 1, phase B, after the roll (``dice`` overrides, 3 for the others)."""
    state = started(n, **kw)
    return apply(state, dice_event(state, dice))


def place_all(state: GameState, placements: Sequence[tuple[str, str]]) -> GameState:
    """Phase B: each (die, location) placed by the player whose turn it is."""
    for die, location in placements:
        state = do(state, ev.DiePlaced, die, location)
    return state


def hands_placements(state: GameState, hands: Mapping[str, Sequence[tuple[str, str]]]) -> list[tuple[str, str]]:
    """Turn-ordered placements from each player's three (die, location), by the current player order."""
    order = [state.players[i].name for i in state.order]
    return [tuple(hands[order[t % len(order)]][t // len(order)]) for t in range(3 * len(order))]


def placed(n: int = 4, dice: Mapping[str, int] | None = None,
           placements: Sequence[tuple[str, str]] | None = None,
           hands: Mapping[str, Sequence[tuple[str, str]]] | None = None, **kw: Any) -> GameState:
    """Round 1, phase C: all dice placed (``placements`` in turn order, or ``hands`` per player;
    default: each player in turn takes the first die of the pool to the lower city)."""
    state = in_phase_b(n, dice, **kw)
    if hands is not None:
        placements = hands_placements(state, hands)
    if placements is None:
        return drive(state, in_phase("C"))
    state = place_all(state, placements)
    assert state.phase == "C", state.phase
    return state


def to_income(n: int = 2, dice: Mapping[str, int] | None = None, *, hands: Mapping[str, Sequence[str]],
              location: str = "lower", **kw: Any) -> GameState:
    """Round 1, at the first input of phase E (the first player's income, or a start-of-phase-E bonus
    decision); every player took ``hands[name]`` (3 die ids) to ``location`` and the alternative
    action (0, 0) in phase C, so the new order follows the flag crowns."""
    hand_places = {name: [(d, location) for d in dice_ids] for name, dice_ids in hands.items()}
    state = placed(n, dice, hands=hand_places, **kw)
    return drive(state, in_phase("E"))


# --- editing a state for an exact edge ----------------------------------------------------------


def with_player(state: GameState, name: str, **fields: Any) -> GameState:
    """The state with some of one player's fields replaced (``influence`` may be a track -> space dict)."""
    pl = state.player(name)
    if isinstance(fields.get("influence"), Mapping):
        spaces = dict(zip(TRACKS, pl.influence)) | dict(fields["influence"])
        fields["influence"] = tuple(spaces[t] for t in TRACKS)
    if isinstance(fields.get("arrivals"), Mapping):
        ticks = dict(zip(TRACKS, pl.arrivals)) | dict(fields["arrivals"])
        fields["arrivals"] = tuple(ticks[t] for t in TRACKS)
    k = state.index[name]
    people = state.players[:k] + (replace(pl, **fields),) + state.players[k + 1:]
    return replace(state, players=people)


def with_state(state: GameState, **fields: Any) -> GameState:
    return replace(state, **fields)



# --- assertions -------------------------------------------------------------------------------


def _norm(value: Any) -> Any:
    if isinstance(value, (list, tuple)):
        return tuple(_norm(v) for v in value)
    if isinstance(value, (set, frozenset)):
        return tuple(sorted(_norm(v) for v in value))
    if isinstance(value, Mapping):
        return tuple(sorted((k, _norm(v)) for k, v in value.items()))
    return value


def refused(state: GameState, event: GameEvent, rule: str, /, **facts: Any) -> RuleViolation:
    """``event`` breaks ``rule`` here: a reason in words, the named facts, ``step`` raises,
    and ``legal`` does not offer it."""
    violation = check(state, event)
    assert violation is not None, f"{event} was accepted; expected {rule}"
    assert violation.rule == rule, f"expected {rule}, got {violation.rule}: {violation.reason}"
    assert isinstance(violation.reason, str) and violation.reason.strip()
    assert violation.facts, f"{rule} refusal names no facts"
    for key, value in facts.items():
        assert key in violation.facts, f"facts of {rule} lack {key!r}: {violation.facts}"
        assert _norm(violation.facts[key]) == _norm(value), f"{key}: {violation.facts[key]!r} != {value!r}"
    with pytest.raises(RuleViolation) as raised:
        apply(state, event)
    assert raised.value.rule == rule
    options = legal(state)
    if isinstance(options, list):
        assert event not in options
    return violation


def accepted(state: GameState, event: GameEvent) -> GameState:
    """``event`` is legal here (and offered by ``legal`` for decisions); the state after it."""
    violation = check(state, event)
    assert violation is None, f"{event} refused: {violation}"
    options = legal(state)
    if isinstance(options, list):
        assert event in options, f"{event} not offered by legal()"
    return apply(state, event)


def told_of(state: GameState, event: GameEvent) -> tuple[GameState, list[tuple[object, ...]]]:
    """The state after ``event``, and every change the rules told of it in order (``fast.narrate`` of one event)."""
    states, tape, _ = narrate(state, [event])
    return states[-1], records(tape, 0, len(tape))


def narrated(state: GameState, event: GameEvent, rule: str, /, **facts: Any) -> tuple[GameState, list[Told]]:
    """``event`` is legal here and narrating it reports changes under ``rule`` (with the named facts on one of
    them); narrating leaves the rules as they are: the state after is ``apply``'s. Returns it and those changes."""
    assert check(state, event) is None, f"{event} refused: {check(state, event)}"
    after, told_now = told_of(state, event)
    assert after == apply(state, event), "narrating changed what the rules compute"
    mine = [told(r) for r in told_now if r[0] == rule]
    assert mine, f"no change under {rule}; told: {sorted({r[0] for r in told_now})}"
    for key, value in facts.items():
        assert any(_norm((t.facts or {}).get(key)) == _norm(value) for t in mine), \
            f"no {rule} change has {key}={value!r}: {[t.facts for t in mine]}"
    return after, mine


def not_narrated(state: GameState, event: GameEvent, rule: str) -> GameState:
    """Narrating ``event`` here reports nothing under ``rule``; the state after."""
    after, told_now = told_of(state, event)
    assert [r for r in told_now if r[0] == rule] == [], f"{rule} was told"
    return after


def snapshot(obj: Any) -> Any:
    """A deep structural copy of a state made of plain tuples (the catalog left out)."""
    if isinstance(obj, Record):
        return (type(obj).__name__,) + tuple((name, snapshot(value)) for name, value in obj.as_dict().items() if name != "catalog")
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        return (type(obj).__name__,) + tuple((f.name, snapshot(getattr(obj, f.name))) for f in dataclasses.fields(obj))
    if isinstance(obj, Mapping):
        return ("map",) + tuple(sorted((k, snapshot(v)) for k, v in obj.items()))
    if isinstance(obj, (set, frozenset)):
        return ("set",) + tuple(sorted(snapshot(v) for v in obj))
    if isinstance(obj, (list, tuple)):
        return tuple(snapshot(v) for v in obj)
    return obj
