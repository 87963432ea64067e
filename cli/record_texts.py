"""What the recorder prints at a terminal: the options numbered, its help, how to write an outcome, a refusal.

Lines of plain text laid out for a terminal (``cli.record_command`` prints
them); the commands themselves are read by ``cli.record_words``; what a line of
the game's input means, and what the table is told in words, are the read
side's (``projections.recording``), which any front-end shares.
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from coimbra_events.catalog import Catalog
from coimbra_events.catalog.effect_kinds import TRACKS
from coimbra_events.events import GameEvent
from coimbra_events.notation import BY_TYPE, render
from coimbra_events.rules import core as rules
from coimbra_events.rules.outcomes import OutcomeSpace
from coimbra_events.state import CITIES, GameState
from coimbra_events.violations import RULES, RuleViolation
from projections.naming import named_text, value_text
from projections.options import Option
from projections.recording import pool_order

SHOWN_GROUPS = 10
"""Lines of grouped options printed at each step; the rest are a prefix or ``legal`` away."""
FLAT_LIMIT = 10
"""Up to this many options are listed one per line; more are grouped by all but their last word."""

COMMANDS_HELP: tuple[tuple[str, str], ...] = (
    ("N", "the option numbered N"),
    ("place gray-1 castle", "a decision in notation (docs/notation.md); 'Name:' may be left out"),
    ("place gray-1 c, buy chap", "the start of an option, by name or id: taken if only one option starts so, else "
                                 "they are listed (Tab completes it at a terminal)"),
    ("buy Chaplain, rows upper=Chronicler, …", "components by name, id or the start of either, any case"),
    ("roll gray-1=3 ...  or  3 5 1 ...", "the dice rolled at the table: notation, or one value per die in the order "
                                         "a roll is listed (gray-1 gray-2 green-1 …)"),
    ("income gray-1; orange-2; end", "several entries of your turn on one line: a whole income, a walk to a space"),
    ("r, roll", "draw the table's outcome from the game's seed (games started with --seed)"),
    ("undo", "withdraw the latest entry (it stays in the log, marked as withdrawn)"),
    ("correct N DECISION", "replace what entry N said (a correction entry; later entries are checked again)"),
    ("accept DECISION because REASON", "record a move the table accepted although it breaks a rule"),
    ("note N TEXT", "a comment on entry N (bookmark N LABEL: a place to jump to in a replay)"),
    ("show", "the whole board"),
    ("legal", "every legal option, numbered"),
    ("help", "this list"),
    ("quit", "stop here; everything entered is stored (so do Ctrl-C and Ctrl-D)"),
)
"""The recorder's ``help``: what may be typed at its prompt, and what each does."""


def option_lines(listed: Sequence[Option], limit: int | None = SHOWN_GROUPS, flat: bool = False,
                 numbers: Sequence[int] | None = None) -> list[str]:
    """The options numbered (``numbers``: as ``projections.recording.Numbers`` keeps them through a turn; else 1
    to N), each with what it is; a long list grouped by the options' heads, at most ``limit`` lines.

    ``place gray-1 (shows 4)   1 castle  2 upper  3 central  4 lower``: 28
    drafting options fit in seven lines and every number stays visible.
    ``flat``: one option a line, however many (what ``legal`` prints).
    """
    shown = list(numbers) if numbers is not None else list(range(1, len(listed) + 1))
    width = len(str(max(shown, default=0)))
    if flat or len(listed) <= FLAT_LIMIT:
        return [f"  {k:>{width}}  {o.text}" + (f"  ({o.about})" if o.about else "") for k, o in zip(shown, listed)]
    groups: dict[str, list[str]] = {}
    for k, o in zip(shown, listed):
        if o.head:
            groups.setdefault(f"{o.head} {o.head_about}".rstrip(), []).append(f"{k:>{width}} {o.last}")
        else:
            groups[f"{k:>{width}}  {o.text}" + (f"  ({o.about})" if o.about else "")] = []
    pad = max((len(h) for h, items in groups.items() if items), default=0)
    lines = [f"  {head:<{pad}}  {'  '.join(items)}" if items else f"  {head}" for head, items in groups.items()]
    if limit is not None and len(lines) > limit:
        hidden = sum(len(items) or 1 for items in list(groups.values())[limit:])
        lines = lines[:limit] + [f"  … {hidden} more: type the start of one, or 'legal' for all"]
    return lines


def outcome_prompt(state: GameState, space: OutcomeSpace, example: GameEvent) -> list[str]:
    """What the table must enter for ``space``: what is drawn, how to write it, where it can come from."""
    verb = BY_TYPE[rules.ACCEPTS[space.kind][0].TYPE]
    lines = [f"  {space.description}", f"  write: {verb.usage}", f"  e.g.:  {render(example).split(': ', 1)[1]}"]
    cat = state.catalog
    if space.kind == "dice":
        lines.append(f"  or the values in this order: {' '.join(pool_order(state))}  (e.g. 3 5 1 6 2 4 4)")
    elif space.kind == "monasteries":
        lines += [f"  pile {pile} tiles go on: {' '.join(spaces)}" for pile, spaces in cat.map.monastery_spaces.items()]
    elif space.kind == "scoring-tiles":
        lines.append(f"  tracks: {' '.join(TRACKS)}; tiles: {' '.join(cat.scoring_tiles)}")
    elif space.kind == "voyages":
        lines.append(f"  voyage spaces 1 to {len(cat.voyage_spaces)}, left to right; cards {min(cat.voyages)} to {max(cat.voyages)}")
    elif space.kind == "seating":
        lines.append(f"  players: {', '.join(p.name for p in state.players)}; the holder of lion flag 1 first")
    elif space.kind == "rows":
        lines.append(f"  cities {', '.join(CITIES)}: {cat.cards_per_row} cards each, left to right")
    elif space.kind == "start-groups":
        lines.append(f"  group 1 first; the cards of a group joined by '+' (start cards are {cat.pile('I')[0]} …)")
    return lines


def refusal_lines(text: str, violation: RuleViolation, catalog: Catalog,
                  monasteries: Mapping[str, str] | None = None) -> list[str]:
    """A refused input: the rule id, why, what the rule says (with the game's catalog), and the facts it checked,
    components named (map spaces by the ``monasteries`` on them, space -> monastery id)."""
    rule = RULES[violation.rule]
    facts = "; ".join(f"{k} {_short(catalog, v, monasteries)}" for k, v in violation.facts.items())
    lines = [f"refused '{text}': rule {violation.rule}: {named_text(catalog, violation.reason, monasteries)}; nothing stored",
             f"  {rule.id}: {rule.statement_for(catalog)} ({rule.source})"]
    return lines + ([f"  facts: {facts}"] if facts else [])


def _short(catalog: Catalog, value: Any, monasteries: Mapping[str, str] | None = None, most: int = 8) -> str:
    """A fact's value on one line, components named (map spaces by the ``monasteries`` on them); long lists
    are cut (the full facts are in ``coimbra act --json``)."""
    if isinstance(value, (list, tuple, frozenset, set)) and len(value) > most:
        return value_text(catalog, list(value)[:most], monasteries) + f", … {len(value) - most} more"
    return value_text(catalog, value, monasteries)


__all__ = ["COMMANDS_HELP", "FLAT_LIMIT", "SHOWN_GROUPS", "option_lines", "outcome_prompt", "refusal_lines"]
