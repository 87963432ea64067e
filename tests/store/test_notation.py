"""The notation: every event renders to one line that parses back to an equal event."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from coimbra_events.event_decoding import decode_event
from coimbra_events.events import EVENT_TYPES, GameEvent
from coimbra_events.notation import BY_TYPE, VERBS, NotationError, parse, render
from coimbra_events.rules.core import apply, legal, start
from coimbra_events.rules.outcomes import OutcomeSpace
from coimbra_events.simulator import DEFAULT_PLAYERS, next_event, simulate
from coimbra_events.state import TABLE

seeds = st.integers(min_value=0, max_value=2**32 - 1)


def assert_round_trip(event: GameEvent) -> None:
    text = render(event)
    assert "\n" not in text
    assert parse(text) == event, text
    if not event.RANDOM:  # the prefix may be left out for the player due
        assert parse(text.split(":", 1)[1], default_actor=event.actor) == event
    else:  # and table outcomes are always the table's
        assert parse(text.split(":", 1)[1]) == event


def test_every_event_type_has_one_verb():
    assert sorted(BY_TYPE) == sorted(EVENT_TYPES)
    assert len({v.word for v in VERBS}) == len(VERBS)


WHOLE_EXAMPLES = [v for v in VERBS if "..." not in v.example.removesuffix(" ...")]


@pytest.mark.parametrize("verb", WHOLE_EXAMPLES, ids=lambda v: v.word)
def test_every_whole_example_parses(verb):
    assert isinstance(parse(verb.example.removesuffix(" ...")), verb.event)


@pytest.mark.property
@pytest.mark.parametrize("players", [2, 3, 4])
@given(seed=seeds)
def test_every_event_of_a_simulated_game_round_trips(catalog, players, seed):
    log, _ = simulate(catalog, DEFAULT_PLAYERS[:players], seed)
    for event in log.events:
        assert_round_trip(event)


@pytest.mark.property
@given(seed=seeds)
def test_every_legal_option_round_trips(catalog, seed):
    """Not only the decisions the bots took: every one offered along the way."""
    rng = random.Random(seed)
    state = start(catalog, DEFAULT_PLAYERS[: 2 + seed % 3])
    while not state.over:
        options = legal(state)
        if not isinstance(options, OutcomeSpace):
            for option in options:
                assert_round_trip(option)
        state = apply(state, next_event(state, rng))


_word = st.from_regex(r"[A-Za-z0-9][A-Za-z0-9._-]{0,11}", fullmatch=True)
_name = st.lists(_word, min_size=1, max_size=3).map(" ".join)
_VALUES = {
    "str": _word,
    "int": st.integers(-99, 99),
    "strs": st.lists(_name, max_size=6),
    "groups": st.lists(st.lists(_word, min_size=1, max_size=3), max_size=4),
    "str_map": st.dictionaries(_word, _word, max_size=6),
    "int_map": st.dictionaries(_word, st.integers(-9, 99), max_size=6),
    "strs_map": st.dictionaries(_word, st.lists(_word, max_size=4), max_size=4),
}


@st.composite
def any_event(draw: st.DrawFn) -> GameEvent:
    """Any event of any type with any writable payload (legal or not: the notation does not judge)."""
    cls = draw(st.sampled_from(sorted(EVENT_TYPES.values(), key=lambda c: c.TYPE)))
    actor = TABLE if cls.RANDOM else draw(_name)
    payload = {name: draw(_VALUES[kind]) for name, kind in cls.KINDS.items()}
    return decode_event(cls.TYPE, actor, payload)


@pytest.mark.property
@given(event=any_event())
def test_any_writable_event_round_trips(event):
    assert_round_trip(event)


@pytest.mark.parametrize(
    "text, expected",
    [
        ("", "expected '[Name:] VERB ARGS'"),
        ("Ana: plce gray-1 castle", "unknown verb 'plce' (did you mean 'place'?); expected decisions: group, pilgrim"),
        ("Ana: place gray-1", "'place' expects 'place DIE LOCATION'"),
        ("Ana: place gray-1 castle now", "unexpected 'now'"),
        ("Ana: group two", "GROUP must be a whole number"),
        ("Ana: roll gray-1=3", "'roll' is a table outcome; write 'table: roll"),
        ("table: roll gray-1=3 gray-1=4", "gray-1 is given twice"),
        ("table: roll gray-1", "expected KEY=VALUE pairs"),
        ("Ana: alt 3x", "expected amounts like '2c' (coins) or '1g' (guards)"),
        ("pass", "who decides? write 'Name: pass'"),
        (": pass", "nothing before ':'"),
    ],
)
def test_bad_notation_says_what_was_expected_on_one_line(text, expected):
    with pytest.raises(NotationError) as caught:
        parse(text)
    message = str(caught.value)
    assert expected in message and "\n" not in message
    assert isinstance(caught.value, ValueError)


def test_unknown_verb_lists_every_verb():
    with pytest.raises(NotationError) as caught:
        parse("Ana: fly")
    assert all(v.word in str(caught.value) for v in VERBS)


def test_prefix_wins_over_the_default_actor_and_verbs_ignore_case():
    assert parse("Bruno: PASS", default_actor="Ana") == decode_event("VoyagePassed", "Bruno", {})
    assert parse("alt 1g", default_actor="Ana") == decode_event("AlternativeTaken", "Ana", {"coins": 0, "guards": 1})


def test_a_value_the_notation_cannot_write_is_refused_when_rendering():
    with pytest.raises(NotationError):
        render(decode_event("SeatingDrawn", TABLE, {"order": ["Ana,Maria", "Bruno"]}))
