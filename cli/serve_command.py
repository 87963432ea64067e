"""``coimbra serve``: the live table, where every player records from their own phone and everyone watches.

The command picks the game (named, or new with ``--players``), reads it, binds the
server's socket, and prints the players' join link with a QR code of it (segno),
the watchers' link and the address phones reach; then it serves until Ctrl-C
(``cli.live.server``). Without GAME and ``--players`` it serves every game in
progress and every game started while it runs (a club night: ``cli.live.tables``),
and prints the organiser's link (the table cards) and each table's. The links carry the table's
tokens in their fragment, which no browser sends, so no request line holds one;
the application keeps them for the game (``Games.table_keys``; the organiser's:
``Games.organiser_key``), so a restart keeps every link, until ``--new-links`` replaces them.
"""

from __future__ import annotations

import socket
import sys
from datetime import date
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
    from cli.live.tables import ServedTables
    from cli.live.workers import Worker

COMMANDS = Commands()
LOOPBACK = ("127.", "::1", "localhost")
ANY = ("0.0.0.0", "::", "")


@COMMANDS("serve")
def serve_command(
    game_ref: Optional[str] = typer.Argument(
        None, metavar="[GAME]", help="The stored game to serve (default: every game in progress, and those started while it runs)."
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
    new_links: bool = flag("--new-links", help="Replace the table's links (they survive a restart; without GAME: every "
                                               "table's and the organiser's): the old ones stop working, and a phone "
                                               "holding one is told to scan the new code."),
    per_address: int = typer.Option(
        PER_ADDRESS, "--per-address", min=1, max=4096, metavar="N",
        help="Connections one address may hold open at once (a phone's browser opens about six; raise it only where "
             "many pages share one address, as behind one router's NAT or in a test on one computer)."),
    tag: Optional[str] = typer.Option(
        None, "--tag", metavar="TAG", help="Without GAME: the evening's tag, on every game started from the organiser's "
                                           "page (default: club-YYYY-MM-DD, today's date); league --season TAG reads it."),
    workers: int = typer.Option(
        1, "--workers", min=1, max=64, metavar="N",
        help="Server processes answering on the one address (a PostgreSQL store and one GAME or --players only: each "
             "tells its pages what the others store). docs/serve.md: several processes."),
    as_json: bool = flag("--json", help="Print one JSON line once the server answers: the game, the links and the two "
                                        "tokens (without GAME: the organiser's link and token, and each table's)."),
) -> None:
    """Serve a game to the table's phones: each player records from their own, everyone watches the same board.

    Prints the players' join link and a QR code of it, the watchers' link (read
    only) and the address phones on the same network reach. Every input carries
    the head the phone showed, so of two taps made on one table only the first is
    stored; [bold]coimbra act[/] and [bold]record[/] may record into the same game
    meanwhile, and every page is told. [bold]--players[/] starts a new game. Without
    GAME and --players it serves every game in progress, and those started while it
    runs, on one address (a club night), and prints the organiser's link: the table
    cards to print, each with its QR code. Ctrl-C stops the server; everything
    recorded is already stored. The API: docs/serve.md.

    Example: [bold]coimbra serve ana-bruno[/]

    Example: [bold]coimbra serve[/]   (every table of the evening)

    Example: [bold]coimbra serve --players "Ana:red,Bruno:blue,Carla:yellow" --seed 7[/]
    """
    from cli.live.access import Keys
    from cli.live.server import build_app, listen, serve, url_host
    from cli.live.tables import ServedTables
    from cli.live.workers import Worker
    from coimbra_events.store.location import several_processes

    if game_ref is not None and players is not None:
        fail("--players starts a new game: leave out GAME, or --players to serve GAME")
    if game_ref is not None and log_file(game_ref) is not None:
        fail(f"{game_ref}: serve serves a stored game; store the log first: coimbra import {game_ref}")
    if seed is not None and players is None:
        fail("--seed draws a new game's setup: give --players too")
    if tag is not None and (game_ref is not None or players is not None):
        fail("--tag is the evening's, for the games started from the organiser's page: leave out GAME and --players")
    every = game_ref is None and players is None
    if workers > 1 and every:
        fail(f"--workers {workers} serves one table from several processes: name its GAME (or start one with --players); "
             "a server of every table runs as one process")
    if workers > 1 and not several_processes(db):
        fail(f"--workers {workers}: several server processes share a PostgreSQL store (its links, seats and news of "
             "entries); this store is SQLite's, served by one process: leave out --workers")
    shown = _shown_host(host)
    # Only a new game (or a club night's server, where games start) makes a store: a named game is served from one that exists.
    with served(db, views=True, create=game_ref is None) as games:
        with store_errors():
            if every:
                evening = games.evening_tag(tag if tag is not None else f"club-{date.today().isoformat()}")
                tables = ServedTables(games, entrant(by), Keys(games.organiser_key(renew=new_links)), evening)
                tables.serve_every(renew=new_links)
            else:
                tables = ServedTables(games, entrant(by))
                name = game_ref if game_ref is not None else games.new_game(players_option(players or ""), seed=seed,
                                                                            by=entrant(by)).name
                tables.serve(name, renew=new_links)
        bind = shown if host is None else host  # the address the links name, unless --host names one (0.0.0.0: all)
        try:
            sock = listen(bind, port)
        except OSError as exc:
            fail(f"cannot listen on {bind}:{port}: {exc.strerror or exc}")
        bound, at = sock.getsockname()[0], sock.getsockname()[1]
        base = f"http://{url_host(shown)}:{at}"
        where = {"url": base, "host": shown, "port": at}
        ready = (lambda: _ready_every(tables, base, where, as_json)) if every else \
            (lambda: _ready_one(tables, base, where, as_json))
        hosts = [shown] if bound in ANY else [shown, bound]
        if workers > 1:
            name, seated = next(iter(tables.served.items()))
            _served_by(Worker(None if db is None else str(db), name, entrant(by), hosts, at, per_address), workers, sock, ready)
            seated.table.load()  # what the processes stored, to count it
        else:
            serve(build_app(tables, hosts, at), sock, ready, Limits(per_address=per_address))
    if not as_json:
        told = sum(len(s.table.entries) for s in tables.served.values())
        named = escape(next(iter(tables.served))) if not every else f"{len(tables.served)} tables"
        err_console.print(f"stopped serving {named}: {told} entries, all stored", style="dim")


def _ready_one(tables: ServedTables, base: str, where: dict[str, object], as_json: bool) -> None:
    """Once the server of one table answers: its JSON line, or its links and the QR code of its players' one."""
    from cli.live.club import links

    name, seated = next(iter(tables.served.items()))
    shown = links(base, seated.keys)
    if as_json:
        _json_line({"game": name, **where, **shown})
    else:
        _announce(name, due(seated.table.games.open(seated.table.session)), shown, str(where["host"]))


def _ready_every(tables: ServedTables, base: str, where: dict[str, object], as_json: bool) -> None:
    """Once the server of every table answers: its JSON line, or the organiser's link and each table's."""
    from cli.live.club import links, organiser_links

    assert tables.organiser is not None
    organiser = organiser_links(base, tables.organiser)
    served = [{"game": name, **links(base, s.keys)} for name, s in tables.served.items()]
    if as_json:
        _json_line({**organiser, **where, "tables": served})
        return
    console.print(f"Serving {len(served)} tables at {escape(base)}, and every game started while it runs", soft_wrap=True)
    console.print(f"Organiser (start tables, every table at a glance, the cards to print): "
                  f"{escape(organiser['organiser_url'])}", soft_wrap=True)
    for table in served:
        console.print(f"  [bold]{escape(str(table['game']))}[/]: {escape(str(table['players_url']))}", soft_wrap=True)
    console.print("Ctrl-C stops the server; everything recorded is stored.", soft_wrap=True)
    sys.stdout.flush()


def _served_by(worker: Worker, count: int, sock: socket.socket, ready: Callable[[], None]) -> None:
    """Serve from ``count`` processes (``cli.live.workers``); exit 2 if they could not all start (each said why)."""
    from cli.live.workers import serve_workers

    if not serve_workers(worker, count, sock, ready):
        fail(f"the {count} server processes did not all start (see above); nothing was served")


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
