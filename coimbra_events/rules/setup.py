"""Setup and start choices: the table lays out the game, then players choose.

Setup outcomes arrive in the rulebook's order (monasteries, scoring tiles,
voyages, player order, character rows, start groups). Then, in reverse player
order, each player takes a start group or places the pilgrim; in player order
each does the other; finally, in player order, each uses their start cards.
"""

from __future__ import annotations

from typing import Any, Callable, Final

from coimbra_events.catalog import CharacterCard
from coimbra_events.effect_kinds import TRACKS
from coimbra_events.events import (
    CharacterRowsDealt,
    GameEvent,
    MonasteriesDrawn,
    PilgrimPlaced,
    ScoringTilesPlaced,
    SeatingDrawn,
    StartGroupsDealt,
    StartGroupTaken,
    VoyagesDrawn,
)
from coimbra_events.rules import effects
from coimbra_events.rules.tx import Tx
from coimbra_events.state import CITIES, PHASE_A, SETUP, START, TABLE, GameState, Pending
from coimbra_events.violations import RuleViolation

SETUP_STEPS: Final[tuple[str, ...]] = ("monasteries", "scoring-tiles", "voyages", "seating", "rows", "start-groups")
"""The table's setup outcomes, in the order of the rulebook's setup steps."""

CARDS, PILGRIM = "cards", "pilgrim"


def _next_setup_step(tx: Tx) -> None:
    tx.g.cursor = (tx.g.cursor[0] + 1,)


def apply_monasteries(tx: Tx, e: MonasteriesDrawn) -> None:
    tx.g.monasteries = e.placement
    _next_setup_step(tx)


def apply_scoring_tiles(tx: Tx, e: ScoringTilesPlaced) -> None:
    placed = dict(e.tiles)
    tx.g.scoring_tiles = tuple(placed[t] for t in TRACKS)
    _next_setup_step(tx)


def apply_voyages(tx: Tx, e: VoyagesDrawn) -> None:
    tx.g.voyages = e.voyages
    tx.g.voyage_discs = tuple(() for _ in e.voyages)
    _next_setup_step(tx)


def apply_seating(tx: Tx, e: SeatingDrawn) -> None:
    tx.g.order = tuple(tx.index(name) for name in e.order)
    _next_setup_step(tx)


def apply_rows(tx: Tx, e: CharacterRowsDealt) -> None:
    rows = dict(e.rows)
    tx.g.rows = tuple(rows[c] for c in CITIES)
    tx.g.dealt = tx.g.dealt | {c for r in rows.values() for c in r}
    tx.g.crowns_on_cards = crown_tokens(tx.g.rows, tx.catalog.characters)
    if tx.g.phase == SETUP:
        _next_setup_step(tx)


def crown_tokens(rows: tuple[tuple[str, ...], ...], characters: dict[str, CharacterCard]) -> tuple[tuple[str, str], ...]:
    """Place the crown tokens: scan columns 4..1, each top to bottom; first card of each category.

    Rules text 000 setup step 12 and GAPS decision 14: a category with no card
    in the rows leaves its token unused.
    """
    found: dict[str, str] = {}
    width = max((len(r) for r in rows), default=0)
    for col in range(width - 1, -1, -1):
        for row in rows:
            if col < len(row):
                category = characters[row[col]].category
                found.setdefault(category, row[col])
    return tuple((card, category) for category, card in found.items())


def apply_start_groups(tx: Tx, e: StartGroupsDealt) -> None:
    tx.g.start_groups = e.groups
    tx.g.start_groups_taken = tuple("" for _ in e.groups)
    tx.g.dealt = tx.g.dealt | {c for g in e.groups for c in g}
    tx.g.phase = START
    tx.g.cursor = (0,)


APPLY: Final[dict[type, Callable[[Tx, Any], None]]] = {
    MonasteriesDrawn: apply_monasteries,
    ScoringTilesPlaced: apply_scoring_tiles,
    VoyagesDrawn: apply_voyages,
    SeatingDrawn: apply_seating,
    CharacterRowsDealt: apply_rows,
    StartGroupsDealt: apply_start_groups,
}

# --- start choices --------------------------------------------------------------------------


def chooser(order: tuple[int, ...], turn: int) -> int:
    """The player making start choice ``turn``: reverse player order first, then player order."""
    n = len(order)
    return order[n - 1 - turn] if turn < n else order[turn - n]


def _already(state: GameState, e: GameEvent, action: str) -> RuleViolation | None:
    done = state.player(e.actor).start_choices
    if action in done:
        return RuleViolation("START.once", f"{e.actor} has already taken the {action} start action",
                             {"player": e.actor, "done": done})
    return None


def check_group(state: GameState, e: StartGroupTaken) -> RuleViolation | None:
    violation = _already(state, e, CARDS)
    if violation:
        return violation
    k = e.group - 1
    if not 0 <= k < len(state.start_groups) or state.start_groups_taken[k]:
        return RuleViolation("START.group", f"start group {e.group} is not on the table",
                             {"group": e.group, "available": free_groups(state)})
    return None


def check_pilgrim(state: GameState, e: PilgrimPlaced) -> RuleViolation | None:
    violation = _already(state, e, PILGRIM)
    if violation:
        return violation
    if e.space not in free_start_spaces(state):
        return RuleViolation("START.space", f"{e.space!r} is not a free start space",
                             {"space": e.space, "free": free_start_spaces(state)})
    return None


def free_groups(state: GameState) -> list[int]:
    return [k + 1 for k, who in enumerate(state.start_groups_taken) if not who]


def free_start_spaces(state: GameState) -> list[str]:
    taken = set(state.pilgrims_placed)
    return [s for s in state.catalog.map.start_spaces if s not in taken]


def apply_group(tx: Tx, e: StartGroupTaken) -> None:
    i = tx.index(e.actor)
    k = e.group - 1
    taken = tx.g.start_groups_taken
    tx.g.start_groups_taken = taken[:k] + (e.actor,) + taken[k + 1 :]
    p = tx.pl(i)
    p.start_cards = tx.g.start_groups[k]
    p.start_choices = p.start_choices + (CARDS,)
    tx.g.cursor = (tx.g.cursor[0] + 1,)


def apply_pilgrim(tx: Tx, e: PilgrimPlaced) -> None:
    p = tx.pl(tx.index(e.actor))
    p.pilgrim = e.space
    p.start_choices = p.start_choices + (PILGRIM,)
    tx.g.pilgrims_placed = tx.g.pilgrims_placed + (e.space,)
    tx.g.cursor = (tx.g.cursor[0] + 1,)


def legal_start(state: GameState, pending: Pending) -> list[GameEvent]:
    done = state.player(pending.actor).start_choices
    out: list[GameEvent] = []
    if CARDS not in done:
        out += [StartGroupTaken(pending.actor, g) for g in free_groups(state)]
    if PILGRIM not in done:
        out += [PilgrimPlaced(pending.actor, s) for s in free_start_spaces(state)]
    return out


def use_start_cards(tx: Tx, i: int) -> None:
    """A player's start cards take effect, one at a time: influence, then immediate bonus."""
    cards = tx.catalog.characters
    for card_id in tx.pl(i).start_cards:
        card = cards[card_id]
        tx.advance(i, card.category, card.influence, card_id)
        if card.timing == "immediate":
            effects.run(tx, i, card.effects, card_id)


# --- automata ---------------------------------------------------------------------------------


def auto_setup(tx: Tx) -> Pending:
    return Pending(TABLE, SETUP_STEPS[tx.g.cursor[0]])


def auto_start(tx: Tx) -> Pending | None:
    """Next start choice; once all are made, each player (in order) uses their start cards."""
    n = len(tx.g.players)
    turn = tx.g.cursor[0]
    order = tx.g.order
    if turn < 2 * n:
        return Pending(tx.name(chooser(order, turn)), "start-choice")
    j = turn - 2 * n
    if j < n:
        use_start_cards(tx, order[j])
        tx.g.cursor = (turn + 1,)
        return None
    tx.g.round = 1
    tx.g.phase = PHASE_A
    tx.g.cursor = (0,)
    return None
