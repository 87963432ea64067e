"""``scripts/dev-postgres.sh`` starts a throwaway PostgreSQL that coimbra can use as a club's store, and removes it."""

from __future__ import annotations

import glob
import os
import shutil
import socket
import subprocess
import tempfile

import pytest

from tests.conftest import ROOT, installed_coimbra
from tests.store.league.conftest import process_env

SCRIPT = ROOT / "scripts" / "dev-postgres.sh"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.mark.skipif(not (shutil.which("initdb") or glob.glob("/usr/lib/postgresql/*/bin/initdb")),
                    reason="no PostgreSQL server programs on this machine")
def test_a_throwaway_server_for_trying_the_club_store():
    folder = os.path.join(tempfile.gettempdir(), f"coimbra-dev-pg-test-{os.getpid()}")  # not under pytest's private tmp
    env = {**process_env({}), "COIMBRA_DEV_PG_PORT": str(free_port()), "COIMBRA_DEV_PG_DIR": folder}
    try:
        started = subprocess.run(["bash", str(SCRIPT)], capture_output=True, text=True, env=env, timeout=120)
        assert started.returncode == 0, started.stderr
        line = started.stdout.strip()
        assert line.startswith("export COIMBRA_DB='postgresql://coimbra@127.0.0.1:") and len(started.stdout.splitlines()) == 1
        env["COIMBRA_DB"] = line.split("=", 1)[1].strip("'")
        ready = subprocess.run([installed_coimbra(), "store", "init"], capture_output=True, text=True, env=env, timeout=120)
        assert ready.returncode == 0 and ready.stdout.startswith("ready: PostgreSQL database "), ready.stderr
        again = subprocess.run(["bash", str(SCRIPT)], capture_output=True, text=True, env=env, timeout=120)
        assert again.stdout.strip() == line  # running it again finds the same server
    finally:
        stopped = subprocess.run(["bash", str(SCRIPT), "--stop"], capture_output=True, text=True, env=env, timeout=120)
    assert stopped.returncode == 0 and not os.path.exists(folder)
