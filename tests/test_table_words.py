"""Entries and options as the table says them (``projections.table_words``): no notation, no ids.

The 2- and 4-player fixtures are played again on the catalog whose map has printed names (as a new game is), and
every entry and every option of every decision on the way is said: dice by colour and value, components
and map spaces by printed name, never a catalog id, never a verb of the notation's shorthand.
"""

from __future__ import annotations

import re
from functools import lru_cache

import pytest

from coimbra_events import events as ev
from coimbra_events import log_reader
from coimbra_events.catalog import standin_catalog
from coimbra_events.events import EVENT_TYPES
from coimbra_events.rules import core as rules
from coimbra_events.state import GameState
from projections.naming import KINDS, name_of
from projections.options import options
from projections.table_words import _SAY, amount_words, decision_words, table_words
from tests.conftest import FIXTURES

CATALOG = standin_catalog()
IDS = frozenset(i for table, _ in KINDS for i in getattr(CATALOG, table)) | frozenset(CATALOG.map.spaces) | frozenset(CATALOG.die_colors)
ID = re.compile(r"(?<![\w-])[A-Za-z0-9]+(?:-[A-Za-z0-9]+)+(?![\w-])")
"""A word shaped like an id (``c-II-05``, ``gray-2``, ``start-w``)."""
SHORTHAND = re.compile(r"\b(?:alt|\d+[cg])\b")
"""The notation's alternative action (``alt 1c 2g``)."""


@lru_cache(maxsize=1)
def played() -> tuple[tuple[GameState, ev.GameEvent], ...]:
    """The fixtures' entries (2 and 4 players), each with the table just before it, on the named map."""
    out = []
    for fixture in ("standin-2p-seed1", "standin-4p-seed3"):
        log = log_reader.read(FIXTURES / "games" / f"{fixture}.json")
        state = rules.start(CATALOG, log.players)
        for event in log.events:
            out.append((state, event))
            state = rules.apply(state, event)
    return tuple(out)


def ids_in(text: str) -> list[str]:
    return [w for w in ID.findall(text) if w in IDS]


def test_every_kind_of_entry_has_its_words():
    assert set(_SAY) == set(EVENT_TYPES.values())


def test_every_entry_is_said_without_ids_or_notation():
    for state, event in played():
        said = table_words(state, event)
        assert not ids_in(said) and not SHORTHAND.search(said), said
        assert said.startswith(f"{'Table' if event.actor == 'table' else event.actor}: ")


def test_every_option_of_every_kind_of_decision_is_said_without_ids_or_notation():
    kinds = set()
    for state, _ in played():
        for k, option in enumerate(options(state), 1):
            described = option.to_json(k)
            kinds.add(type(option.event))
            for field in ("text", "about"):
                assert not ids_in(str(described[field])) and not SHORTHAND.search(str(described[field])), described
            assert described["notation"].endswith(option.notation) and described["typed"] == option.text
    decisions = {t for t in EVENT_TYPES.values() if not t.RANDOM and t not in ev.HISTORY_TYPES}
    assert decisions == kinds, decisions ^ kinds  # every kind of decision, said


def test_a_die_is_said_by_its_colour_and_the_value_it_shows():
    state, event = next((s, e) for s, e in played() if isinstance(e, ev.DiePlaced))
    color, value = CATALOG.die_colors[event.die], state.die_value(event.die)
    assert decision_words(state, event).startswith(f"place the {color} die showing {value} in the ")


def test_a_step_is_said_by_the_spaces_printed_name():
    state, event = next((s, e) for s, e in played() if isinstance(e, ev.PilgrimPlaced))
    assert decision_words(state, event) == f"put the pilgrim on {CATALOG.map.spaces[event.space].name}"


@pytest.mark.parametrize(("coins", "guards", "said"), [
    (0, 0, "take no coins and no guards"), (1, 2, "take 1 coin and 2 guards"), (2, 1, "take 2 coins and 1 guard"),
    (0, 3, "take no coins and 3 guards"),
])
def test_the_alternative_action_is_said_in_words(coins: int, guards: int, said: str):
    state, _ = played()[0]
    assert decision_words(state, ev.AlternativeTaken("Ana", coins, guards)) == said


def test_amounts_are_said_as_people_count():
    assert [amount_words(n, "coin") for n in (0, 1, 2)] == ["no coins", "1 coin", "2 coins"]


def test_a_card_is_said_by_its_printed_name_alone():
    state, event = next((s, e) for s, e in played() if isinstance(e, ev.CardBought))
    assert decision_words(state, event) == f"buy {name_of(CATALOG, event.card)}"


def test_who_is_due_is_said_without_ids():
    """The line saying who is due (the terminal's ``next:`` and the live table's header) names components and dice
    by their printed names and the values they show: "steps (…, from Novice)", not "from c-I-05"."""
    from types import SimpleNamespace

    from cli.presenter import due

    lines = {due(SimpleNamespace(pending=rules.due(state), state=state)) for state, _ in played()}
    assert not [line for line in lines if ids_in(line)]
    assert any(" from " in line for line in lines) and any(" die showing " in line for line in lines)
