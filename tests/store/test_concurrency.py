"""Writers at once: 8 on one game and 8 on different games, over SQLite, PostgreSQL and a JSON log.

Each writer is a process of its own, all released at one moment: for SQLite and a JSON
log, forked and running the command in-process; for PostgreSQL, fresh processes running
the command's entry point (a forked child would inherit the parent's connection pools).
Whatever the interleaving: nothing lost, nothing recorded twice, every success really
stored, every failure really not, and a conflict is exit 3.
"""

from __future__ import annotations

import multiprocessing
import os
import subprocess

import orjson
import pytest

from coimbra_events import log as game_log, log_reader
from coimbra_events.service import Games
from coimbra_events.store.game_store import GameStore
from tests.commands import invoke, scratch, started_together
from tests.conftest import installed_coimbra
from tests.store.conftest import PLAYERS

WRITERS = 8
BACKENDS = ["sqlite", "postgres", "file"]


class Place:
    """Where the games of one test are: a SQLite file, a PostgreSQL schema, or JSON log files."""

    def __init__(self, backend: str, folder, request) -> None:
        self.backend, self.folder = backend, folder
        self.env: dict[str, str | None] = {"COIMBRA_DB": str(folder / "games.sqlite")}
        if backend == "postgres":
            self.env = {"COIMBRA_DB": None, "PERSISTENCE_MODULE": "eventsourcing.postgres",
                        **request.getfixturevalue("postgres_env")}

    def store(self) -> GameStore:
        if self.backend == "postgres":
            return GameStore(env={k: v for k, v in self.env.items() if v is not None})
        return GameStore(self.env["COIMBRA_DB"])

    def new(self, name: str) -> str:
        """A game with its setup drawn, in the store or in a log file; the GAME to give the commands."""
        with_store = self.store()
        try:
            game = Games(with_store).new_game(PLAYERS[:2], seed=3, name=name)
            if self.backend != "file":
                return name
            path = self.folder / f"{name}.json"
            game_log.write(path, game.to_log())
            return str(path)
        finally:
            with_store.close()

    def run(self, *args: str) -> tuple[int, str]:
        result = invoke(args, env=self.env)
        assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
        return result.exit_code, result.stdout + result.stderr

    def log(self, game: str) -> game_log.GameLog:
        if self.backend == "file":
            return log_reader.read(game)
        store = self.store()
        try:
            assert store.inspect(game).problems == ()
            return store.export(game)
        finally:
            store.close()


@pytest.fixture(params=BACKENDS)
def place(request):
    with scratch() as folder:
        yield Place(request.param, folder, request)


def _write(place: Place, barrier, args: tuple[str, ...], results) -> None:
    barrier.wait()
    code, out = place.run(*args)
    results.put((args, code, out))


def at_once(place: Place, commands: list[tuple[str, ...]]) -> list[tuple[tuple[str, ...], int, str]]:
    """Run every command in a process of its own, all at the same moment."""
    if place.backend == "postgres":
        env = {**os.environ, "NO_COLOR": "1", **{k: v for k, v in place.env.items() if v is not None}}
        env.pop("COIMBRA_DB", None)
        done = started_together(commands, env, place.folder)
        return [(args, code, out) for args, (code, out) in zip(commands, done)]
    ctx = multiprocessing.get_context("fork")
    barrier, results = ctx.Barrier(len(commands)), ctx.Queue()
    workers = [ctx.Process(target=_write, args=(place, barrier, args, results)) for args in commands]
    for w in workers:
        w.start()
    done = [results.get(timeout=120) for _ in workers]
    for w in workers:
        w.join(timeout=30)
    assert all(w.exitcode == 0 for w in workers)
    return done


def notes_of(log: game_log.GameLog) -> list[str]:
    return [e.text for e in log.events if e.TYPE == "Noted"]


def test_eight_notes_on_one_game(place):
    game = place.new("one")
    done = at_once(place, [("note", game, "--at", "1", f"writer {k}") for k in range(WRITERS)])
    assert {code for _, code, _ in done} <= {0, 3}, [out for _, code, out in done if code not in (0, 3)]
    stored = notes_of(place.log(game))
    won = sorted(args[-1] for args, code, _ in done if code == 0)
    assert sorted(stored) == won and len(set(stored)) == len(stored)  # every success stored once, no failure stored
    assert all("nothing stored; try again" in out for _, code, out in done if code == 3)


def test_eight_writers_racing_for_the_same_decision(place):
    game = place.new("race")
    before = len(place.log(game).events)
    option = orjson.loads(place.run("legal", game, "--json")[1])["options"][0]
    done = at_once(place, [("act", game, option) for _ in range(WRITERS)])
    codes = sorted(code for _, code, _ in done)
    assert codes.count(0) == 1 and set(codes) <= {0, 1, 3}, [out for _, code, out in done if code not in (0, 1, 3)]
    # the first to commit wins; no one records it twice
    assert all("the game changed since you read it; nothing stored; try again" in out for _, code, out in done if code == 3)
    log = place.log(game)
    assert len(log.events) == before + 1


def test_eight_writers_on_eight_games(place):
    games = [place.new(f"g{k}") for k in range(WRITERS)]
    options = [orjson.loads(place.run("legal", g, "--json")[1])["options"][0] for g in games]
    done = at_once(place, [("act", g, o) for g, o in zip(games, options)])
    assert {code for _, code, _ in done} <= {0, 3}, [out for _, code, out in done if code not in (0, 3)]
    for (args, code, _), game in zip(sorted(done, key=lambda d: games.index(d[0][1])), games):
        assert len(place.log(game).events) == 6 + (code == 0)


def test_writers_of_one_log_file_through_the_installed_command(tmp_path):
    store = GameStore(tmp_path / "games.sqlite")
    path = tmp_path / "g.json"
    game_log.write(path, Games(store).new_game(PLAYERS[:2], seed=3).to_log())
    store.close()
    env = {**os.environ, "NO_COLOR": "1"}
    writers = [subprocess.Popen([installed_coimbra(), "note", str(path), "--at", "1", f"writer {k}"],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env) for k in range(WRITERS)]
    codes = [w.wait(timeout=120) for w in writers]
    assert codes == [0] * WRITERS, [w.stderr.read() for w in writers]  # notes take their turn at the file's lock
    assert sorted(notes_of(log_reader.read(path))) == sorted(f"writer {k}" for k in range(WRITERS))
    assert sorted(p.name for p in tmp_path.iterdir()) == ["g.json", "g.json.lock", "games.sqlite"]
