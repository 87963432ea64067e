"""The effect vocabulary of GAPS.md, as data.

Every bonus in a catalog (character cards, favor tiles, monasteries, voyages) is a
list of effects ``{"kind": ..., <params>}``. This module says which kinds exist,
in which *context* each may appear and what parameters each takes, so the catalog
loader can reject a bad catalog precisely and the rules engine can dispatch each
kind to one small handler. Adding a kind means adding one entry here and one
handler in ``rules/effects.py``; nothing else in the engine changes.
"""

from __future__ import annotations

from typing import Any, Final, Mapping

from coimbra_events.record import Record

TRACKS: Final[tuple[str, ...]] = ("gray", "orange", "purple", "green")
"""The four influence tracks, named by die colour (rules text)."""
TRACK_INDEX: Final[Mapping[str, int]] = {track: k for k, track in enumerate(TRACKS)}
"""Each track's place in ``TRACKS`` (and in a player's ``influence``), looked up rather than searched."""

TRACK_RESOURCE: Final[Mapping[str, str]] = {
    "gray": "guards",
    "orange": "coins",
    "purple": "steps",
    "green": "points",
}
"""What a track's income pays (rules text, 003 income table)."""

RESOURCES: Final[tuple[str, ...]] = ("coins", "guards", "points", "steps")
SPENDABLE: Final[tuple[str, ...]] = ("coins", "guards")
PILES: Final[tuple[str, ...]] = ("I", "II", "III")

# Contexts: where an effect list appears and when it is carried out.
IMMEDIATE: Final = "immediate"  # once, when gained (card bought, tile taken, monastery entered)
PHASE_C: Final = "phase_c"  # start cards: when the owner acquires a matching card
PHASE_E: Final = "phase_e"  # every round, in the owner's phase E
END_GAME: Final = "end_game"  # scored once at the end of the game
HELD: Final = "held"  # favor tiles: in force while the tile is held this round


class Param(Record):
    """One parameter of an effect kind.

    ``type`` is one of ``"int"``, ``"enum"``, ``"effects"`` (a nested effect list
    in context ``nested``), ``"condition"`` (a card condition) or ``"symbols"``
    (a non-empty list of symbol names).
    """

    FIELDS = ("type", "choices", "minimum", "maximum", "optional", "nested")
    COMPARED = FIELDS

    def __init__(self, type: str, choices: tuple[str, ...] = (), minimum: int = 0, maximum: int = 99,
                 optional: bool = False, nested: str = "") -> None:
        self.type: Final = type
        self.choices: Final = choices
        self.minimum: Final = minimum
        self.maximum: Final = maximum
        self.optional: Final = optional
        self.nested: Final = nested


class EffectKind(Record):
    """A kind of effect: the contexts it may appear in, its parameters and its short form.

    ``phrase`` is how a sheet writes it, e.g. ``gain {amount} {resource}``: each ``{param}``
    is a parameter's value, ``[...]`` holds an optional parameter's part (``effect_text``
    reads and writes it).
    """

    FIELDS = ("name", "contexts", "params", "summary", "phrase")
    COMPARED = FIELDS

    def __init__(self, name: str, contexts: tuple[str, ...], params: Mapping[str, Param], summary: str, phrase: str) -> None:
        self.name: Final = name
        self.contexts: Final = contexts
        self.params: Final = params
        self.summary: Final = summary
        self.phrase: Final = phrase


_AMOUNT: Final = Param("int", minimum=1, maximum=20)
_POINTS: Final = Param("int", minimum=1, maximum=20)
_GAINS: Final = (IMMEDIATE, PHASE_E)
"""Gains happen at a moment (when gained, or at the start of phase E); a favor tile's gains
are immediate, and only ``extra_income_die`` / ``voyage_discount`` are held."""

KINDS: Final[Mapping[str, EffectKind]] = {
    k.name: k
    for k in (
        EffectKind(
            "gain",
            _GAINS,
            {"resource": Param("enum", RESOURCES), "amount": _AMOUNT},
            "gain N coins, guards, victory points or pilgrim steps",
            "gain {amount} {resource}",
        ),
        EffectKind(
            "advance",
            _GAINS,
            {"track": Param("enum", TRACKS + ("choice",)), "amount": _AMOUNT},
            "advance N on a given influence track, or on a track of your choice",
            "advance {amount} on {track}",
        ),
        EffectKind(
            "on_acquire",
            (PHASE_C,),
            {
                "condition": Param("condition"),
                "effects": Param("effects", nested=IMMEDIATE),
            },
            "when you acquire a card that meets the condition, gain the effects",
            "on acquiring {condition} card: {effects}",
        ),
        EffectKind(
            "per_die",
            (PHASE_E,),
            {
                "color": Param("enum", TRACKS),
                "effects": Param("effects", nested=IMMEDIATE),
            },
            "per die of this colour on your shutter spaces (white never counts), gain the effects",
            "per die {color}: {effects}",
        ),
        EffectKind(
            "if_no_die",
            (PHASE_E,),
            {
                "color": Param("enum", TRACKS),
                "effects": Param("effects", nested=IMMEDIATE),
            },
            "at the start of phase E, gain the effects if none of your dice has this colour",
            "if no die {color}: {effects}",
        ),
        EffectKind(
            "exchange",
            (PHASE_E,),
            {
                "give": Param("enum", SPENDABLE),
                "rate": Param("int", minimum=1, maximum=20),
                "points": _POINTS,
            },
            "in phase E, as often as you like: pay RATE coins (or guards) for POINTS victory points",
            "exchange {rate} {give} for {points} points",
        ),
        EffectKind(
            "extra_income_die",
            (HELD,),
            {},
            "one more phase E income activation on a track of your choice (never a 'per die' colour)",
            "extra income die",
        ),
        EffectKind(
            "voyage_discount",
            (HELD,),
            {"amount": _AMOUNT},
            "each voyage investment costs N less (never below 0) while you hold this",
            "voyage discount {amount}",
        ),
        EffectKind("points", (END_GAME,), {"amount": _POINTS}, "fixed victory points", "{amount} points"),
        EffectKind(
            "points_per_card",
            (END_GAME,),
            {"category": Param("enum", TRACKS + ("any",)), "points": _POINTS},
            "victory points per character card of a category you own (start cards included)",
            "{points} points per {category} card",
        ),
        EffectKind(
            "points_per_symbol_set",
            (END_GAME,),
            {"symbols": Param("symbols"), "points": _POINTS},
            "victory points per complete set of these symbols on your character cards",
            "{points} points per set of {symbols}",
        ),
        EffectKind(
            "points_per_monastery",
            (END_GAME,),
            {"points": _POINTS, "pile": Param("enum", PILES, optional=True)},
            "victory points per monastery you marked (optionally of one pile)",
            "{points} points per monastery[ of pile {pile}]",
        ),
        EffectKind(
            "points_per_voyage",
            (END_GAME,),
            {"points": _POINTS},
            "victory points per voyage you invested in",
            "{points} points per voyage",
        ),
        EffectKind(
            "points_per_influence",
            (END_GAME,),
            {
                "track": Param("enum", TRACKS + ("highest", "lowest")),
                "per": Param("int", minimum=1, maximum=15),
                "points": _POINTS,
            },
            "victory points per PER spaces of your disc on a track (or your highest / lowest track)",
            "{points} points per {per} spaces on {track}",
        ),
        EffectKind(
            "points_per_crown",
            (END_GAME,),
            {"points": _POINTS},
            "victory points per crown you collected over the game (crown tokens and favor tiles)",
            "{points} points per crown",
        ),
    )
}

CONDITION_KEYS: Final[Mapping[str, tuple[str, ...]]] = {
    "category": TRACKS,
    "cost": SPENDABLE,
    "pile": PILES,
}
"""Keys a card condition (``on_acquire``) may test; an empty condition matches any card."""


class Effect(Record):
    """One effect of the catalog, parsed: its kind and parameters.

    Nested effect lists (``on_acquire``, ``per_die``, ``if_no_die``) are held as
    ``tuple[Effect, ...]`` under ``params["effects"]``; a condition is a plain
    mapping; ``symbols`` is a tuple of strings. Never mutated after loading.
    """

    FIELDS = ("kind", "params")
    COMPARED = FIELDS

    def __init__(self, kind: str, params: Mapping[str, Any]) -> None:
        self.kind: Final = kind
        self.params: Final = params

    @property
    def nested(self) -> tuple["Effect", ...]:
        """The nested effect list, or an empty tuple for kinds without one."""
        return self.params.get("effects", ())
