"""Two taps, one winner: inputs made for the same head at once, through the API and against ``coimbra act``.

Each pair is the fixture's next entry sent twice with the head both devices showed: exactly one is stored,
the other is told 409 (or ``act`` exits 3); at the end the game holds the fixture's entries, each once.
"""

from __future__ import annotations

import asyncio
import subprocess
import sys
import time
from pathlib import Path

import httpx
import orjson

from tests.live.conftest import SETUP_ENTRIES, Served, coimbra, environment, fixture_inputs

INPUTS = fixture_inputs()
PAIRS = 200
CLI_PAIRS = 8


def stored(served: Served) -> list[dict]:
    """The game's entries as its exported log has them (type, actor, payload), read by ``coimbra export``."""
    exported = coimbra(served.db, "export", served.game)
    assert exported.returncode == 0, exported.stderr
    return [{k: e[k] for k in ("type", "actor", "payload")} for e in orjson.loads(exported.stdout)["events"]]


def fixture_entries(count: int) -> list[dict]:
    from tests.live.conftest import FIXTURE

    return [{k: e[k] for k in ("type", "actor", "payload")} for e in orjson.loads(FIXTURE.read_bytes())["events"][:count]]


def test_200_pairs_of_taps_store_one_of_each(fixture_game) -> None:
    served = fixture_game(SETUP_ENTRIES, "race")
    head = served.client(served.players).get(served.api()).json()["head"]

    async def race() -> list[tuple[int, int]]:
        nonlocal head
        statuses = []
        limits = httpx.Limits(max_connections=2)
        async with httpx.AsyncClient(base_url=served.url, headers={"Authorization": f"Bearer {served.players}"},
                                     limits=limits, timeout=30) as client:
            for k in range(SETUP_ENTRIES, SETUP_ENTRIES + PAIRS):
                body = {"input": INPUTS[k], "after": head}
                answers = await asyncio.gather(*(client.post(served.api("/inputs"), json={**body, "by": by})
                                                 for by in ("Ana's phone", "Bruno's phone")))
                statuses.append(tuple(sorted(a.status_code for a in answers)))
                head = next((a.json()["head"] for a in answers if a.status_code == 200), head)
        return statuses

    statuses = asyncio.run(race())
    assert statuses == [(200, 409)] * PAIRS
    assert stored(served) == fixture_entries(SETUP_ENTRIES + PAIRS)  # none lost, none stored twice


ACT_ON_GO = """
import sys, time
from pathlib import Path
import cli.app, cli.store_commands, coimbra_events.store.game_store, projections.read_side
ready, go, *args = sys.argv[1:]
Path(ready).touch()
while not Path(go).exists() or not Path(go).read_text():
    time.sleep(0.001)
sys.argv = ["coimbra", *args, "--after", Path(go).read_text()]
cli.app.main()
"""
"""``coimbra act ARGS --after HEAD``, started ahead with its modules imported, waiting: run once ``go`` names the head."""


def test_coimbra_act_racing_the_api_stores_one_of_each(fixture_game, tmp_path: Path) -> None:
    served = fixture_game(SETUP_ENTRIES, "cli-race")
    client = served.client(served.players)
    head = client.get(served.api()).json()["head"]
    steps = range(SETUP_ENTRIES, SETUP_ENTRIES + CLI_PAIRS)
    acts = {k: subprocess.Popen([sys.executable, "-c", ACT_ON_GO, str(tmp_path / f"ready-{k}"), str(tmp_path / f"go-{k}"),
                                 "act", served.game, INPUTS[k], "--quiet"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                env=environment(served.db)) for k in steps}  # started together: their start-up overlaps
    won = {"api": 0, "act": 0}
    for k in steps:
        while not (tmp_path / f"ready-{k}").exists():
            time.sleep(0.002)
        (tmp_path / f"go-{k}").write_text(head[:12])
        time.sleep(0.02 * (k % 4))  # the API's input sent as act opens the store, reads the game, saves, or after
        answer = client.post(served.api("/inputs"), json={"input": INPUTS[k], "after": head})
        code = acts[k].wait(timeout=60)
        assert (answer.status_code, code) in ((200, 3), (409, 0)), (answer.text, acts[k].stderr.read())
        won["api" if code else "act"] += 1
        head = client.get(served.api()).json()["head"]
    assert stored(served) == fixture_entries(SETUP_ENTRIES + CLI_PAIRS)
    print(f"of {CLI_PAIRS} races, the API won {won['api']} and act {won['act']}")
