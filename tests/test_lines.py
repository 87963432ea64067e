"""One line per thing a person does (``coimbra_events.lines``), in the move list, ``act`` and the recorder.

A player's whole income or walk is one line, still one entry (and one hash) per
die, exchange and step: the move list of each fixture has at most 0.75 lines of
entries per entry and reads back byte for byte; a move list written by hand
(names, no head, no numbers) imports and validates, and one illegal line is
refused naming the line, the rule and the reason; ``act``, the recorder and the
move list take the same one-line income and walk, typed through the installed
command; and for random games, grouping entries into lines and reading the lines
back gives the same entries.
"""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from coimbra_events import events as ev, lines, log as game_log, log_reader, movelist
from coimbra_events.catalog import find_catalog, standin_catalog
from coimbra_events.names import Names
from coimbra_events.notation import NotationError
from coimbra_events.validation import validate
from tests.commands import invoke
from tests.conftest import FIXTURES, installed_coimbra
from tests.strategies import games

CAT = find_catalog("standin-1")
"""The catalog the fixtures were recorded with."""
GAMES = sorted((FIXTURES / "games").glob("*.json"))
BY_HAND = FIXTURES / "movelists" / "ana-bruno-by-hand.txt"
MAX_LINES_PER_ENTRY = 0.75
TWO = log_reader.read(FIXTURES / "games" / "standin-2p-seed1.json")
INCOME = "Bruno: income orange-1; purple-1; walk start-n, road-n; income gray-2"
"""Entries 33-37 of the 2-player fixture, as one line: dice without their own track, a walk of two steps."""
WALK_TO = "Bruno: income orange-1; purple-1; walk road-n; income gray-2"
"""The same, the walk naming only where it goes (one shortest route)."""


def entry_lines(text: str) -> int:
    """The lines of a move list that carry entries (numbered ``N. …``): not tags, headings or blanks."""
    return sum(1 for line in text.splitlines() if re.match(r"\d+\. ", line))


@pytest.mark.parametrize("path", GAMES, ids=[p.stem for p in GAMES])
def test_the_move_list_has_at_most_three_lines_for_four_entries_and_reads_back_byte_for_byte(path: Path, tmp_path: Path):
    exported = invoke(["export", str(path), "--format", "text"])
    assert exported.exit_code == 0, exported.output
    events = len(log_reader.read(path).events)
    assert entry_lines(exported.stdout) / events <= MAX_LINES_PER_ENTRY
    listed = tmp_path / "game.txt"
    listed.write_text(exported.stdout, encoding="utf-8")
    db = str(tmp_path / "games.sqlite")
    assert invoke(["import", str(listed), "--name", "back", "--db", db]).exit_code == 0
    again = invoke(["export", "back", "--db", db])
    assert again.stdout_bytes == game_log.dumps(log_reader.read(path))


def test_a_line_is_one_players_entries_each_its_own_event():
    events = lines.read(INCOME, names=Names(CAT, ["Ana", "Bruno"]))
    assert events == list(TWO.events[32:37])
    assert lines.render_line(events) == "Bruno: income orange-1 orange; purple-1 purple; walk start-n, road-n; income gray-2 gray"
    assert lines.read("Bruno: walk start-n road-n") == lines.read("Bruno: walk start-n, road-n") == events[2:4]


def test_a_coloured_die_pays_on_its_own_track_and_a_verb_word_keeps_its_verb():
    names = Names(CAT, ["Ana", "Bruno"])
    assert lines.read("income gray-2", "Bruno", names) == [ev.IncomeActivated("Bruno", "gray-2", "gray")]
    with pytest.raises(NotationError, match="missing TRACK"):
        lines.read("income white-1", "Bruno", names)  # the white die names its track
    bought = [ev.CardBought("Ana", "c-II-13"), ev.CardBought("Ana", "pilgrim")]
    assert lines.render_line(bought) == "Ana: buy c-II-13; buy pilgrim"  # not read as the verb 'pilgrim'
    assert lines.read(lines.render_line(bought)) == bought


@pytest.mark.parametrize("text, words", [
    ("Bruno: income orange-1; Ana: end", "one line is one player's turn"),
    ("Bruno: income orange-1; table: roll gray-1=3", "one line is one player's turn"),
    ("Bruno: pass; note 3 hello", "'note' goes on a line of its own"),
    ("Bruno: orange-1", "unknown verb 'orange-1'"),
    ("Bruno: income orange-1;; end", "nothing between two ';'"),
    ("Bruno: walk", "expected 'walk SPACE, SPACE, …'"),
])
def test_a_line_that_does_not_read_names_its_entry_and_the_problem(text: str, words: str):
    with pytest.raises(NotationError, match=re.escape(words)):
        lines.read(text, names=Names(CAT, ["Ana", "Bruno"]))


def test_a_walk_to_a_space_further_away_asks_only_when_routes_pass_different_monasteries():
    table = validate(TWO.prefix(34), CAT).state  # Bruno's pilgrim on start-w, steps due
    walked = [e.to for e in lines.route(table, lines.read("Bruno: walk blue-n1")[0])]
    assert walked == ["start-n", "road-n", "blue-n1"]
    # start-e: by start-n or by start-s, neither passing a monastery: no question, the map's first
    assert [e.to for e in lines.route(table, lines.read("Bruno: walk start-e")[0])] == ["start-n", "start-e"]
    with pytest.raises(NotationError, match="two routes to coast-w pass different monasteries: write 'walk road-w, "
                                            "Grijó, cross-sw, way-sw, Salzedas, coast-w' or 'walk road-w, Arouca"):
        lines.route(table, lines.read("Bruno: walk coast-w")[0])


def test_a_walk_to_a_space_named_in_several_words_is_one_space_and_takes_its_route():
    table = validate(TWO.prefix(34), CAT).state  # Bruno's pilgrim on start-w; Santa Clara drawn onto blue-n1
    names = Names(CAT, ["Ana", "Bruno"], dict(table.monasteries))
    assert [e.to for e in lines.read("Bruno: walk Santa Clara", None, names, table)] == ["start-n", "road-n", "blue-n1"]
    assert lines.needs_table("Bruno: walk Santa Clara") and not lines.needs_table("Bruno: walk start-n, road-n")
    assert [e.to for e in lines.read("Bruno: walk start-n road-n", None, names)] == ["start-n", "road-n"]


def test_a_move_list_written_by_hand_imports_and_validates(tmp_path: Path):
    """Players' and components' names, no head, no numbers, no hashes: the record is taken as written, and says so."""
    text = BY_HAND.read_text(encoding="utf-8")
    assert "[Head" not in text and not re.search(r"^\d+\. ", text, re.M) and "Poet" in text
    checked = invoke(["validate", str(BY_HAND)])
    assert checked.exit_code == 0 and "130 events, all legal" in checked.stdout
    assert "taken as written" in checked.stderr
    assert orjson.loads(invoke(["validate", str(BY_HAND), "--json"]).stdout)["taken_as_written"] is True
    verified = invoke(["verify", str(BY_HAND), "--json"])
    assert verified.exit_code == 0 and orjson.loads(verified.stdout)["taken_as_written"] is True
    assert "intact" not in invoke(["verify", str(BY_HAND)]).stdout  # no hash vouches for it
    db = str(tmp_path / "games.sqlite")
    imported = invoke(["import", str(BY_HAND), "--name", "paper", "--db", db])
    assert imported.exit_code == 0 and "taken as written" in imported.stderr
    again = invoke(["import", str(BY_HAND), "--name", "paper-2", "--db", db, "--json"])
    assert orjson.loads(again.stdout)["taken_as_written"] is True
    record = log_reader.loads(invoke(["export", "paper", "--db", db]).stdout_bytes)
    assert record.events == TWO.events and record.players == TWO.players


def test_a_header_by_hand_may_leave_out_the_catalog_format_schema_and_ruleset():
    text = BY_HAND.read_text(encoding="utf-8")
    assert "[Format" not in text and "[Schema" not in text and "[Ruleset" not in text
    read = movelist.loads(text.replace('[Catalog "standin-1"]\n', ""))  # no tag: the catalog new games start with
    assert (read.catalog_id, read.catalog_sha256, read.ruleset) == ("standin-2", standin_catalog().sha256, TWO.ruleset)
    with pytest.raises(game_log.LogError, match="line 1: tag Catalog: .*standin-9"):
        movelist.loads(text.replace('"standin-1"', '"standin-9"'))


def test_players_are_named_in_any_case_in_a_move_list_as_at_the_table():
    text = BY_HAND.read_text(encoding="utf-8").replace("\nAna: group 2\n", "\nana: group 2\n")
    assert "\nana: group 2\n" in text
    assert movelist.loads(text).events == TWO.events


def test_a_move_list_written_by_hand_with_one_illegal_line_is_refused_naming_the_line_rule_and_reason(tmp_path: Path):
    text = BY_HAND.read_text(encoding="utf-8").replace("Ana: invest Brazil", "Ana: invest Cape Verde")
    number = text.splitlines().index("Ana: invest Cape Verde") + 1
    listed = tmp_path / "game.txt"
    listed.write_text(text, encoding="utf-8")
    refused = invoke(["import", str(listed), "--db", str(tmp_path / "games.sqlite")])
    assert refused.exit_code == 1
    assert f"game.txt: line {number} (event 38) breaks rule F.cost: voyage Cape Verde (v-05) costs 2 coins" in refused.stderr
    checked = invoke(["validate", str(listed), "--json"])
    assert checked.exit_code == 1
    assert {"seq": 38, "rule": "F.cost", "line": number}.items() <= orjson.loads(checked.stdout)["violation"].items()


def _run(env: dict[str, str], *args: str, stdin: str = "") -> str:
    out = subprocess.run([installed_coimbra(), *args], input=stdin.encode(), capture_output=True, timeout=120, env=env)
    assert "Traceback" not in out.stderr.decode(), out.stderr.decode()
    assert out.returncode == 0, (args, out.stdout.decode()[-2000:], out.stderr.decode())
    return out.stdout.decode()


@pytest.mark.parametrize("line", [INCOME, WALK_TO], ids=["steps", "destination"])
def test_act_the_recorder_and_the_move_list_take_the_same_one_line_income_and_walk(line: str, tmp_path: Path):
    env = {**os.environ, "NO_COLOR": "1", "COLUMNS": "120", "COIMBRA_DB": str(tmp_path / "games.sqlite")}
    expected = list(TWO.events[32:37])
    before = tmp_path / "before.json"
    game_log.write(before, TWO.prefix(32))
    _run(env, "act", str(before), line)  # a log file: act writes it back
    assert log_reader.read(before).events[32:] == tuple(expected)
    game_log.write(before, TWO.prefix(32))
    _run(env, "import", str(before), "--name", "table")
    said = _run(env, "record", "table", stdin=f"{line}\n")
    assert "recorded 37: Bruno: income gray-2 gray" in said
    assert log_reader.loads(_run(env, "export", "table").encode()).events[32:] == tuple(expected)
    listed = tmp_path / "by-hand.txt"
    assert INCOME in BY_HAND.read_text(encoding="utf-8")
    listed.write_text(BY_HAND.read_text(encoding="utf-8").replace(INCOME, line), encoding="utf-8")
    assert "130 events, all legal" in _run(env, "validate", str(listed))


STAMPS = [("", ""), ("2026-11-01T20:15:00Z", "Ana"), ("2026-11-01T20:15:00Z", "Bruno"), ("2026-11-01T20:16:07Z", "Ana"),
          ("", "Carla [at the table]"), ("2026-11-01T20:16:07Z", "")]
"""When and by whom an entry was entered (none, either or both), as a random record's entries carry them."""


@st.composite
def stamped_games(draw) -> game_log.GameLog:
    """A random game whose entries are stamped in runs (a turn entered at once shares its stamp), or not at all."""
    record = draw(games(CAT, max_events=160))
    stamps: list[tuple[str, str]] = []
    for run in draw(st.lists(st.tuples(st.sampled_from(STAMPS), st.integers(1, 6)), max_size=len(record.events))):
        stamps += [run[0]] * run[1]
    stamps = (stamps + [STAMPS[0]] * len(record.events))[:len(record.events)]
    return record.with_events(record.events, stamps if draw(st.booleans()) else ())


def _stamps_per_line(text: str, record: game_log.GameLog) -> list[tuple[str, set[tuple[str, str]]]]:
    """Each entry line of a move list, with the stamps of the entries it holds."""
    numbered = [(int(m.group(1)), line) for line in text.splitlines() if (m := re.match(r"(\d+)\. ", line))]
    ends = [seq for seq, _ in numbered[1:]] + [len(record.events) + 1]
    return [(line, {record.stamp(k - 1) for k in range(seq, end)}) for (seq, line), end in zip(numbered, ends)]


@pytest.mark.property
@settings(max_examples=max(settings.default.max_examples // 8, 10))
@given(record=stamped_games())
def test_property_grouping_entries_into_lines_and_reading_them_back_gives_the_same_entries(record):
    """Lines read back to their entries, stamps and all; a line whose entries share their stamp says it once."""
    names = Names(CAT, [name for name, _ in record.players])
    events = list(record.events)
    for group in lines.groups(events):
        chunk = [events[k] for k in group]
        assert lines.read(lines.render_line(chunk), names=names) == chunk
    text = movelist.dumps(record)
    assert game_log.dumps(movelist.loads(text)) == game_log.dumps(record)
    assert entry_lines(text) <= len(events)
    for line, stamps in _stamps_per_line(text, record):
        if len(stamps) == 1 and stamps != {STAMPS[0]}:
            assert line.count("{[%") == 1, line


def test_simulate_names_the_players_it_is_given():
    made = invoke(["simulate", "--players", "Ana,João,Carla", "--seed", "7"])
    assert made.exit_code == 0
    assert [name for name, _ in log_reader.loads(made.stdout_bytes).players] == ["Ana", "João", "Carla"]
    assert invoke(["simulate", "--players", "3", "--seed", "7"]).stdout_bytes != made.stdout_bytes
    refused = invoke(["simulate", "--players", "Ana,Ana", "--seed", "7"])
    assert refused.exit_code == 2 and "each player's name once" in refused.stderr


@pytest.mark.property
@given(text=st.lists(st.sampled_from(["Ana:", "bruno:", "table:", "income", "gray-1", "white-1", "walk", "road-n", ",",
                                      ";", " ", "step", "note", "3", "{", "}", "[%at", '"', "poet", "end", "buy", ":"]),
                     max_size=12).map("".join))
def test_property_any_line_reads_or_is_refused_in_one_line(text: str):
    table = validate(TWO.prefix(34), CAT).state
    try:
        lines.read(text, "Bruno", Names(CAT, ["Ana", "Bruno"]), table)
    except NotationError as exc:
        assert str(exc) and "\n" not in str(exc)
