"""The recorder prompt's aids: what Tab offers after the text typed so far, and the bottom toolbar.

Pure functions of the table and the text, so they are tested without a
terminal; ``cli.record_prompt`` hands them to prompt_toolkit. The options they
offer come from the read side (``projections.options``), the names from
``projections.recording.names_of``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from cli.record_words import COMMAND_WORDS
from coimbra_events.lines import read
from coimbra_events.names import FIELDS, fold
from coimbra_events.notation import NotationError
from coimbra_events.rules import core as rules
from coimbra_events.state import TABLE, GameState
from coimbra_events.violations import RuleViolation
from projections.board import PHASE_NAMES
from projections.options import options
from projections.recording import names_of, step_header


@dataclass(frozen=True)
class Completion:
    """What Tab may put in place of the last ``back`` characters typed, and a word on what it is."""

    text: str
    back: int
    about: str = ""


_FRAGMENT = re.compile(r"[=,+]\s*([^=,+]*)$")
"""The name being typed in a table outcome: what follows the last ``=``, ``,`` or ``+``."""


def completions(state: GameState, typed: str) -> list[Completion]:
    """What Tab offers after ``typed``: whole options (by name and id) and commands, or the names a table outcome takes.

    Options and commands complete the whole line; in a table outcome written by
    name (``rows upper=Chron``), the name after the last ``=``, ``,`` or ``+``
    completes against the components of the kind the outcome holds; after a
    ``;`` (several entries of a turn), the last entry completes against the
    options left once the entries before it are made.
    """
    head, sep, last = typed.rpartition(";")
    if sep:  # a line of several entries: the last one completes on the table the ones before leave
        after = _after(state, head)
        return [] if after is None else completions(after, last.lstrip())
    key = fold(typed)
    words = [w for w in (*COMMAND_WORDS, "help") if w.startswith(key)] if " " not in key else []
    out = [Completion(w, len(typed)) for w in dict.fromkeys(words)]
    due = state.pending
    if due is None:
        return out
    if due.actor != TABLE:
        for o in options(state):  # one completion an option: by name if the start typed fits it, else by id
            text = next((t for t in (o.text, o.notation) if fold(t).startswith(key)), None)
            if text is not None and fold(text) != key:
                out.append(Completion(text, len(typed), o.about))
        return out
    fragment = _FRAGMENT.search(typed)
    kind = FIELDS.get(rules.ACCEPTS[due.kind][0].TYPE)
    if fragment is None or not kind:
        return out
    part = fragment.group(1)
    names = names_of(state).kinds[next(iter(kind.values()))]
    for entry in names.entries:
        if fold(entry.name).startswith(fold(part)) or fold(entry.ident).startswith(fold(part)):
            out.append(Completion(entry.name, len(part), entry.ident if entry.name != entry.ident else ""))
    return out


def _after(state: GameState, head: str) -> GameState | None:
    """The table after the entries typed before the last ``;`` of a line, if they read and are legal."""
    due = state.pending
    try:
        for event in read(head, due.actor if due else None, names_of(state), state):
            state = rules.apply(state, event)
    except (NotationError, RuleViolation):
        return None
    return state


def toolbar(state: GameState, entries: int) -> str:
    """The prompt's bottom line: who acts, what is due, round and phase, and the entry the input becomes."""
    due = state.pending
    if due is None:
        return f"game over · {entries} entries"
    where = f"round {state.round} · phase {PHASE_NAMES[state.phase]}" if state.round else PHASE_NAMES[state.phase]
    return f"{due.actor}: {step_header(state)} · {where} · entry {entries + 1} · Tab completes, 'help' lists the commands"


__all__ = ["Completion", "completions", "toolbar"]
