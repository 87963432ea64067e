"""End to end: the installed ``coimbra`` command's league, player, tag and store commands, as a club would use them."""

from __future__ import annotations

import csv
import io
import select
import signal
import sqlite3
import subprocess
from pathlib import Path

import orjson
import pytest

from coimbra_events import log as game_log
from tests.conftest import installed_coimbra
from tests.store.league.conftest import process_env
from tests.store.league.games import simulated, tie_game


def run(env: dict[str, str], *args: str, timeout: float = 120) -> subprocess.CompletedProcess:
    """``coimbra`` with the test's store; never a traceback, whatever happens."""
    out = subprocess.run([installed_coimbra(), *args], capture_output=True, text=True, timeout=timeout, env=env)
    assert "Traceback" not in out.stderr, out.stderr
    return out


def run_json(env: dict[str, str], *args: str) -> object:
    out = run(env, *args, "--json")
    assert out.returncode == 0, out.stderr
    return orjson.loads(out.stdout)


def three_games(env: dict[str, str], tmp_path: Path) -> dict[str, str]:
    """Import three games into the store of ``env``: names typed differently, a shared first place."""
    for k, (names, seed) in enumerate([(("Ana", "Bruno", "Conceição"), 41), (("ana", "CONCEICAO"), 42)]):
        path = tmp_path / f"g{k}.json"
        game_log.write(path, simulated(names, seed))
        assert run(env, "import", str(path), "--name", f"g{k}").returncode == 0
    game_log.write(tmp_path / "tie.json", tie_game(0))
    assert run(env, "import", str(tmp_path / "tie.json"), "--name", "tie").returncode == 0
    return env


@pytest.fixture(scope="module")
def three_game_store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A SQLite store holding the three games, imported once for the module's tests."""
    folder = tmp_path_factory.mktemp("three-games")
    three_games({**process_env({}), "COIMBRA_DB": str(folder / "club.sqlite")}, folder)
    return folder / "club.sqlite"


@pytest.fixture
def club_cli(three_game_store: Path, tmp_path: Path) -> dict[str, str]:
    """``coimbra`` on a copy of the three-game SQLite store (the PostgreSQL store is driven end to end below)."""
    copy = tmp_path / "club.sqlite"
    with sqlite3.connect(three_game_store) as source, sqlite3.connect(copy) as target:
        source.backup(target)
    return {**process_env({}), "COIMBRA_DB": str(copy)}


def test_the_league_on_postgres_end_to_end(postgres_env, tmp_path):
    env = three_games(process_env(postgres_env), tmp_path)
    report = run_json(env, "league", "standings")
    assert {p["player"]: p["games"] for p in report["players"]} == {"Ana": 3, "Conceição": 2, "Bruno": 2}
    assert run_json(env, "league", "player", "conceição")["games"] == 2
    assert run_json(env, "store", "check")["league_behind"] == 0
    follow_until_a_game_finishes(env, tmp_path)


def test_standings_as_a_table_as_json_and_as_csv_for_a_spreadsheet(club_cli):
    table = run(club_cli, "league", "standings")
    assert table.returncode == 0 and "Standings, all games (3 games)" in table.stdout
    assert "Conceição" in table.stdout and "Points by source" in table.stdout
    report = run_json(club_cli, "league", "standings")
    assert {p["player"]: p["games"] for p in report["players"]} == {"Ana": 3, "Conceição": 2, "Bruno": 2}

    sheet = subprocess.run([installed_coimbra(), "league", "standings", "--csv"], capture_output=True, env=club_cli)
    assert sheet.returncode == 0 and sheet.stderr == b""
    raw = sheet.stdout
    assert raw.startswith(b"\xef\xbb\xbf") and b"\x1b" not in raw  # UTF-8 with a BOM; no terminal codes
    assert raw.count(b"\r\n") == len(report["players"]) + 1 and b"\n" not in raw.replace(b"\r\n", b"")  # RFC 4180
    rows = list(csv.reader(io.StringIO(raw.decode("utf-8-sig"), newline="")))
    header, body = rows[0], rows[1:]
    assert header[:4] == ["rank", "player", "games", "wins"] and len(body) == len(report["players"])
    assert all(len(r) == len(header) for r in body)
    by_player = {r[1]: dict(zip(header, r)) for r in body}
    for p in report["players"]:
        row = by_player[p["player"]]
        assert int(row["games"]) == p["games"] and float(row["average score"]) == p["average"]
        assert float(row["during play (average)"]) == p["average_by_source"]["during play"]


def test_a_player_page_follows_the_person_however_spelled(club_cli):
    page = run(club_cli, "league", "player", "conceicao")
    assert page.returncode == 0 and page.stdout.startswith("Conceição: 2 games")
    assert "recorded as: CONCEICAO, Conceição" in page.stdout and "Head to head" in page.stdout
    profile = run_json(club_cli, "league", "player", "ANA")
    assert profile["games"] == 3 and {h["opponent"] for h in profile["head_to_head"]} == {"Bruno", "Conceição"}
    unknown = run(club_cli, "league", "player", "Zé")
    assert unknown.returncode == 2 and len(unknown.stderr.strip().splitlines()) == 1 and "no finished game of 'Zé'" in unknown.stderr


def test_ratings_and_a_rebuild(club_cli):
    rated = run_json(club_cli, "league", "ratings")
    assert [p["rank"] for p in rated["players"]] == [1, 2, 3] and all(p["games"] >= 2 for p in rated["players"])
    assert "Ratings" in run(club_cli, "league", "ratings").stdout
    rebuilt = run_json(club_cli, "league", "rebuild")
    assert rebuilt["games"] == {"over": 3}
    assert run_json(club_cli, "league", "ratings") == rated


def test_aliases_and_seasons(club_cli):
    assert run(club_cli, "player", "alias", "Bruno", "Bruno Alves").returncode == 0
    names = {p["player"] for p in run_json(club_cli, "league", "standings")["players"]}
    assert names == {"Ana", "Conceição", "Bruno Alves"}
    listed = run_json(club_cli, "player", "list")
    assert {"player": "Bruno Alves", "games": 2, "spellings": ["Bruno"], "aliases": ["Bruno"]} in listed
    refused = run(club_cli, "player", "alias", "ana", "ANA")
    assert refused.returncode == 2 and "already the same person" in refused.stderr and "nothing stored" in refused.stderr
    assert run(club_cli, "player", "unalias", "bruno").returncode == 0
    assert "Bruno" in {p["player"] for p in run_json(club_cli, "league", "standings")["players"]}

    tagged = run_json(club_cli, "tag", "--add", "2026-spring", "--add", "evening-1", "g0", "g1")
    assert tagged == [{"game": "g0", "tags": ["2026-spring", "evening-1"]}, {"game": "g1", "tags": ["2026-spring", "evening-1"]}]
    spring = run_json(club_cli, "league", "standings", "--season", "2026-spring")
    assert spring["games"] == 2 and spring["seasons"] == [{"tag": "2026-spring", "games": 2}, {"tag": "evening-1", "games": 2}]
    unknown = run(club_cli, "league", "standings", "--season", "2027")
    assert unknown.returncode == 2 and "tags in use: 2026-spring, evening-1" in unknown.stderr
    bad = run(club_cli, "tag", "--add", "two words", "g0")
    assert bad.returncode == 2 and "nothing stored" in bad.stderr
    assert run(club_cli, "tag", "--add", "x", "g0", "nosuch").returncode == 2  # every game is checked first
    assert "x" not in run_json(club_cli, "games")["games"][0]["tags"]
    old_form = run(club_cli, "tag", "g0", "g1", "2026-autumn")  # the form that took a game's name for a tag
    assert old_form.returncode == 2 and "coimbra tag --add TAG g0 g1" in old_form.stderr
    assert run_json(club_cli, "tag", "--remove", "evening-1", "g0", "g1")[1]["tags"] == ["2026-spring"]


def test_store_check_says_where_and_how_big(club_cli):
    report = run_json(club_cli, "store", "check")
    assert report["answers"] and report["games"] == 3 and report["events"] > 400
    line = run(club_cli, "store", "check")
    assert line.returncode == 0 and len(line.stdout.strip().splitlines()) == 1
    assert "answers: 3 games" in line.stdout
    run(club_cli, "league", "standings")
    assert run_json(club_cli, "store", "check")["league_behind"] == 0


def test_store_check_and_init_on_sqlite(tmp_path):
    env = {**process_env({}), "COIMBRA_DB": str(tmp_path / "new" / "club.sqlite")}
    missing = run(env, "store", "check")
    assert missing.returncode == 2 and "no store there yet" in missing.stderr and not (tmp_path / "new").exists()
    (tmp_path / "junk.sqlite").write_bytes(b"not a database at all" * 100)
    junk = run({**env, "COIMBRA_DB": str(tmp_path / "junk.sqlite")}, "store", "check")
    assert junk.returncode == 2 and len(junk.stderr.strip().splitlines()) == 1 and "not a database" in junk.stderr
    ready = run(env, "store", "init")
    assert ready.returncode == 0 and ready.stdout.startswith("ready: ") and "(no games yet)" in ready.stdout
    assert run_json(env, "store", "init")["empty"]  # again: nothing changes


def _url(settings: dict[str, str], password: str | None = None, dbname: str | None = None, port: str | None = None) -> str:
    return "postgresql://{}:{}@{}:{}/{}?schema={}".format(
        settings["POSTGRES_USER"], settings["POSTGRES_PASSWORD"] if password is None else password,
        settings["POSTGRES_HOST"], port or settings["POSTGRES_PORT"], dbname or settings["POSTGRES_DBNAME"],
        settings["POSTGRES_SCHEMA"])


def test_store_init_and_check_on_postgres_name_the_problem_never_the_password(postgres_env):
    env = process_env({})
    url = _url(postgres_env)
    absent = run(env, "store", "check", "--db", url)
    assert absent.returncode == 2 and "holds no coimbra store" in absent.stderr
    inits = [subprocess.Popen([installed_coimbra(), "store", "init", "--db", url, "--json"], env=env,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for _ in range(4)]
    for p in inits:  # four laptops setting up at once: the tables are made once
        out, err = p.communicate(timeout=120)
        assert p.returncode == 0, err
        assert orjson.loads(out)["ready"]
    checked = run(env, "store", "check", "--db", url)
    assert checked.returncode == 0 and "PostgreSQL database " in checked.stdout and postgres_env["POSTGRES_PASSWORD"] not in checked.stdout

    secret = "not-the-password-42"
    wrong = run(env, "store", "check", "--db", _url(postgres_env, password=secret))
    assert wrong.returncode == 2 and "password authentication failed" in wrong.stderr
    assert secret not in wrong.stderr + wrong.stdout and len(wrong.stderr.strip().splitlines()) == 1
    nodb = run(env, "store", "check", "--db", _url(postgres_env, dbname="no_such_db_here"))
    assert nodb.returncode == 2 and 'database "no_such_db_here" does not exist' in nodb.stderr
    refused = run(env, "store", "init", "--db", _url(postgres_env, port="1"))
    assert refused.returncode == 2 and "refused" in refused.stderr and len(refused.stderr.strip().splitlines()) == 1


def test_follow_says_when_a_game_finishes(club_cli, tmp_path):
    follow_until_a_game_finishes(club_cli, tmp_path)


def follow_until_a_game_finishes(env: dict[str, str], tmp_path: Path) -> None:
    """``league follow`` (PostgreSQL: the library's projection runner) says so when another process stores a game."""
    # Ctrl-C at its default: a process started with SIGINT ignored (as a worker of a full run may be, which its
    # children inherit) would ignore it too, as a shell's background job does (/work/notes/league-follow.md).
    follower = subprocess.Popen([installed_coimbra(), "league", "follow", "--json"], env=env,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        assert _line(follower)["finished_games"] == 3
        game_log.write(tmp_path / "more.json", simulated(("Eva", "Ana"), 43))
        assert run(env, "import", str(tmp_path / "more.json")).returncode == 0
        assert _line(follower)["finished_games"] == 4
    finally:
        follower.send_signal(signal.SIGINT)
        _, err = follower.communicate(timeout=30)
    assert follower.returncode == 0 and "Traceback" not in err and "stopped following" in err


def test_follow_stops_at_sigterm_too(club_cli):
    follower = subprocess.Popen([installed_coimbra(), "league", "follow", "--json"], env=club_cli,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert _line(follower)["finished_games"] == 3
    finally:
        follower.send_signal(signal.SIGTERM)
        _, err = follower.communicate(timeout=30)
    assert follower.returncode == 0 and "stopped following" in err and "Traceback" not in err


def _line(process: subprocess.Popen, timeout: float = 60) -> dict:
    """The next JSON line the process prints (failing, not hanging, if none comes)."""
    ready, _, _ = select.select([process.stdout], [], [], timeout)
    assert ready, "no line within the timeout"
    return orjson.loads(process.stdout.readline())
