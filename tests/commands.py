"""Running the ``coimbra`` app in-process, as the fuzz and evidence tests do thousands of times.

typer's runner builds the whole click command tree on every call (about 10 ms, more than most
commands take): ``invoke`` builds it once.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import time
from contextlib import contextmanager
from functools import cache
from pathlib import Path
from typing import Iterator, Mapping, Sequence
from unittest import mock

import typer
import typer.testing
from typer.testing import CliRunner, Result

from cli.app import app

_runner = CliRunner()


@cache
def _command() -> object:
    return typer.main.get_command(app)


def invoke(args: Sequence[str], env: Mapping[str, str] | None = None) -> Result:
    """``CliRunner().invoke(app, args)``, with the command built once for the whole session."""
    with mock.patch.object(typer.testing, "_get_command", lambda _: _command()):
        return _runner.invoke(app, list(args), env={"NO_COLOR": "1", "COLUMNS": "160", **(env or {})})


@contextmanager
def scratch() -> Iterator[Path]:
    """A fresh folder for one generated case, removed after it; in memory where the system has a
    tmpfs (``/dev/shm``), as a case's file syncs and clean-up cost several ms each on a disk."""
    shm = Path("/dev/shm")
    folder = Path(tempfile.mkdtemp(prefix="coimbra-case-", dir=shm if shm.is_dir() and os.access(shm, os.W_OK) else None))
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


_READY_THEN_RUN = """
import sys, time
from pathlib import Path
import cli.app
ready, go, *args = sys.argv[1:]
Path(ready).touch()
while not Path(go).exists():
    time.sleep(0.001)
sys.argv = ["coimbra", *args]
cli.app.main()
"""


def started_together(commands: Sequence[Sequence[str]], env: Mapping[str, str], folder: Path) -> list[tuple[int, str]]:
    """Run each command in a fresh process of its own (the command's entry point, ``cli.app.main``), all
    released at one moment once every one has started; their exit codes and output.

    Fresh processes, not forked ones: a forked child inherits its parent's database connection pools.
    """
    processes = []
    for k, args in enumerate(commands):
        ready, go = folder / f"ready-{k}", folder / "go"
        processes.append(subprocess.Popen([sys.executable, "-c", _READY_THEN_RUN, str(ready), str(go), *args],
                                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=dict(env)))
    deadline = time.monotonic() + 60
    while not all((folder / f"ready-{k}").exists() for k in range(len(commands))) and time.monotonic() < deadline:
        time.sleep(0.005)
    (folder / "go").touch()
    return [(p.wait(timeout=120), p.stdout.read()) for p in processes]
