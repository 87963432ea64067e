"""The catalog's effects in words a player reads: ``+3 guards``, ``2 points per gray card``.

One sentence per effect kind of the vocabulary (``coimbra_events.effect_kinds.KINDS``);
a kind without a sentence here falls back to the catalog's own short form, so a
new kind never breaks a view.
"""

from __future__ import annotations

from typing import Any, Callable, Iterable, Mapping

from coimbra_events.effect_kinds import Effect

TIMING_WORDS: Mapping[str, str] = {
    "immediate": "at once",
    "phase_c": "phase C",
    "phase_e": "phase E",
    "end_game": "end of game",
    "none": "no bonus",
}
"""When a card's bonus happens, in the game's words (its zone on the player's board)."""


def _condition(c: Mapping[str, str]) -> str:
    parts = [f"{c['category']}" if "category" in c else "", f"bought with {c['cost']}" if "cost" in c else "",
             f"of pile {c['pile']}" if "pile" in c else ""]
    words = " ".join(p for p in parts if p)
    return f"a {words} card" if words else "any card"


def _points(n: int) -> str:
    return f"{n} point" if n == 1 else f"{n} points"


def _nested(p: Mapping[str, Any]) -> str:
    return effects_words(p.get("effects", ()))


_WORDS: dict[str, Callable[[Mapping[str, Any]], str]] = {
    "gain": lambda p: f"+{_points(p['amount'])}" if p["resource"] == "points" else f"+{p['amount']} {p['resource']}",
    "advance": lambda p: f"+{p['amount']} on " + ("a track of your choice" if p["track"] == "choice" else f"the {p['track']} track"),
    "on_acquire": lambda p: f"when you acquire {_condition(p['condition'])}: {_nested(p)}",
    "per_die": lambda p: f"per {p['color']} die: {_nested(p)}",
    "if_no_die": lambda p: f"if none of your dice is {p['color']}: {_nested(p)}",
    "exchange": lambda p: f"exchange {p['rate']} {p['give']} for {_points(p['points'])}, as often as you like",
    "extra_income_die": lambda p: "one more income die (any track)",
    "voyage_discount": lambda p: f"voyages cost {p['amount']} less",
    "points": lambda p: _points(p["amount"]),
    "points_per_card": lambda p: f"{_points(p['points'])} per {'' if p['category'] == 'any' else p['category'] + ' '}card",
    "points_per_symbol_set": lambda p: f"{_points(p['points'])} per set of {' + '.join(p['symbols'])}",
    "points_per_monastery": lambda p: f"{_points(p['points'])} per monastery" + (f" of pile {p['pile']}" if p.get("pile") else ""),
    "points_per_voyage": lambda p: f"{_points(p['points'])} per voyage",
    "points_per_influence": lambda p: f"{_points(p['points'])} per {p['per']} spaces on "
                                      + (f"your {p['track']} track" if p["track"] in ("highest", "lowest") else f"the {p['track']} track"),
    "points_per_crown": lambda p: f"{_points(p['points'])} per crown",
}


def effect_words(effect: Effect) -> str:
    """One effect as a player reads it."""
    words = _WORDS.get(effect.kind)
    return words(effect.params) if words else effect.describe()


def effects_words(effects: Iterable[Effect]) -> str:
    """An effect list as a player reads it, or ``-`` when it has none."""
    return ", ".join(effect_words(e) for e in effects) or "-"


def bonus_words(timing: str, effects: Iterable[Effect]) -> str:
    """A card's bonus: when, then what (``phase E: per gray die: +1 coins``)."""
    if timing == "none":
        return TIMING_WORDS["none"]
    return f"{TIMING_WORDS.get(timing, timing)}: {effects_words(effects)}"


__all__ = ["TIMING_WORDS", "bonus_words", "effect_words", "effects_words"]
