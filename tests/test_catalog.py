"""The catalog loader, the shipped stand-in catalog and ``coimbra catalog``."""

from __future__ import annotations

import copy
import hashlib
import re
from collections import Counter, deque
from collections.abc import Callable
from pathlib import Path
from typing import Any

import orjson
import pytest
import typer
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from cli.catalog_commands import catalog_app
from coimbra_events.catalog import schema as catalog_schema
from coimbra_events.catalog import (
    PROVENANCES,
    Catalog,
    CatalogError,
    catalog_dirs,
    effect_vocabulary_markdown,
    find_catalog,
    load_catalog,
    parse_catalog,
    standin_catalog,
)
from coimbra_events.catalog.effect_kinds import HELD, KINDS, PILES, TRACKS

ROOT = Path(__file__).resolve().parent.parent
STANDIN = ROOT / "fixtures" / "catalogs" / "standin.json"
# Recorded game logs name the catalog by id and hash: a change to standin.json must
# come with a new id (and this constant), never silently.
STANDIN_SHA256 = "b336186307eec07bab74cf273484b0c9d6e5dd6930be2d79613b0787738f6806"


@pytest.fixture(scope="module")
def standin() -> Catalog:
    """standin-1, the stand-in the fixtures were recorded with (standin-2 is its values with space names)."""
    return find_catalog("standin-1")


def standin_data() -> dict[str, Any]:
    return orjson.loads(STANDIN.read_bytes())


# ------------------------------------------------------------------ the stand-in


def test_standin_is_the_shipped_file(standin: Catalog) -> None:
    assert standin.id == "standin-1"
    assert standin.schema == 1
    assert catalog_dirs() == (ROOT / "fixtures" / "catalogs",)
    assert load_catalog(STANDIN) == standin


def test_new_games_start_with_the_stand_in_that_names_every_space(standin: Catalog) -> None:
    """The default catalog (cached) is standin-2: standin-1's values, and a name for every space a monastery is not
    laid on, so that a person reads a name for every space of a new game."""
    default = standin_catalog()
    assert default is standin_catalog()
    assert (default.id, default.schema) == ("standin-2", 1)
    assert all(s.name for s in default.map.spaces.values() if s.kind != "monastery")
    assert not any(s.name for s in standin.map.spaces.values())
    unnamed = dict(default.data, id=standin.id, map=standin.data["map"])
    assert {k: v for k, v in unnamed.items() if k != "notes"} == {k: v for k, v in standin.data.items() if k != "notes"}


def test_every_shipped_catalog_loads() -> None:
    files = [f for d in catalog_dirs() for f in sorted(d.glob("*.json"))]
    assert STANDIN in files
    ids = [load_catalog(f).id for f in files]
    assert len(ids) == len(set(ids))


def test_standin_counts(standin: Catalog) -> None:
    assert len(standin.characters) == 56
    assert [len(standin.pile(p)) for p in PILES] == [8, 24, 24]
    assert [len(standin.monasteries_of(p)) for p in PILES] == [12, 8, 4]
    assert len(standin.voyages) == 15
    assert len(standin.voyage_spaces) == 6
    assert len(standin.favor_tiles) == 4
    assert len(standin.scoring_tiles) == 4
    assert (standin.min_players, standin.max_players) == (2, 4)
    assert (standin.start_coins, standin.start_guards) == (7, 7)
    assert (standin.max_coins, standin.max_guards, standin.max_influence) == (20, 20, 15)
    assert (standin.alternative_coins, standin.alternative_guards) == (2, 2)
    assert (standin.cards_per_row, standin.cards_per_group) == (4, 2)
    assert standin.flag_crowns == (0, 1, 2, 3)
    assert standin.crown_token_crowns == 1
    assert (standin.leftover_coins_per_point, standin.leftover_guards_per_point) == (0, 0)
    assert standin.tie_break == "resources"


@pytest.mark.parametrize("pile", ["II", "III"])
def test_standin_piles_are_balanced(standin: Catalog, pile: str) -> None:
    cards = [standin.characters[i] for i in standin.pile(pile)]
    assert Counter(c.category for c in cards) == {t: 6 for t in TRACKS}
    for track in TRACKS:
        assert {c.cost for c in cards if c.category == track} == {"coins", "guards"}
    assert {c.influence for c in cards} == {1, 2, 3, 4}
    assert {"immediate", "phase_e", "end_game"} <= {c.timing for c in cards}
    assert any(c.symbols for c in cards)


def test_standin_start_cards(standin: Catalog) -> None:
    cards = [standin.characters[i] for i in standin.pile("I")]
    assert Counter(c.category for c in cards) == {t: 2 for t in TRACKS}
    assert {c.timing for c in cards} == {"immediate", "phase_c"}
    for card in cards:
        if card.timing == "phase_c":
            assert [e.kind for e in card.effects] == ["on_acquire"]


def test_standin_uses_every_card_kind_of_the_vocabulary(standin: Catalog) -> None:
    def kinds(effects: Any) -> set[str]:
        return {e.kind for e in effects} | {k for e in effects for k in kinds(e.nested)}

    used = set().union(*(kinds(c.effects) for c in standin.characters.values()))
    card_kinds = {name for name, kind in KINDS.items() if set(kind.contexts) != {HELD}}
    assert card_kinds <= used
    timings = {(c.timing, e.kind) for c in standin.characters.values() for e in c.effects}
    assert ("phase_e", "advance") in timings  # "+1 on any track"
    gives = {
        e.params["give"]
        for c in standin.characters.values()
        for e in c.effects
        if e.kind == "exchange"
    }
    assert gives == {"coins", "guards"}
    if_no = [e for c in standin.characters.values() for e in c.effects if e.kind == "if_no_die"]
    assert any(
        e.params["color"] == "purple" and e.nested[0].params == {"resource": "steps", "amount": 2}
        for e in if_no
    )


def test_standin_favor_tiles(standin: Catalog) -> None:
    by_crowns = {t.crowns: t for t in standin.favor_tiles.values()}
    assert sorted(by_crowns) == [1, 2, 3, 4]
    assert [e.kind for e in by_crowns[2].effects] == ["extra_income_die"]
    assert [(e.kind, e.params) for e in by_crowns[3].effects] == [
        ("voyage_discount", {"amount": 2})
    ]
    for crowns in (1, 4):
        assert by_crowns[crowns].effects and all(
            e.kind == "gain" for e in by_crowns[crowns].effects
        )


def test_standin_monasteries_grow_stronger(standin: Catalog) -> None:
    def value(pile: str) -> float:  # mean immediate amount of the pile's immediate rewards
        ms = [standin.monasteries[i] for i in standin.monasteries_of(pile)]
        immediate = [m for m in ms if m.timing == "immediate"]
        return sum(e.params["amount"] for m in immediate for e in m.effects) / len(immediate)

    assert value("I") < value("II") < value("III")
    for monastery in standin.monasteries.values():
        assert monastery.timing in ("immediate", "end_game") and monastery.effects


def test_standin_voyages_and_scoring_tiles(standin: Catalog) -> None:
    assert [s.resource for s in standin.voyage_spaces] == ["coins"] * 3 + ["guards"] * 3
    assert all(v.effects for v in standin.voyages.values())
    for tile in standin.scoring_tiles.values():
        assert [len(tile.points["2-3"]), len(tile.points["4"])] == [3, 4]
        for side in tile.points.values():
            assert list(side) == sorted(side, reverse=True)


def test_standin_map(standin: Catalog) -> None:
    pilgrim_map = standin.map
    assert 30 <= len(pilgrim_map.spaces) <= 40
    assert len(pilgrim_map.start_spaces) == 4
    assert {p: len(s) for p, s in pilgrim_map.monastery_spaces.items()} == {
        "I": 8,
        "II": 4,
        "III": 2,
    }
    assert all(2 <= len(n) <= 4 for n in pilgrim_map.neighbours.values())
    for start in pilgrim_map.start_spaces:  # the start corners form a ring around Coimbra
        assert len(set(pilgrim_map.neighbours[start]) & set(pilgrim_map.start_spaces)) == 2
    for space, neighbours in pilgrim_map.neighbours.items():
        assert list(neighbours) == sorted(neighbours)
        assert all(space in pilgrim_map.neighbours[n] for n in neighbours)
    distance = _distances(pilgrim_map.neighbours, pilgrim_map.start_spaces)
    nearest = {
        p: min(distance[s] for s in spaces) for p, spaces in pilgrim_map.monastery_spaces.items()
    }
    assert nearest["I"] < nearest["II"] < nearest["III"]
    assert len(distance) == len(pilgrim_map.spaces)  # connected


def _distances(neighbours: Any, sources: Any) -> dict[str, int]:
    distance = {s: 0 for s in sources}
    todo = deque(sources)
    while todo:
        space = todo.popleft()
        for n in neighbours[space]:
            if n not in distance:
                distance[n] = distance[space] + 1
                todo.append(n)
    return distance


@pytest.mark.parametrize(
    ("players", "counts"),
    [
        (4, {"gray": 3, "orange": 3, "purple": 3, "green": 3, "white": 1}),
        (3, {"gray": 3, "orange": 3, "purple": 2, "green": 2, "white": 1}),
        (2, {"gray": 2, "orange": 2, "purple": 1, "green": 1, "white": 1}),
    ],
)
def test_dice_for(standin: Catalog, players: int, counts: dict[str, int]) -> None:
    dice = standin.dice_for(players)
    assert len(dice) == sum(counts.values())
    assert Counter(standin.die_colors[d] for d in dice) == counts
    for color, n in counts.items():  # the highest-numbered dice of a colour go first
        assert [d for d in dice if standin.die_colors[d] == color] == [
            f"{color}-{k}" for k in range(1, n + 1)
        ]
    assert list(dice) == [d for d in standin.die_colors if d in dice]


def test_die_colors_and_bad_player_counts(standin: Catalog) -> None:
    assert len(standin.die_colors) == 13
    assert list(standin.die_colors)[:4] == ["gray-1", "gray-2", "gray-3", "orange-1"]
    assert standin.die_colors["white-1"] == "white"
    for players in (1, 5):
        with pytest.raises(ValueError):
            standin.dice_for(players)
        with pytest.raises(ValueError):
            standin.die_tokens_for(players)


def test_die_tokens_for(standin: Catalog) -> None:
    assert standin.die_tokens_for(2) == {"upper": (3, 2), "central": (4, 3), "lower": (5,)}
    assert standin.die_tokens_for(3) == {"upper": (3,), "central": (4,), "lower": (3,)}
    assert standin.die_tokens_for(4) == {}


INCOME = {  # rules text 003: (gray, orange, purple, green) as (base, bonus points)
    range(0, 1): ((1, 0), (1, 0), (1, 0), (1, 0)),
    range(1, 4): ((3, 0), (3, 0), (2, 0), (3, 0)),
    range(4, 7): ((5, 0), (5, 0), (3, 0), (4, 0)),
    range(7, 10): ((7, 0), (7, 0), (4, 0), (5, 0)),
    range(10, 13): ((9, 0), (9, 0), (5, 0), (6, 0)),
    range(13, 16): ((10, 2), (10, 2), (6, 1), (8, 0)),
}


@pytest.mark.parametrize("position", [0, 1, 3, 4, 6, 7, 9, 10, 12, 13, 15])
@pytest.mark.parametrize("track", TRACKS)
def test_income_for_at_every_tier_edge(standin: Catalog, track: str, position: int) -> None:
    expected = next(row for span, row in INCOME.items() if position in span)[TRACKS.index(track)]
    assert standin.income_for(track, position) == expected


def test_income_for_rejects_bad_input(standin: Catalog) -> None:
    for track, position in (("white", 0), ("gray", -1), ("gray", 16)):
        with pytest.raises(ValueError):
            standin.income_for(track, position)
    with pytest.raises(ValueError):
        standin.pile("IV")


def test_every_entry_and_section_has_provenance(standin: Catalog) -> None:
    prov = standin.provenance
    assert set(prov.values()) <= set(PROVENANCES)
    sections = ["players", "dice", "die_tokens", "start_resources", "limits", "income", "flag_crowns",
                "crown_tokens", "alternative_action", "rows", "start_groups", "final_scoring", "map"]  # fmt: skip
    for section in sections:
        assert section in prov
    collections = {"favor_tiles": standin.favor_tiles, "characters": standin.characters,
                   "monasteries": standin.monasteries, "voyages": standin.voyages,
                   "scoring_tiles": standin.scoring_tiles}  # fmt: skip
    for name, entries in collections.items():
        for entry_id in entries:
            assert f"{name}.{entry_id}" in prov
    for i in range(len(standin.voyage_spaces)):
        assert prov[f"voyage_spaces.{i}.resource"] == "rules-text"
        assert prov[f"voyage_spaces.{i}.cost"] == "stand-in"
        assert prov[f"voyage_spaces.{i}"] == "stand-in"  # partly stand-in
    assert prov["characters.c-II-05.influence"] == "stand-in"
    assert prov["income"] == prov["income.tiers"] == "rules-text"
    assert prov["dice"] == prov["limits"] == "rules-text"
    assert prov["flag_crowns"] == prov["die_tokens"] == prov["map"] == "stand-in"
    tiles = {t.crowns: t.id for t in standin.favor_tiles.values()}
    for crowns in (2, 3):
        assert (
            prov[f"favor_tiles.{tiles[crowns]}.crowns"]
            == prov[f"favor_tiles.{tiles[crowns]}.effects"]
            == "rules-text"
        )
        assert prov[f"favor_tiles.{tiles[crowns]}.name"] == "stand-in"


def test_sha256_is_stable_and_canonical(standin: Catalog, tmp_path: Path) -> None:
    data = standin_data()
    assert standin.sha256 == STANDIN_SHA256
    assert (
        standin.sha256
        == hashlib.sha256(orjson.dumps(data, option=orjson.OPT_SORT_KEYS)).hexdigest()
    )
    assert standin.data == data
    reordered = tmp_path / "reordered.json"  # other key order and layout: same catalog
    reordered.write_bytes(
        orjson.dumps(dict(reversed(list(data.items()))), option=orjson.OPT_INDENT_2)
    )
    assert load_catalog(reordered).sha256 == standin.sha256
    data["title"] = "another title"
    assert parse_catalog(data).sha256 != standin.sha256


def test_catalog_is_independent_of_the_input(standin: Catalog) -> None:
    data = standin_data()
    parsed = parse_catalog(data)
    data["characters"][0]["name"] = "changed"
    assert parsed.data["characters"][0]["name"] != "changed"
    assert parsed == standin and hash(parsed) == hash(standin)


def test_effects_are_parsed_into_effect_objects(standin: Catalog) -> None:
    start = standin.characters["c-I-02"]
    (on_acquire,) = start.effects
    assert on_acquire.kind == "on_acquire"
    assert on_acquire.params["condition"] == {"category": "gray"}
    assert isinstance(on_acquire.params["effects"], tuple)
    assert on_acquire.nested[0].kind == "gain"
    sets = [
        e for v in standin.voyages.values() for e in v.effects if e.kind == "points_per_symbol_set"
    ]
    assert all(isinstance(e.params["symbols"], tuple) for e in sets)


def test_find_catalog(standin: Catalog) -> None:
    assert find_catalog("standin-1") == standin
    assert find_catalog("standin-1", standin.sha256) == standin
    with pytest.raises(
        CatalogError, match=r"^catalog 'standin-1' sha256=0+: expected a shipped or installed catalog with this id and hash, "
        r"got only sha256=b33618.*install it with 'coimbra catalog install FILE'"
    ):
        find_catalog("standin-1", "0" * 64)
    with pytest.raises(
        CatalogError, match=r"^catalog 'nope': expected the id of a shipped or installed catalog \(shipped: standin-1, standin-2; "
        r"installed in .*: none\), got no such catalog \(install it with 'coimbra catalog install FILE'"
    ):
        find_catalog("nope")


def test_every_param_type_of_the_vocabulary_has_a_schema_type() -> None:
    for kind in KINDS.values():
        for param in kind.params.values():
            assert catalog_schema._param_type(param) is not None  # raises for a type it does not know


def test_docs_hold_the_current_effect_table() -> None:
    assert effect_vocabulary_markdown() in (ROOT / "docs" / "catalog.md").read_text(
        encoding="utf-8"
    )


# ------------------------------------------------------------------- rejections


def _walk(data: dict, path: str) -> tuple[Any, Any]:
    """(the container, the last key) of a dotted path; numbers index lists only."""
    *parents, last = path.split(".")
    target: Any = data
    for key in parents:
        target = target[int(key) if isinstance(target, list) else key]
    return target, int(last) if isinstance(target, list) else last


def _set(path: str, value: Any) -> Callable[[dict], None]:
    """A mutation: set the value at a dotted path."""

    def mutate(data: dict) -> None:
        target, key = _walk(data, path)
        target[key] = value

    return mutate


def _delete(path: str) -> Callable[[dict], None]:
    def mutate(data: dict) -> None:
        target, key = _walk(data, path)
        del target[key]

    return mutate


def _drop_where(section: str, keep: Callable[[dict], bool]) -> Callable[[dict], None]:
    def mutate(data: dict) -> None:
        data[section] = [e for e in data[section] if keep(e)]

    return mutate


def _drop_edges(*pairs: tuple[str, str]) -> Callable[[dict], None]:
    def mutate(data: dict) -> None:
        data["map"]["edges"] = [e for e in data["map"]["edges"] if tuple(e) not in pairs]

    return mutate


def _append(path: str, value: Any) -> Callable[[dict], None]:
    def mutate(data: dict) -> None:
        target, key = _walk(data, path)
        target[key].append(copy.deepcopy(value))

    return mutate


GAIN1 = {"kind": "gain", "resource": "coins", "amount": 1}
C8 = "characters[8] (id 'c-II-01')"  # immediate: gain 2 guards
C9 = "characters[9] (id 'c-II-02')"  # phase_e: per_die gray -> gain 1 guards
C38 = "characters[38] (id 'c-III-07')"  # immediate: gain 4 coins
TOP_KEYS = ("'format', 'schema', 'id', 'title', 'players', 'dice', 'die_tokens', 'start_resources', 'limits', "
            "'income', 'flag_crowns', 'crown_tokens', 'alternative_action', 'rows', 'start_groups', "
            "'favor_tiles', 'characters', 'monasteries', 'voyage_spaces', 'voyages', 'scoring_tiles', "
            "'final_scoring', 'map', 'notes', 'discs'")  # fmt: skip
KIND_NAMES = ", ".join(KINDS)

REJECTIONS = [
    # header
    ("format", _set("format", "coimbra-log"), "format: expected 'coimbra-catalog', got 'coimbra-log'"),
    ("format-missing", _delete("format"), "format: expected 'coimbra-catalog', got none"),
    ("schema", _set("schema", 2), "schema: expected 1 (the schema this version reads), got 2"),
    ("schema-bool", _set("schema", True), "schema: expected 1 (the schema this version reads), got true"),
    ("unknown-top-key", _set("extra", 1), f"(top level): expected only the keys {TOP_KEYS}, got the unknown key 'extra'"),
    ("missing-section", _delete("map"), "(top level): expected a key 'map', got none"),
    ("bad-id", _set("id", "stand in"), "id: expected an id of letters, digits, '-' and '_' (starting with a letter or digit), got 'stand in'"),
    ("empty-title", _set("title", " "), "title: expected a non-empty string, got ' '"),
    ("notes", _set("notes", 3), "notes: expected a string, got 3"),
    ("players-min", _set("players.min", 1), "players.min: expected an integer 2-4, got 1"),
    ("players-max", _set("players.max", 5), "players.max: expected an integer 2-4, got 5"),
    # character fields
    ("influence", _set("characters.12.influence", 7), "characters[12] (id 'c-II-05').influence: expected an integer 1-4, got 7"),
    ("influence-str", _set("characters.12.influence", "3"), "characters[12] (id 'c-II-05').influence: expected an integer 1-4, got '3'"),
    ("influence-float", _set("characters.12.influence", 2.0), "characters[12] (id 'c-II-05').influence: expected an integer 1-4, got 2.0"),
    ("influence-bool", _set("characters.12.influence", True), "characters[12] (id 'c-II-05').influence: expected an integer 1-4, got true"),
    ("category", _set("characters.8.category", "blue"), f"{C8}.category: expected one of 'gray', 'orange', 'purple', 'green', got 'blue'"),
    ("cost", _set("characters.8.cost", "gold"), f"{C8}.cost: expected one of 'coins', 'guards', got 'gold'"),
    ("pile", _set("characters.8.pile", "IV"), f"{C8}.pile: expected one of 'I', 'II', 'III', got 'IV'"),
    ("name", _set("characters.8.name", ""), f"{C8}.name: expected a non-empty string, got ''"),
    ("unknown-field", _set("characters.8.colour", "red"),
     f"{C8}: expected only the keys 'id', 'name', 'pile', 'category', 'cost', 'influence', 'bonus', 'symbols', 'provenance', got the unknown key 'colour'"),
    ("symbol", _set("characters.8.symbols", ["rose tte"]), f"{C8}.symbols[0]: expected an id of letters, digits, '-' and '_' (starting with a letter or digit), got 'rose tte'"),
    ("timing-pile-II", _set("characters.8.bonus.timing", "phase_c"),
     f"{C8}.bonus.timing: expected one of 'immediate', 'phase_e', 'end_game', 'none' (pile II), got 'phase_c'"),
    ("timing-pile-I", _set("characters.0.bonus.timing", "end_game"),
     "characters[0] (id 'c-I-01').bonus.timing: expected one of 'immediate', 'phase_c' (pile I), got 'end_game'"),
    ("timing-none-with-effects", _set("characters.8.bonus.timing", "none"),
     f"{C8}.bonus.effects: expected an empty list (timing 'none'), got a list of 1 item"),
    ("timing-without-effects", _set("characters.8.bonus.effects", []),
     f"{C8}.bonus.effects: expected a list of at least 1 item, got a list of 0 items"),
    # effects
    ("unknown-kind", _set("characters.8.bonus.effects.0.kind", "teleport"),
     f"{C8}.bonus.effects[0].kind: expected an effect kind ({KIND_NAMES}), got 'teleport'"),
    ("kind-missing", _delete("characters.8.bonus.effects.0.kind"), f"{C8}.bonus.effects[0]: expected a key 'kind', got none"),
    ("effect-not-object", _set("characters.8.bonus.effects.0", "gain"),
     f'{C8}.bonus.effects[0]: expected an effect object {{"kind": ...}}, got \'gain\''),
    ("wrong-context", _set("characters.8.bonus.effects.0", {"kind": "points", "amount": 2}),
     f"{C8}.bonus.effects[0].kind: expected a kind allowed in immediate (gain, advance), got 'points', which is allowed only in end_game"),
    ("wrong-context-nested", _set("characters.9.bonus.effects.0.effects.0", {"kind": "points_per_voyage", "points": 1}),
     f"{C9}.bonus.effects[0].effects[0].kind: expected a kind allowed in immediate (gain, advance), got 'points_per_voyage', which is allowed only in end_game"),
    ("held-on-card", _set("characters.8.bonus.effects.0", {"kind": "extra_income_die"}),
     f"{C8}.bonus.effects[0].kind: expected a kind allowed in immediate (gain, advance), got 'extra_income_die', which is allowed only in held"),
    ("amount-zero", _set("characters.38.bonus.effects.0.amount", 0), f"{C38}.bonus.effects[0].amount: expected an integer 1-20, got 0"),
    ("param-missing", _delete("characters.38.bonus.effects.0.amount"), f"{C38}.bonus.effects[0]: expected a key 'amount', got none"),
    ("param-unknown", _set("characters.38.bonus.effects.0.color", "gray"),
     f"{C38}.bonus.effects[0]: expected only the keys 'kind', 'resource', 'amount', got the unknown key 'color'"),
    ("param-enum", _set("characters.38.bonus.effects.0.resource", "gold"),
     f"{C38}.bonus.effects[0].resource: expected one of 'coins', 'guards', 'points', 'steps', got 'gold'"),
    ("nested-empty", _set("characters.9.bonus.effects.0.effects", []),
     f"{C9}.bonus.effects[0].effects: expected a list of at least 1 item, got a list of 0 items"),
    ("condition-key", _set("characters.1.bonus.effects.0.condition", {"colour": "gray"}),
     "characters[1] (id 'c-I-02').bonus.effects[0].condition: expected only the keys 'category', 'cost', 'pile', got the unknown key 'colour'"),
    ("condition-value", _set("characters.1.bonus.effects.0.condition", {"category": "white"}),
     "characters[1] (id 'c-I-02').bonus.effects[0].condition.category: expected one of 'gray', 'orange', 'purple', 'green', got 'white'"),
    ("symbols-empty", _set("voyages.5.task.0.symbols", []), "voyages[5] (id 'v-06').task[0].symbols: expected a list of at least 1 item, got a list of 0 items"),
    ("symbol-not-printed", _set("voyages.5.task.0.symbols", ["star"]),
     "voyages[5] (id 'v-06').task[0].symbols[0]: expected a symbol printed on some character card (quill, rosette), got 'star'"),
    ("favor-context", _set("favor_tiles.0.effects.0", {"kind": "points", "amount": 1}),
     "favor_tiles[0] (id 'f-1').effects[0].kind: expected a kind allowed in immediate or held (gain, advance, extra_income_die, voyage_discount), got 'points', which is allowed only in end_game"),
    ("voyage-context", _set("voyages.0.task.0", GAIN1),
     "voyages[0] (id 'v-01').task[0].kind: expected a kind allowed in end_game (points, points_per_card, points_per_symbol_set, points_per_monastery, points_per_voyage, points_per_influence, points_per_crown), got 'gain', which is allowed only in immediate, phase_e"),
    ("monastery-timing", _set("monasteries.0.reward.timing", "phase_e"),
     "monasteries[0] (id 'm-I-01').reward.timing: expected one of 'immediate', 'end_game', got 'phase_e'"),
    # provenance
    ("provenance-missing", _delete("characters.0.provenance"), "characters[0] (id 'c-I-01'): expected a key 'provenance', got none"),
    ("provenance-missing-section", _delete("income.provenance"), "income: expected a key 'provenance', got none"),
    ("provenance-missing-space", _delete("voyage_spaces.2.provenance"), "voyage_spaces[2]: expected a key 'provenance', got none"),
    ("provenance-value", _set("monasteries.3.provenance", "guess"),
     "monasteries[3] (id 'm-I-04').provenance: expected one of 'rules-text', 'stand-in', 'printed', got 'guess'"),
    ("provenance-type", _set("limits.provenance", 1),
     "limits.provenance: expected 'rules-text', 'stand-in', 'printed' or an object mapping each field to one, got 1"),
    ("provenance-unknown-field", _set("voyage_spaces.0.provenance", {"resource": "rules-text", "cost": "stand-in", "price": "stand-in"}),
     "voyage_spaces[0].provenance: expected only the keys 'resource', 'cost', got the unknown key 'price'"),
    ("provenance-field-missing", _set("voyage_spaces.0.provenance", {"resource": "rules-text"}),
     "voyage_spaces[0].provenance: expected a key 'cost', got none"),
    ("provenance-field-value", _set("voyage_spaces.0.provenance.cost", "guessed"),
     "voyage_spaces[0].provenance.cost: expected one of 'rules-text', 'stand-in', 'printed', got 'guessed'"),
    # ids and counts
    ("duplicate-id", _set("characters.1.id", "c-I-01"), "characters[1] (id 'c-I-01').id: expected a unique id, got a duplicate of characters[0]"),
    ("duplicate-voyage", _set("voyages.14.id", "v-01"), "voyages[14] (id 'v-01').id: expected a unique id, got a duplicate of voyages[0]"),
    ("id-missing", _delete("monasteries.2.id"), "monasteries[2]: expected a key 'id', got none"),
    ("entry-not-object", _set("voyages.3", []), "voyages[3]: expected an object, got a list of 0 items"),
    ("pile-I-short", _delete("characters.7"), "characters: expected at least 8 pile I cards (2 per start group x 4 players), got 7"),
    ("pile-II-not-multiple", _delete("characters.30"), "characters: expected a positive multiple of 12 pile II cards (3 rows of 4 per round), got 23"),
    ("pile-III-empty", _drop_where("characters", lambda c: c["pile"] != "III"),
     "characters: expected a positive multiple of 12 pile III cards (3 rows of 4 per round), got 0"),
    ("monastery-supply", _drop_where("monasteries", lambda m: m["id"] not in ("m-III-02", "m-III-03", "m-III-04")),
     "monasteries: expected at least 2 pile III tiles (the map has 2 pile III spaces), got 1"),
    ("too-few-voyages", _drop_where("voyages", lambda v: v["id"] < "v-06"), "voyages: expected at least 6 voyages (one per voyage space), got 5"),
    ("too-few-scoring-tiles", _delete("scoring_tiles.3"), "scoring_tiles: expected at least 4 tiles (one per track), got 3"),
    ("no-favor-tiles", _set("favor_tiles", []), "favor_tiles: expected a list of at least 1 item, got a list of 0 items"),
    ("flag-crowns-length", _set("flag_crowns.values", [0, 1, 2]),
     "flag_crowns.values: expected a list of exactly 4 items (one per flag), got a list of 3 items"),
    # dice and tokens
    ("dice-removed-exceeds-pool", _set("dice.removed.2.white", 2), "dice.removed.2.white: expected an integer 0-1, got 2"),
    ("dice-too-few-left", _set("dice.removed.3", {"gray": 3, "orange": 2}), "dice.removed.3: expected at least 9 dice left for 3 players, got 8"),
    ("dice-removed-player-count", _set("dice.removed.5", {"gray": 1}),
     "dice.removed: expected only the keys '2', '3', '4', got the unknown key '5'"),
    ("dice-pool-colour", _set("dice.pool.blue", 1),
     "dice.pool: expected only the keys 'gray', 'orange', 'purple', 'green', 'white', got the unknown key 'blue'"),
    ("die-token-value", _set("die_tokens.2.lower", [7]), "die_tokens.2.lower[0]: expected an integer 1-6, got 7"),
    ("die-token-order", _set("die_tokens.2.upper", [2, 3]),
     "die_tokens.2.upper[1]: expected at most 2 (city rows run from 6 down to 1), got 3"),
    ("die-token-city", _delete("die_tokens.3.lower"), "die_tokens.3: expected a key 'lower', got none"),
    # income
    ("tier-missing", _delete("income.tiers.2"), "income.tiers[2].from: expected 4 (right after tier 1-3), got 7 (a gap)"),
    ("tier-overlap", _set("income.tiers.2.from", 3), "income.tiers[2].from: expected 4 (right after tier 1-3), got 3 (an overlap)"),
    ("tier-first", _set("income.tiers.0.from", 1), "income.tiers[0].from: expected 0 (the first tier starts at 0), got 1 (a gap)"),
    ("tier-last-missing", _delete("income.tiers.5"),
     "income.tiers: expected tiers covering 0-15 (limits.influence), got the last tier ending at 12"),
    ("tier-beyond-limit", _set("income.tiers.5.to", 16), "income.tiers[5].to: expected an integer 13-15, got 16"),
    ("tier-extra", _append("income.tiers", {"from": 16, "to": 16, "gray": [1, 0], "orange": [1, 0], "purple": [1, 0], "green": [1, 0]}),
     "income.tiers[6]: expected no tier after space 15 (limits.influence), got another tier"),
    ("tier-pair", _set("income.tiers.1.gray", [3]), "income.tiers[1].gray: expected a list of exactly 2 items [base, bonus_points], got a list of 1 item"),
    ("tier-track-missing", _delete("income.tiers.1.green"), "income.tiers[1]: expected a key 'green', got none"),
    # other sections
    ("start-above-limit", _set("start_resources.coins", 21), "start_resources.coins: expected at most 20 (limits.coins), got 21"),
    ("voyage-cost", _set("voyage_spaces.4.cost", 21), "voyage_spaces[4].cost: expected an integer 0-20, got 21"),
    ("scoring-rises", _set("scoring_tiles.0.points.4", [8, 9, 2, 0]),
     "scoring_tiles[0] (id 'score-1').points.4[1]: expected at most 8 (points never rise with rank), got 9"),
    ("scoring-side", _delete("scoring_tiles.0.points.2-3"), "scoring_tiles[0] (id 'score-1').points: expected a key '2-3', got none"),
    ("tie-break", _set("final_scoring.tie_break", "coin toss"), "final_scoring.tie_break: expected one of 'resources', 'shared', got 'coin toss'"),
    # map
    ("disconnected-map", _drop_edges(("brown-nw", "trail-nw"), ("trail-ne", "brown-ne")),
     "map.edges: expected a connected map, got 3 space(s) unreachable from 'start-n': 'trail-nw', 'red-n', 'trail-ne'"),
    ("edge-unknown-space", _set("map.edges.3.1", "nowhere"), "map.edges[3][1]: expected the id of a space in map.spaces, got 'nowhere'"),
    ("edge-loop", _set("map.edges.0", ["start-n", "start-n"]), "map.edges[0]: expected two different spaces, got 'start-n' twice"),
    ("edge-duplicate", _append("map.edges", ["start-e", "start-n"]), "map.edges[44]: expected each edge once, got a duplicate of map.edges[0]"),
    ("edge-shape", _set("map.edges.0", ["start-n"]), "map.edges[0]: expected a list of exactly 2 items, got a list of 1 item"),
    ("start-spaces", _set("map.spaces.0.kind", "road"), "map.spaces: expected exactly 4 start spaces, got 3"),
    ("monastery-space-pile", _delete("map.spaces.5.pile"), "map.spaces[5] (id 'blue-n1'): expected a key 'pile' (a monastery space names its pile), got none"),
    ("road-with-pile", _set("map.spaces.4.pile", "I"), "map.spaces[4] (id 'road-n').pile: expected no pile (only monastery spaces have one), got 'I'"),
    ("duplicate-space", _set("map.spaces.1.id", "start-n"), "map.spaces[1] (id 'start-n').id: expected a unique id, got a duplicate of map.spaces[0]"),
]  # fmt: skip


@pytest.mark.parametrize(
    ("mutate", "message"), [pytest.param(m, msg, id=name) for name, m, msg in REJECTIONS]
)
def test_rejections_name_the_place_and_the_problem(
    mutate: Callable[[dict], None], message: str
) -> None:
    data = standin_data()
    mutate(data)
    with pytest.raises(CatalogError) as caught:
        parse_catalog(data)
    assert str(caught.value) == message
    assert "\n" not in str(caught.value)


def test_error_parts_and_source() -> None:
    data = standin_data()
    data["characters"][12]["influence"] = 7
    with pytest.raises(CatalogError) as caught:
        parse_catalog(data, source="box.json")
    error = caught.value
    assert (
        str(error)
        == "box.json: characters[12] (id 'c-II-05').influence: expected an integer 1-4, got 7"
    )
    assert (error.source, error.where, error.expected, error.got) == (
        "box.json",
        "characters[12] (id 'c-II-05').influence",
        "an integer 1-4",
        "7",
    )


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ([], "(top level): expected a JSON object, got a list of 0 items"),
        (None, "(top level): expected a JSON object, got null"),
        ("catalog", "(top level): expected a JSON object, got 'catalog'"),
        ({}, "format: expected 'coimbra-catalog', got none"),
    ],
)
def test_rejects_non_catalog_values(value: Any, message: str) -> None:
    with pytest.raises(CatalogError, match=f"^{re.escape(message)}$"):
        parse_catalog(value)


@pytest.mark.parametrize(
    ("content", "problem"),
    [
        (b'{"format": "coimbra-catalog",\n  "schema": 1,,}', "expected valid JSON, got "),
        (b"", "expected valid JSON, got "),
        (b"\xff\xfe", "expected valid JSON, got "),
        (
            b'{"format": "coimbra-catalog", "schema": 1}',
            "(top level): expected a key 'id', got none",
        ),
    ],
)
def test_load_catalog_names_the_file(tmp_path: Path, content: bytes, problem: str) -> None:
    path = tmp_path / "box.json"
    path.write_bytes(content)
    with pytest.raises(CatalogError) as caught:
        load_catalog(path)
    assert str(caught.value).startswith(f"{path}: {problem}")
    assert caught.value.source == str(path)


def test_load_catalog_reports_line_and_column(tmp_path: Path) -> None:
    path = tmp_path / "box.json"
    path.write_bytes(b'{"format": "coimbra-catalog",\n  "schema": 1,,}')
    with pytest.raises(CatalogError, match=r"at line 2 column 15$"):
        load_catalog(path)


def test_load_catalog_missing_file_and_directory(tmp_path: Path) -> None:
    with pytest.raises(CatalogError) as caught:
        load_catalog(tmp_path / "nope.json")
    assert (
        str(caught.value)
        == f"{tmp_path / 'nope.json'}: expected an existing catalog file, got no such file"
    )
    with pytest.raises(CatalogError) as caught:
        load_catalog(tmp_path)
    assert str(caught.value) == f"{tmp_path}: expected a catalog file, got a directory"


# ----------------------------------------------------------- robustness (fuzzing)

JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**63), 2**63)
    | st.floats(allow_nan=False)
    | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)


def _paths(value: Any, prefix: tuple = ()) -> list[tuple]:
    paths = [prefix] if prefix else []
    children = (
        value.items()
        if isinstance(value, dict)
        else enumerate(value)
        if isinstance(value, list)
        else ()
    )
    for key, child in children:
        paths.extend(_paths(child, (*prefix, key)))
    return paths


STANDIN_DATA = orjson.loads(STANDIN.read_bytes())
STANDIN_PATHS = _paths(STANDIN_DATA)


def _expect_clean_outcome(data: Any) -> None:
    try:
        parse_catalog(data)
    except CatalogError as error:
        assert "\n" not in str(error) and str(error)


@settings(max_examples=150)
@given(JSON)
def test_arbitrary_json_gives_a_catalog_error(value: Any) -> None:
    _expect_clean_outcome(value)


@settings(max_examples=300)
@given(st.sampled_from(STANDIN_PATHS), JSON | st.just(KeyError))
def test_mutated_standin_gives_a_catalog_or_a_catalog_error(path: tuple, value: Any) -> None:
    data = copy.deepcopy(STANDIN_DATA)
    target = data
    for key in path[:-1]:
        target = target[key]
    if value is KeyError:  # delete instead of replace
        del target[path[-1]]
    else:
        target[path[-1]] = value
    _expect_clean_outcome(data)


# -------------------------------------------------------------------------- CLI

app = typer.Typer()
app.add_typer(catalog_app, name="catalog")


@app.callback()
def _root() -> None:
    """Test root for the catalog sub-app."""


runner = CliRunner()


def test_cli_check_ok() -> None:
    result = runner.invoke(app, ["catalog", "check", str(STANDIN)])
    assert result.exit_code == 0, result.output
    assert result.stdout == (
        f"ok: standin-1 sha256={STANDIN_SHA256}, 56 characters, 24 monasteries, 15 voyages, "
        "4 favor tiles, 4 scoring tiles, 36 map spaces\n"
    )


def _bad_files(tmp_path: Path) -> dict[str, Path]:
    data = standin_data()
    data["characters"][12]["influence"] = 7
    files = {
        "invalid": orjson.dumps(data),
        "malformed": b'{"format": ',
        "empty": b"",
        "not-an-object": b"[1, 2]",
        "binary": b"\x00\x01\xff",
    }
    paths = {}
    for name, content in files.items():
        paths[name] = tmp_path / f"{name}.json"
        paths[name].write_bytes(content)
    paths["missing"] = tmp_path / "missing.json"
    paths["directory"] = tmp_path
    return paths


@pytest.mark.parametrize(
    "name", ["invalid", "malformed", "empty", "not-an-object", "binary", "missing", "directory"]
)
def test_cli_check_bad_file(tmp_path: Path, name: str) -> None:
    path = _bad_files(tmp_path)[name]
    result = runner.invoke(app, ["catalog", "check", str(path)])
    assert result.exit_code == 2
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"error: {path}: "), result.stderr
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)


def test_cli_check_invalid_message(tmp_path: Path) -> None:
    path = _bad_files(tmp_path)["invalid"]
    result = runner.invoke(app, ["catalog", "check", str(path)])
    assert result.stderr.strip() == (
        f"error: {path}: characters[12] (id 'c-II-05').influence: expected an integer 1-4, got 7"
    )


def test_cli_check_json(tmp_path: Path) -> None:
    ok = runner.invoke(app, ["catalog", "check", str(STANDIN), "--json"])
    assert ok.exit_code == 0
    assert orjson.loads(ok.stdout) == {
        "valid": True,
        "id": "standin-1",
        "sha256": STANDIN_SHA256,
        "error": None,
        "problems": [],
    }
    path = _bad_files(tmp_path)["invalid"]
    bad = runner.invoke(app, ["catalog", "check", str(path), "--json"])
    assert bad.exit_code == 2
    report = orjson.loads(bad.stdout)
    message = f"{path}: characters[12] (id 'c-II-05').influence: expected an integer 1-4, got 7"
    assert report == {"valid": False, "id": None, "sha256": None, "error": message, "problems": [message]}


def test_cli_show_json() -> None:
    result = runner.invoke(app, ["catalog", "show", "--json"])  # the catalog new games start with
    assert result.exit_code == 0
    shown = orjson.loads(result.stdout)
    assert (shown["id"], shown["sha256"]) == ("standin-2", standin_catalog().sha256)
    assert parse_catalog(shown["catalog"]) == standin_catalog()
    from_file = runner.invoke(app, ["catalog", "show", "--file", str(STANDIN), "--json"])
    shown = orjson.loads(from_file.stdout)
    assert (shown["id"], shown["sha256"]) == ("standin-1", STANDIN_SHA256)
    assert (
        hashlib.sha256(orjson.dumps(shown["catalog"], option=orjson.OPT_SORT_KEYS)).hexdigest()
        == STANDIN_SHA256
    )


def test_cli_show_tables() -> None:
    result = runner.invoke(app, ["catalog", "show"], env={"NO_COLOR": "1", "COLUMNS": "120"})
    assert result.exit_code == 0, result.output
    for title in ("Dice in the pool", "Die tokens", "Flags and crowns", "Income by disc position", "Favor tiles",
                  "Character cards, pile I (8)", "Character cards, pile II (24)", "Character cards, pile III (24)",
                  "Monasteries (24)", "Voyage spaces", "Voyages (15)", "Influence scoring tiles", "Pilgrimage map"):  # fmt: skip
        assert title in result.stdout
    assert "stand-in" in result.stdout and "rules-text" in result.stdout
    assert "10 + 2" in result.stdout
    assert "\x1b[" not in result.stdout


def test_cli_show_bad_file(tmp_path: Path) -> None:
    path = _bad_files(tmp_path)["malformed"]
    result = runner.invoke(app, ["catalog", "show", "--file", str(path)])
    assert result.exit_code == 2
    assert result.stderr.startswith(f"error: {path}: expected valid JSON, got ")
    assert len(result.stderr.splitlines()) == 1


@pytest.mark.parametrize("command", [[], ["check"], ["show"]])
def test_cli_help_has_an_example(command: list[str]) -> None:
    result = runner.invoke(app, ["catalog", *command, "--help"])
    assert result.exit_code == 0
    assert "Example: coimbra catalog" in result.stdout


# ------------------------------------------------------- every problem at once, names, discs


def test_every_problem_is_reported_at_once() -> None:
    data = standin_data()
    data["characters"][12]["influence"] = 7
    data["monasteries"][3]["provenance"] = "guess"
    data["income"]["tiers"][2]["from"] = 3
    data["map"]["edges"][3][1] = "nowhere"
    with pytest.raises(CatalogError) as caught:
        parse_catalog(data, source="box.json")
    assert [str(p) for p in caught.value.problems] == [
        "income.tiers[2].from: expected 4 (right after tier 1-3), got 3 (an overlap)",
        "characters[12] (id 'c-II-05').influence: expected an integer 1-4, got 7",
        "monasteries[3] (id 'm-I-04').provenance: expected one of 'rules-text', 'stand-in', 'printed', got 'guess'",
        "map.edges[3][1]: expected the id of a space in map.spaces, got 'nowhere'",
    ]
    assert str(caught.value).endswith("(and 3 more problems)")
    assert caught.value.lines()[0].startswith("box.json: ")


def test_names_are_unique_within_their_kind() -> None:
    data = standin_data()
    data["characters"][9]["name"] = "  town   SERGEANT"
    data["voyages"][2]["name"] = data["voyages"][1]["name"]
    data["monasteries"][0]["name"] = data["voyages"][0]["name"]  # another kind may share a name
    with pytest.raises(CatalogError) as caught:
        parse_catalog(data)
    assert [str(p) for p in caught.value.problems] == [
        "characters[9] (id 'c-II-02').name: expected a name no other character card has, "
        "got '  town   SERGEANT', the name of characters[0] (id 'c-I-01')",
        "voyages[2] (id 'v-03').name: expected a name no other voyage has, got 'Madeira', "
        "the name of voyages[1] (id 'v-02')",
    ]


def test_discs_in_supply(standin: Catalog) -> None:
    assert standin.discs_in_supply == 20 and "discs" not in standin.data  # the optional section's default
    assert standin.provenance["discs"] == standin.provenance["discs.supply"] == "rules-text"
    data = standin_data()
    data["discs"] = {"supply": 24, "provenance": "printed"}
    assert parse_catalog(data).discs_in_supply == 24
    data["discs"]["supply"] = 19
    with pytest.raises(CatalogError, match=r"^discs.supply: expected at least 20 \(a disc for each of the 6 voyage "
                                           r"spaces and 14 monastery spaces\), got 19$"):  # fmt: skip
        parse_catalog(data)


def test_scoring_side(standin: Catalog) -> None:
    assert [standin.scoring_side(n) for n in (2, 3, 4)] == ["2-3", "2-3", "4"]
    assert standin.scoring_points("score-1", 4) == standin.scoring_tiles["score-1"].points["4"]
    with pytest.raises(ValueError):
        standin.scoring_side(5)


def test_cli_check_lists_every_problem(tmp_path: Path) -> None:
    data = standin_data()
    data["characters"][12]["influence"] = 7
    data["title"] = ""
    path = tmp_path / "box.json"
    path.write_bytes(orjson.dumps(data))
    result = runner.invoke(app, ["catalog", "check", str(path)])
    assert result.exit_code == 2
    assert result.stderr.splitlines() == [
        f"  {path}: title: expected a non-empty string, got ''",
        f"  {path}: characters[12] (id 'c-II-05').influence: expected an integer 1-4, got 7",
        f"error: {path}: 2 problems (listed above)",
    ]


def test_cli_show_marks_printed_values(tmp_path: Path) -> None:
    data = standin_data()
    data["limits"]["provenance"] = "printed"
    path = tmp_path / "box.json"
    path.write_bytes(orjson.dumps(data))
    result = runner.invoke(app, ["catalog", "show", "--file", str(path)], env={"COLUMNS": "160"})
    assert result.exit_code == 0
    assert "printed" in result.stdout and "gain 3 guards" in result.stdout


def test_a_key_with_a_line_break_is_named_on_one_line() -> None:
    """Found by the mutation property: a key typed with a line break in it is quoted in the place named."""
    data = copy.deepcopy(STANDIN_DATA)
    data["characters"][10]["provenance"] = {"a\nb": 1}
    with pytest.raises(CatalogError) as caught:
        parse_catalog(data)
    assert "\n" not in str(caught.value) and "provenance['a\\nb']" in str(caught.value)
