"""The short written form of effects: one grammar, from each kind's phrase, read back exactly."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from coimbra_events.catalog import effect_text
from coimbra_events.catalog import standin_catalog
from coimbra_events.catalog.effect_kinds import CONDITION_KEYS, KINDS, Param
from coimbra_events.catalog.effect_text import EffectTextError, from_json, parse, parse_one, render

SYMBOLS = st.lists(st.sampled_from(["rosette", "quill", "star-2", "Lion_1"]), min_size=1, max_size=3)


def params(param: Param) -> st.SearchStrategy[Any]:
    if param.type == "int":
        return st.integers(param.minimum, param.maximum)
    if param.type == "enum":
        return st.sampled_from(param.choices)
    if param.type == "symbols":
        return SYMBOLS
    if param.type == "condition":
        return st.fixed_dictionaries({}, optional={k: st.sampled_from(v) for k, v in CONDITION_KEYS.items()})
    return st.lists(effects_in(param.nested), min_size=1, max_size=3)


def effect_of(name: str) -> st.SearchStrategy[dict[str, Any]]:
    kind = KINDS[name]
    required = {n: params(p) for n, p in kind.params.items() if not p.optional}
    optional = {n: params(p) for n, p in kind.params.items() if p.optional}
    return st.fixed_dictionaries({"kind": st.just(name), **required}, optional=optional)


def effects_in(context: str) -> st.SearchStrategy[dict[str, Any]]:
    return st.one_of([effect_of(k.name) for k in KINDS.values() if context in k.contexts])


ANY_EFFECT = st.one_of([effect_of(name) for name in KINDS])


@given(st.lists(ANY_EFFECT, min_size=1, max_size=4))
def test_every_effect_list_reads_back_as_written(effects: list[dict[str, Any]]) -> None:
    text = render(from_json(e) for e in effects)
    assert parse(text) == effects


def test_every_effect_of_the_standin_reads_back() -> None:
    catalog = standin_catalog()
    lists = [c["bonus"]["effects"] for c in catalog.data["characters"]] + [v["task"] for v in catalog.data["voyages"]]
    lists += [m["reward"]["effects"] for m in catalog.data["monasteries"]] + [t["effects"] for t in catalog.data["favor_tiles"]]
    for effects in lists:
        assert parse(render(from_json(e) for e in effects)) == effects


@pytest.mark.parametrize(
    ("text", "effects"),
    [
        ("gain 3 guards", [{"kind": "gain", "resource": "guards", "amount": 3}]),
        ("per die gray: gain 1 guards", [{"kind": "per_die", "color": "gray",
                                          "effects": [{"kind": "gain", "resource": "guards", "amount": 1}]}]),
        ("2 points per green card", [{"kind": "points_per_card", "category": "green", "points": 2}]),
        ("  Gain 2   COINS ;advance 1 on choice", [{"kind": "gain", "resource": "coins", "amount": 2},
                                                    {"kind": "advance", "track": "choice", "amount": 1}]),
        ("on acquiring any card: gain 1 coins and gain 1 guards",
         [{"kind": "on_acquire", "condition": {}, "effects": [{"kind": "gain", "resource": "coins", "amount": 1},
                                                               {"kind": "gain", "resource": "guards", "amount": 1}]}]),
        ("3 points per monastery of pile ii", [{"kind": "points_per_monastery", "points": 3, "pile": "II"}]),
        ("", []),
    ],
)  # fmt: skip
def test_written_forms(text: str, effects: list[dict[str, Any]]) -> None:
    assert parse(text) == effects


def test_values_are_read_as_written_for_the_loader_to_judge() -> None:
    assert parse_one("gain 0 gold") == {"kind": "gain", "resource": "gold", "amount": 0}


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("gain three guards", "'gain AMOUNT RESOURCE' (AMOUNT: a whole number 1-20; RESOURCE: coins, guards, points or steps)"),
        ("on acquiring blue card: gain 1 points", "a card condition: 'any', or at most one of each category / cost / pile"),
        ("teleport 3", "an effect, one of 'gain AMOUNT RESOURCE', 'advance AMOUNT on TRACK'"),
        ("2 points per blue cards", "an effect, one of 'AMOUNT points', 'POINTS points per CATEGORY card'"),
    ],
)
def test_a_text_in_no_form_names_the_forms_it_could_mean(text: str, expected: str) -> None:
    with pytest.raises(EffectTextError) as caught:
        parse(text)
    assert caught.value.expected.startswith(expected)


def test_the_grammar_keeps_its_separators_free() -> None:
    """Effects are split on '; ', nested ones on ' and ', symbols on '+': no phrase may use them, and a
    nested list never nests again (so ' and ' always means the innermost list)."""
    for kind in KINDS.values():
        assert ";" not in kind.phrase and " and " not in kind.phrase and "+" not in kind.phrase
        for param in kind.params.values():
            if param.type == "effects":
                nested = [k for k in KINDS.values() if param.nested in k.contexts]
                assert all(p.type != "effects" for k in nested for p in k.params.values())
    assert len(effect_text.forms()) == len(KINDS)
