"""The record and the catalog in sentences: an entry ("Ana buys Chaplain (c-II-18)"), a bonus ("phase E: ...").

The notation says an entry the way it is typed; a person reading a replay wants
a sentence, with components named as printed (``projections.naming``) and what
the table before the entry says (the value of the die placed, the cards of the
start group taken, the monastery a pilgrim steps onto). A bonus is said as a
screen says it: when it happens (the zone a card lies in), then what, in the
catalog's short form (``coimbra_events.catalog.effect_text``, the one grammar the
catalog's sheets, ``catalog show`` and ``catalog diff`` use).
"""

from __future__ import annotations

from typing import Any, Callable, Iterable, Mapping

from coimbra_events import events as ev
from coimbra_events.catalog.effect_kinds import Effect
from coimbra_events.catalog.effect_text import render
from coimbra_events.events import GameEvent
from coimbra_events.state import TABLE, GameState
from projections.naming import named


def entry_words(state: GameState, event: GameEvent) -> str:
    """The entry as one sentence; ``state`` is the table just before it.

    Each event type has its sentence in ``_SAY``, from the event's fields and its
    JSON payload (maps and lists as the log writes them)."""
    who = "The table" if event.actor == TABLE else event.actor
    return f"{who} {_SAY[type(event)](state, event, event.payload())}."


def _names(state: GameState, ids: Iterable[str]) -> str:
    return ", ".join(named(state.catalog, i) for i in ids)


def _die(state: GameState, die: str) -> str:
    value = dict(state.dice).get(die)
    return f"die {die}" + (f" ({value})" if value is not None else "")


def _space(state: GameState, space: str) -> str:
    tile = dict(state.monasteries).get(space)
    return space if tile is None else f"{space}, the monastery {named(state.catalog, tile)}"


def _group(state: GameState, group: int) -> str:
    cards = state.start_groups[group - 1] if 0 < group <= len(state.start_groups) else ()
    return f"start group {group}" + (f" ({_names(state, cards)})" if cards else "")


def _amounts(coins: int, guards: int) -> str:
    return f"{coins} coin{'s' * (coins != 1)} and {guards} guard{'s' * (guards != 1)}"


_SAY: dict[type[GameEvent], Callable[[GameState, Any, dict[str, Any]], str]] = {
    ev.MonasteriesDrawn: lambda s, e, p: "draws the monastery tiles onto the map: "
                                      + "; ".join(f"{sp}: {named(s.catalog, m)}" for sp, m in p['placement'].items()),
    ev.ScoringTilesPlaced: lambda s, e, p: "places the influence scoring tiles: "
                                        + "; ".join(f"{t}: {named(s.catalog, tile)}" for t, tile in p['tiles'].items()),
    ev.VoyagesDrawn: lambda s, e, p: f"lays out the voyages, left to right: {_names(s, p['voyages'])}",
    ev.SeatingDrawn: lambda s, e, p: f"draws the player order: {', '.join(p['order'])}",
    ev.CharacterRowsDealt: lambda s, e, p: "deals the character rows: "
                                        + "; ".join(f"{city}: {_names(s, cards)}" for city, cards in p['rows'].items()),
    ev.StartGroupsDealt: lambda s, e, p: "lays out the start groups: "
                                      + "; ".join(f"{k}: {_names(s, g)}" for k, g in enumerate(p['groups'], 1)),
    ev.DiceRolled: lambda s, e, p: "rolls the dice: " + ", ".join(f"{d} {v}" for d, v in p['values'].items()),
    ev.StartGroupTaken: lambda s, e, p: f"takes {_group(s, e.group)}",
    ev.PilgrimPlaced: lambda s, e, p: f"puts the pilgrim on {e.space}",
    ev.TrackChosen: lambda s, e, p: f"chooses the {e.track} track",
    ev.PilgrimStepped: lambda s, e, p: f"moves the pilgrim one step, to {_space(s, e.to)}",
    ev.PilgrimStopped: lambda s, e, p: "stops the pilgrim (the steps left are forfeited)",
    ev.DiePlaced: lambda s, e, p: f"places {_die(s, e.die)} in the {e.location if e.location == 'castle' else e.location + ' city'}",
    ev.FavorTileTaken: lambda s, e, p: f"takes the favor tile {named(s.catalog, e.tile)}",
    ev.CardBought: lambda s, e, p: f"buys {named(s.catalog, e.card)}",
    ev.AlternativeTaken: lambda s, e, p: f"takes {_amounts(e.coins, e.guards)} instead of the action",
    ev.IncomeActivated: lambda s, e, p: ("uses the extra-die tile" if e.die == "extra" else f"activates {e.die}")
                                     + f" for income on the {e.track} track",
    ev.PointsExchanged: lambda s, e, p: f"exchanges {e.give} for victory points, {e.times} time{'s' * (e.times != 1)}",
    ev.IncomeEnded: lambda s, e, p: "ends the income phase for this round (income not taken is forfeited)",
    ev.VoyageInvested: lambda s, e, p: f"invests in the voyage {named(s.catalog, e.voyage)}",
    ev.VoyagePassed: lambda s, e, p: "invests in no voyage this round",
    ev.Corrected: lambda s, e, p: f"corrects entry {e.seq}: the next entry says what it should have said",
    ev.Retracted: lambda s, e, p: f"withdraws entry {e.seq} from the line of play",
    ev.RuleOverridden: lambda s, e, p: f"accepts the next entry against rule {e.rule}: {e.reason}",
    ev.Noted: lambda s, e, p: f"notes on entry {e.seq}: {e.text}",
    ev.Bookmarked: lambda s, e, p: f"bookmarks entry {e.seq}: {e.label}",
}
"""One sentence per event type (``tests/test_sharing.py`` holds it to every type there is)."""


NOTHING = "nothing changes on the table"


def quiet_words(event: GameEvent, after: GameState | None) -> str:
    """What an entry that moves nothing on the table did: what it gave that is not on the table yet (the
    steps a pilgrim may take, from ``after``, the table after it), or what it says of the next entry."""
    if isinstance(event, ev.Corrected):
        return f"the next entry says what entry {event.seq} should have said"
    if isinstance(event, ev.RuleOverridden):
        return f"the next entry is accepted against rule {event.rule}"
    due = after.pending if after is not None else None
    if due is not None and due.kind == "steps" and due.amount > 0 and due.actor == event.actor:
        return f"{due.actor} may move the pilgrim {due.amount} step{'s' * (due.amount != 1)}"
    return NOTHING


TIMING_WORDS: Mapping[str, str] = {
    "immediate": "at once",
    "phase_c": "phase C",
    "phase_e": "phase E",
    "end_game": "end of game",
    "none": "no bonus",
}
"""When a card's bonus happens, in the game's words (its zone on the player's board)."""


def effects_words(effects: Iterable[Effect]) -> str:
    """An effect list in the catalog's short form, or ``-`` when it has none."""
    return render(effects) or "-"


def bonus_words(timing: str, effects: Iterable[Effect]) -> str:
    """A bonus: when, then what (``phase E: per die gray: gain 1 coins``)."""
    if timing == "none":
        return TIMING_WORDS["none"]
    return f"{TIMING_WORDS.get(timing, timing)}: {effects_words(effects)}"


__all__ = ["NOTHING", "TIMING_WORDS", "bonus_words", "effects_words", "entry_words", "quiet_words"]
