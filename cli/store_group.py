"""``coimbra store``: the game store itself, for whoever sets one up (a club's PostgreSQL database, say)."""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer
from rich.markup import escape

from cli.common import DbOption, JsonOption, console, print_json, served
from cli.exits import fail

store_app = typer.Typer(
    help=(
        "The game store itself: where it is, whether it answers, and making it ready (coimbra store init).\n\n"
        "Where it is: --db FILE or --db postgresql://user@host/dbname (the password from $PGPASSWORD), else "
        "$COIMBRA_DB, else PostgreSQL when PERSISTENCE_MODULE=eventsourcing.postgres and POSTGRES_* are set, "
        "else a SQLite file in your data folder."
    ),
    no_args_is_help=True,
)


def _summary(report: object) -> str:
    from coimbra_events.store.probe import StoreReport

    assert isinstance(report, StoreReport)
    if report.league is None:
        league = "league not built yet (any coimbra league command builds it)"
    elif report.league >= report.events:
        league = "league up to date"
    else:
        league = f"league {report.events - report.league} events behind (the next league command catches up)"
    return f"{report.location} answers: {report.games:,} games, {report.events:,} events; {league}"


@store_app.command("init")
def init_command(db: Optional[Path] = DbOption, as_json: bool = JsonOption) -> None:
    """Make the store ready: connect, and create its tables (the league's too) if they are not there yet.

    Every command does this on first use (one process at a time creates the
    tables, however many start at once); run it once when setting a store up,
    to see that the connection works. A PostgreSQL server that cannot be used
    is named with its own reason (authentication failed, no such database,
    connection refused) after at most POSTGRES_CONNECT_TIMEOUT seconds (5).

    Example: [bold]coimbra store init --db postgresql://club@192.168.1.10/coimbra[/]
    """
    from projections.league.projection import NoLeague

    with served(db, views=True, create=True) as app:
        games = app.position() is not None
        where = app.location()
        try:
            app.league()
        except NoLeague:  # an in-memory store: nothing to create
            pass
    if as_json:
        print_json({"store": where, "ready": True, "empty": not games})
        return
    console.print(f"ready: {escape(where)}{'' if games else ' (no games yet)'}", soft_wrap=True)


@store_app.command("check")
def check_command(db: Optional[Path] = DbOption, as_json: bool = JsonOption) -> None:
    """Where the store is, that it answers, its size in games and events, and how far the league got.

    Changes nothing (a SQLite file is opened read-only). If the store cannot be reached, one line says why
    (no such file, connection refused, authentication failed, no such database ...), never the password, and
    the exit code is 2.

    Example: [bold]coimbra store check --db postgresql://club@192.168.1.10/coimbra[/]
    """
    from coimbra_events.service import Games
    from coimbra_events.store.probe import StoreUnreachable

    try:
        report = Games.at(db).probe()
    except StoreUnreachable as exc:
        if as_json:
            print_json({"answers": False, "problem": str(exc)})
        fail(str(exc))
    if as_json:
        print_json(report.to_json())
        return
    console.print(escape(_summary(report)), soft_wrap=True)
