"""One table (or one of two devices at the same table) recording a game, decision by decision, as ``coimbra act``.

``python -m tests.store.league.recorder_child GAME LOG N`` records into the
store named by the environment every event of the JSON log LOG that the stored
game does not hold yet: it reads the game (the device shows that table), sends
the next N events in notation through the ``act`` command with the head it read
(``--after``: in this process, as the installed command runs it), and reads
again, until the game holds the whole log. A device whose table another device
changed in between is told so (exit 3) and reads again. Each attempt is one JSON line
on stdout: the entry it tried, the exit code, and the error line if any. A
device that finds the stored game no longer a prefix of the log stops.
"""

from __future__ import annotations

import sys

import orjson
from typer.testing import CliRunner

from cli.app import app
from coimbra_events import log_reader
from coimbra_events.store.game_store import GameStore
from coimbra_events.notation import render

ATTEMPTS = 2000


def main(name: str, path: str, per_act: int) -> None:
    intended = log_reader.read(path).events
    store = GameStore()
    runner = CliRunner()
    for _ in range(ATTEMPTS):
        game = store.get(name)
        stored = game.events
        if list(stored) != list(intended[:len(stored)]):
            print(orjson.dumps({"diverged": len(stored)}).decode(), flush=True)
            return
        if len(stored) == len(intended):
            break
        k = len(stored)
        result = runner.invoke(app, ["act", name, "--after", game.head, *(render(e) for e in intended[k:k + per_act])],
                               catch_exceptions=False)
        error = result.stderr.strip().splitlines()
        print(orjson.dumps({"entry": k + 1, "code": result.exit_code, "error": error[-1] if error else ""}).decode(),
              flush=True)
    store.close()
    print(orjson.dumps({"done": True}).decode(), flush=True)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], int(sys.argv[3]))
