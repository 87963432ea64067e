"""The table's pending outcome as a form to fill in: its slots, and what may go in each, by printed name.

``legal`` tells the table what to enter and how to write it; a page needs it as parts to pick: a roll is
one value from 1 to 6 for each die of the pool, a deal a card for each place of each row, picked from the
cards still in the deck. ``outcome_form`` lists them, and how the picks are written back into notation
(``table: VERB KEY=PICK,PICK ...``), so that a page builds the very input ``record`` reads. Whether the
outcome is plausible stays the rules' to say when it is recorded.
"""

from __future__ import annotations

from typing import Any

from coimbra_events.catalog.effect_kinds import TRACKS
from coimbra_events.notation import BY_TYPE
from coimbra_events.rules import core as rules
from coimbra_events.rules.outcomes import KINDS
from coimbra_events.state import CITIES, TABLE, GameState
from projections.naming import name_of
from projections.recording import pool_order
from projections.table_words import space_words

DIE_VALUES = tuple(str(v) for v in range(1, 7))
"""What a die may show."""


def outcome_form(state: GameState) -> dict[str, Any] | None:
    """The table's pending outcome as slots to fill (``None`` when a player is due or the game is over).

    ``{"kind", "verb", "sep", "slots": [{"key", "label", "size", "pool"}], "pools": {pool: [{"id", "name"}]},
    "repeat": [pools whose items may be picked more than once]}`` (and for a roll ``"colors": [{"color",
    "dice"}]``, the slots' dice by colour, in the slots' order): the input is ``table: VERB`` followed by
    each slot, ``KEY=`` (when it has a key) and its picks joined by ``sep``, slots apart by a space.
    """
    due = state.pending
    if due is None or due.actor != TABLE:
        return None
    cat = state.catalog
    verb = BY_TYPE[rules.ACCEPTS[due.kind][0].TYPE].word
    form = _FORMS[due.kind](state)
    pools = {pool: [{"id": i, "name": name_of(cat, i) if pool != "players" else i} for i in items]
             for pool, items in form.pop("pools").items()}
    return {"kind": due.kind, "verb": verb, "sep": ",", "repeat": [], **form, "pools": pools}


def _slot(key: str | None, label: str, size: int, pool: str) -> dict[str, Any]:
    return {"key": key, "label": label, "size": size, "pool": pool}


def _monasteries(state: GameState) -> dict[str, Any]:
    cat = state.catalog
    spaces = cat.map.monastery_spaces
    return {"slots": [_slot(s, f"{space_words(cat, s)} (pile {pile})", 1, pile) for pile, ids in spaces.items() for s in ids],
            "pools": {pile: cat.monasteries_of(pile) for pile in spaces}}


def _scoring_tiles(state: GameState) -> dict[str, Any]:
    return {"slots": [_slot(t, f"above the {t} track", 1, "tiles") for t in TRACKS],
            "pools": {"tiles": tuple(state.catalog.scoring_tiles)}}


def _voyages(state: GameState) -> dict[str, Any]:
    cat = state.catalog
    return {"slots": [_slot(None, "the voyage cards drawn, in order", len(cat.voyage_spaces), "voyages")],
            "pools": {"voyages": tuple(cat.voyages)}}


def _seating(state: GameState) -> dict[str, Any]:
    names = tuple(p.name for p in state.players)
    return {"slots": [_slot(None, "the players in seating order", len(names), "players")], "pools": {"players": names}}


def _rows(state: GameState) -> dict[str, Any]:
    """The rows' places, each from the cards the rules allow now (the top of the deck: ``outcomes.KINDS``'s first
    pieces), not every card not dealt yet."""
    cat = state.catalog
    allowed = tuple(str(card) for card, _ in KINDS["rows"].next_pieces(state, ()))
    return {"slots": [_slot(city, f"the {city} city row", cat.cards_per_row, "deck") for city in CITIES],
            "pools": {"deck": allowed}}


def _start_groups(state: GameState) -> dict[str, Any]:
    cat = state.catalog
    return {"sep": "+", "slots": [_slot(None, f"start group {k}", cat.cards_per_group, "start")
                                  for k in range(1, len(state.players) + 1)],
            "pools": {"start": cat.pile("I")}}


def _dice(state: GameState) -> dict[str, Any]:
    """A slot per die in the order a roll is written and the board shows the dice (``pool_order``), and the dice
    by colour (``colors``: a colour's values may be entered in any order, each into its next die)."""
    order = pool_order(state)
    colors = state.catalog.die_colors
    by_color: dict[str, list[str]] = {}
    for die in order:
        by_color.setdefault(colors[die], []).append(die)
    return {"slots": [_slot(d, f"the {colors[d]} die", 1, "values") for d in order], "pools": {"values": DIE_VALUES},
            "repeat": ["values"], "colors": [{"color": c, "dice": dice} for c, dice in by_color.items()]}


_FORMS = {
    "monasteries": _monasteries, "scoring-tiles": _scoring_tiles, "voyages": _voyages, "seating": _seating,
    "rows": _rows, "start-groups": _start_groups, "dice": _dice,
}


__all__ = ["DIE_VALUES", "outcome_form"]
