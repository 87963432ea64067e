"""Fill-in sheets: ``catalog template``, ``catalog build``, ``catalog diff``, ``install`` and ``list``."""

from __future__ import annotations

import copy
import csv
import os
import subprocess
import sys
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
from coimbra_events.catalog import (
    PRINTED,
    RULES_TEXT,
    STAND_IN,
    Catalog,
    CatalogError,
    load_catalog,
    parse_catalog,
    standin_catalog,
)
from coimbra_events.catalog.build import build
from coimbra_events.catalog.template import BASE, README, SheetError, write_template
from coimbra_events.catalog.diff import catalog_diff
from coimbra_events.catalog.sheets import SHEET_FILES
from tests.conftest import installed_coimbra

STANDIN_SHA256 = "bad2e2d239a3060a60ef3151d3cf51d04a46622433e776a8a56aac5dcb67e5bb"
"""standin-2, the stand-in new games start with and ``catalog template`` writes when no catalog is named."""

app = typer.Typer()
app.add_typer(catalog_app, name="catalog")


@app.callback()
def _root() -> None:
    """Test root for the catalog sub-app."""


runner = CliRunner()


# ------------------------------------------------------------------ editing sheets as a person would


def _table(path: Path) -> list[list[str]]:
    with path.open(encoding="utf-8-sig", newline="") as f:
        return list(csv.reader(f))


def _save(path: Path, table: list[list[str]]) -> None:
    with path.open("w", encoding="utf-8-sig", newline="") as f:
        csv.writer(f).writerows(table)


def _col(table: list[list[str]], column: str) -> int:
    return [h.split(" (")[0].lower() for h in table[0]].index(column)


def edit(folder: Path, file: str, match: dict[str, str], column: str, value: str) -> None:
    """Overwrite one cell: the row whose cells match ``match``, in ``column``."""
    table = _table(folder / file)
    rows = [r for r in table[1:] if all(r[_col(table, k)] == v for k, v in match.items())]
    assert len(rows) == 1, (file, match)
    rows[0][_col(table, column)] = value
    _save(folder / file, table)


def cell(folder: Path, file: str, match: dict[str, str], column: str) -> str:
    table = _table(folder / file)
    (row,) = [r for r in table[1:] if all(r[_col(table, k)] == v for k, v in match.items())]
    return row[_col(table, column)]


def drop_column(folder: Path, file: str, column: str) -> None:
    table = _table(folder / file)
    j = _col(table, column)
    _save(folder / file, [r[:j] + r[j + 1 :] for r in table])


def drop_rows(folder: Path, file: str, doomed: Callable[[dict[str, str]], bool]) -> None:
    table = _table(folder / file)
    keys = [h.split(" (")[0].lower() for h in table[0]]
    _save(folder / file, [table[0]] + [r for r in table[1:] if not doomed(dict(zip(keys, r)))])


@pytest.fixture
def sheets(tmp_path: Path) -> Path:
    folder = tmp_path / "box"
    write_template(standin_catalog(), folder)
    return folder


# ------------------------------------------------------------------ round trips


def test_template_writes_every_sheet_readme_and_base(sheets: Path) -> None:
    assert sorted(p.name for p in sheets.iterdir()) == sorted([*SHEET_FILES, README, BASE])
    kinds = ("characters", "start-cards", "monasteries", "voyages", "voyage-spaces", "favor-tiles", "scoring-tiles",
             "die-tokens", "flag-crowns", "map-spaces", "map-edges")  # fmt: skip
    assert {f"{k}.csv" for k in kinds} <= set(SHEET_FILES)
    assert (sheets / "characters.csv").read_bytes().startswith(b"\xef\xbb\xbf")  # spreadsheets read it as UTF-8
    header = _table(sheets / "characters.csv")[0]
    assert "influence (spaces on its track, 1-4)" in header and "provenance" in header
    assert cell(sheets, "start-cards.csv", {"id": "c-I-01"}, "bonus effects") == "gain 3 guards"
    assert cell(sheets, "characters.csv", {"id": "c-II-02"}, "bonus effects") == "per die gray: gain 1 guards"
    assert cell(sheets, "voyages.csv", {"id": "v-05"}, "task") == "2 points per green card"
    assert cell(sheets, "voyage-spaces.csv", {"space": "1"}, "provenance") == "rules-text: resource; stand-in: cost"
    readme = (sheets / README).read_text(encoding="utf-8")
    for words in ("gain AMOUNT RESOURCE", "printed", "coimbra catalog build", "map-edges.csv"):
        assert words in readme


def test_standin_sheets_build_back_into_the_standin(sheets: Path) -> None:
    built = build(sheets, "standin-2")
    assert built.sha256 == STANDIN_SHA256 == standin_catalog().sha256
    assert built.data == standin_catalog().data


def test_a_folder_with_sheets_is_never_overwritten(sheets: Path) -> None:
    edit(sheets, "characters.csv", {"id": "c-II-05"}, "influence", "3")
    with pytest.raises(SheetError, match="expected a new or empty folder for the sheets, got a folder that already holds"):
        write_template(standin_catalog(), sheets)
    assert cell(sheets, "characters.csv", {"id": "c-II-05"}, "influence") == "3"


def _transcribe(folder: Path) -> None:
    """Ten values across six sheets, as the printed box has them (an effect and a map edge among them)."""
    edit(folder, "settings.csv", {"section": "start_resources", "field": "coins"}, "value", "9")
    edit(folder, "settings.csv", {"section": "alternative_action", "field": "coins"}, "value", "3")
    edit(folder, "settings.csv", {"section": "discs", "field": "supply"}, "value", "22")
    edit(folder, "characters.csv", {"id": "c-II-05"}, "influence", "3")
    edit(folder, "characters.csv", {"id": "c-II-02"}, "bonus effects", "per die gray: gain 2 guards")
    edit(folder, "characters.csv", {"id": "c-II-01"}, "name", "Gate Captain")
    edit(folder, "map-edges.csv", {"from": "start-n", "to": "start-e"}, "to", "road-e")
    edit(folder, "scoring-tiles.csv", {"id": "score-1"}, "4 players rank 1", "10")
    edit(folder, "favor-tiles.csv", {"id": "f-3"}, "effects", "voyage discount 3")
    edit(folder, "monasteries.csv", {"id": "m-I-01"}, "reward effects", "gain 3 coins")


def test_changed_values_are_printed_and_the_others_keep_their_provenance(sheets: Path) -> None:
    _transcribe(sheets)
    edit(sheets, "monasteries.csv", {"id": "m-I-02"}, "provenance", "printed")  # checked against the box, unchanged
    box = build(sheets, "box-1")
    p = box.provenance
    assert (box.start_coins, box.alternative_coins, box.discs_in_supply) == (9, 3, 22)
    assert box.characters["c-II-05"].influence == 3 and box.characters["c-II-01"].name == "Gate Captain"
    assert box.characters["c-II-02"].effects[0].nested[0].params == {"resource": "guards", "amount": 2}
    assert "road-e" in box.map.neighbours["start-n"] and "start-e" not in box.map.neighbours["start-n"]
    assert box.scoring_tiles["score-1"].points["4"] == (10, 5, 2, 0)
    assert box.favor_tiles["f-3"].effects[0].params == {"amount": 3}
    assert box.monasteries["m-I-01"].effects[0].params == {"resource": "coins", "amount": 3}
    for path in ("start_resources.coins", "alternative_action.coins", "discs.supply", "characters.c-II-05.influence",
                 "characters.c-II-02.bonus", "characters.c-II-01.name", "map.edges", "scoring_tiles.score-1.points",
                 "favor_tiles.f-3.effects", "monasteries.m-I-01.reward", "monasteries.m-I-02"):  # fmt: skip
        assert p[path] == PRINTED, path
    assert p["start_resources.guards"] == p["alternative_action.guards"] == RULES_TEXT
    assert p["characters.c-II-05.name"] == p["map.spaces"] == p["favor_tiles.f-3.name"] == STAND_IN
    assert p["favor_tiles.f-3.crowns"] == RULES_TEXT
    assert p["characters.c-II-05"] == STAND_IN  # partly stand-in: the entry says so
    untouched = [k for k in p if k.startswith("characters.c-III-")]
    assert untouched and all(p[k] == STAND_IN for k in untouched)


def test_the_sheets_of_a_built_catalog_build_it_back(sheets: Path, tmp_path: Path) -> None:
    _transcribe(sheets)
    edit(sheets, "die-tokens.csv", {"players": "3", "city": "upper"}, "tokens", "4 1")
    edit(sheets, "settings.csv", {"section": "catalog", "field": "notes"}, "value", "")
    drop_rows(sheets, "voyages.csv", lambda r: r["id"] == "v-15")
    box = build(sheets, "box-1")
    again = tmp_path / "again"
    write_template(box, again)
    assert build(again, "box-1").sha256 == box.sha256
    assert catalog_diff(box, build(again, "box-1")) == []


def test_a_catalog_with_other_values_everywhere_round_trips(tmp_path: Path, other_values: Catalog) -> None:
    write_template(other_values, tmp_path / "other")
    assert build(tmp_path / "other", other_values.id).sha256 == other_values.sha256


# ------------------------------------------------------------------ bad sheets


def _build_cli(folder: Path, output: Path, *extra: str) -> Any:
    return runner.invoke(app, ["catalog", "build", str(folder), "-o", str(output), "--id", "box-1", *extra])


BAD_SHEETS: list[tuple[str, Callable[[Path], None], list[str]]] = [
    ("missing-column", lambda d: drop_column(d, "characters.csv", "influence"),
     ["characters.csv row 1: expected a column 'influence (spaces on its track, 1-4)', got none"]),
    ("text-in-a-number-column", lambda d: edit(d, "characters.csv", {"id": "c-II-05"}, "influence", "three"),
     ["characters.csv row 6, column 'influence': expected an integer 1-4, got 'three'"]),
    ("unknown-effect", lambda d: edit(d, "characters.csv", {"id": "c-II-05"}, "bonus effects", "teleport 3"),
     ["characters.csv row 6, column 'bonus effects': expected an effect, one of 'gain AMOUNT RESOURCE', "
      "'advance AMOUNT on TRACK', 'on acquiring CONDITION card: EFFECTS', 'per die COLOR: EFFECTS', "
      "'if no die COLOR: EFFECTS', 'exchange RATE GIVE for POINTS points', 'extra income die', "
      "'voyage discount AMOUNT', 'AMOUNT points', 'POINTS points per CATEGORY card', 'POINTS points per set of SYMBOLS', "
      "'POINTS points per monastery[ of pile PILE]', 'POINTS points per voyage', 'POINTS points per PER spaces on TRACK', "
      "'POINTS points per crown', got 'teleport 3'"]),
    ("effect-value", lambda d: edit(d, "voyages.csv", {"id": "v-02"}, "task", "2 points per blue card"),
     ["voyages.csv row 3, column 'task', effect 1, category: expected one of 'gray', 'orange', 'purple', 'green', "
      "'any', got 'blue'"]),
    ("duplicate-id", lambda d: edit(d, "characters.csv", {"id": "c-II-02"}, "id", "c-II-01"),
     ["characters.csv row 3, column 'id': expected a unique id, got a duplicate of characters.csv row 2"]),
    ("duplicate-name", lambda d: edit(d, "monasteries.csv", {"id": "m-II-03"}, "name", "celas"),
     ["monasteries.csv row 16, column 'name': expected a name no other monastery has, got 'celas', "
      "the name of monasteries.csv row 3"]),
    ("broken-map", lambda d: drop_rows(d, "map-edges.csv", lambda r: (r["from"], r["to"]) in
                                       (("brown-nw", "trail-nw"), ("trail-ne", "brown-ne"))),
     ["map-edges.csv: expected a connected map, got 3 space(s) unreachable from 'start-n': 'trail-nw', 'red-n', "
      "'trail-ne'"]),
    ("edge-to-nowhere", lambda d: edit(d, "map-edges.csv", {"from": "start-n", "to": "start-e"}, "to", "nowhere"),
     ["map-edges.csv row 2, column 'to': expected the id of a space in map.spaces, got 'nowhere'"]),
    ("unknown-monastery-pile", lambda d: edit(d, "monasteries.csv", {"id": "m-II-03"}, "pile", "IV"),
     ["monasteries.csv row 16, column 'pile': expected one of 'I', 'II', 'III', got 'IV'"]),
    ("monastery-space-without-pile", lambda d: edit(d, "map-spaces.csv", {"id": "blue-n1"}, "pile", ""),
     ["map-spaces.csv row 7, column 'pile': expected a value (a monastery space names its pile), got an empty cell"]),
    ("bad-provenance", lambda d: edit(d, "settings.csv", {"section": "limits", "field": "guards"}, "provenance", "maybe"),
     ["settings.csv row 11, column 'provenance': expected one of 'rules-text', 'stand-in', 'printed', got 'maybe'"]),
    ("missing-sheet", lambda d: (d / "dice.csv").unlink(),
     ["dice.csv: expected the sheet 'catalog template' writes, got no such file"]),
    ("pile-too-small", lambda d: drop_rows(d, "start-cards.csv", lambda r: r["id"] == "c-I-08"),
     ["start-cards.csv and characters.csv: expected at least 8 pile I cards (2 per start group x 4 players), got 7"]),
]  # fmt: skip


@pytest.mark.parametrize(("spoil", "messages"), [pytest.param(s, m, id=n) for n, s, m in BAD_SHEETS])
def test_bad_sheets_say_where_and_write_nothing(sheets: Path, tmp_path: Path, spoil: Callable[[Path], None],
                                                messages: list[str]) -> None:  # fmt: skip
    spoil(sheets)
    output = tmp_path / "box.json"
    result = _build_cli(sheets, output)
    assert result.exit_code == 2, result.output
    assert result.stderr.strip().splitlines() == [f"error: {m}" for m in messages]
    assert not output.exists() and result.stdout == ""


def test_every_problem_of_a_sheet_is_listed(sheets: Path, tmp_path: Path) -> None:
    edit(sheets, "characters.csv", {"id": "c-II-05"}, "influence", "three")
    edit(sheets, "characters.csv", {"id": "c-II-07"}, "cost", "gold")
    edit(sheets, "characters.csv", {"id": "c-III-01"}, "bonus timing", "phase_c")
    edit(sheets, "map-edges.csv", {"from": "start-n", "to": "start-e"}, "to", "nowhere")
    output = tmp_path / "box.json"
    result = _build_cli(sheets, output)
    assert result.exit_code == 2
    assert result.stderr.splitlines() == [
        "  characters.csv row 6, column 'influence': expected an integer 1-4, got 'three'",
        "  characters.csv row 8, column 'cost': expected one of 'coins', 'guards', got 'gold'",
        "  characters.csv row 26, column 'bonus timing': expected one of 'immediate', 'phase_e', 'end_game', 'none' "
        "(pile III), got 'phase_c'",
        "  map-edges.csv row 2, column 'to': expected the id of a space in map.spaces, got 'nowhere'",
        f"error: {sheets}: nothing written: 4 problems (listed above)",
    ]
    assert not output.exists()
    as_json = _build_cli(sheets, output, "--json")
    report = orjson.loads(as_json.stdout)
    assert as_json.exit_code == 2 and report["ok"] is False and len(report["problems"]) == 4
    assert report["problems"][0] == {
        "file": "characters.csv", "row": 6, "column": "influence", "detail": None, "expected": "an integer 1-4",
        "got": "'three'", "message": "characters.csv row 6, column 'influence': expected an integer 1-4, got 'three'",
    }  # fmt: skip


def test_an_unknown_column_and_a_bad_catalog_id_are_problems_too(sheets: Path, tmp_path: Path) -> None:
    table = _table(sheets / "voyages.csv")
    _save(sheets / "voyages.csv", [[*r, "my note"] for r in table])
    result = runner.invoke(app, ["catalog", "build", str(sheets), "-o", str(tmp_path / "b.json"), "--id", "my box"])
    assert result.exit_code == 2
    assert result.stderr.splitlines()[:2] == [
        "  voyages.csv row 1: expected only the columns 'id', 'name', 'task', 'provenance', got the column 'my note'",
        "  --id: expected an id of letters, digits, '-' and '_' (starting with a letter or digit), got 'my box'",
    ]


# ------------------------------------------------------------------ the transcription, end to end


def coimbra(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([installed_coimbra(), *args], capture_output=True, text=True, timeout=120,
                          env={**os.environ, "NO_COLOR": "1", "COLUMNS": "160", **(env or {})})  # fmt: skip


def test_a_transcribed_box_is_built_installed_and_played(tmp_path: Path) -> None:
    folder, box_file, db = tmp_path / "box", tmp_path / "my-box.json", tmp_path / "games.sqlite"
    made = coimbra("catalog", "template", "-o", str(folder))
    assert made.returncode == 0, made.stderr
    assert cell(folder, "map-spaces.csv", {"id": "road-n"}, "name") == "North Road"  # the stand-in new games start with
    _transcribe(folder)
    built = coimbra("catalog", "build", str(folder), "-o", str(box_file), "--id", "my-box-1")
    assert built.returncode == 0, built.stderr
    box = load_catalog(box_file)
    assert built.stdout.startswith(f"ok: my-box-1 sha256={box.sha256} written to {box_file}; values: ")
    assert (box.start_coins, box.discs_in_supply, box.provenance["start_resources.coins"]) == (9, 22, PRINTED)

    new = coimbra("new", "--players", "Ana:red,Bruno:blue", "--seed", "3", "--catalog", str(box_file), "--db", str(db))
    assert new.returncode == 0, new.stderr
    shown = orjson.loads(coimbra("show", new.stdout.split()[-1].strip(), "--db", str(db), "--json").stdout)
    assert {p["coins"] for p in shown["players"]} == {9} and {p["discs_in_supply"] for p in shown["players"]} == {22}

    log = tmp_path / "game.json"
    assert coimbra("simulate", "--players", "4", "--seed", "5", "--catalog", str(box_file), "-o", str(log)).returncode == 0
    assert orjson.loads(log.read_bytes())["catalog"] == {"id": "my-box-1", "sha256": box.sha256}
    refused = coimbra("validate", str(log))
    assert refused.returncode == 2
    assert f"catalog 'my-box-1' sha256={box.sha256}" in refused.stderr and "coimbra catalog install FILE" in refused.stderr
    assert coimbra("validate", str(log), "--catalog", str(box_file)).returncode == 0
    assert coimbra("catalog", "install", str(box_file)).returncode == 0
    assert coimbra("validate", str(log)).returncode == 0  # found among the installed catalogs
    rules = orjson.loads(coimbra("rules", "--catalog", str(box_file), "--json").stdout)
    assert next(r for r in rules if r["id"] == "C.alternative")["statement"].startswith("The alternative action gains up to 3 coins")


# ------------------------------------------------------------------ diff, install, list


def test_diff_names_components_and_fields(sheets: Path, tmp_path: Path) -> None:
    _transcribe(sheets)
    box = build(sheets, "box-1")
    (tmp_path / "box.json").write_bytes(orjson.dumps(box.data))
    assert catalog_diff(standin_catalog(), standin_catalog()) == []
    result = runner.invoke(app, ["catalog", "diff", "standin-2", str(tmp_path / "box.json"), "--json"])
    assert result.exit_code == 0, result.output
    found = orjson.loads(result.stdout)
    assert {"sheet": "characters", "component": "c-II-05 Castellan", "change": "changed", "field": "influence",
            "a": "4", "b": "3"} in found  # fmt: skip
    assert {"sheet": "settings", "component": "start_resources coins", "change": "changed", "field": "value",
            "a": "7", "b": "9"} in found  # fmt: skip
    assert {"sheet": "map-edges", "component": "start-n - road-e", "change": "added", "field": None, "a": None,
            "b": "from=start-n; to=road-e"} in found  # fmt: skip
    changed = {(d["sheet"], d["component"], d["field"]) for d in found if d["field"] not in ("provenance", "value")}
    assert ("characters", "c-II-02 Crossbowman", "bonus effects") in changed
    assert ("favor-tiles", "f-3 Royal Charter", "effects") in changed
    table = runner.invoke(app, ["catalog", "diff", "standin-2", str(tmp_path / "box.json")], env={"COLUMNS": "200"})
    assert "c-II-05 Castellan" in table.stdout and "difference" in table.stdout


def test_install_and_list(tmp_path: Path, catalogs_folder: Path) -> None:
    box = dict(standin_catalog().data, id="club-box-1", title="Our box")
    (tmp_path / "box.json").write_bytes(orjson.dumps(box))
    listed = orjson.loads(runner.invoke(app, ["catalog", "list", "--json"]).stdout)
    assert [c["id"] for c in listed["catalogs"]] == ["standin-2", "standin-1"] and listed["folder"] == str(catalogs_folder)
    first = runner.invoke(app, ["catalog", "install", str(tmp_path / "box.json"), "--json"])
    assert first.exit_code == 0, first.output
    report = orjson.loads(first.stdout)
    assert report["new"] is True and Path(report["path"]) == catalogs_folder / f"club-box-1-{report['sha256'][:12]}.json"
    assert orjson.loads(runner.invoke(app, ["catalog", "install", str(tmp_path / "box.json"), "--json"]).stdout)["new"] is False
    listed = orjson.loads(runner.invoke(app, ["catalog", "list", "--json"]).stdout)
    assert [(c["id"], c["where"] == "shipped") for c in listed["catalogs"]] == [
        ("standin-2", True), ("standin-1", True), ("club-box-1", False)]
    (catalogs_folder / "broken.json").write_text("{")
    listed = orjson.loads(runner.invoke(app, ["catalog", "list", "--json"]).stdout)
    assert [Path(b["path"]).name for b in listed["broken"]] == ["broken.json"]


def test_install_refuses_a_shipped_id_with_other_contents(tmp_path: Path) -> None:
    changed = dict(standin_catalog().data, title="not the stand-in")
    (tmp_path / "fake.json").write_bytes(orjson.dumps(changed))
    result = runner.invoke(app, ["catalog", "install", str(tmp_path / "fake.json")])
    assert result.exit_code == 2
    assert result.stderr.strip() == (
        f"error: {tmp_path / 'fake.json'}: catalog 'standin-2': expected an id of its own (catalog build --id ID), "
        "got the id of the shipped catalog 'Coimbra stand-in catalog', whose contents differ"
    )


def test_template_from_an_installed_catalog_by_id(tmp_path: Path) -> None:
    box = parse_catalog(dict(standin_catalog().data, id="club-box-2"))
    (tmp_path / "box.json").write_bytes(orjson.dumps(box.data))
    assert runner.invoke(app, ["catalog", "install", str(tmp_path / "box.json")]).exit_code == 0
    result = runner.invoke(app, ["catalog", "template", "-o", str(tmp_path / "sheets"), "--from", "club-box-2"])
    assert result.exit_code == 0, result.output
    assert build(tmp_path / "sheets", "club-box-2").sha256 == box.sha256
    unknown = runner.invoke(app, ["catalog", "template", "-o", str(tmp_path / "x"), "--from", "nope"])
    assert unknown.exit_code == 2 and "catalog 'nope': expected the id of a shipped or installed catalog" in unknown.stderr
    assert not (tmp_path / "x").exists()


@pytest.mark.parametrize("command", ["template", "build", "diff", "install", "list"])
def test_each_command_has_help_with_an_example(command: str) -> None:
    result = runner.invoke(app, ["catalog", command, "--help"])
    assert result.exit_code == 0 and "Example: coimbra catalog" in result.stdout


def test_the_sheets_need_a_readable_base(sheets: Path) -> None:
    (sheets / BASE).unlink()
    with pytest.raises(SheetError) as caught:
        build(sheets, "box-1")
    assert str(caught.value.problems[0]).startswith(f"{BASE}: expected the catalog 'catalog template' wrote beside")


def test_help_of_the_whole_command_does_not_import_the_loader() -> None:
    script = "import sys, cli.app; sys.exit('pydantic' in sys.modules or 'coimbra_events.catalog.parsing' in sys.modules)"
    assert subprocess.run([sys.executable, "-c", script], env=os.environ).returncode == 0


NAMES = st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00\r"), min_size=1, max_size=12).filter(
    lambda s: s.strip()
)


@settings(max_examples=25)
@given(st.lists(NAMES, min_size=3, max_size=3, unique_by=lambda s: " ".join(s.casefold().split())),
       st.integers(1, 4), st.integers(0, 9), st.sampled_from(["", "a note, with \"quotes\"; and more"]))
def test_any_names_and_values_survive_a_round_trip(tmp_path_factory: pytest.TempPathFactory, names: list[str],
                                                   influence: int, crowns: int, notes: str) -> None:  # fmt: skip
    data = copy.deepcopy(dict(standin_catalog().data))
    data["characters"][12].update(name=names[0], influence=influence)
    data["monasteries"][0]["name"], data["voyages"][0]["name"] = names[1], names[2]
    data["favor_tiles"][0]["crowns"] = crowns
    data["notes"] = notes
    if not notes:
        del data["notes"]
    catalog = parse_catalog(data)
    folder = tmp_path_factory.mktemp("sheets") / "box"
    write_template(catalog, folder)
    assert build(folder, catalog.id).sha256 == catalog.sha256


def test_a_stored_game_finds_its_catalog_among_the_installed_ones(tmp_path: Path) -> None:
    from coimbra_events.catalog import _CATALOGS, resolve_catalog

    box = parse_catalog(dict(standin_catalog().data, id="club-box-3"))
    (tmp_path / "box.json").write_bytes(orjson.dumps(box.data))
    _CATALOGS.pop(box.sha256, None)  # as in a new process
    with pytest.raises(CatalogError, match=r"^catalog 'club-box-3' sha256=\w+: expected the id of a shipped or installed"):
        resolve_catalog(box.id, box.sha256, None)
    assert runner.invoke(app, ["catalog", "install", str(tmp_path / "box.json")]).exit_code == 0
    assert resolve_catalog(box.id, box.sha256, None) == box


def test_a_sheet_is_read_as_a_person_leaves_it(sheets: Path) -> None:
    """Columns are found by the header's words before the bracket, empty rows are skipped, and a row
    added is a component added (all of it printed)."""
    table = _table(sheets / "voyages.csv")
    table[0] = ["ID (what we call it)", "Name", "task (end of game)", "provenance"]
    table.insert(3, ["", "", "", ""])
    table.append(["v-16", "Sofala", "3 points per voyage", ""])
    _save(sheets / "voyages.csv", table)
    box = build(sheets, "box-1")
    assert list(box.voyages)[-1] == "v-16" and len(box.voyages) == 16
    assert box.provenance["voyages.v-16"] == PRINTED and box.provenance["voyages.v-01"] == STAND_IN
    assert box.data["voyages"][-1] == {"id": "v-16", "name": "Sofala", "task": [{"kind": "points_per_voyage", "points": 3}],
                                       "provenance": PRINTED}  # fmt: skip


def test_a_game_keeps_a_copy_of_any_catalog_that_is_not_shipped(tmp_path: Path) -> None:
    from coimbra_events.game import Game

    box = parse_catalog(dict(standin_catalog().data, id="club-box-4"))
    (tmp_path / "box.json").write_bytes(orjson.dumps(box.data))
    assert runner.invoke(app, ["catalog", "install", str(tmp_path / "box.json")]).exit_code == 0
    players = [("Ana", "red"), ("Bruno", "blue")]
    assert Game.start("g", box, players).pending_events[0].catalog_data == box.data  # installed: copied all the same
    assert Game.start("h", standin_catalog(), players).pending_events[0].catalog_data is None
