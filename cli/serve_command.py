"""``coimbra serve``: the live table, where every player records from their own phone and everyone watches.

The command picks the game (named, new, or an unfinished one chosen at the
prompt), reads it, binds the server's socket, and prints the players' join link
with a QR code of it (segno), the watchers' link and the address phones reach;
then it serves until Ctrl-C (``cli.live.server``). The links carry the table's
tokens in their fragment, which no browser sends, so no request line holds one;
the application keeps them for the game (``Games.table_keys``), so a restart
keeps every link, until ``--new-links`` replaces them.
"""

from __future__ import annotations

import socket
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Optional

import orjson
import typer
from rich.markup import escape

from cli.common import ByOption, Commands, DbOption, console, entrant, flag, players_option, served, store_errors
from cli.exits import err_console, fail
from cli.live.limits import PER_ADDRESS, Limits
from cli.presenter import due
from coimbra_events.references import log_file

if TYPE_CHECKING:
    from cli.live.workers import Worker
    from coimbra_events.service import Games

COMMANDS = Commands()
LOOPBACK = ("127.", "::1", "localhost")
ANY = ("0.0.0.0", "::", "")


@COMMANDS("serve")
def serve_command(
    game_ref: Optional[str] = typer.Argument(
        None, metavar="[GAME]", help="The stored game to serve (default: start a new one, or choose an unfinished one)."
    ),
    players: Optional[str] = typer.Option(
        None, "--players", "-p", help='Start a new game for these players and colours: "Ana:red,Bruno:blue" (2 to 4).'
    ),
    seed: Optional[int] = typer.Option(None, "--seed", "-s", help="With --players: draw the new game's setup from this seed."),
    host: Optional[str] = typer.Option(
        None, "--host", help="The address to listen on (default: this computer's network address, which the links "
                             "name; 127.0.0.1: this computer only; 0.0.0.0: every address)."
    ),
    port: int = typer.Option(8000, "--port", min=0, max=65535, help="The port to listen on (0: any free port)."),
    db: Optional[Path] = DbOption,
    by: Optional[str] = ByOption,
    new_links: bool = flag("--new-links", help="Replace the table's links (they survive a restart): the old ones stop "
                                               "working, and a phone holding one is told to scan the new code."),
    per_address: int = typer.Option(
        PER_ADDRESS, "--per-address", min=1, max=4096, metavar="N",
        help="Connections one address may hold open at once (a phone's browser opens about six; raise it only where "
             "many pages share one address, as behind one router's NAT or in a test on one computer)."),
    workers: int = typer.Option(
        1, "--workers", min=1, max=64, metavar="N",
        help="Server processes answering on the one address (a PostgreSQL store only: each tells its pages what the "
             "others store). docs/serve.md: several processes."),
    as_json: bool = flag("--json", help="Print one JSON line once the server answers: the game, the links and the two tokens."),
) -> None:
    """Serve a game to the table's phones: each player records from their own, everyone watches the same board.

    Prints the players' join link and a QR code of it, the watchers' link (read
    only) and the address phones on the same network reach. Every input carries
    the head the phone showed, so of two taps made on one table only the first is
    stored; [bold]coimbra act[/] and [bold]record[/] may record into the same game
    meanwhile, and every page is told. Without GAME: [bold]--players[/] starts a new
    game, else you choose an unfinished one or start one at the prompt. Ctrl-C
    stops the server; everything recorded is already stored. The API: docs/serve.md.

    Example: [bold]coimbra serve ana-bruno[/]

    Example: [bold]coimbra serve --players "Ana:red,Bruno:blue,Carla:yellow" --seed 7[/]
    """
    from cli.live.access import Keys
    from cli.live.server import build_app, listen, serve, url_host
    from cli.live.table import ServedTable
    from cli.live.workers import Worker
    from coimbra_events.store.location import several_processes

    if game_ref is not None and players is not None:
        fail("--players starts a new game: leave out GAME, or --players to serve GAME")
    if game_ref is not None and log_file(game_ref) is not None:
        fail(f"{game_ref}: serve serves a stored game; store the log first: coimbra import {game_ref}")
    if workers > 1 and not several_processes(db):
        fail(f"--workers {workers}: several server processes share a PostgreSQL store (its links, seats and news of "
             "entries); this store is SQLite's, served by one process: leave out --workers")
    shown = _shown_host(host)
    # Only a new game makes a store: a named game is served from a store that exists.
    with served(db, views=True, create=game_ref is None) as games:
        with store_errors():
            name = game_ref if game_ref is not None else _chosen(games, players, seed, entrant(by))
            table = ServedTable(games, name, entrant(by))
            game = table.load()
            table.view()  # made once now, so that the first page is answered at once
            kept = games.table_keys(table.session, renew=new_links)
        bind = shown if host is None else host  # the address the links name, unless --host names one (0.0.0.0: all)
        try:
            sock = listen(bind, port)
        except OSError as exc:
            fail(f"cannot listen on {bind}:{port}: {exc.strerror or exc}")
        keys = Keys(kept)
        base = f"http://{url_host(shown)}:{sock.getsockname()[1]}"
        links = {"players_url": f"{base}/play#t={keys.players}", "watchers_url": f"{base}/watch#t={keys.watchers}"}

        def ready() -> None:
            if as_json:
                _json_line({"game": name, "url": base, **links, "players_token": keys.players,
                            "watchers_token": keys.watchers, "host": shown, "port": sock.getsockname()[1]})
            else:
                _announce(name, due(game), links, shown)

        bound = sock.getsockname()[0]
        hosts = [shown] if bound in ANY else [shown, bound]
        if workers > 1:
            _served_by(Worker(None if db is None else str(db), name, entrant(by), hosts, sock.getsockname()[1], per_address),
                       workers, sock, ready)
            table.load()  # what the processes stored, to count it
        else:
            serve(build_app(table, keys, hosts, sock.getsockname()[1]), sock, ready, Limits(per_address=per_address))
    if not as_json:
        err_console.print(f"stopped serving {escape(name)}: {len(table.entries)} entries, all stored", style="dim")


def _served_by(worker: Worker, count: int, sock: socket.socket, ready: Callable[[], None]) -> None:
    """Serve from ``count`` processes (``cli.live.workers``); exit 2 if they could not all start (each said why)."""
    from cli.live.workers import serve_workers

    if not serve_workers(worker, count, sock, ready):
        fail(f"the {count} server processes did not all start (see above); nothing was served")


def _chosen(games: Games, players: Optional[str], seed: Optional[int], by: str) -> str:
    """The game to serve when none is named: a new one for ``--players``, else one chosen at the prompt."""
    if players is not None:
        return games.new_game(players_option(players), seed=seed, by=by).name
    if seed is not None:
        fail("--seed draws a new game's setup: give --players too")
    if not sys.stdin.isatty():
        fail("name the GAME to serve, or start a new one with --players \"Ana:red,Bruno:blue\"")
    unfinished = games.unfinished()
    for k, info in enumerate(unfinished, 1):
        console.print(f"  {k}. {escape(info.name)} ({escape(', '.join(n for n, _ in info.players))})")
    words = f"a number to resume ({1}-{len(unfinished)}), or " if unfinished else ""
    answer = typer.prompt(f"Serve which game? {words}players and colours for a new one (Ana:red,Bruno:blue)").strip()
    if answer.isdigit() and 1 <= int(answer) <= len(unfinished):
        return unfinished[int(answer) - 1].name
    return games.new_game(players_option(answer), by=by).name


def _shown_host(host: Optional[str]) -> str:
    """The address the links name: ``--host`` itself, or for every address this computer's network address
    (never a loopback address unless ``--host`` says so)."""
    if host is not None and host not in ANY:
        return host
    found = network_address()
    if found is None:
        fail("no network address a phone could reach: join the table's Wi-Fi, or --host 127.0.0.1 to try it here alone")
    return found


def network_address() -> str | None:
    """This computer's address on its network (the one it would send from; nothing is sent), not a loopback one."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(("10.255.255.255", 1))
            address = probe.getsockname()[0]
    except OSError:
        return None
    return None if address.startswith(LOOPBACK) else address


def _json_line(data: dict[str, object]) -> None:
    sys.stdout.write(orjson.dumps(data).decode() + "\n")
    sys.stdout.flush()


def _announce(name: str, next_: str, links: dict[str, str], shown: str) -> None:
    """The links, the QR code of the players' one, and how to stop."""
    import segno

    console.print(f"Serving [bold]{escape(name)}[/]: next, {escape(next_)}", soft_wrap=True)
    console.print(f"Players: scan the code or open {escape(links['players_url'])}", soft_wrap=True)
    segno.make(links["players_url"], error="l").terminal(out=sys.stdout, compact=True)
    console.print(f"Watchers (read only): {escape(links['watchers_url'])}", soft_wrap=True)
    where = "this computer only" if shown.startswith(LOOPBACK) else "phones on the same network"
    console.print(f"Address: {escape(shown)} ({where}). Ctrl-C stops the server; everything recorded is stored.",
                  soft_wrap=True)
    sys.stdout.flush()
