"""What the rules tell a narrator as they act: each change they make on the table, with its rule and facts.

A narrating ``Tx`` (a narrating ``fast.Fold``) writes one ``Record`` for every change
the rules make while an event is applied and its consequences run (``Told``
reads it): a card leaving a row for the discard pile, a marker moving on a
track, a die going back to a shutter, a phase beginning. Each is made where the rules make the change, with
the rule id that made it and the facts that decided it (the die value, the
crowns counted, the income tier), so nothing is derived a second time. When
nobody narrates, every report is behind one native flag test (``tx.narrating``).

Things are named by catalog id and players by index; the kinds of thing and the
places are the short codes below, which ``projections.changes`` puts in the
game's words.
"""

from __future__ import annotations

from typing import Any, Final, NamedTuple, cast

TABLE_WHO: Final = -1
"""``Told.who`` for a change no player makes: the table's (a die token's discard, a new round)."""

# What moves: a thing from one place to another, or a value (a marker's space, the round).
CARD: Final = "card"
FAVOR_TILE: Final = "favor tile"
CROWN_TOKEN: Final = "crown token"  # ``ident``: the token's category
DIE: Final = "die"
DIE_TOKEN: Final = "die token"  # ``src``/``dst``: FACE_UP / FACE_DOWN
MONASTERY_TILE: Final = "monastery tile"
SCORING_TILE: Final = "scoring tile"
VOYAGE_CARD: Final = "voyage card"
MONASTERY_DISC: Final = "monastery disc"  # ``ident``: the monastery; supply -> the monastery
VOYAGE_DISC: Final = "voyage disc"  # ``ident``: the voyage; supply -> the voyage card
TRACK_DISC: Final = "track disc"  # ``ident``: the track; ``src``/``dst``: spaces
LION: Final = "lion"  # ``src``/``dst``: flags (0: not on a flag yet)
PILGRIM: Final = "pilgrim"  # ``src``/``dst``: map spaces ("": beside the player's board)
COINS: Final = "coins"
GUARDS: Final = "guards"
POINTS: Final = "points"
ROLL: Final = "roll"  # ``ident``: the die; ``src``/``dst``: the values it shows (0: not rolled)
ROUND: Final = "round"
PHASE: Final = "phase"
PLACE: Final = "place"  # a player's final place (0: none yet)

FACE_UP: Final = "face up"
FACE_DOWN: Final = "face down"

# Places: a player's own places take the player from ``Told.who``.
DECK: Final = "deck"
DISCARD: Final = "discard"
ROW: Final = "row:"  # + city
GROUP: Final = "group:"  # + start group number
START_CARDS: Final = "start cards"
CARDS: Final = "cards"
CASTLE_TILES: Final = "castle"
HELD_TILES: Final = "favor tiles"
HELD_TOKENS: Final = "crown tokens"
ON_CARD: Final = "card:"  # + card id
SUPPLY: Final = "supply"  # the box, the crown tokens' stock, a player's discs beside the board
DICE_AREA: Final = "dice area"
LOCATION: Final = "location:"  # + location
SHUTTER: Final = "shutter"
PILE: Final = "pile:"  # + pile, for monastery tiles
MAP: Final = "map:"  # + map space
ABOVE: Final = "above:"  # + track, for scoring tiles
VOYAGE_SPACE: Final = "voyage space:"  # + space number
ON: Final = "on"  # a disc's own spot: the monastery or voyage its ``ident`` names

ROWS: Final[dict[str, str]] = {city: ROW + city for city in ("upper", "central", "lower")}
"""Each city's row as a place (made once: a narration names them at almost every step)."""
AT_LOCATION: Final[dict[str, str]] = {loc: LOCATION + loc for loc in ("castle", "upper", "central", "lower")}
"""Each location as a place."""


Record = tuple[object, ...]
"""One change the rules made, as they keep it: ``Told``'s fields in its order (``FIELDS`` of them), the facts
flat (name, value, name, value ...). A transaction writes the fields of each record it tells, one record
after another, to one list (``Tx.told``): a fold that narrates every event writes one list for all of them,
so what it keeps is the states it keeps anyway, that list, and the facts. A tuple of strings, numbers and
tuples (the facts) is one the cyclic garbage collector stops tracing once it has seen it (a dict it traces
for as long as it lives). bench/README.md has what it costs."""

FIELDS: Final = 10
"""The fields of a record."""


def records(tape: list[object], start: int, end: int) -> list[Record]:
    """The records whose fields ``tape`` holds from ``start`` to ``end``."""
    return [tuple(tape[k : k + FIELDS]) for k in range(start, end, FIELDS)]


def flat(facts: dict[str, object]) -> tuple[object, ...]:
    """Facts as a ``Record`` keeps them: name, value, name, value."""
    out: list[object] = []
    for name, value in facts.items():
        out.append(name)
        out.append(value)
    return tuple(out)


class Told(NamedTuple):
    """One change the rules made: who, what, from where (or what value) to where, the rule and its facts.

    The read side's view of a ``Record`` (``told(record)``). ``at`` is the
    position a die takes in a location's row (-1: no position); ``amount`` what
    a gain or payment was worth before any limit cut it; ``source`` the card,
    tile, monastery or income a resource came from (the rules' own name for it,
    as in ``points_by_source``).
    """

    rule: str
    who: int
    what: str
    ident: str
    src: Any
    dst: Any
    at: int
    amount: int
    source: str
    facts: "dict[str, object] | None"


def told(record: Record) -> Told:
    """A ``Record`` read: its fields by name, its facts as a dict."""
    rule, who, what, ident, src, dst, at, amount, source, facts = record
    named = None
    if facts is not None:
        pairs = cast(tuple[object, ...], facts)
        named = {str(pairs[k]): pairs[k + 1] for k in range(0, len(pairs), 2)}
    return Told(str(rule), cast(int, who), str(what), str(ident), src, dst, cast(int, at), cast(int, amount), str(source),
                named)
