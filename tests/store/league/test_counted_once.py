"""One game counted once, whatever the organiser gets wrong, through the installed command on SQLite and
PostgreSQL: the same log imported again, under another name, by four tables at once; a log that extends a stored
game; a deliberate copy; archiving, ``--not-counted`` and restoring."""

from __future__ import annotations

from coimbra_events import log as game_log
from coimbra_events.service import Games
from projections.league.projection import open_league
from tests.commands import started_together
from tests.store.league.conftest import process_env
from tests.store.league.games import simulated
from tests.store.league.test_league import assert_equals_brute_force, assert_rebuild_changes_nothing
from tests.store.league.test_league_cli import run, run_json
from tests.store.test_one_record import stored_as_before


def _standing(env: dict[str, str]) -> tuple[int, dict[str, tuple[int, int]], dict[str, int]]:
    report = run_json(env, "league", "standings")
    return report["games"], {p["player"]: (p["games"], p["wins"]) for p in report["players"]}, report["left_out_counts"]


def test_the_same_game_counts_once_however_it_is_imported(club_env, tmp_path):
    env = process_env(club_env)
    first, second = simulated(("Ana", "Bruno"), 3), simulated(("Ana", "Bruno"), 4)
    for k, log in enumerate((first, second)):
        game_log.write(tmp_path / f"g{k}.json", log)
    game_log.write(tmp_path / "part.json", first.prefix(50))
    assert run(env, "import", str(tmp_path / "part.json"), "--name", "club-01").returncode == 0
    grown = run(env, "import", str(tmp_path / "g0.json"))  # the whole game: appended to club-01
    assert grown.returncode == 0 and grown.stdout.strip() == "club-01" and "appended" in grown.stderr
    done = started_together([["import", str(tmp_path / "g1.json"), "--json"]] * 4, env, tmp_path)
    assert [code for code, _ in done] == [0] * 4 and sum('"imported": true' in out for _, out in done) == 1
    for _ in range(2):  # twice more, and under another name: already stored
        again = run(env, "import", str(tmp_path / "g0.json"), "--name", "again")
        assert again.returncode == 0 and again.stdout.strip() == "club-01" and "already stored as club-01" in again.stderr
    copy = run(env, "import", str(tmp_path / "g0.json"), "--name", "teaching", "--copy")
    assert copy.returncode == 0 and "a copy of club-01; the league never counts it" in copy.stderr
    games = [g["name"] for g in run_json(env, "games")["games"]]
    assert len(games) == 3 and {"club-01", "teaching"} <= set(games)
    before = _standing(env)
    counted, players, left = before
    assert counted == 2 and players["Ana"][0] == 2 and left == {"copy": 1}

    other = next(g for g in games if g not in ("club-01", "teaching"))
    assert run(env, "archive", other).returncode == 0
    assert _standing(env)[::2] == (1, {"archived": 1, "copy": 1})
    assert run(env, "archive", "--not-counted", "club-01").returncode == 0
    counted, players, left = _standing(env)
    assert (counted, players, left) == (0, {}, {"archived": 1, "copy": 1, "not counted": 1})
    rated = run_json(env, "league", "ratings")  # out of the ratings too, and said so
    assert rated["players"] == [] and rated["left_out_counts"] == {"archived": 1, "copy": 1, "not counted": 1}
    said = run(env, "league", "standings").stdout
    assert "left out: 3 games (1 archived, 1 copy, 1 not counted)" in said and "teaching: a copy" in said
    assert run(env, "archive", "--restore", other, "club-01").returncode == 0
    assert _standing(env) == before


def test_copies_stored_before_count_once_and_the_next_counts_when_one_is_archived(club):
    log = simulated(("Ana", "Bruno", "Carla"), 9)
    games = Games(club)
    games.import_log(log, "a")
    stored_as_before(club, log, "b")
    stored_as_before(club, log, "c")
    league = open_league(club)
    for archived, order in ((), ["a"]), (("a",), ["b"]), (("a", "b", "c"), []):
        for name in archived:
            games.archive([name])
        league.catch_up()
        assert_equals_brute_force(club, league, order)
        with league.view.reading() as tables:
            assert tables.games_counted(None) == len(order)
    games.archive(["a", "b", "c"], archived=False)
    league.catch_up()
    assert_equals_brute_force(club, league, ["a"])
    assert [[i.name for i in infos] for _, _, infos in games.duplicates()] == [["a", "b", "c"]]
    assert_rebuild_changes_nothing(league)


def test_standings_name_what_they_left_out(club):
    log = simulated(("Ana", "Bruno"), 5)
    Games(club).import_log(log, "a")
    stored_as_before(club, log, "b")
    league = open_league(club)
    league.catch_up()
    from projections.league.reports import standings

    with league.view.reading() as tables:
        report = standings(tables)
    assert report["left_out"] == [{"game": "b", "reason": "same record", "why": "the same record as a, counted once"}]
    assert report["left_out_counts"] == {"same record": 1}
