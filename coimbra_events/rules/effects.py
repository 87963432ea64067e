"""One small handler per effect kind of the vocabulary (``effect_kinds.KINDS``).

Handlers are grouped by the moment they run: when gained (immediate and the
start of phase E), when the owner acquires a card (start cards' phase C
bonus), per die activated in phase E, and at the end of the game (scoring).
Capabilities that are only looked up (exchange rates, the extra die, the voyage
discount) are queries at the bottom. A new kind is one function registered in
the table for its moment.
"""

from __future__ import annotations

from typing import Any, Callable, Final, Iterable, Mapping

from coimbra_events.catalog import Catalog, CharacterCard
from coimbra_events.catalog.effect_kinds import SPENDABLE, TRACK_INDEX, Effect
from coimbra_events.rules.tx import Tx
from coimbra_events.state import PlayerState

# --- when gained ---------------------------------------------------------------------


def _gain(tx: Tx, i: int, p: Mapping[str, Any], source: str) -> None:
    tx.gain(i, p["resource"], p["amount"], source)


def _advance(tx: Tx, i: int, p: Mapping[str, Any], source: str) -> None:
    tx.advance(i, p["track"], p["amount"], source)


def _if_no_die(tx: Tx, i: int, p: Mapping[str, Any], source: str) -> None:
    colors = tx.catalog.die_colors
    if all(colors[d] != p["color"] for d in tx.pl(i).shutter):
        run(tx, i, p["effects"], source)


GAINED: Final[Mapping[str, Callable[[Tx, int, Mapping[str, Any], str], None]]] = {
    "gain": _gain,
    "advance": _advance,
    "if_no_die": _if_no_die,
}
"""Effects carried out at once: immediate bonuses, and phase E bonuses at the start of phase E."""


def run(tx: Tx, i: int, effects: Iterable[Effect], source: str) -> None:
    """Carry out effects that happen now; kinds that are not 'now' kinds are skipped."""
    for e in effects:
        handler = GAINED.get(e.kind)
        if handler is not None:
            handler(tx, i, e.params, source)


# --- when the owner acquires a card (start cards, phase C) --------------------------


def matches(condition: Mapping[str, str], card: CharacterCard) -> bool:
    """Whether a card meets an ``on_acquire`` condition (an empty one matches any card)."""
    return all(getattr(card, key) == value for key, value in condition.items())


def on_acquire(tx: Tx, i: int, start_card: str, effects: Iterable[Effect], card: CharacterCard) -> None:
    """Fire a start card's phase C bonus for an acquired card (GAPS decision 12)."""
    for e in effects:
        if e.kind == "on_acquire" and matches(e.params["condition"], card):
            if tx.narrating:
                tx.because("C.start-bonus", ("start_card", start_card, "card", card.id,
                                              "condition", e.params["condition"]))
            run(tx, i, e.params["effects"], start_card)


# --- per die activated in phase E -----------------------------------------------------


def on_die(tx: Tx, i: int, zone: PhaseE, color: str, source: str) -> None:
    """Fire 'per die of a colour' bonuses for one activated die (never the white die)."""
    for card, e in zone.per_die(color):
        if tx.narrating:
            tx.because("E.per-die", ("card", card, "color", color))
        run(tx, i, e.params["effects"], source)


# --- end of the game ---------------------------------------------------------------------


Counted = dict[str, object]
"""What an end-game scoring effect counted for a player, as its scorer found it: the cards, monasteries,
voyages, symbol sets, track space or crowns, how many, and the points each is worth."""


UNTOLD: Final[Counted] = {}
"""What a scorer gives as counted when it is not told to say (``told=False``): a playout wants the points alone."""


def _points(catalog: Catalog, pl: PlayerState, p: Mapping[str, Any], told: bool) -> tuple[int, Counted]:
    return p["amount"], {"per": "fixed", "points": p["amount"]} if told else UNTOLD


def _per_card(catalog: Catalog, pl: PlayerState, p: Mapping[str, Any], told: bool) -> tuple[int, Counted]:
    cards = catalog.characters
    wanted: str = p["category"]  # typed: compiled, a text compares as one, not through Python's generic ==
    counted = tuple([c for c in pl.owned_cards if wanted == "any" or cards[c].category == wanted])
    return len(counted) * p["points"], {"per": "card", "category": wanted, "counted": counted, "count": len(counted),
                                        "points_each": p["points"]} if told else UNTOLD


def _per_symbol_set(catalog: Catalog, pl: PlayerState, p: Mapping[str, Any], told: bool) -> tuple[int, Counted]:
    """Complete sets of the symbols ``p`` names among the player's cards (counted in plain dicts: ``Counter``
    is an interpreted class, a few times slower here)."""
    cards = catalog.characters
    need: dict[str, int] = {}
    for s in p["symbols"]:
        need[s] = need.get(s, 0) + 1
    have = dict.fromkeys(need, 0)
    for c in pl.owned_cards:
        for s in cards[c].symbols:
            if s in have:
                have[s] += 1
    sets = min(have[s] // k for s, k in need.items())
    return sets * p["points"], {"per": "symbol set", "symbols": tuple(p["symbols"]), "have": have, "count": sets,
                                "points_each": p["points"]} if told else UNTOLD


def _per_monastery(catalog: Catalog, pl: PlayerState, p: Mapping[str, Any], told: bool) -> tuple[int, Counted]:
    pile = p.get("pile")
    monasteries = catalog.monasteries
    counted = tuple(m for m in pl.monasteries if pile is None or monasteries[m].pile == pile)
    return len(counted) * p["points"], {"per": "monastery", "pile": pile, "counted": counted, "count": len(counted),
                                        "points_each": p["points"]} if told else UNTOLD


def _per_voyage(catalog: Catalog, pl: PlayerState, p: Mapping[str, Any], told: bool) -> tuple[int, Counted]:
    return len(pl.voyages) * p["points"], {"per": "voyage", "counted": pl.voyages, "count": len(pl.voyages),
                                           "points_each": p["points"]} if told else UNTOLD


def _per_influence(catalog: Catalog, pl: PlayerState, p: Mapping[str, Any], told: bool) -> tuple[int, Counted]:
    track = p["track"]
    if track == "highest":
        level = max(pl.influence)
    elif track == "lowest":
        level = min(pl.influence)
    else:
        level = pl.influence[TRACK_INDEX[track]]
    return level // p["per"] * p["points"], {"per": "influence", "track": track, "space": level, "spaces_each": p["per"],
                                             "count": level // p["per"], "points_each": p["points"]} if told else UNTOLD


def _per_crown(catalog: Catalog, pl: PlayerState, p: Mapping[str, Any], told: bool) -> tuple[int, Counted]:
    return pl.crowns_total * p["points"], {"per": "crown", "count": pl.crowns_total,
                                           "points_each": p["points"]} if told else UNTOLD


SCORED: Final[Mapping[str, Callable[[Catalog, PlayerState, Mapping[str, Any], bool], tuple[int, Counted]]]] = {
    "points": _points,
    "points_per_card": _per_card,
    "points_per_symbol_set": _per_symbol_set,
    "points_per_monastery": _per_monastery,
    "points_per_voyage": _per_voyage,
    "points_per_influence": _per_influence,
    "points_per_crown": _per_crown,
}
"""End-game scoring kinds: victory points a player's effect is worth at the end, and what it counted (when told)."""


def score(catalog: Catalog, pl: PlayerState, effects: Iterable[Effect]) -> tuple[int, tuple[Counted, ...]]:
    """End-game points of an effect list for one player, and what each of its scoring effects counted."""
    total, counted = _scored(catalog, pl, effects, True)
    return total, tuple(counted)


def score_points(catalog: Catalog, pl: PlayerState, effects: Iterable[Effect]) -> int:
    """``score``'s points alone, nothing counted said (what a playout's totals add)."""
    return _scored(catalog, pl, effects, False)[0]


def _scored(catalog: Catalog, pl: PlayerState, effects: Iterable[Effect], told: bool) -> tuple[int, list[Counted]]:
    """The points of the scoring effects among ``effects``, and (when ``told``) what each counted."""
    total = 0
    counted: list[Counted] = []
    for e in effects:
        scored = SCORED.get(e.kind)
        if scored is not None:
            points, what = scored(catalog, pl, e.params, told)
            total += points
            if told:
                counted.append(what)
    return total, counted


# --- capabilities looked up by the rules --------------------------------------------------


def phase_e_effects(catalog: Catalog, owned_cards: tuple[str, ...]) -> tuple[tuple[str, Effect], ...]:
    """Effects of the cards in a player's phase E zone (of ``owned_cards``), in the order acquired, each with its card."""
    phase_e = catalog.card_effects_at("phase_e")
    found: list[tuple[str, Effect]] = []
    for c in owned_cards:
        effects = phase_e.get(c)
        if effects:
            found.extend((c, e) for e in effects)
    return tuple(found)


def exchange_offers(effects: Iterable[Effect], give: str) -> list[tuple[int, int]]:
    """Every (rate, points) exchange of ``give`` the effects allow, best rate first."""
    offers: set[tuple[int, int]] = set()
    for e in effects:
        if e.kind == "exchange" and e.params["give"] == give:
            offers.add((e.params["rate"], e.params["points"]))
    if len(offers) < 2:  # the rules ask every player in phase E; most have one exchange card or none
        return list(offers)
    return sorted(offers, key=lambda o: (-o[1] / o[0], -o[1]))


class PhaseE:
    """What the cards in a player's phase E zone do there: per-die bonuses and exchanges.

    The rules ask at every income step (after each die, whether the player may
    still exchange), so ``phase_e`` works a zone out once per set of cards.
    """

    def __init__(self, effects: tuple[tuple[str, Effect], ...]) -> None:
        self._offers: Final = {give: tuple(exchange_offers((e for _, e in effects), give)) for give in SPENDABLE}
        self._cheapest: Final = {give: min([rate for rate, _ in offers]) for give, offers in self._offers.items() if offers}
        per_die: dict[str, list[tuple[str, Effect]]] = {}
        for card, e in effects:
            if e.kind == "per_die":
                per_die.setdefault(e.params["color"], []).append((card, e))
        self._per_die: Final = {color: tuple(found) for color, found in per_die.items()}

    def per_die(self, color: str) -> tuple[tuple[str, Effect], ...]:
        """The 'per die of a colour' bonuses of the zone for one die of ``color``, each with its card."""
        return self._per_die.get(color, ())

    def offers(self, give: str) -> tuple[tuple[int, int], ...]:
        """Every (rate, points) exchange of ``give``, best rate first; none for what cannot be given."""
        return self._offers.get(give, ())

    def cheapest(self, give: str) -> int:
        """The lowest rate at which ``give`` can be exchanged (0: it cannot)."""
        return self._cheapest.get(give, 0)

    def offer_for(self, give: str, times: int, have: int) -> tuple[int, int] | None:
        """The exchange an exchange of ``times`` uses: the best rate the player can pay for.

        Each ``PointsExchanged`` uses one card's rate; with several exchange cards,
        the best affordable one is used (a player never prefers a worse rate), and
        separate exchanges can use different cards.
        """
        for rate, points in self.offers(give):
            if rate * times <= have:
                return rate, points
        return None


def phase_e(catalog: Catalog, start_cards: tuple[str, ...], cards: tuple[str, ...]) -> PhaseE:
    """The phase E zone of a player whose start cards and bought cards are these (in the order acquired).

    A pure function of the catalog and the phase E cards among them. The rules ask at every income step, and a
    player's card tuples stay the same objects from one event to the next until a purchase (``Tx`` copies
    references), so the zone is first looked up by those objects themselves (``_RECENT``), then by the phase E
    cards among them (``_ZONES``).
    """
    for known in _RECENT:
        if known.cards is cards and known.start_cards is start_cards and known.catalog is catalog:
            return known.zone
    zone = _zone(catalog, start_cards + cards)
    _recent(catalog, start_cards, cards, zone)
    return zone


def _zone(catalog: Catalog, owned_cards: tuple[str, ...]) -> PhaseE:
    """The zone of the phase E cards among ``owned_cards``, remembered by those cards for the last catalog it was
    asked about: a game's players hold few sets of them, where their sets of all cards are many (a playout makes
    new ones at every purchase), for up to ``_ZONES_KEPT`` sets."""
    at = catalog.card_effects_at("phase_e")
    zoned = tuple([c for c in owned_cards if c in at])
    known = _ZONES.get(zoned)
    if known is not None and known[0] is catalog:
        return known[1]
    zone = PhaseE(phase_e_effects(catalog, zoned))
    if len(_ZONES) >= _ZONES_KEPT:
        _ZONES.clear()
    _ZONES[zoned] = (catalog, zone)
    return zone


class _Known:
    """A zone remembered by the very tuples of cards it was worked out for (one object, so that a thread reading
    ``_RECENT`` while another replaces an entry sees the old entry or the new one, never half of each)."""

    def __init__(self, catalog: Catalog, start_cards: tuple[str, ...], cards: tuple[str, ...], zone: PhaseE) -> None:
        self.catalog: Final = catalog
        self.start_cards: Final = start_cards
        self.cards: Final = cards
        self.zone: Final = zone


def _recent(catalog: Catalog, start_cards: tuple[str, ...], cards: tuple[str, ...], zone: PhaseE) -> None:
    """Remember ``zone`` for these very tuples, in place of the oldest of ``_RECENT_KEPT``.

    The entries hold the tuples, so none of them is freed (and its address reused) while remembered."""
    known = _Known(catalog, start_cards, cards, zone)
    if len(_RECENT) < _RECENT_KEPT:
        _RECENT.append(known)
        return
    k = _RECENT_NEXT[0] % _RECENT_KEPT
    _RECENT[k] = known
    _RECENT_NEXT[0] = k + 1


_ZONES: Final[dict[tuple[str, ...], tuple[Catalog, PhaseE]]] = {}
_ZONES_KEPT: Final = 4096
"""A game's players hold a few sets of phase E cards; the bound keeps a long-running process's memory flat."""

_RECENT_KEPT: Final = 8
"""Card tuples remembered by identity: every seat of a 4-player table twice over (a playout and the game it left)."""
_RECENT: Final[list[_Known]] = []
_RECENT_NEXT: Final[list[int]] = [0]
"""Where the next zone remembered by identity goes, once all ``_RECENT_KEPT`` places are taken."""


def held_effects(catalog: Catalog, pl: PlayerState) -> tuple[Effect, ...]:
    """Effects of the favor tiles the player holds this round."""
    tiles = catalog.favor_tiles
    return tuple(e for t in pl.favor_tiles for e in tiles[t].effects)


def has_extra_die(catalog: Catalog, pl: PlayerState) -> bool:
    """Whether the player holds the extra-die tile this round (GAPS decision 4)."""
    return any(e.kind == "extra_income_die" for e in held_effects(catalog, pl))


def voyage_discount(catalog: Catalog, pl: PlayerState) -> int:
    """How much cheaper each voyage investment is for the player this round."""
    return sum(e.params["amount"] for e in held_effects(catalog, pl) if e.kind == "voyage_discount")
