"""The table's outcome as a form (``projections.outcome_form``): every outcome of every fixture game can be
picked from its slots and pools, and the picks written as the form says read back to the very same event."""

from __future__ import annotations

from pathlib import Path

import pytest

from coimbra_events import log_reader
from coimbra_events.notation import parse
from coimbra_events.rules.outcomes import KINDS
from projections.outcome_form import outcome_form
from projections.recording import pool_order
from projections.timeline import timeline
from tests.conftest import FIXTURES

GAMES = sorted((FIXTURES / "games").glob("*.json"))


def picks(event) -> list[tuple[str | None, list[str]]]:
    """What the table picked for each slot of the event's form, read from the event's payload."""
    payload = event.payload()
    (field,) = payload.values()
    if isinstance(field, dict):
        return [(k, v if isinstance(v, list) else [str(v)]) for k, v in field.items()]
    if field and isinstance(field[0], list):
        return [(None, g) for g in field]
    return [(None, list(field))]


def written(form: dict, chosen: dict[str | None, list[str]] | list[list[str]]) -> str:
    """The input a page writes from the picks, as the form says."""
    parts = [(f"{s['key']}=" if s["key"] else "") + form["sep"].join(p) for s, p in zip(form["slots"], chosen)]
    return f"table: {form['verb']} " + " ".join(parts)


@pytest.mark.parametrize("path", GAMES, ids=[p.stem for p in GAMES])
def test_every_table_outcome_of_the_fixtures_is_picked_from_its_form(path: Path):
    log = log_reader.read(path)
    line = timeline(log)
    seen = 0
    for state, event in zip(line.states, log.events):
        form = outcome_form(state)
        if form is None:
            assert event.actor != "table" or event.TYPE in {"Noted", "Bookmarked"}
            continue
        seen += 1
        by_key = dict(picks(event))
        chosen = [by_key[s["key"]] for s in form["slots"]] if form["slots"][0]["key"] else [p for _, p in picks(event)]
        for slot, picked in zip(form["slots"], chosen):
            assert len(picked) == slot["size"], (slot, picked)
            pool = {item["id"] for item in form["pools"][slot["pool"]]}
            assert set(picked) <= pool, (slot, picked)
        assert parse(written(form, chosen)) == event
    assert seen >= 7


def test_pools_are_named_as_printed_and_a_player_due_has_no_form():
    log = log_reader.read(FIXTURES / "games" / "standin-4p-seed3.json")
    line = timeline(log)
    form = outcome_form(line.states[4])
    assert form["kind"] == "rows" and all(item["name"] != item["id"] for item in form["pools"]["deck"])
    assert outcome_form(line.states[6]) is None and outcome_form(line.final) is None


def test_a_roll_is_asked_in_the_order_a_roll_is_written_its_dice_by_colour():
    log = log_reader.read(FIXTURES / "games" / "standin-4p-seed3.json")
    line = timeline(log)
    k = next(k for k, e in enumerate(log.events) if e.TYPE == "DiceRolled")
    state = line.states[k]
    form = outcome_form(state)
    assert [s["key"] for s in form["slots"]] == list(pool_order(state)) == [d for c in form["colors"] for d in c["dice"]]
    assert [c["color"] for c in form["colors"]] == list(dict.fromkeys(state.catalog.die_colors[d] for d in pool_order(state)))
    assert all(state.catalog.die_colors[d] == c["color"] for c in form["colors"] for d in c["dice"])
    assert [s["label"] for s in form["slots"]][:2] == ["the gray die", "the gray die"]  # no ids


def test_a_deal_offers_only_the_cards_the_rules_allow():
    log = log_reader.read(FIXTURES / "games" / "standin-4p-seed3.json")
    line = timeline(log)
    deals = [k for k, e in enumerate(log.events) if e.TYPE == "CharacterRowsDealt"]
    assert len(deals) > 2
    for k in deals:  # pile II alone, then pile II's last cards with pile III
        state = line.states[k]
        offered = [item["id"] for item in outcome_form(state)["pools"]["deck"]]
        allowed = [str(c) for c, _ in KINDS["rows"].next_pieces(state, ())]
        undealt = [c for pile in ("II", "III") for c in state.catalog.pile(pile) if c not in state.dealt]
        assert offered == allowed and set(log.events[k].payload()["rows"]["upper"]) <= set(offered)
        if k == deals[0]:  # pile II alone: not the cards of pile III
            assert len(offered) < len(undealt)


def test_a_monastery_space_is_called_by_the_named_spaces_beside_it_and_by_its_id_only_on_a_map_without_names():
    from coimbra_events.catalog import shipped_catalogs, standin_catalog
    from coimbra_events.rules import core as rules

    named = standin_catalog()
    form = outcome_form(rules.start(named, [("Ana", "red"), ("Bruno", "blue")]))
    spaces = named.map.spaces
    for slot in form["slots"]:
        beside = [spaces[n].name for n in named.map.neighbours[slot["key"]] if spaces[n].name]
        assert slot["label"].startswith("the space by ") and all(name in slot["label"] for name in beside)
        assert slot["key"] not in slot["label"]
    assert len({s["label"] for s in form["slots"]}) == len(form["slots"])  # no two alike
    bare = next(c for c in shipped_catalogs() if not any(s.name for s in c.map.spaces.values()))
    first = outcome_form(rules.start(bare, [("Ana", "red"), ("Bruno", "blue")]))["slots"][0]
    assert first["label"] == f"space {first['key']} (pile I)"
