"""The commands on damaged records: one clear line, exit 2, nothing changed; receipts; verify's verdicts.

Driven in-process through typer's runner (the e2e tests drive the installed command);
a store is changed behind coimbra's back with ``tests.store.rows``.
"""

from __future__ import annotations

import orjson
import pytest

from coimbra_events import log as game_log, log_reader
from tests.commands import invoke
from tests.store.conftest import GAMES
from tests.store.rows import Rows

READERS = [
    ("verify",), ("validate",), ("show",), ("export",), ("legal",), ("score",), ("explain",), ("act", "pass"),
    ("note", "--at", "1", "hello"), ("undo",), ("roll",), ("fork", "--at", "3"), ("replay", "--at", "3"), ("record",),
    ("diff", "g"), ("correct", "--seq", "7", "pass"), ("accept", "pass", "--reason", "r"),
]


def coimbra(db, *args: str, code: int | None = None) -> tuple[int, str, str]:
    result = invoke([*args, "--db", str(db)], env={"COLUMNS": "200"})
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    if code is not None:
        assert result.exit_code == code, (args, result.stdout, result.stderr)
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture
def db(tmp_path):
    db = tmp_path / "games.sqlite"
    coimbra(db, "import", str(GAMES[0]), "--name", "g", code=0)
    return db


@pytest.mark.parametrize("args", READERS, ids=lambda a: a[0])
def test_every_command_refuses_a_damaged_stored_game_in_one_line(db, args):
    rows = Rows(db)
    k = next(k for k in range(40, 60) if rows.entries("g")[k].fields()["actor"] != "table")  # a player's decision
    rows.edit(rows.entries("g")[k], lambda f: f.update(actor="Bruno" if f["actor"] != "Bruno" else "Ana"))
    before = rows.all()
    name, *rest = args
    code, out, err = coimbra(db, name, "g", *rest)
    assert code == 2, (out, err)
    assert err.strip().startswith(f"error: stored game g is damaged at entry {k}: hash chain broken: the event does "
                                  "not match its recorded hash (changed, inserted or removed after recording); nothing was changed")
    assert len(err.strip().splitlines()) == 1
    assert rows.all() == before


def test_a_damaged_game_is_never_exported_as_intact_and_force_keeps_the_damage(db, tmp_path):
    """The issue's case: one stored payload edited ("guards": 2 -> 0), then exported."""
    rows = Rows(db)
    assert rows.entries("g")[49].fields()["payload"] == {"coins": 2, "guards": 2}
    rows.edit(rows.entries("g")[49], lambda f: f["payload"].update(guards=0))
    code, out, err = coimbra(db, "export", "g", "-o", str(tmp_path / "out.json"), code=2)
    assert "--force" in err and not (tmp_path / "out.json").exists()
    coimbra(db, "export", "g", "--force", "-o", str(tmp_path / "out.json"), code=0)
    code, out, err = coimbra(db, "verify", str(tmp_path / "out.json"), code=2)
    assert "event 49: hash chain broken" in err
    coimbra(db, "validate", str(tmp_path / "out.json"), code=2)


def test_the_head_printed_by_act_and_score_proves_the_record_later(db, tmp_path):
    code, out, _ = coimbra(db, "score", "g", code=0)
    head = out.strip().splitlines()[-1].split()[-1]
    assert len(head) == 12
    coimbra(db, "verify", "g", "--head", head, code=0)
    # a game in progress: act prints the head of the record it leaves
    coimbra(db, "new", "--players", "Ana:red,Bruno:blue", "--seed", "4", "--name", "p", code=0)
    options = orjson.loads(coimbra(db, "legal", "p", "--json", code=0)[1])["options"]
    out = coimbra(db, "act", "p", options[0], code=0)[1]
    head = out.strip().splitlines()[-1].removeprefix("head ")
    out = coimbra(db, "verify", "p", "--head", head, code=0)[1]
    assert "this is that record, entry for entry" in out
    options = orjson.loads(coimbra(db, "legal", "p", "--json", code=0)[1])["options"]
    coimbra(db, "act", "p", options[0], code=0)
    out = coimbra(db, "verify", "p", "--head", head, code=0)[1]
    assert "the table was given the head of entry 7" in out and "entries 8 to 8 were recorded after it" in out


def test_a_cut_that_took_the_receipt_too_is_caught_against_the_table_s_head(db):
    coimbra(db, "note", "g", "--at", "3", "the last word", code=0)
    head = orjson.loads(coimbra(db, "verify", "g", "--json", code=0)[1])["head"][:12]
    rows = Rows(db)
    rows.delete(rows.entries("g")[-1], rows.receipts("g")[-1])  # someone who knew to remove both,
    rows.drop_snapshots("g")  # and the snapshot that holds the entry too
    coimbra(db, "verify", "g", code=0)  # on its own, the store looks whole again
    code, _, err = coimbra(db, "verify", "g", "--head", head, code=2)
    assert err.startswith(f"error: stored game g is damaged at entry 131: head not found: the record does not hold the head {head}")


def test_verify_head_catches_a_cut_off_record(db, tmp_path):
    path = tmp_path / "g.json"
    coimbra(db, "export", "g", "-o", str(path), code=0)
    head = orjson.loads(coimbra(db, "verify", str(path), "--json", code=0)[1])["head"]
    log = log_reader.read(path)
    game_log.write(path, log.with_events(log.events[:-3]))
    coimbra(db, "verify", str(path), code=0)  # on its own, a shorter record is a valid record
    code, _, err = coimbra(db, "verify", str(path), "--head", head[:12], code=2)
    assert f"head not found: the record does not hold the head {head[:12]}" in err
    coimbra(db, "verify", str(path), "--head", "xyz", code=2)


def _resigned(doc: dict) -> bytes:
    prev = log_reader.check_document({**doc, "events": []}, "header").anchor()
    for e in doc["events"]:
        e["hash"] = prev = game_log.event_hash(prev, e["seq"], e["type"], e["actor"], e["payload"])
    return orjson.dumps(doc)


def _seating(doc: dict, **change) -> dict:
    doc["events"][3].update(change)
    return doc


@pytest.mark.parametrize("damage, named", [
    (lambda data: b"", "malformed JSON: Input is a zero-length, empty document"),
    (lambda data: data.replace(b'"schema":2', b'"schema":7'), "header: unsupported schema version"),
    (lambda data: _resigned(_seating(orjson.loads(data), type="DragonSummoned")), "event 4: unknown event type: 'DragonSummoned'"),
    (lambda data: _resigned(_seating(orjson.loads(data), payload={"order": 5})), "event 4: bad SeatingDrawn payload"),
    (lambda data: orjson.dumps(_seating(orjson.loads(data), payload={"order": ["Ana", "Ana"]})), "event 4: hash chain broken"),
    (lambda data: data.replace(b'"catalog":{', b'"catalog":{"x":1,'), "header: bad catalog identity"),
    (lambda data: data.replace(b'"payload":{"order":', b'"payload":{"x":' + b"[" * 300 + b"]" * 300 + b',"order":', 1),
     "event 4: nested too deeply"),
])
def test_verify_names_the_real_problem(db, tmp_path, damage, named):
    path = tmp_path / "g.json"
    coimbra(db, "export", "g", "-o", str(path), code=0)
    path.write_bytes(damage(path.read_bytes()))
    code, out, err = coimbra(db, "verify", str(path), code=2)
    assert err.strip().startswith(f"error: {path}: {named}") and len(err.strip().splitlines()) == 1


def test_verify_of_a_missing_file_says_so(db, tmp_path):
    code, _, err = coimbra(db, "verify", str(tmp_path / "nope.json"), code=2)
    assert err.strip() == f"error: {tmp_path / 'nope.json'}: cannot read file: No such file or directory"


def test_many_problems_are_capped_unless_all_is_asked(db, tmp_path):
    path = tmp_path / "many.json"
    data = game_log.dumps(log_reader.read(GAMES[0]))
    head, _, rest = data.partition(b"\n")
    path.write_bytes(head + b"\n" + b",\n".join([b"{}"] * 5000) + b"\n]}\n")
    for command in ("verify", "import"):
        code, out, err = coimbra(db, command, str(path), code=2)
        assert err.count("bad event") == 20 and "… and 4,980 more problems (--all lists every one)" in err
        assert len(err.splitlines()) <= 22
        code, out, err = coimbra(db, command, str(path), "--all", code=2)
        assert err.count("bad event") == 5000
        report = orjson.loads(coimbra(db, command, str(path), "--json", code=2)[1])
        assert len(report["problems"]) == 20 and report["problem_count"] == 5000


def test_exit_code_3_is_documented_everywhere():
    from pathlib import Path

    import cli.exits

    assert "| 3 |" in Path(__file__).resolve().parents[2].joinpath("README.md").read_text()
    assert "| 3 |" in cli.exits.__doc__
    assert "3 a conflict" in invoke(["--help"], env={"COLUMNS": "200"}).stdout
