"""The public table: everything a person at the table can see, as places holding things, and values.

``tabletop(state)`` lays a game state out as the physical table: the cards in
each city row, on each player's board and in the discard pile; the favor tiles
and crown tokens; every die (where it lies and the face it shows) and die token
(face up or down); the monastery tiles, scoring tiles and voyage cards; every
disc (on the influence tracks, stacked in the order they arrived, on monasteries
and voyages), lion and pilgrim; the coin, guard and scoring markers; the round,
the phase and the number of cards left in the deck; and, once the game is over,
the end-game scoring (each scoring disc at its final total) and the places.

What it leaves out is the rules' bookkeeping, which nothing on the table shows:
who is due and the queued sub-decisions (``pending``, ``stack``), how far a
phase has got (``cursor``: it only decides which dice of the location being
retrieved are already back and which die tokens are face down), the arrival
counter (``tick``: it only orders discs on a space, which the stacks keep), which
dice of a shutter have paid income this phase (``income_left``), the crowns
taken over the whole game (``crowns_total``, a tally for end-game scoring),
where points came from (``points_by_source``: the scoring disc shows the total),
which start actions are done (``start_choices``, ``pilgrims_placed``: the start
cards and pilgrims show it) and which cards were ever dealt (``dealt``: the deck
shows how many are left).

``apply_changes`` puts a table through a list of changes and refuses one that
does not fit it (a thing not where the change takes it from, a value other than
its ``from``); ``differences`` lists the changes that turn one table into
another, each physical move once.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterable, Mapping

from coimbra_events.catalog import Catalog
from coimbra_events.catalog.effect_kinds import TRACKS
from coimbra_events.rules.outcomes import deck_size
from coimbra_events.rules.scoring import final_scores
from coimbra_events.state import CITIES, LOCATIONS, PHASE_C, TABLE, GameState
from projections.changes import Change, Key, Place, who_of

ORDERED: frozenset[str] = frozenset({"row", "location", "voyage", "track"})
"""Places whose order people see: cards left to right, dice left to right, discs stacked as they arrived.
The others are heaps (kept sorted); the first space of a track too, where every disc starts."""

UNTRACKED: frozenset[str] = frozenset({"deck", "supply", "pile", "beside board"})
"""Places off the table: what they hold is not laid out (the deck is a count)."""

DECK_KEY: Key = ("deck", "")


class ChangeMismatch(ValueError):
    """A change that does not fit the table it is applied to."""


@dataclass(frozen=True)
class Tabletop:
    """The table as places (each a tuple of labels) and values; places that hold nothing are left out.

    ``holders`` names the player each die in a location belongs to (a die on a
    shutter lies in its owner's place already): who a die's move concerns. It is
    not part of what two tables compare (changes move things, not owners).
    """

    values: Mapping[Key, Any]
    places: Mapping[Place, tuple[str, ...]]
    holders: Mapping[str, str] = field(default_factory=dict, compare=False)


def _ordered(place: Place) -> bool:
    return place[0] in ORDERED and not (place[0] == "track" and place[2] == 0)


def _put(places: dict[Place, list[str]], place: Place, label: str, at: int | None = None) -> None:
    held = places.setdefault(place, [])
    held.insert(len(held) if at is None else at, label)


def tabletop(state: GameState) -> Tabletop:
    """The public table of a game state (see the module's docstring for what it leaves out)."""
    cat = state.catalog
    names = [p.name for p in state.players]
    values: dict[Key, Any] = {("round", ""): state.round, ("phase", ""): state.phase, DECK_KEY: deck_size(cat, state.dealt)}
    places: dict[Place, list[str]] = {}
    final = {s.name: s for s in final_scores(state)} if state.over else {}
    rolled = dict(state.dice)
    for die in cat.dice_for(len(state.players)):
        values[("roll", die)] = rolled.get(die)
    for city, row in zip(CITIES, state.rows):
        places[("row", city)] = list(row)
    places[("discard",)] = list(state.discard)
    for k, group in enumerate(state.start_groups):
        if not state.start_groups_taken[k]:
            places[("group", k + 1)] = list(group)
    places[("castle",)] = list(state.favor_available)
    for card, category in state.crowns_on_cards:
        places[("on card", card)] = [category]
    holders = _lay_dice(state, values, places)
    for space, tile in state.monasteries:
        places[("map", space)] = [tile]
    for track, tile in zip(TRACKS, state.scoring_tiles):
        places[("above", track)] = [tile]
    for k, voyage in enumerate(state.voyages):
        places[("voyage space", k + 1)] = [voyage]
        places[("voyage", voyage)] = list(state.voyage_discs[k])
    for flag, i in enumerate(state.order):
        places[("flag", flag + 1)] = [names[i]]
    for pl in state.players:
        name = pl.name
        values[("coins", name)] = pl.coins
        values[("guards", name)] = pl.guards
        values[("points", name)] = final[name].total if final else pl.points
        if final:
            values[("place", name)] = final[name].place
        places[("start cards", name)] = list(pl.start_cards)
        places[("cards", name)] = list(pl.cards)
        places[("favor tiles", name)] = list(pl.favor_tiles)
        places[("crown tokens", name)] = list(pl.crown_tokens)
        places[("shutter", name)] = list(pl.shutter)
        for m in pl.monasteries:
            _put(places, ("monastery", m), name)
        if pl.pilgrim is not None:
            _put(places, ("space", pl.pilgrim), name)
    for k, track in enumerate(TRACKS):
        stacked = sorted(state.players, key=lambda p: (p.influence[k], p.arrivals[k], state.index[p.name]))
        for pl in stacked:
            _put(places, ("track", track, pl.influence[k]), pl.name)
    return _settled(values, places, holders)


def _lay_dice(state: GameState, values: dict[Key, Any], places: dict[Place, list[str]]) -> dict[str, str]:
    """Dice in the locations, on the shutters and in the dice area; die tokens face up or down; who holds each
    die in a location.

    While a location is retrieved (phase C), its dice left of the one due are
    already back on their owners' shutters and its die tokens there are face down.
    """
    at_loc, at_k = state.cursor if state.phase == PHASE_C and len(state.cursor) == 2 else (-1, 0)
    shutters = {d for p in state.players for d in p.shutter}
    placed: dict[str, str] = {}
    for loc, (location, row) in enumerate(zip(LOCATIONS, state.locations)):
        laid = []
        for k, slot in enumerate(row):
            done = loc == at_loc and k < at_k
            if slot.is_token:
                values[("face", slot.die)] = "face down" if done else "face up"
                laid.append(slot.die)
            elif not done:
                laid.append(slot.die)
                placed[slot.die] = state.players[slot.owner].name
        places[("location", location)] = laid
    dice = state.catalog.dice_for(len(state.players))
    places[("dice area",)] = [d for d in dice if d not in placed and d not in shutters]
    return placed


def _settled(values: dict[Key, Any], places: dict[Place, list[str]], holders: Mapping[str, str] | None = None) -> Tabletop:
    """Heaps sorted, empty places left out: two tables with the same things in the same places are equal."""
    laid = {p: tuple(held if _ordered(p) else sorted(held)) for p, held in places.items() if held}
    return Tabletop(dict(values), laid, dict(holders or {}))


# --- putting a table through changes --------------------------------------------------------------


def apply_changes(table: Tabletop, changes: Iterable[Change]) -> Tabletop:
    """The table after the changes, in order; ``ChangeMismatch`` at the first that does not fit it."""
    values = dict(table.values)
    places = {p: list(held) for p, held in table.places.items()}
    for change in changes:
        if change.is_value:
            if values.get(change.what) != change.src:
                raise ChangeMismatch(f"{change.what} is {values.get(change.what)!r}, not {change.src!r}: {change}")
            values[change.what] = change.dst
        else:
            _move(values, places, change)
    return _settled(values, places)


def _move(values: dict[Key, Any], places: dict[Place, list[str]], change: Change) -> None:
    label, src, dst = change.what[1], change.src, change.dst
    if src == dst and change.at is None:
        return  # a disc already at the top of its track: nothing moves
    if src[0] == "deck":
        values[DECK_KEY] -= 1
    elif src[0] not in UNTRACKED:
        held = places.get(src, [])
        if label not in held:
            raise ChangeMismatch(f"{label} is not in {src} ({held}): {change}")
        held.remove(label)
    if dst[0] == "deck":
        values[DECK_KEY] += 1
    elif dst[0] not in UNTRACKED:
        _put(places, dst, label, change.at if _ordered(dst) else None)


# --- what turns one table into another ------------------------------------------------------------

_THINGS = {
    "row": "card", "discard": "card", "group": "card", "start cards": "card", "cards": "card",
    "castle": "favor tile", "favor tiles": "favor tile", "crown tokens": "crown token", "on card": "crown token",
    "dice area": "die", "shutter": "die", "location": "die", "map": "monastery tile", "above": "scoring tile",
    "voyage space": "voyage card", "monastery": "disc", "voyage": "disc", "track": "disc", "flag": "lion",
    "space": "pilgrim",
}
"""What kind of thing each kind of place holds."""


def _identity(table: Tabletop, place: Place, label: str) -> tuple[str, str, Any]:
    """Which thing a label in a place is: discs are told apart by what they mark, or by their track."""
    kind = _THINGS[place[0]]
    if place[0] == "location" and ("face", label) in table.values:
        return "die token", label, place
    if place[0] == "track":
        return kind, label, place[1]
    if place[0] in ("monastery", "voyage"):
        return kind, label, place
    return kind, label, None


def _where(table: Tabletop) -> dict[tuple[str, str, Any], Place]:
    return {_identity(table, p, label): p for p, held in table.places.items() for label in held}


def _away(identity: tuple[str, str, Any], catalog: Catalog) -> Place:
    """Where a thing is when it is not on the table."""
    kind, label, _ = identity
    if kind == "card":
        return ("deck",) if catalog.characters[label].pile != "I" else ("supply",)
    if kind == "monastery tile":
        return ("pile", catalog.monasteries[label].pile)
    if kind in ("disc", "lion", "pilgrim"):
        return ("supply", label) if kind == "disc" else ("beside board", label)
    return ("supply",)


def differences(a: Tabletop, b: Tabletop, catalog: Catalog, rule: str | None = None,
                facts: Mapping[str, Any] | None = None) -> list[Change]:
    """The changes that turn table ``a`` into table ``b``: each thing moved once, then each value turned.

    A card dealt from the deck or put back is a move; the deck's count follows
    from those moves. A thing moved into an ordered place goes to its position
    there in ``b``; those moves come last, leftmost first, so each finds the
    things left of it in place. Things that stayed in an ordered place but in
    another order are moved to their place in ``b``'s order.
    """
    facts = dict(facts or {})

    def change(who: str | None, what: Key, src: Any, dst: Any, at: int | None = None) -> Change:
        return Change(who or TABLE, what, src, dst, rule, facts, at, catalog=catalog)

    moves, placed = [], []
    here, there = _where(a), _where(b)
    for identity in list(here) + [i for i in there if i not in here]:
        src, dst = here.get(identity) or _away(identity, catalog), there.get(identity) or _away(identity, catalog)
        if src != dst:
            kind, label, _ = identity
            owner = label if kind in ("disc", "lion", "pilgrim") else \
                who_of(dst) or who_of(src) or a.holders.get(label) or b.holders.get(label)
            if _ordered(dst):  # put where B has it: after everything left of it there (see below)
                at = b.places[dst].index(label)
                placed.append(((repr(dst), at), change(owner, (kind, label), src, dst, at)))
            else:
                moves.append(change(owner, (kind, label), src, dst))
    moves += [c for _, c in sorted(placed, key=lambda p: p[0])]
    moved = apply_changes(a, moves)
    for place, held in b.places.items():  # things that stayed in an ordered place, in another order
        now = list(moved.places.get(place, ()))
        if _ordered(place) and now != list(held):
            for k, label in enumerate(held):
                if now[k] != label:
                    now.remove(label)
                    now.insert(k, label)
                    moves.append(change(who_of(place) or b.holders.get(label), (_identity(b, place, label)[0], label), place, place, k))
    turned = [change(who_of(key), key, a.values.get(key), value) for key, value in b.values.items()
              if key != DECK_KEY and a.values.get(key) != value]
    turned += [change(who_of(key), key, value, None) for key, value in a.values.items() if key not in b.values]
    return moves + turned


__all__ = ["ChangeMismatch", "ORDERED", "Tabletop", "UNTRACKED", "apply_changes", "differences", "tabletop"]
