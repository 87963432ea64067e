"""A bonus as a screen says it: when it happens (the zone a card lies in), then what, in the catalog's short form.

What an effect does is written by ``coimbra_events.catalog.effect_text`` (the one
grammar the catalog's sheets, ``catalog show`` and ``catalog diff`` use); this
module only adds when.
"""

from __future__ import annotations

from typing import Iterable, Mapping

from coimbra_events.catalog.effect_kinds import Effect
from coimbra_events.catalog.effect_text import render

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


__all__ = ["TIMING_WORDS", "bonus_words", "effects_words"]
