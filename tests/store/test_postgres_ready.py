"""A PostgreSQL store ready for a club: the server's own reason in one line, soon; tables made once.

Against the real test server (``tests/store/conftest.py``); skipped where none is configured,
failed in CI.
"""

from __future__ import annotations

import os
import time

import pytest

from coimbra_events.store.game_store import GameStore
from coimbra_events.store.postgres import StoreUnavailable
from tests.commands import invoke, started_together

pytestmark = pytest.mark.postgres


@pytest.mark.parametrize("change, reason", [
    ({"POSTGRES_PASSWORD": "not-the-password"}, 'password authentication failed for user'),
    ({"POSTGRES_DBNAME": "no_such_database"}, 'database "no_such_database" does not exist'),
    ({"POSTGRES_PORT": "1"}, "Connection refused"),
])
def test_a_server_that_cannot_be_used_says_why_in_one_line_at_once(postgres_env, change, reason):
    env = {**postgres_env, **change}
    started = time.perf_counter()
    with pytest.raises(StoreUnavailable, match=reason):
        GameStore(env=env)
    assert time.perf_counter() - started < 5
    result = invoke(["games"], env={"COIMBRA_DB": None, **env})
    assert result.exit_code == 2 and result.exception is None or isinstance(result.exception, SystemExit)
    line = result.stderr.strip()
    assert "\n" not in line and reason in line and "the default location" not in line
    assert line.startswith(f"error: cannot open the game store PostgreSQL database {env['POSTGRES_DBNAME']} on ")
    assert postgres_env["POSTGRES_PASSWORD"] not in line and "not-the-password" not in line


def test_many_first_uses_at_once_create_the_tables_once(postgres_env, tmp_path):
    """The schema is empty: 8 commands open it at once; one creates the tables, the others wait and use them."""
    env = {**os.environ, "NO_COLOR": "1", **postgres_env}
    env.pop("COIMBRA_DB", None)
    commands = [("new", "--players", "Ana:red,Bruno:blue", "--name", f"g{k}") for k in range(8)]
    outcomes = started_together(commands, env, tmp_path)
    assert [code for code, _ in outcomes] == [0] * 8, outcomes
    store = GameStore(env=postgres_env)
    assert sorted(g.name for g in store.games()) == [f"g{k}" for k in range(8)]
    store.close()


def test_store_init_says_the_store_is_ready(postgres_env):
    result = invoke(["store", "init"], env={"COIMBRA_DB": None, **postgres_env})
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith(f"ready: PostgreSQL database {postgres_env['POSTGRES_DBNAME']} on ")
    assert "(no games yet)" in result.stdout and postgres_env["POSTGRES_PASSWORD"] not in result.stdout
