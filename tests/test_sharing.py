"""Sharing a game: the move list through the installed command, score sheets, and the replay page's data.

The page itself is tested in a real browser (``tests/test_browser.py``); here
are the parts that need none: the change encoding of the states, the words of
every entry, the marks of a record's history, and the commands end to end.
"""

from __future__ import annotations

import csv
import io
import os
import sqlite3
import subprocess
from contextlib import closing
from pathlib import Path

import orjson
import pytest
from hypothesis import given
from hypothesis import strategies as st

from cli.replay_page import apply_delta, delta, replay_data, script_json
from coimbra_events import log as game_log, log_reader
from coimbra_events import movelist
from coimbra_events.events import EVENT_TYPES
from coimbra_events.game import Game
from projections.board import board_view
from projections.entries import entry_marks
from projections.timeline import timeline
from projections.words import _SAY, entry_words
from tests.conftest import FIXTURES, installed_coimbra
from tests.test_movelist import eventful

GAMES = sorted((FIXTURES / "games").glob("*.json"))


def coimbra(*args: str, db: Path, code: int = 0) -> subprocess.CompletedProcess:
    out = subprocess.run([installed_coimbra(), *args], capture_output=True, timeout=120,
                         env={**os.environ, "NO_COLOR": "1", "COLUMNS": "200", "COIMBRA_DB": str(db)})
    assert "Traceback" not in out.stderr.decode(), out.stderr.decode()
    assert out.returncode == code, (args, out.returncode, out.stdout.decode(), out.stderr.decode())
    return out


def stored_events(db: Path) -> int:
    if not db.exists():
        return 0
    with closing(sqlite3.connect(db)) as conn:
        return conn.execute("SELECT COUNT(*) FROM stored_events").fetchone()[0]


# --- the move list, end to end -------------------------------------------------------------


@pytest.mark.parametrize("path", GAMES, ids=[p.stem for p in GAMES])
def test_export_text_then_import_gives_back_the_canonical_json_byte_for_byte(path: Path, tmp_path: Path):
    db = tmp_path / "games.sqlite"
    coimbra("export", str(path), "--format", "text", "-o", str(tmp_path / "g.txt"), db=db)
    text = (tmp_path / "g.txt").read_text()
    assert text.startswith('[Format "coimbra-log"]') and "\n== Round 4 ==\n" in text
    coimbra("import", str(tmp_path / "g.txt"), "--name", "back", db=db)
    assert coimbra("export", "back", db=db).stdout == game_log.dumps(log_reader.read(path))


def test_a_stored_game_exports_the_same_move_list_as_its_log_file(tmp_path: Path):
    db = tmp_path / "games.sqlite"
    coimbra("import", str(GAMES[1]), "--name", "g", db=db)
    from_store = coimbra("export", "g", "--format", "text", db=db).stdout
    assert from_store == coimbra("export", str(GAMES[1]), "--format", "text", db=db).stdout


def test_a_move_list_with_every_kind_of_history_entry_round_trips_through_the_commands(tmp_path: Path):
    db = tmp_path / "games.sqlite"
    record = tmp_path / "eventful.json"
    game_log.write(record, eventful().to_log())
    coimbra("export", str(record), "--format", "text", "-o", str(tmp_path / "e.txt"), db=db)
    coimbra("import", str(tmp_path / "e.txt"), "--name", "e", db=db)
    assert coimbra("export", "e", db=db).stdout == record.read_bytes()


def test_a_damaged_move_list_is_refused_with_its_line_exit_2_and_nothing_stored(tmp_path: Path):
    db = tmp_path / "games.sqlite"
    coimbra("export", str(GAMES[0]), "--format", "text", "-o", str(tmp_path / "g.txt"), db=db)
    text = (tmp_path / "g.txt").read_text()
    (tmp_path / "bad.txt").write_text(text.replace("27. Bruno: buy Scholar", "27. Bruno: buy"))
    out = coimbra("import", str(tmp_path / "bad.txt"), db=db, code=2)
    errors = [line for line in out.stderr.decode().splitlines() if line.startswith("error:")]
    assert len(errors) == 1 and ": event 27: line 40: bad notation: 'buy' expects 'buy CARD'" in errors[0]  # the header has Upcast_from
    assert errors[0].endswith("nothing stored")
    (tmp_path / "tampered.txt").write_text(text.replace("gray-1=4", "gray-1=6", 1))
    out = coimbra("import", str(tmp_path / "tampered.txt"), "--json", db=db, code=2)
    assert orjson.loads(out.stdout)["problems"][0]["what"] == "line 10: head hash does not match"
    assert stored_events(db) == 0


def test_a_move_list_that_reads_but_breaks_a_rule_is_refused_by_the_rules_exit_1(tmp_path: Path):
    db = tmp_path / "games.sqlite"
    illegal = log_reader.read(FIXTURES / "invalid" / "card-too-expensive.json")
    (tmp_path / "illegal.txt").write_text(movelist.dumps(illegal))
    out = coimbra("import", str(tmp_path / "illegal.txt"), db=db, code=1)
    assert "breaks rule C.cost" in out.stderr.decode() and stored_events(db) == 0


def test_the_export_formats_are_named_in_help_and_a_bad_one_or_place_is_refused(tmp_path: Path):
    db = tmp_path / "games.sqlite"
    assert "json|text|html" in coimbra("export", "--help", db=db).stdout.decode().replace(" ", "")
    out = coimbra("export", str(GAMES[0]), "--format", "pgn", db=db, code=2)
    assert "pgn" in out.stderr.decode()
    out = coimbra("export", str(GAMES[0]), "--format", "text", "-o", str(tmp_path / "no" / "g.txt"), db=db, code=2)
    assert out.stderr.decode().strip() == f"error: {tmp_path / 'no' / 'g.txt'}: No such file or directory"
    assert list(tmp_path.iterdir()) == []  # not even the store: nothing was written


# --- score sheets ------------------------------------------------------------------------------


@pytest.mark.parametrize("path", GAMES, ids=[p.stem for p in GAMES])
def test_the_csv_sheet_has_a_header_row_one_row_per_player_and_the_points_of_score_json(path: Path, tmp_path: Path):
    db = tmp_path / "games.sqlite"
    report = orjson.loads(coimbra("score", str(path), "--json", db=db).stdout)
    coimbra("score", str(path), "--format", "csv", "-o", str(tmp_path / "s.csv"), db=db)
    with open(tmp_path / "s.csv", newline="", encoding="utf-8-sig") as f:
        rows = list(csv.DictReader(f))
    sources = list(report["players"][0]["sources"])
    assert list(rows[0]) == ["game", "date", "place", "player", *sources, "total", "coins + guards left"]
    assert len(rows) == len(report["players"])
    for row, player in zip(rows, report["players"]):
        assert row["game"] == path.stem and row["date"] == ""  # the fixtures say not when they were played
        assert row["player"] == player["name"] and int(row["place"]) == player["place"]
        assert {s: int(row[s]) for s in sources} == player["sources"]
        assert int(row["total"]) == player["total"] == sum(player["sources"].values())
        assert int(row["coins + guards left"]) == player["resources_left"]


def test_the_csv_sheet_opens_in_a_spreadsheet_with_its_accents_and_says_which_game_and_day(tmp_path: Path):
    """A BOM first, as ``league standings --csv`` writes: without it a spreadsheet reads "João" as "JoÃ£o"."""
    from coimbra_events.catalog import standin_catalog
    from coimbra_events.simulator import simulate

    log, _ = simulate(standin_catalog(), (("João", "red"), ("Inês", "blue")), 1)
    stamps = [("2026-03-14T21:05:00Z" if k else "2026-03-13T23:58:00Z", "João") for k in range(len(log.events))]
    game_log.write(tmp_path / "sábado.json", log.with_events(log.events, stamps))
    sheet = coimbra("score", str(tmp_path / "sábado.json"), "--format", "csv", db=tmp_path / "games.sqlite").stdout
    assert sheet.startswith("\ufeff".encode()) and b"\r\n" in sheet
    rows = list(csv.reader(io.StringIO(sheet.decode("utf-8-sig"), newline="")))
    assert rows[0][:4] == ["game", "date", "place", "player"]
    assert sorted(r[3] for r in rows[1:]) == ["Inês", "João"]
    assert {(r[0], r[1]) for r in rows[1:]} == {("sábado", "2026-03-13")}  # the day its first entry was made


def test_the_csv_sheet_keeps_formulas_out_of_a_spreadsheet(tmp_path: Path):
    """A name a spreadsheet would run (``@SUM(1)``, ``-1-1``, ``=...``) is written as text with a leading
    apostrophe (OWASP's CSV-injection rule, cli/spreadsheet.py); numbers stay numbers."""
    from coimbra_events.catalog import standin_catalog
    from coimbra_events.simulator import simulate

    log, _ = simulate(standin_catalog(), (("@SUM(1)", "red"), ("-1-1", "blue")), 1)
    game_log.write(tmp_path / "=1+1.json", log)
    sheet = coimbra("score", str(tmp_path / "=1+1.json"), "--format", "csv", db=tmp_path / "games.sqlite").stdout
    rows = list(csv.reader(io.StringIO(sheet.decode("utf-8-sig"), newline="")))
    assert sorted(r[3] for r in rows[1:]) == ["'-1-1", "'@SUM(1)"]
    assert {r[0] for r in rows[1:]} == {"'=1+1"} and sorted(r[2] for r in rows[1:]) == ["1", "2"]


@pytest.mark.parametrize("text", ["=1+1", "+1", "-1-1", "@SUM(1)", "\tx", "\rx"])
def test_every_formula_start_is_written_as_text(text: str):
    from cli.spreadsheet import spreadsheet_csv

    rows = list(csv.reader(io.StringIO(spreadsheet_csv(["a", "n"], [[text, -3]]).lstrip("\ufeff"), newline="")))
    assert rows[1] == ["'" + text, "-3"]


def test_text_that_starts_no_formula_is_written_as_it_is():
    from cli.spreadsheet import spreadsheet_csv

    rows = list(csv.reader(io.StringIO(spreadsheet_csv(["a"], [["Ana = 1"], ["'quoted"], ["João-1"]]).lstrip("\ufeff"), newline="")))
    assert [r[0] for r in rows[1:]] == ["Ana = 1", "'quoted", "João-1"]


def test_the_html_sheet_is_one_printable_page_with_every_total(tmp_path: Path):
    db = tmp_path / "games.sqlite"
    report = orjson.loads(coimbra("score", str(GAMES[2]), "--json", db=db).stdout)
    page = coimbra("score", str(GAMES[2]), "--format", "html", db=db).stdout.decode()
    assert page.startswith("<!doctype html>") and "@media print" in page and "<script" not in page
    for p in report["players"]:
        assert f"<th>{p['place']}. {p['name']}</th>" in page and f"<td>{p['total']}</td>" in page
    out = coimbra("score", str(GAMES[2]), "-o", str(tmp_path / "x"), db=db, code=2)
    assert "--format csv or --format html" in out.stderr.decode()


# --- the replay page's data --------------------------------------------------------------------

_json = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 3) | st.text(max_size=3),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=2), inner, max_size=4),
    max_leaves=20,
)


@pytest.mark.property
@given(a=_json, b=_json)
def test_property_a_delta_applied_gives_the_later_value(a, b):
    change = delta(a, b)
    assert apply_delta(a, change) == b
    assert orjson.loads(orjson.dumps(change)) == change  # plain JSON, as the page reads it


@pytest.mark.parametrize("path", GAMES, ids=[p.stem for p in GAMES])
def test_the_states_of_the_page_are_the_board_views_of_the_timeline(path: Path):
    game = Game.from_log("g", log_reader.read(path))
    line = timeline(game)
    data = replay_data(game, line)
    assert len(data["states"]) == len(data["entries"]) + 1 == len(game.events) + 1
    view = data["states"][0]
    for state, change in zip(line.states[1:], data["states"][1:]):
        view = apply_delta(view, change)
        assert view == board_view(state)
    assert data["scores"]["final"] and data["identity"]["head"] == game.head


def test_embedded_json_cannot_close_its_script_element():
    text = script_json({"note": "</script><script>alert(1)</script><!--"})
    assert "<" not in text and orjson.loads(text) == {"note": "</script><script>alert(1)</script><!--"}


def test_every_event_type_has_its_words():
    assert set(_SAY) == set(EVENT_TYPES.values())


@pytest.mark.parametrize("path", GAMES, ids=[p.stem for p in GAMES])
def test_every_entry_of_the_fixtures_is_a_sentence_naming_its_components(path: Path):
    line = timeline(log_reader.read(path))
    for k, event in enumerate(line.events):
        words = entry_words(line.states[k], event)
        assert words.endswith(".") and "c-II-" not in words.replace("(c-II-", "")
    buys = [entry_words(line.states[k], e) for k, e in enumerate(line.events) if e.TYPE == "CardBought"]
    assert buys and all(" buys " in w and ")." in w for w in buys)


def test_a_die_placed_is_said_with_its_value():
    line = timeline(log_reader.read(GAMES[0]))
    assert entry_words(line.states[14], line.events[14]) == "Bruno places die gray-2 (5) in the upper city."


def test_the_marks_of_a_record_say_what_each_history_entry_did_to_which_entry():
    marks = entry_marks(eventful().to_log().events)
    assert marks[15] == {"kind": "decision", "corrected_by": [26], "notes": [{"by": 27, "text": "dice knocked over {re-rolled} ✓"}]}
    assert marks[17]["bookmarks"] == [{"by": 28, "label": "the big castle turn"}]
    assert marks[24] == {"kind": "correction", "target": 16}
    assert marks[25] == {"kind": "decision", "replaces": 16, "notes": [{"by": 31, "text": "a note\nover two lines"},
                                                                      {"by": 32, "text": "  spaced  "}]}
    assert marks[28] == {"kind": "override", "rule": "C.alternative", "reason": "we misread: 3 coins}"}
    assert marks[29] == {"kind": "decision", "accepted": {"rule": "C.alternative", "reason": "we misread: 3 coins}"},
                         "withdrawn_by": [33]}
    assert marks[32] == {"kind": "retraction", "target": 30}
    assert marks[0]["kind"] == "outcome"


def test_the_page_is_one_file_that_names_no_other(tmp_path: Path):
    db = tmp_path / "games.sqlite"
    page = coimbra("export", str(GAMES[2]), "--format", "html", db=db).stdout.decode()
    assert page.count("<script") == 2 and "src=" not in page and "href=" not in page and "@import" not in page
    assert "default-src 'none'" in page  # the browser itself refuses any request the page would make
    assert len(page.encode()) <= 400 * 1024


def test_the_page_data_carries_each_entrys_changes_with_their_rules():
    """The page lists what each entry changed on the table as the consequences read model says it."""
    from cli.replay_page import replay_data
    from coimbra_events.game import Game
    from projections.timeline import timeline

    game = Game.from_log("g", log_reader.read(GAMES[0]))
    line = timeline(game)
    entries = replay_data(game, line)["entries"]
    assert all(e["changes"] == [c.to_json() for c in line.changes[e["seq"]]] for e in entries)
    bought = next(e for e in entries if e["type"] == "CardBought")
    assert {"C.cost", "C.card", "C.retrieve"} <= {c["rule"] for c in bought["changes"]}
