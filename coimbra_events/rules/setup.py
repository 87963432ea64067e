"""Setup and start choices: the table lays out the game, then players choose.

Setup outcomes arrive in the rulebook's order (monasteries, scoring tiles,
voyages, player order, character rows, start groups). Then, in reverse player
order, each player takes a start group or places the pilgrim; in player order
each does the other; finally, in player order, each uses their start cards.
"""

from __future__ import annotations

from typing import Any, Final

from coimbra_events.catalog import CharacterCard
from coimbra_events.catalog.effect_kinds import TRACKS
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
from coimbra_events.rules.narration import (
    ABOVE,
    CARD,
    CROWN_TOKEN,
    DECK,
    GROUP,
    LION,
    MAP,
    MONASTERY_TILE,
    ON_CARD,
    PILE,
    PILGRIM as PILGRIM_PIECE,
    ROWS,
    SCORING_TILE,
    START_CARDS,
    SUPPLY,
    TABLE_WHO,
    VOYAGE_CARD,
    VOYAGE_SPACE,
)
from coimbra_events.rules.options import Options
from coimbra_events.rules.tx import Tx, replaced
from coimbra_events.state import CITIES, PHASE_A, SETUP, START, TABLE, GameState, Pending
from coimbra_events.violations import RuleViolation, Seen, held

SETUP_STEPS: Final[tuple[str, ...]] = ("monasteries", "scoring-tiles", "voyages", "seating", "rows", "start-groups")
"""The table's setup outcomes, in the order of the rulebook's setup steps."""

CARDS, PILGRIM = "cards", "pilgrim"


def _next_setup_step(tx: Tx) -> None:
    tx.g.cursor = (tx.g.cursor[0] + 1,)


def apply_monasteries(tx: Tx, e: MonasteriesDrawn) -> None:
    tx.g.monasteries = e.placement
    if tx.narrating:
        tx.because("SETUP.monasteries")
        for space, tile in e.placement:
            tx.tell(TABLE_WHO, MONASTERY_TILE, tile, PILE + tx.catalog.monasteries[tile].pile, MAP + space)
    _next_setup_step(tx)


def apply_scoring_tiles(tx: Tx, e: ScoringTilesPlaced) -> None:
    placed = dict(e.tiles)
    tx.g.scoring_tiles = tuple(placed[t] for t in TRACKS)
    if tx.narrating:
        tx.because("SETUP.scoring-tiles")
        for track, tile in zip(TRACKS, tx.g.scoring_tiles):
            tx.tell(TABLE_WHO, SCORING_TILE, tile, SUPPLY, ABOVE + track)
    _next_setup_step(tx)


def apply_voyages(tx: Tx, e: VoyagesDrawn) -> None:
    tx.g.voyages = e.voyages
    tx.g.voyage_discs = tuple(() for _ in e.voyages)
    if tx.narrating:
        tx.because("SETUP.voyages")
        for k, voyage in enumerate(e.voyages):
            tx.tell(TABLE_WHO, VOYAGE_CARD, voyage, SUPPLY, VOYAGE_SPACE + str(k + 1))
    _next_setup_step(tx)


def apply_seating(tx: Tx, e: SeatingDrawn) -> None:
    tx.g.order = tuple(tx.index(name) for name in e.order)
    if tx.narrating:
        tx.because("SETUP.seating", ("order", e.order))
        for flag, i in enumerate(tx.g.order):
            tx.tell(i, LION, "", 0, flag + 1)
    _next_setup_step(tx)


def apply_rows(tx: Tx, e: CharacterRowsDealt) -> None:
    rows = dict(e.rows)
    tx.g.rows = tuple(rows[c] for c in CITIES)
    tx.g.dealt = tx.g.dealt | {c for r in rows.values() for c in r}
    tx.g.crowns_on_cards = crown_tokens(tx.g.rows, tx.catalog.characters)
    if tx.narrating:
        tx.because("SETUP.rows", ("round", tx.g.round or 1))
        for city, row in zip(CITIES, tx.g.rows):
            for card in row:
                tx.tell(TABLE_WHO, CARD, card, DECK, ROWS[city])
        tell_crown_tokens(tx)
    if tx.g.phase == SETUP:
        _next_setup_step(tx)


def tell_crown_tokens(tx: Tx) -> None:
    """Narrate the crown tokens put out on the new rows, each with the column scan that chose its card."""
    for k, row in enumerate(tx.g.rows):
        for column, card in enumerate(row):
            for crowned, category in tx.g.crowns_on_cards:
                if crowned == card:
                    tx.because("ROUND.crown-tokens", ("category", category, "column", column + 1, "city", CITIES[k]))
                    tx.tell(TABLE_WHO, CROWN_TOKEN, category, SUPPLY, ON_CARD + card)


def crown_tokens(rows: tuple[tuple[str, ...], ...], characters: dict[str, CharacterCard]) -> tuple[tuple[str, str], ...]:
    """Place the crown tokens: scan columns 4..1, each top to bottom; first card of each category.

    Rules text 000 setup step 12 and GAPS decision 14: a category with no card
    in the rows leaves its token unused.
    """
    found: dict[str, str] = {}
    width = 0
    for row in rows:
        width = max(width, len(row))
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
    if tx.narrating:
        tx.because("SETUP.start-groups")
        for k, group in enumerate(e.groups):
            for card in group:
                tx.tell(TABLE_WHO, CARD, card, PILE + "I", GROUP + str(k + 1))
    tx.to_phase(START)
    tx.g.cursor = (0,)


# --- start choices --------------------------------------------------------------------------


def chooser(order: tuple[int, ...], turn: int) -> int:
    """The player making start choice ``turn``: reverse player order first, then player order."""
    n = len(order)
    return order[n - 1 - turn] if turn < n else order[turn - n]


def _already(state: GameState, e: GameEvent, action: str, seen: Seen | None) -> RuleViolation | None:
    done = state.player(e.actor).start_choices
    if (broken := action in done) or seen is not None:
        facts: dict[str, Any] = {"player": e.actor, "done": done}
        if broken:
            return RuleViolation("START.once", f"{e.actor} has already taken the {action} start action", facts)
        held(seen, "START.once", facts)
    return None


def check_group(state: GameState, e: StartGroupTaken, seen: Seen | None = None) -> RuleViolation | None:
    violation = _already(state, e, CARDS, seen)
    if violation:
        return violation
    k = e.group - 1
    if (broken := not 0 <= k < len(state.start_groups) or bool(state.start_groups_taken[k])) or seen is not None:
        facts: dict[str, Any] = {"group": e.group, "available": free_groups(state)}
        if broken:
            return RuleViolation("START.group", f"start group {e.group} is not on the table", facts)
        held(seen, "START.group", {**facts, "cards": state.start_groups[k]})
    return None


def check_pilgrim(state: GameState, e: PilgrimPlaced, seen: Seen | None = None) -> RuleViolation | None:
    violation = _already(state, e, PILGRIM, seen)
    if violation:
        return violation
    free = free_start_spaces(state)
    if (broken := e.space not in free) or seen is not None:
        facts = {"space": e.space, "free": free}
        if broken:
            return RuleViolation("START.space", f"{e.space!r} is not a free start space", facts)
        held(seen, "START.space", facts)
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
    tx.g.start_groups_taken = replaced(taken, k, e.actor)
    p = tx.pl(i)
    p.start_cards = tx.g.start_groups[k]
    p.start_choices = p.start_choices + (CARDS,)
    if tx.narrating:
        tx.because("START.group", ("group", e.group))
        for card in p.start_cards:
            tx.tell(i, CARD, card, GROUP + str(e.group), START_CARDS)
    tx.g.cursor = (tx.g.cursor[0] + 1,)


def apply_pilgrim(tx: Tx, e: PilgrimPlaced) -> None:
    i = tx.index(e.actor)
    p = tx.pl(i)
    if tx.narrating:
        tx.because("START.space", ("space", e.space))
        tx.tell(i, PILGRIM_PIECE, "", p.pilgrim or "", e.space)
    p.pilgrim = e.space
    p.start_choices = p.start_choices + (PILGRIM,)
    tx.g.pilgrims_placed = tx.g.pilgrims_placed + (e.space,)
    tx.g.cursor = (tx.g.cursor[0] + 1,)


def legal_start(state: GameState, pending: Pending) -> Options:
    done = state.player(pending.actor).start_choices
    out: list[GameEvent] = []
    if CARDS not in done:
        out += [StartGroupTaken(pending.actor, g) for g in free_groups(state)]
    if PILGRIM not in done:
        out += [PilgrimPlaced(pending.actor, s) for s in free_start_spaces(state)]
    return Options(out)


def use_start_cards(tx: Tx, i: int) -> None:
    """A player's start cards take effect, one at a time: influence, then immediate bonus."""
    cards = tx.catalog.characters
    for card_id in tx.pl(i).start_cards:
        card = cards[card_id]
        if tx.narrating:
            tx.because("START.cards", ("card", card_id, "track", card.category, "influence", card.influence,
                                       "bonus", card.timing))
        tx.advance(i, card.category, card.influence, card_id)
        if card.timing == "immediate":
            effects.run(tx, i, card.effects, card_id)


# --- automata ---------------------------------------------------------------------------------


def auto_setup(tx: Tx) -> Pending:
    return tx.due(TABLE, SETUP_STEPS[tx.g.cursor[0]])


def auto_start(tx: Tx) -> Pending | None:
    """Next start choice; once all are made, each player (in order) uses their start cards."""
    n = len(tx.g.players)
    turn = tx.g.cursor[0]
    order = tx.g.order
    if turn < 2 * n:
        return tx.due(tx.name(chooser(order, turn)), "start-choice")
    j = turn - 2 * n
    if j < n:
        use_start_cards(tx, order[j])
        tx.g.cursor = (turn + 1,)
        return None
    tx.to_round(1, "ROUND.phases")
    tx.to_phase(PHASE_A)
    tx.g.cursor = (0,)
    return None
