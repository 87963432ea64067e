"""End to end, as a table would use it: the installed ``coimbra`` beside ``sys.executable``.

One game is played, corrected, undone, overridden, noted, shown, forked, diffed,
exported, imported elsewhere and verified, each step through a subprocess with
the store in ``tmp_path`` (``COIMBRA_DB``) and ``NO_COLOR=1``. Choices come from
``legal --json`` (always its first option), table outcomes from ``roll`` (the
game's seed), so the flow is the same on every run.
"""

from __future__ import annotations

import os
import sqlite3
import subprocess
from contextlib import closing
from pathlib import Path
from typing import Any

import orjson
import pytest

from coimbra_events import log_reader
from tests.conftest import installed_coimbra
from coimbra_events.validation import validate


class Cli:
    """``coimbra`` with the store in one SQLite file; never a traceback, errors on one line."""

    def __init__(self, db: Path) -> None:
        self.db = db

    def __call__(self, *args: str, code: int | None = 0, one_line: bool = True) -> subprocess.CompletedProcess:
        out = subprocess.run(
            [installed_coimbra(), *args], capture_output=True, timeout=120,
            env={**os.environ, "NO_COLOR": "1", "COLUMNS": "200", "COIMBRA_DB": str(self.db)},
        )
        out.stdout_text = out.stdout.decode()
        out.stderr_text = out.stderr.decode()
        assert "Traceback" not in out.stderr_text, out.stderr_text
        if code is not None:
            assert out.returncode == code, (args, out.returncode, out.stdout_text, out.stderr_text)
        if out.returncode and one_line:
            errors = [line for line in out.stderr_text.splitlines() if line.startswith("error:")]
            assert len(errors) == 1, out.stderr_text  # one line says what went wrong
        return out

    def json(self, *args: str, code: int = 0) -> Any:
        """``--json`` output, which parses whatever the exit code."""
        return orjson.loads(self(*args, "--json", code=code, one_line=False).stdout)

    def stored(self) -> int:
        """How many events the store holds, all aggregates together (read without the command)."""
        if not self.db.exists():
            return 0
        with closing(sqlite3.connect(self.db)) as conn:
            return conn.execute("SELECT COUNT(*) FROM stored_events").fetchone()[0]

    def refused(self, *args: str, code: int) -> str:
        """A refused command: its exit code, its one error line, and nothing stored."""
        before = self.stored()
        out = self(*args, code=code)
        assert self.stored() == before, f"{args} stored something"
        return out.stderr_text


@pytest.fixture
def cli(tmp_path: Path) -> Cli:
    return Cli(tmp_path / "store" / "games.sqlite")


def step(cli: Cli, name: str, due: dict[str, Any]) -> dict[str, Any]:
    """One input from the table or the player due: ``roll`` for outcomes, else the first legal option."""
    if "outcome" in due:
        rolled = cli.json("roll", name)
        return {"seq": rolled["entry"], "text": rolled["notation"], "kind": due["outcome"]["kind"], "options": None}
    choice = due["options"][0]
    acted = cli.json("act", name, choice)
    (recorded,) = acted["recorded"]
    assert recorded["notation"] == choice
    return {"seq": recorded["seq"], "text": choice, "kind": due["pending"]["kind"], "options": due["options"]}


def play_until(cli: Cli, name: str, done) -> list[dict[str, Any]]:
    """Play on until ``done(steps so far, what is due)``; every step listed."""
    steps: list[dict[str, Any]] = []
    for _ in range(60):
        due = cli.json("legal", name)
        if done(steps, due["pending"]):
            return steps
        steps.append(step(cli, name, due))
    pytest.fail(f"{name}: the flow did not get where it should: {steps[-3:]}")


def without_name(option: str) -> str:
    return option.split(":", 1)[1].strip()


def test_a_game_recorded_corrected_overridden_forked_exported_and_verified(cli, tmp_path):
    # -- a new game with its setup drawn from the seed
    new = cli.json("new", "--players", "Ana:red,Bruno:blue", "--seed", "3")
    name = new["name"]
    assert name == "ana-bruno" and new["events"] == 6 and new["seed"] == 3
    legal = cli("legal", name)
    assert f"{new['pending']['actor']}: start-choice" in legal.stdout_text

    # -- start choices, the first roll, four dice placed
    steps = play_until(cli, name, lambda s, due: sum(x["kind"] == "draft" for x in s) == 4)
    assert any(s["kind"] == "dice" and s["text"].startswith("table: roll ") for s in steps)
    drafts = [s for s in steps if s["kind"] == "draft"]
    assert [d["seq"] for d in drafts] == list(range(drafts[0]["seq"], drafts[0]["seq"] + 4))
    first, second, third, fourth = drafts
    assert second["text"].split(":")[0] == fourth["text"].split(":")[0]  # the same player's two placements

    # -- a refused act: exit 1, the rule in the error, nothing stored (the export is the same bytes)
    before = cli("export", name).stdout
    error = cli.refused("act", name, "place black-9 castle", code=1)
    assert "rule B.die" in error and "nothing stored" in error
    refusal = cli.json("act", name, "place black-9 castle", code=1)
    assert refusal["violation"]["rule"] == "B.die" and refusal["recorded"] == []
    error = cli.refused("act", name, "plce gray-1 castle", code=2)
    assert "unknown verb 'plce'" in error
    assert cli("export", name).stdout == before

    # -- correct: the second placement takes the die of the fourth, which no longer fits
    replacement = without_name(fourth["text"])
    assert fourth["text"] in second["options"]  # legal where the second placement stood
    error = cli.refused("correct", name, "--seq", str(second["seq"]), "place black-9 castle", code=1)
    assert "rule B.die" in error
    error = cli.refused("correct", name, "--seq", "999", fourth["text"], code=1)
    assert "rule HISTORY.target" in error
    events = fourth["seq"]
    corrected = cli("correct", name, "--seq", str(second["seq"]), replacement).stdout_text
    assert f"corrected entry {second['seq']} (correction is entry {events + 1}, replacement entry {events + 2})" in corrected
    assert f"now illegal: entry {fourth['seq']} {fourth['text']}: rule B.die" in corrected
    checked = cli.json("validate", str(export(cli, name, tmp_path / "broken.json")), code=1)
    assert not checked["valid"] and checked["violation"]["seq"] == fourth["seq"] and checked["violation"]["rule"] == "B.die"
    shown = cli("validate", str(tmp_path / "broken.json"), code=1, one_line=False).stdout_text
    assert f"event {fourth['seq']} (DiePlaced) breaks rule B.die" in shown

    # -- undo: the latest play (the one the correction broke) is withdrawn; the line is clean again
    undone = cli.json("undo", name)
    assert undone["undone"] == fourth["seq"] and undone["notation"] == fourth["text"]
    assert undone["pending"]["kind"] == "draft"
    assert cli.json("validate", str(export(cli, name, tmp_path / "clean.json")))["valid"]

    # -- play on to the first retrieval, then a move the table accepts against the rules
    play_until(cli, name, lambda s, due: due["kind"] == "retrieve")
    due = cli.json("legal", name)
    error = cli.refused("accept", name, due["options"][0], "--reason", "fine", code=2)
    assert "breaks no rule" in error
    error = cli.refused("accept", name, "place black-9 castle", "--reason", "why not", code=1)
    assert "rule HISTORY.override" in error
    accepted = cli("accept", name, "alt 3c 0g", "--reason", "house rule: three coins")
    assert "accepted against rule C.alternative" in accepted.stdout_text
    override_entry = int(accepted.stdout_text.split("as entry ")[1].split()[0])
    log = log_reader.loads(cli("export", name).stdout)
    assert log.events[override_entry - 2].TYPE == "RuleOverridden" and log.events[override_entry - 1].TYPE == "AlternativeTaken"
    checked = validate(log)
    assert checked.valid and checked.overrides == ((override_entry, "C.alternative", "house rule: three coins"),)

    # -- notes and a bookmark
    noted = cli("note", name, "--at", str(override_entry), "Ana: «we always play it this way»")
    assert f"noted entry {override_entry}" in noted.stdout_text
    marked = cli.json("note", name, "--at", str(first["seq"]), "first die of the game", "--bookmark")
    assert marked["bookmark"] and marked["at"] == first["seq"]
    error = cli.refused("note", name, "--at", "999", "nothing there", code=1)
    assert "rule HISTORY.target" in error
    total = marked["entry"]

    # -- show, where it exists
    if "show" in cli("--help").stdout_text:
        shown = cli.json("show", name)
        assert shown["game"] == name and shown["events"] == total and shown["at"] == total
        assert name in cli("show", name).stdout_text
        assert cli.json("show", name, "--at", str(first["seq"]))["at"] == first["seq"]
        cli("show", "no-such-game", code=2)

    # -- fork before the correction; a fork at a correction entry is refused
    fork_at = first["seq"]
    forked = cli.json("fork", name, "--at", str(fork_at), "--name", "what-if")
    assert forked["name"] == "what-if" and forked["parent"] == name and forked["at"] == fork_at
    games = {g["name"]: g for g in cli.json("games")["games"]}
    assert games["what-if"]["parent"] == name and games[name]["parent"] is None
    assert "what-if" in cli("games").stdout_text
    error = cli.refused("fork", name, "--at", str(events + 1), "--name", "nope", code=2)
    assert f"entry {events + 1} introduces" in error
    cli.refused("fork", name, "--at", "9999", "--name", "nope", code=2)
    assert "nope" not in {g["name"] for g in cli.json("games")["games"]}
    parent_log = log_reader.loads(cli("export", name).stdout)
    fork_log = log_reader.loads(cli("export", "what-if").stdout)
    assert fork_log.events == parent_log.events[:fork_at]

    # -- forks draw the table's outcomes from the parent, or by hand
    roll_seq = next(s["seq"] for s in steps if s["kind"] == "dice")
    cli.json("fork", name, "--at", str(roll_seq - 1), "--name", "reroll", "--rolls", "parent")
    assert cli.json("roll", "reroll")["notation"] == next(s["text"] for s in steps if s["kind"] == "dice")
    cli.json("fork", name, "--at", str(roll_seq - 1), "--name", "by-hand", "--rolls", "manual")
    error = cli.refused("roll", "by-hand", code=2)
    assert "by hand" in error
    cli.refused("fork", name, "--at", "3", "--name", "bad-rolls", "--rolls", "seed:x", code=2)

    # -- diff, where it exists
    if "diff" in cli("--help").stdout_text:
        diff = cli.json("diff", name, "what-if")
        assert diff["common_prefix"] == fork_at and diff["first_divergence"]["seq"] == fork_at + 1
        assert diff["a"]["events"] == total and diff["b"]["events"] == fork_at
        cli("diff", name, "what-if")

    # -- export, import into a second store, export again: the same bytes
    exported = export(cli, name, tmp_path / "game.json")
    other = Cli(tmp_path / "other" / "games.sqlite")
    imported = other("import", str(exported), "--name", "copy")
    assert imported.stdout_text.strip() == "copy"
    assert other("export", "copy").stdout == exported.read_bytes()
    again = tmp_path / "again.json"
    other("export", "copy", "-o", str(again))
    assert again.read_bytes() == exported.read_bytes()

    # -- verify: the file, the stored game and its copy are intact
    for run, ref in ((cli, str(exported)), (cli, name), (other, "copy")):
        verified = run("verify", ref)
        assert "intact" in verified.stdout_text and f"{total} events" in verified.stdout_text
    assert cli.json("verify", str(exported))["intact"] is True

    # -- tamper with one payload value: verify names the event (exit 2)
    lines = exported.read_bytes().split(b"\n")
    k = next(i for i, line in enumerate(lines) if b'"type":"AlternativeTaken"' in line and b'"coins":3' in line)
    seq = orjson.loads(lines[k].rstrip(b","))["seq"]
    assert seq == override_entry
    lines[k] = lines[k].replace(b'"coins":3', b'"coins":2')
    tampered = tmp_path / "tampered.json"
    tampered.write_bytes(b"\n".join(lines))
    error = cli("verify", str(tampered), code=2).stderr_text
    assert f"event {seq}: hash chain broken: the event does not match its recorded hash" in error
    report = cli.json("verify", str(tampered), code=2)
    assert report["intact"] is False and report["first_mismatch"] == seq
    cli("validate", str(tampered), code=2, one_line=False)
    error = other.refused("import", str(tampered), "--name", "forged", code=2)
    assert "hash chain broken" in error and "nothing stored" in error
    assert [g["name"] for g in other.json("games")["games"]] == ["copy"]


def export(cli: Cli, name: str, path: Path) -> Path:
    out = cli("export", name, "-o", str(path))
    assert f"wrote {path}" in out.stderr_text
    return path


def test_undo_of_an_empty_game_and_history_on_unknown_games(cli):
    name = cli("new", "--players", "Ana:red,Bruno:blue", "--name", "empty").stdout_text.strip()
    assert name == "empty"
    error = cli.refused("undo", name, code=1)
    assert "rule HISTORY.target" in error and "no play to undo" in error
    for args in (("undo", "ghost"), ("note", "ghost", "--at", "1", "x"), ("correct", "ghost", "--seq", "1", "pass"),
                 ("accept", "ghost", "pass", "--reason", "x"), ("fork", "ghost", "--at", "0"), ("roll", "ghost")):
        error = cli(*args, code=2).stderr_text
        assert "no game named 'ghost'" in error


def test_a_log_file_corrected_into_a_broken_line_can_be_corrected_again(cli, tmp_path):
    game = tmp_path / "game.json"
    game.write_bytes((Path(__file__).parent.parent / "fixtures/games/standin-2p-seed1.json").read_bytes())
    broke = cli("correct", str(game), "--seq", "16", "place orange-2 upper").stdout_text
    assert "now illegal: entry 20 Ana: place orange-2 upper: rule B.die" in broke
    fixed = cli("correct", str(game), "--seq", "20", "place white-1 central")  # exit 1 today: the file is refused
    assert "every later play is still legal" in fixed.stdout_text
    cli("validate", str(game), one_line=False)
