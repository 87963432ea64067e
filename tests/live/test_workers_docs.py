"""docs/serve.md's "Several server processes" says what ``--workers`` does: each claim is the code's (the behaviour
itself: ``tests/live/test_workers.py`` on real PostgreSQL, ``tests/store/test_keeping_postgres.py``)."""

from __future__ import annotations

import inspect

import pytest
from uvicorn.supervisors import Multiprocess

from cli.live import follow, workers
from cli.live.access import Keys
from cli.live.tables import ServedTables
from cli.serve_command import serve_command
from coimbra_events.store import postgres, postgres_keeping
from coimbra_events.store.links import TableKeys
from tests.conftest import ROOT

KEPT = TableKeys()
"""One table's keys, as each process reads them from the store."""
DOC = (ROOT / "docs" / "serve.md").read_text()
SECTION = " ".join(DOC[DOC.index("## Several server processes"):DOC.index("## The pages")].split())


@pytest.mark.parametrize("words, value", [
    ("`--workers N` serves the table, or every table, from N processes on the one address and port",
     inspect.signature(serve_command).parameters["workers"].default.default == 1),
    ("Without GAME every process serves every table, with the organiser's key the store keeps",
     "tables.serve_every()" in inspect.getsource(workers.app) and "games.organiser_key()" in inspect.getsource(workers.app)),
    ("A table archived through one, or a game over put away without archiving it, is served no more by the others at "
     "that same look",  # tests/live/test_workers_club.py
     "self._drop_put_away(" in inspect.getsource(ServedTables.serve_every)
     and "self.games.put_away_since(" in inspect.getsource(ServedTables._moved)),
    ("printed once every process answers", "wait_until_ready(STARTUP" in inspect.getsource(workers.Supervisor)),
    ("on SQLite it is refused in one line (exit 2), nothing started",  # the refusal itself: tests/live/test_workers.py
     "several_processes(db)" in inspect.getsource(serve_command)),
    ("(tables `coimbra_table_keys` and `coimbra_seat_claims`, created with its other tables)",
     postgres_keeping.TABLES == ("coimbra_table_keys", "coimbra_seat_claims")),
    ("a session cookie (made from the token, not held in one process's memory)",
     Keys(KEPT).cookie("players") == Keys(KEPT).cookie("players") != Keys().cookie("players")),
    ("A claim is decided in one transaction holding the game's row",
     "FOR UPDATE" in inspect.getsource(postgres_keeping.PostgresKeeping.locked)),
    ("each process reads the table's claims (one row) once a second", follow.SEATS_EVERY == 1.0),
    ("(`uvicorn.supervisors.Multiprocess`, what `uvicorn --workers` runs)", issubclass(workers.Supervisor, Multiprocess)),
    ("SIGHUP replaces them one at a time; SIGTTIN adds one and SIGTTOU takes one away",
     all(hasattr(Multiprocess, f"handle_{sig}") for sig in ("hup", "ttin", "ttou", "int", "term"))),
    ("A process that cannot open the store or read the game says so in one line and the server stops, exit 2",
     "sys.exit(STARTUP_FAILURE)" in inspect.getsource(workers.app)),
    ("Each process keeps its own limits", "WorkerH11.counted = Connections(" in inspect.getsource(workers.app)),
    ("at most 2 connections to the PostgreSQL server (its pool of 1 and 1 more",
     (postgres.DEFAULTS["POSTGRES_POOL_SIZE"], postgres.DEFAULTS["POSTGRES_MAX_OVERFLOW"]) == ("1", "1")),
])
def test_what_the_section_says_is_the_code(words: str, value: bool) -> None:
    assert words in SECTION and value
