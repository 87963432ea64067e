"""An entry or an option as a player says it at the table: no notation, no ids.

The notation (``place gray-2 castle``) is made for typing and the move list
keeps it; a button or an entry on the players' page says the same thing as the
table sees it: ``place the gray die showing 4 in the castle``, ``take 1 coin
and 2 guards``, ``buy Chaplain``, ``step to West Gate``. Dice are said by their
colour and the value they show (the catalog's die colours, the table's roll),
components and map spaces by their printed names alone (``projections.naming``);
a map space the catalog gives no name is said by the monastery on it, and only
where neither exists by its id (``space blue-n1``).
"""

from __future__ import annotations

from typing import Any, Callable, Iterable, Mapping

from coimbra_events import events as ev
from coimbra_events.catalog import Catalog
from coimbra_events.events import GameEvent
from coimbra_events.state import TABLE, GameState
from projections.naming import name_of, space_name

LOCATIONS: Mapping[str, str] = {"castle": "the castle", "upper": "the upper city", "central": "the central city",
                                "lower": "the lower city"}
"""Where a die may be placed, as the board says it (the rules' location ids)."""


def table_words(state: GameState, event: GameEvent) -> str:
    """The entry as the table says it, with who made it: ``Ana: buy Chaplain``, ``Table: roll …``;
    ``state`` is the table just before it (the values the dice show)."""
    who = "Table" if event.actor == TABLE else event.actor
    return f"{who}: {decision_words(state, event)}"


def decision_words(state: GameState, event: GameEvent) -> str:
    """What the entry does, without who: ``place the gray die showing 4 in the castle``."""
    return _SAY[type(event)](state, event)


def die_words(state: GameState, die: str) -> str:
    """``the gray die showing 4`` (``the gray die`` before it is rolled); ``die`` is a die id of the catalog."""
    color = state.catalog.die_colors.get(die, die)
    value = dict(state.dice).get(die)
    return f"the {color} die" + (f" showing {value}" if value is not None else "")


def space_words(catalog: Catalog, space: str, monasteries: Mapping[str, str] | None = None,
                unnamed: str | None = None) -> str:
    """A map space by its printed name (or the monastery on it), else where it lies between the spaces the map
    names (``the space by North Gate and North Road``); on a map that names none of them, ``unnamed`` if given
    (``the map``), else ``space ID``."""
    named = space_name(catalog, space, monasteries)
    if named is not None:
        return named
    spaces = catalog.map.spaces
    beside = [spaces[n].name for n in catalog.map.neighbours.get(space, ()) if n in spaces and spaces[n].name]
    if not beside:
        return f"space {space}" if unnamed is None else unnamed
    return f"the space by {', '.join(beside[:-1])} and {beside[-1]}" if len(beside) > 1 else f"the space by {beside[0]}"


def amount_words(amount: int, unit: str) -> str:
    """``no coins``, ``1 coin``, ``2 coins``."""
    if amount == 0:
        return f"no {unit}s"
    return f"{amount} {unit}{'s' * (amount != 1)}"


def _names(catalog: Catalog, ids: Iterable[str], sep: str = ", ") -> str:
    return sep.join(name_of(catalog, i) for i in ids)


def _space(state: GameState, space: str) -> str:
    return space_words(state.catalog, space, dict(state.monasteries))


def _group(state: GameState, e: ev.StartGroupTaken) -> str:
    cards = state.start_groups[e.group - 1] if 0 < e.group <= len(state.start_groups) else ()
    return f"take start group {e.group}" + (f": {_names(state.catalog, cards, ' + ')}" if cards else "")


def _income(state: GameState, e: ev.IncomeActivated) -> str:
    source = "the extra-die tile" if e.die == "extra" else die_words(state, e.die)
    return f"take the {e.track} track's income with {source}"


def _roll(state: GameState, e: ev.DiceRolled) -> str:
    values = dict(e.values)
    colors = state.catalog.die_colors
    by_color: dict[str, list[str]] = {}
    for die in sorted(values):  # the order a roll is written (``projections.recording.pool_order``)
        by_color.setdefault(colors.get(die, die), []).append(str(values[die]))
    return "roll " + "; ".join(f"{color} {', '.join(shown)}" for color, shown in by_color.items())


def _monasteries(state: GameState, e: ev.MonasteriesDrawn) -> str:
    cat = state.catalog
    return "draw the monasteries onto the map: " + "; ".join(
        f"{space_words(cat, space)}: {name_of(cat, tile)}" if space_name(cat, space) else name_of(cat, tile)
        for space, tile in e.placement)


def _rows(state: GameState, e: ev.CharacterRowsDealt) -> str:
    return "deal the character rows: " + "; ".join(f"{LOCATIONS.get(city, city)}: {_names(state.catalog, cards)}"
                                                   for city, cards in e.rows)


def _groups(state: GameState, e: ev.StartGroupsDealt) -> str:
    return "deal the start groups: " + "; ".join(f"{k}: {_names(state.catalog, g, ' + ')}" for k, g in enumerate(e.groups, 1))


_SAY: dict[type[GameEvent], Callable[[GameState, Any], str]] = {
    ev.MonasteriesDrawn: _monasteries,
    ev.ScoringTilesPlaced: lambda s, e: "place the scoring tiles: " + "; ".join(
        f"{track} track: {name_of(s.catalog, tile)}" for track, tile in e.tiles),
    ev.VoyagesDrawn: lambda s, e: f"lay out the voyages, left to right: {_names(s.catalog, e.voyages)}",
    ev.SeatingDrawn: lambda s, e: f"draw the player order: {', '.join(e.order)}",
    ev.CharacterRowsDealt: _rows,
    ev.StartGroupsDealt: _groups,
    ev.DiceRolled: _roll,
    ev.StartGroupTaken: _group,
    ev.PilgrimPlaced: lambda s, e: f"put the pilgrim on {_space(s, e.space)}",
    ev.TrackChosen: lambda s, e: f"choose the {e.track} track",
    ev.PilgrimStepped: lambda s, e: f"step to {_space(s, e.to)}",
    ev.PilgrimStopped: lambda s, e: "stop the pilgrim here",
    ev.DiePlaced: lambda s, e: f"place {die_words(s, e.die)} in {LOCATIONS.get(e.location, e.location)}",
    ev.FavorTileTaken: lambda s, e: f"take the favor tile {name_of(s.catalog, e.tile)}",
    ev.CardBought: lambda s, e: f"buy {name_of(s.catalog, e.card)}",
    ev.AlternativeTaken: lambda s, e: f"take {amount_words(e.coins, 'coin')} and {amount_words(e.guards, 'guard')}",
    ev.IncomeActivated: _income,
    ev.PointsExchanged: lambda s, e: f"exchange {e.give} for points, {e.times} time{'s' * (e.times != 1)}",
    ev.IncomeEnded: lambda s, e: "end the income phase",
    ev.VoyageInvested: lambda s, e: f"invest in the voyage {name_of(s.catalog, e.voyage)}",
    ev.VoyagePassed: lambda s, e: "invest in no voyage",
    ev.Corrected: lambda s, e: f"correct entry {e.seq}",
    ev.Retracted: lambda s, e: f"withdraw entry {e.seq}",
    ev.RuleOverridden: lambda s, e: f"accept the next entry against rule {e.rule}: {e.reason}",
    ev.Noted: lambda s, e: f"note on entry {e.seq}: {e.text}",
    ev.Bookmarked: lambda s, e: f"bookmark entry {e.seq}: {e.label}",
}
"""What each kind of entry does, in words (``tests/test_table_words.py`` holds it to every type there is)."""


__all__ = ["LOCATIONS", "amount_words", "decision_words", "die_words", "space_words", "table_words"]
