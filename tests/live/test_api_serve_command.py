"""``coimbra serve`` itself, as a user runs it: what it prints, which address its links name, how it stops."""

from __future__ import annotations

import select
import signal
import subprocess
import time

import httpx
import orjson
import pytest

from cli.serve_command import network_address
from tests.conftest import installed_coimbra
from tests.live.conftest import FIXTURE, Served, coimbra, environment
from tests.live.test_api import events
from tests.store.conftest import postgres_env, postgres_server  # noqa: F401  (fixtures)


def started(db, *args: str) -> tuple[subprocess.Popen, bytes]:
    """``coimbra serve ARGS`` and its first line of output."""
    process = subprocess.Popen([installed_coimbra(), "serve", *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               stdin=subprocess.DEVNULL, env=environment(db))
    ready, _, _ = select.select([process.stdout], [], [], 60)
    return process, process.stdout.readline() if ready else b""


def stopped(process: subprocess.Popen, how: int = signal.SIGINT) -> tuple[int, str, str]:
    """Ctrl-C (or another signal): the exit code and everything printed."""
    process.send_signal(how)
    out, err = process.communicate(timeout=30)
    return process.returncode, out.decode(), err.decode()


def test_the_terminal_shows_the_links_a_qr_code_and_the_address(serve) -> None:
    process, first = started(serve.db, "--players", "Ana:red,Bruno:blue", "--host", "127.0.0.1", "--port", "0")
    lines = [first]
    while b"Ctrl-C stops the server" not in lines[-1] and lines[-1]:  # the whole announcement, then stop it
        lines.append(process.stdout.readline())
    code, out, err = stopped(process, signal.SIGTERM)  # as a service manager stops it: cleanly too
    out = b"".join(lines).decode() + out
    assert code == 0 and "Traceback" not in err, err
    assert "Serving ana-bruno" in out and "/play#t=" in out and "/watch#t=" in out, (out, err)
    assert "█" in out or "▀" in out, "the QR code of the players' link"
    assert "127.0.0.1 (this computer only)" in out and "Ctrl-C stops the server" in out
    assert "stopped serving ana-bruno" in err
    assert orjson.loads(coimbra(serve.db, "export", "ana-bruno").stdout)["catalog"]["id"] == "standin-2"  # names every space


def test_without_host_the_links_name_the_network_address_never_loopback(serve) -> None:
    address = network_address()
    if address is None:
        pytest.skip("this machine has no network address but loopback")
    process, line = started(serve.db, "--players", "Ana:red,Bruno:blue", "--port", "0", "--json")
    try:
        ready = orjson.loads(line)
        assert ready["host"] == address and not address.startswith("127.")
        assert ready["players_url"].startswith(f"http://{address}:{ready['port']}/play#t=")
        answer = httpx.get(f"{ready['url']}/api/games/{ready['game']}", headers={"Authorization": f"Bearer {ready['watchers_token']}"})
        assert answer.status_code == 200
    finally:
        assert stopped(process)[0] == 0


def test_ctrl_c_stops_cleanly_and_everything_recorded_is_stored(fixture_game) -> None:
    served: Served = fixture_game(6, "stopping")
    player = served.client(served.players)
    view = player.get(served.api()).json()
    recorded = player.post(served.api("/inputs"), json={"input": view["legal"]["options"][0], "after": view["head"]})
    assert recorded.status_code == 200
    with served.client(served.watchers).stream("GET", served.api("/events")):  # a stream still open at Ctrl-C
        assert served.stop() == 0
    exported = orjson.loads(coimbra(served.db, "export", "stopping").stdout)
    assert len(exported["events"]) == view["events"] + 1 and exported["events"][-1]["hash"] == recorded.json()["head"]
    assert "Traceback" not in served.log()


@pytest.mark.parametrize("args, words", [
    ((str(FIXTURE),), "serve serves a stored game; store the log first: coimbra import"),
    (("no-such-game",), "no game named 'no-such-game'"),
    (("--seed", "3"), "--seed draws a new game's setup: give --players too"),
    (("--tag", "club night"), "tag 'club night': use up to 40 characters without spaces or commas"),
    (("--tag", "x", "--players", "Ana:red,Bruno:blue"), "--tag is the evening's, for the games started from the organiser's page"),
])
def test_what_cannot_be_served_is_one_line_and_exit_2(serve, args, words) -> None:
    if not serve.db.exists():  # a store with a game in it, whichever of the module's tests run first (or alone)
        assert coimbra(serve.db, "new", "--players", "Ana:red,Bruno:blue").returncode == 0
    out = subprocess.run([installed_coimbra(), "serve", *args, "--host", "127.0.0.1", "--port", "0"], capture_output=True,
                         text=True, stdin=subprocess.DEVNULL, env=environment(serve.db), timeout=60)
    assert out.returncode == 2 and words in out.stderr, out.stderr
    assert [line for line in out.stderr.splitlines() if line.strip()] == [out.stderr.strip()]


def test_a_game_in_postgresql_is_served_and_entries_the_cli_stores_reach_the_stream(postgres_env, tmp_path) -> None:
    env = {**environment(tmp_path / "unused.sqlite"), **postgres_env}
    del env["COIMBRA_DB"]
    process = subprocess.Popen([installed_coimbra(), "serve", "--players", "Ana:red,Bruno:blue", "--seed", "3", "--host",
                                "127.0.0.1", "--port", "0", "--json"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    try:
        ready, _, _ = select.select([process.stdout], [], [], 60)
        line = orjson.loads(process.stdout.readline())
        player = httpx.Client(base_url=line["url"], headers={"Authorization": f"Bearer {line['players_token']}"}, timeout=30)
        view = player.get(f"/api/games/{line['game']}").json()
        answer = player.post(f"/api/games/{line['game']}/inputs", json={"input": view["legal"]["options"][0], "after": view["head"]})
        assert answer.status_code == 200, answer.text
        with player.stream("GET", f"/api/games/{line['game']}/events", params={"last": view["events"] + 1}) as stream:
            now = player.get(f"/api/games/{line['game']}").json()
            acted = subprocess.run([installed_coimbra(), "act", line["game"], now["legal"]["options"][0], "--after", now["head"]],
                                   capture_output=True, text=True, env=env, timeout=60)
            assert acted.returncode == 0, acted.stderr
            stored = time.monotonic()
            told = next(events(stream))
            took = time.monotonic() - stored
        assert told["id"] == str(view["events"] + 2) and told["data"]["by"] == entrant_of(env)
        assert took < 1.0, f"told {took:.2f} s after act stored it"  # PostgreSQL tells the server (cli.live.follow)
    finally:
        assert stopped(process)[0] == 0


def entrant_of(env: dict[str, str]) -> str:
    """Who ``coimbra act`` stamps its entries as, in ``env``."""
    import getpass

    return env.get("COIMBRA_BY") or getpass.getuser()
