"""End to end: the installed ``coimbra`` command, driven in a subprocess as a user would."""

from __future__ import annotations

import os
import subprocess

import orjson
import pytest

from tests.conftest import FIXTURES, installed_coimbra

GAME = FIXTURES / "games" / "standin-3p-seed2.json"
EXPECTED = orjson.loads((FIXTURES / "invalid" / "expected.json").read_bytes())


def run(*args: str, **env: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [installed_coimbra(), *args], capture_output=True, text=True, timeout=120,
        env={**os.environ, "NO_COLOR": "1", "COLUMNS": "120", **env},
    )


def test_help_teaches_commands_and_exit_codes():
    out = run("--help")
    assert out.returncode == 0
    for word in ("simulate", "validate", "score", "catalog", "Exit codes"):
        assert word in out.stdout


def test_simulate_is_deterministic_and_validates(tmp_path):
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    assert run("simulate", "--players", "4", "--seed", "99", "-o", str(a)).returncode == 0
    assert run("simulate", "--players", "4", "--seed", "99", "-o", str(b)).returncode == 0
    assert a.read_bytes() == b.read_bytes()
    out = run("validate", str(a), "--json")
    assert out.returncode == 0
    report = orjson.loads(out.stdout)
    assert report["valid"] is True and report["violation"] is None and report["events"] > 100


def test_simulate_to_stdout_matches_file(tmp_path):
    path = tmp_path / "g.json"
    run("simulate", "-p", "2", "-s", "5", "-o", str(path))
    assert run("simulate", "-p", "2", "-s", "5").stdout == path.read_text()


def test_validate_a_fixture_prints_a_panel():
    out = run("validate", str(GAME))
    assert out.returncode == 0 and "valid" in out.stdout and "\x1b[" not in out.stdout


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_illegal_logs_exit_1_naming_seq_rule_and_reason(name):
    out = run("validate", str(FIXTURES / "invalid" / name), "--json")
    assert out.returncode == 1
    v = orjson.loads(out.stdout)["violation"]
    assert (v["seq"], v["rule"]) == (EXPECTED[name]["seq"], EXPECTED[name]["rule"])
    assert v["message"] and v["facts"] is not None
    text = run("validate", str(FIXTURES / "invalid" / name))
    assert text.returncode == 1 and EXPECTED[name]["rule"] in text.stdout and f"event {v['seq']}" in text.stdout


@pytest.mark.parametrize(
    "content, needle",
    [
        (b"{not json", "malformed JSON"),
        (b'{"format": "coimbra-log", "schema": 9}', "unsupported schema version"),
        (b"", "malformed JSON"),
    ],
)
def test_unreadable_logs_exit_2_with_one_line(tmp_path, content, needle):
    path = tmp_path / "bad.json"
    path.write_bytes(content)
    out = run("validate", str(path))
    assert out.returncode == 2
    assert needle in out.stderr and "Traceback" not in out.stderr + out.stdout
    assert len(out.stderr.strip().splitlines()) == 1 and str(path) in out.stderr


def test_missing_file_exits_2(tmp_path):
    out = run("score", str(tmp_path / "missing.json"))
    assert out.returncode == 2 and "cannot read file" in out.stderr and "Traceback" not in out.stderr


def test_score_json_totals_add_up():
    out = run("score", str(GAME), "--json")
    assert out.returncode == 0
    report = orjson.loads(out.stdout)
    assert report["final"] is True
    for p in report["players"]:
        assert sum(p["sources"].values()) == p["total"]
        assert sum(sum(v.values()) for v in p["details"].values()) + p["sources"]["leftover"] == p["total"]
    assert [p["place"] for p in report["players"]] == sorted(p["place"] for p in report["players"])


def test_score_table_and_details():
    out = run("score", str(GAME), "--details")
    assert out.returncode == 0 and "Final scores" in out.stdout and "Where the points came from" in out.stdout


def test_score_refuses_an_illegal_log():
    name = sorted(EXPECTED)[0]
    out = run("score", str(FIXTURES / "invalid" / name))
    assert out.returncode == 1 and EXPECTED[name]["rule"] in out.stderr


def test_wrong_catalog_is_refused(tmp_path):
    doc = orjson.loads((FIXTURES / "catalogs" / "standin.json").read_bytes())
    doc["id"] = "other-catalog"
    other = tmp_path / "other.json"
    other.write_bytes(orjson.dumps(doc))
    out = run("validate", str(GAME), "--catalog", str(other))
    assert out.returncode == 2 and "catalog mismatch" in out.stderr


def test_bad_arguments_exit_2():
    assert run("simulate", "--players", "5", "--seed", "1").returncode == 2


def test_rules_lists_every_rule_id():
    from coimbra_events.violations import RULES

    out = run("rules", "--json")
    assert out.returncode == 0
    assert [r["id"] for r in orjson.loads(out.stdout)] == list(RULES)


def test_every_rule_id_is_checked_somewhere_in_the_engine():
    """Every rule is checked or carried out by the rules core; a history entry's consequences are told by the read model."""
    from coimbra_events.violations import RULES

    domain = FIXTURES.parent / "coimbra_events"
    engine = "".join(p.read_text() for p in domain.rglob("*.py") if p.name != "violations.py")
    narrated = (FIXTURES.parent / "projections" / "consequences.py").read_text()
    assert [r for r in RULES if f'"{r}"' not in engine and not (RULES[r].consequence and f'"{r}"' in narrated)] == []


def test_validate_many_logs_summarises_and_returns_the_worst_exit_code(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text("{nope")
    games = [str(p) for p in sorted((FIXTURES / "games").glob("*.json"))]
    illegal = str(FIXTURES / "invalid" / sorted(EXPECTED)[0])
    assert run("validate", *games).returncode == 0
    out = run("validate", *games, illegal, "--json")
    assert out.returncode == 1
    reports = orjson.loads(out.stdout)
    assert [r["valid"] for r in reports] == [True] * len(games) + [False]
    assert reports[-1]["violation"]["rule"] == EXPECTED[sorted(EXPECTED)[0]]["rule"]
    mixed = run("validate", *games, illegal, str(bad))
    assert mixed.returncode == 2 and "unreadable" in mixed.stdout and "illegal" in mixed.stdout
    assert "Traceback" not in mixed.stdout + mixed.stderr


def test_import_many_logs_stores_the_legal_ones_and_reports_the_rest(tmp_path):
    db = str(tmp_path / "games.sqlite")
    bad = tmp_path / "bad.json"
    bad.write_text("[]")
    games = [str(p) for p in sorted((FIXTURES / "games").glob("*.json"))]
    illegal = str(FIXTURES / "invalid" / "turn-actor.json")
    out = run("import", *games, illegal, "--db", db, "--json")
    assert out.returncode == 1
    rows = orjson.loads(out.stdout)
    assert [r["imported"] for r in rows] == [True, True, True, False]
    listed = orjson.loads(run("games", "--db", db, "--json").stdout)["games"]
    assert sorted(g["name"] for g in listed) == sorted(r["name"] for r in rows[:3])
    worse = run("import", illegal, str(bad), "--db", db)
    assert worse.returncode == 2 and "not stored" in worse.stdout and "Traceback" not in worse.stdout + worse.stderr
    assert len(orjson.loads(run("games", "--db", db, "--json").stdout)["games"]) == 3
    assert run("import", *games, "--name", "x", "--db", db).returncode == 2
