"""The legal inputs now, each saying what it is: the die's value, the card's price, what income pays.

``options(state)`` reads the rules core's ``legal`` list once and describes
every option from the rules' own prices (``card_price``, ``voyage_cost``,
``income``), never a second calculation. ``coimbra legal`` and
``coimbra record`` number the same list the same way: option ``k`` is
``options(state)[k - 1]`` in both.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Callable

from coimbra_events import events as ev
from coimbra_events.events import GameEvent
from coimbra_events.notation import render
from coimbra_events.rules import core as rules
from coimbra_events.rules import effects
from coimbra_events.rules.income import income
from coimbra_events.rules.outcomes import OutcomeSpace
from coimbra_events.rules.retrieval import card_price
from coimbra_events.rules.voyages import voyage_cost
from coimbra_events.state import GameState
from projections.naming import name_of, said
from projections.table_words import decision_words, die_words
from projections.words import bonus_words, effects_words


@dataclass(frozen=True)
class Option:
    """One legal input: what to type (names with ids), what it does, and how a long list groups it.

    ``text`` reads back as the same event (``notation.parse`` with the game's
    names); ``notation`` is the plain notation with ids; ``words`` says it as the
    table does (``projections.table_words``: no notation, no ids). Options sharing a
    ``head`` are listed on one line when the list is long (``place gray-1
    (value 4)   1 castle  2 upper …``), each by its ``last`` word.
    """

    event: GameEvent
    notation: str
    text: str
    about: str = ""
    head: str = ""
    head_about: str = ""
    last: str = ""
    words: str = ""

    def to_json(self, number: int) -> dict[str, object]:
        """The option for ``--json``: its number, its notation with the actor (as the log writes it), what it does
        in words (``text``) and what it is (``about``), and what to type at ``record``'s prompt (``typed``)."""
        return {"number": number, "notation": render(self.event), "text": self.words or self.text, "about": self.about,
                "typed": self.text}


def options(state: GameState) -> list[Option]:
    """Every legal decision of the player due, described; empty when the table is due (or the game is over)."""
    legal = rules.legal(state)
    if isinstance(legal, OutcomeSpace):
        return []
    return [_describe(state, e) for e in legal]


def _describe(state: GameState, event: GameEvent) -> Option:
    bare = said(state.catalog, event, actor=False, monasteries=dict(state.monasteries))
    describe = _ABOUT.get(type(event))
    option = describe(state, event, bare) if describe else Option(event, _plain(event), bare)
    return replace(option, words=decision_words(state, event))


def _plain(event: GameEvent) -> str:
    return render(event).split(": ", 1)[1]


def _pays(state: GameState, who: str, track: str) -> str:
    resource, amount, bonus = income(state.catalog, track, state.player(who).influence_on(track))
    return f"+{amount} {resource}" + (f" +{bonus} points" if bonus else "")


def _group(state: GameState, e: ev.StartGroupTaken, text: str) -> Option:
    cards = state.start_groups[e.group - 1]
    return Option(e, _plain(e), text, " + ".join(name_of(state.catalog, c) for c in cards))


def _place(state: GameState, e: ev.DiePlaced, text: str) -> Option:
    value = state.die_value(e.die)
    color = state.catalog.die_colors[e.die]
    return Option(e, _plain(e), text, f"{color} die showing {value}", head=f"place {e.die}",
                  head_about=f"(shows {value})", last=e.location)


def _buy(state: GameState, e: ev.CardBought, text: str) -> Option:
    card = state.catalog.characters[e.card]
    price = card_price(state, state.pending) if state.pending else 0
    about = (f"{card.category}, costs {price} {card.cost} at this die, +{card.influence} {card.category} influence, "
             f"bonus {bonus_words(card.timing, card.effects)}")
    if any(c == e.card for c, _ in state.crowns_on_cards):
        about += ", crown token on it"
    return Option(e, _plain(e), text, about)


def _tile(state: GameState, e: ev.FavorTileTaken, text: str) -> Option:
    tile = state.catalog.favor_tiles[e.tile]
    return Option(e, _plain(e), text, f"{tile.crowns} crowns, {effects_words(tile.effects)}")


def _alt(state: GameState, e: ev.AlternativeTaken, text: str) -> Option:
    return Option(e, _plain(e), text, f"+{e.coins} coins, +{e.guards} guards", head=f"alt {e.coins}c", last=f"{e.guards}g")


def _income(state: GameState, e: ev.IncomeActivated, text: str) -> Option:
    pays = _pays(state, e.actor, e.track)
    return Option(e, _plain(e), text, f"pays {pays}", head=f"income {e.die}", last=f"{e.track} ({pays})")


def _exchange(state: GameState, e: ev.PointsExchanged, text: str) -> Option:
    pl = state.player(e.actor)
    offer = effects.phase_e(state.catalog, pl.start_cards, pl.cards).offer_for(e.give, e.times, pl.holding(e.give))
    rate, points = offer if offer else (0, 0)
    about = f"pay {rate * e.times} {e.give} for {points * e.times} points"
    return Option(e, _plain(e), text, about, head=f"exchange {e.give}", last=f"{e.times} ({about[4:]})")


def _end(state: GameState, e: ev.IncomeEnded, text: str) -> Option:
    left = state.player(e.actor).income_left
    forfeited = ", ".join(_income_source(state, d) for d in left)
    return Option(e, _plain(e), text, f"forfeits the income of {forfeited}" if left else "done with income")


def _income_source(state: GameState, die: str) -> str:
    return "the extra-die tile" if die == "extra" else die_words(state, die)


def _invest(state: GameState, e: ev.VoyageInvested, text: str) -> Option:
    space = state.voyages.index(e.voyage)
    pl = state.player(e.actor)
    resource, cost = voyage_cost(state.catalog, pl, space)
    full = state.catalog.voyage_spaces[space].cost
    discount = f" ({full - cost} off: favor tile)" if cost < full else ""
    task = effects_words(state.catalog.voyages[e.voyage].effects)
    return Option(e, _plain(e), text, f"space {space + 1}, costs {cost} {resource}{discount}; end of game: {task}")


def _track(state: GameState, e: ev.TrackChosen, text: str) -> Option:
    due = state.pending
    amount = due.amount if due else 0
    now = state.player(e.actor).influence_on(e.track)
    return Option(e, _plain(e), text, f"{e.track} influence {now} → {now + amount}" if amount else "")


def _step(state: GameState, e: ev.PilgrimStepped, text: str) -> Option:
    tile = state.monastery_at(e.to)
    if tile is None:
        return Option(e, _plain(e), text)
    marked = tile in state.player(e.actor).monasteries
    monastery = state.catalog.monasteries[tile]
    reward = "marked already" if marked else f"{bonus_words(monastery.timing, monastery.effects)}"
    return Option(e, _plain(e), text, f"{name_of(state.catalog, tile)}: {reward}")


def _stop(state: GameState, e: ev.PilgrimStopped, text: str) -> Option:
    due = state.pending
    return Option(e, _plain(e), text, f"forfeits {due.amount} steps" if due and due.amount else "")


_ABOUT: dict[type, Callable[[GameState, object, str], Option]] = {
    ev.StartGroupTaken: _group,
    ev.DiePlaced: _place,
    ev.CardBought: _buy,
    ev.FavorTileTaken: _tile,
    ev.AlternativeTaken: _alt,
    ev.IncomeActivated: _income,
    ev.PointsExchanged: _exchange,
    ev.IncomeEnded: _end,
    ev.VoyageInvested: _invest,
    ev.TrackChosen: _track,
    ev.PilgrimStepped: _step,
    ev.PilgrimStopped: _stop,
}
"""How each kind of option says what it is (an option of another kind is its notation alone)."""

__all__ = ["Option", "options"]
