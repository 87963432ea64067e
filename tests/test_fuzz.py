"""Fuzzing every reader: log files, stored rows edited in SQLite, notation lines.

Whatever the input: no traceback, exit codes 0, 1, 2 (and 3 for conflicts) only, and
nothing stored by an input that was refused. Cases are driven in-process through
typer's runner (``FUZZ_EXAMPLES`` each: a few by default, thousands in CI's thorough
profile); a handful of the worst inputs go through the installed command as well.
"""

from __future__ import annotations

import os
import subprocess

import orjson
import pytest
from eventsourcing.utils import resolve_topic
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from coimbra_events import log as game_log, log_reader
from coimbra_events import movelist
from coimbra_events.notation import VERBS
from coimbra_events.store.errors import DamagedGame, DamagedIndex, StoreConflict, UnknownGame
from coimbra_events.store.topics import STORED_TOPICS
from coimbra_events.store.game_store import GameStore
from tests.commands import invoke, scratch
from tests.conftest import installed_coimbra
from tests.store.rows import Rows
from tests.strategies import FUZZ_EXAMPLES, JSON_VALUES, THOROUGH, games

pytestmark = pytest.mark.property
fuzz = settings(max_examples=FUZZ_EXAMPLES, deadline=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture, HealthCheck.data_too_large])

CODES = {0, 1, 2, 3}
BYTES = st.sampled_from([b"{", b"}", b"[", b"]", b'"', b":", b",", b"\\", b"0", b"9", b"-", b"e", b"a", b" ", b"\n",
                         b"\x00", b"\xff", b"\x1b[2J", b"null", b"true", b'"seq"', b'"actor":"table"', b"[" * 300,
                         b"1" * 400, b'"\\ud800"'])


def run(*args: str) -> tuple[int, str]:
    """One command in-process; anything but a clean exit is a failure of the test."""
    result = invoke(args)
    assert result.exception is None or isinstance(result.exception, SystemExit), (args, repr(result.exception))
    assert result.exit_code in CODES and "Traceback" not in result.output, (args, result.exit_code, result.output)
    return result.exit_code, result.output


def mangled(data: st.DataObject, raw: bytes) -> bytes:
    """A log's bytes with a few drawn edits: bytes replaced, inserted or removed, or one JSON value swapped."""
    if data.draw(st.booleans(), label="as JSON"):
        doc = orjson.loads(raw)
        events = doc["events"]
        if events and data.draw(st.booleans(), label="in an event"):
            target = data.draw(st.sampled_from(events), label="event")
            key = data.draw(st.sampled_from([*sorted(target), *sorted(target["payload"])]), label="key")
            (target if key in target else target["payload"])[key] = data.draw(JSON_VALUES, label="value")
        else:
            doc[data.draw(st.sampled_from(sorted(doc) + ["extra"]), label="key")] = data.draw(JSON_VALUES, label="value")
        return orjson.dumps(doc)
    for _ in range(data.draw(st.integers(1, 3), label="edits")):
        at = data.draw(st.integers(0, len(raw)), label="at")
        cut = data.draw(st.integers(0, 3), label="cut")
        raw = raw[:at] + data.draw(st.one_of(st.just(b""), BYTES), label="bytes") + raw[at + cut:]
    return raw


@fuzz
@given(data=st.data())
def test_fuzzed_log_files_never_crash_a_reader_and_a_refused_one_stores_nothing(catalog, data):
    with scratch() as folder:
        _fuzzed_log_file(folder, catalog, data)


def _fuzzed_log_file(folder, catalog, data) -> None:
    log = data.draw(games(catalog, max_events=60), label="game")
    path, db = folder / "g.json", folder / "games.sqlite"
    if data.draw(st.booleans(), label="as a move list"):
        path.write_bytes(mangled_text(data, movelist.dumps(log).encode()))
    else:
        path.write_bytes(mangled(data, game_log.dumps(log)))
    before = path.read_bytes()
    run(data.draw(st.sampled_from(["verify", "validate", "show", "score", "legal", "explain"]), label="reader"), str(path))
    code, _ = run("import", str(path), "--name", "g", "--db", str(db))
    store = GameStore(db)
    try:
        assert (code == 0) == (store.games() != []), code
        if code == 0:
            assert store.inspect("g").problems == ()
    finally:
        store.close()
    code, _ = run("act", str(path), "pass")
    assert code == 0 or path.read_bytes() == before


def mangled_text(data: st.DataObject, raw: bytes) -> bytes:
    """A move list with a few drawn edits: bytes replaced, inserted or removed, or a line doubled or dropped."""
    lines = raw.split(b"\n")
    if data.draw(st.booleans(), label="a line"):
        k = data.draw(st.integers(0, len(lines) - 1), label="line")
        lines[k:k + 1] = data.draw(st.sampled_from([[], [lines[k], lines[k]], [lines[k] + b" [%at " + b"]" * 50]]), label="how")
        return b"\n".join(lines)
    for _ in range(data.draw(st.integers(1, 3), label="edits")):
        at = data.draw(st.integers(0, len(raw)), label="at")
        raw = raw[:at] + data.draw(st.one_of(st.just(b""), BYTES), label="bytes") + raw[at + data.draw(st.integers(0, 3)):]
    return raw


ROW_TOPICS = st.sampled_from([
    "coimbra_events.game:Game.Created", "coimbra_events.game:Game.Recorded", "coimbra_events.integrity:Receipt",
    "coimbra_events.store.receipts:Receipt",
    "coimbra_events.application:GamesIndex.Listed", "coimbra_events.application:GamesIndex.Created",
    "coimbra_events.game:Game.Event", "this:s", "os:system", "", "x" * 300,
])


def named_class(topic: str) -> object:
    """The class a stored row's topic names (under its old topic too, for a class that moved), or the topic itself
    for one the store resolves to no class of its own: relabelling a row with another spelling of its own class
    changes nothing it says."""
    return resolve_topic(topic) if topic in STORED_TOPICS else topic


def edited_row(data: st.DataObject, rows: Rows) -> tuple[str, bool]:
    """Change one stored row as someone with the file could; returns which stream it was in, and
    whether what it says changed (a timestamp is not part of the chain)."""
    row = data.draw(st.sampled_from(rows.all()), label="row")
    stream = "game" if "Game." in row.topic else "receipt" if "Receipt" in row.topic else "index"
    how = data.draw(st.sampled_from(["delete", "topic", "state", "field", "version"]), label="how")
    if how == "delete":
        rows.delete(row)
        return stream, True
    if how == "topic":
        topic = data.draw(ROW_TOPICS, label="topic")
        rows.set(row, topic=topic)
        return stream, named_class(topic) is not named_class(row.topic)
    if how == "version":
        version = data.draw(st.integers(-2, 400), label="version")
        try:
            rows.set(row, version=version)
        except Exception:  # the version is taken: nothing changed
            return stream, False
        return stream, version != row.version
    if how == "state":
        state = data.draw(st.binary(max_size=40) | BYTES, label="state")
        rows.set(row, state=state)
        return stream, state != row.state
    fields = row.fields()
    key = data.draw(st.sampled_from([*sorted(fields), "extra"]), label="field")
    value = data.draw(JSON_VALUES, label="value") if data.draw(st.booleans(), label="replace") else None
    if value is None and key in fields:
        del fields[key]
    else:
        fields[key] = value
    rows.set(row, state=orjson.dumps(fields))
    return stream, fields != row.fields() and key != "timestamp"


@fuzz
@given(data=st.data())
def test_stored_rows_edited_in_sqlite_never_crash_a_command_and_verify_catches_every_change(catalog, data):
    with scratch() as folder:
        _edited_store(folder, catalog, data)


def _edited_store(folder, catalog, data) -> None:
    db = folder / "games.sqlite"
    log = data.draw(games(catalog, max_events=40), label="game")
    game_log.write(folder / "g.json", log)
    assert run("import", str(folder / "g.json"), "--name", "g", "--db", str(db))[0] == 0
    for _ in range(data.draw(st.integers(0, 2), label="notes")):
        if log.events:
            run("note", "g", "--at", "1", "a note", "--db", str(db))
    rows = Rows(db)
    stream, changed = edited_row(data, rows)
    after = rows.all()
    code, _ = run("verify", "g", "--db", str(db))
    if changed and stream != "index":
        assert code == 2, "verify missed a change to a stored row"
    store = GameStore(db)
    try:  # the store's own readers: a damaged game or index is refused by name, never crashed on
        for read in (lambda: store.get("g"), lambda: store.export_as_stored("g"), store.games):
            try:
                read()
            except (DamagedGame, DamagedIndex, UnknownGame, StoreConflict):
                pass
    finally:
        store.close()
    reader = data.draw(st.sampled_from([("show", "g"), ("validate", "g"), ("export", "g"), ("export", "g", "--force"),
                                        ("games",), ("score", "g"), ("explain", "g", "--seq", "1"), ("legal", "g")]),
                       label="reader")
    run(*reader, "--db", str(db))
    writer = data.draw(st.sampled_from([("act", "g", "pass"), ("note", "g", "--at", "1", "x"), ("undo", "g")]), label="writer")
    if run(*writer, "--db", str(db))[0] != 0:
        assert rows.all() == after, f"{writer[0]} stored something although it was refused"


WORDS = st.sampled_from(["gray-1", "castle", "upper", "c-II-05", "v-03", "f-2", "start-n", "blue-n1", "purple",
                         "extra", "coins", "guards", "2c", "1g", "3", "-1", "99999999999999999999", "=", "gray-1=9",
                         "a+b", ",", "Ana:", "table:", "\x1b[2J", "é", ""])


@st.composite
def lines(draw) -> str:
    """A line of notation: free text, or a verb with arguments drawn from words the notation uses."""
    if draw(st.booleans()):
        return draw(st.text(max_size=30))
    prefix = draw(st.sampled_from(["", "Ana: ", "Bruno: ", "table: ", "nobody: ", "ana: "]))
    verb = draw(st.sampled_from([v.word for v in VERBS] + ["plce", ""]))
    return prefix + " ".join([verb, *draw(st.lists(WORDS, max_size=5))])


@fuzz
@given(data=st.data())
def test_fuzzed_notation_lines_are_recorded_or_refused_and_a_refused_one_stores_nothing(catalog, data):
    with scratch() as folder:
        _typed_line(folder, catalog, data)


def _typed_line(folder, catalog, data) -> None:
    log = data.draw(games(catalog, max_events=40), label="game")
    path, db = folder / "g.json", folder / "games.sqlite"
    game_log.write(path, log)
    run("import", str(path), "--name", "g", "--db", str(db))
    line = data.draw(lines(), label="line")
    for ref in (str(path), "g"):
        before = path.read_bytes() if ref != "g" else Rows(db).all()
        code, _ = run("act", ref, line, "--db", str(db))
        after = path.read_bytes() if ref != "g" else Rows(db).all()
        assert code in (0, 1, 2) and (code == 0) == (after != before), (line, code)
    if code == 0:
        assert run("verify", str(path))[0] == 0


@pytest.mark.parametrize("make, expected, commands", [
    (lambda log: game_log.dumps(log).replace(b'"payload":{"order":', b'"payload":{"x":' + b"[" * 1000 + b"]" * 1000 + b',"order":'),
     "nested too deeply", ("verify", "import")),
    (lambda log: game_log.dumps(log).replace(b'"actor":"table"', b'"actor":"Ana","actor":"table"', 1), "key given twice",
     ("verify", "import")),
    (lambda log: b"[" * 5000, "nested too deeply", ("verify", "import")),
    (lambda log: b"\xff\xfe", "malformed JSON", ("verify", "import")),
    (lambda log: b" " * (log_reader.MAX_BYTES + 10), "too large", ("verify", "import")),
    (lambda log: movelist.dumps(log).replace("seating Bruno,Ana", "seating Bruno,Ana {[%at " + "]" * 200_000 + "]}", 1).encode(),
     "bad entry fields", ("import",)),  # read once, not once per "]"
    (lambda log: movelist.dumps(log).replace("[Players ", "[Meta " + "[" * 5000 + "]" * 5000 + "]\n[Players ", 1).encode(),
     "nested more than 64 levels", ("import",)),
])
def test_the_worst_files_through_the_installed_command(tmp_path, catalog, make, expected, commands):
    from coimbra_events.simulator import DEFAULT_PLAYERS, simulate

    log, _ = simulate(catalog, DEFAULT_PLAYERS[:2], 1)
    path = tmp_path / "bad.json"
    path.write_bytes(make(log))
    for command in commands:
        out = subprocess.run([installed_coimbra(), command, str(path)], capture_output=True, text=True, timeout=60,
                             env={**os.environ, "COIMBRA_DB": str(tmp_path / "games.sqlite"), "NO_COLOR": "1"})
        assert out.returncode == 2 and "Traceback" not in out.stderr, out.stderr
        assert expected in out.stderr and len(out.stderr) < 2000


def test_a_huge_log_with_a_problem_in_every_entry_says_so_quickly_and_briefly(tmp_path, catalog):
    """The issue's 50 MB log with 622,028 problems printed 58 MB: now it is refused as too large at
    once, and a log of bad entries up to the largest read (16 MiB in the thorough run: 5.6 million
    problems) prints at most 22 lines."""
    import time

    path = tmp_path / "huge.json"
    head = b'{"format":"coimbra-log","schema":1,"ruleset":"r","catalog":{"id":"standin-1","sha256":"x"},"players":[],"events":[\n'
    count = ((log_reader.MAX_BYTES if THOROUGH else 2**21) - len(head) - 10) // 3
    path.write_bytes(head + b",\n".join([b"7"] * count) + b"\n]}\n")
    started = time.perf_counter()
    out = subprocess.run([installed_coimbra(), "verify", str(path)], capture_output=True, text=True, timeout=120,
                         env={**os.environ, "NO_COLOR": "1"})
    assert out.returncode == 2 and len(out.stderr.splitlines()) <= 22 and len(out.stderr) < 4000, out.stderr[:500]
    assert f"{count - 20:,} more problems" in out.stderr
    assert time.perf_counter() - started < 60
