"""``coimbra store``: set up the store a club shares, and check that it answers."""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer
from rich.markup import escape

from cli.common import DbOption, JsonOption, console, print_json
from cli.exits import fail

store_app = typer.Typer(
    help=(
        "The store tables record into: init creates it, check says where it is and whether it answers.\n\n"
        "The store every table records into: a SQLite file (the default) or, for a club, one PostgreSQL "
        "database (--db postgresql://user@host/dbname, or $COIMBRA_DB; the password from $PGPASSWORD).\n\n"
        "Example: [bold]coimbra store check[/]"
    ),
    no_args_is_help=True,
)


def _summary(report: object) -> str:
    from coimbra_events.store_probe import StoreReport

    assert isinstance(report, StoreReport)
    if report.league is None:
        league = "league not built yet (any coimbra league command builds it)"
    elif report.league >= report.events:
        league = "league up to date"
    else:
        league = f"league {report.events - report.league} events behind (the next league command catches up)"
    return (f"{report.kind} {report.location} answers: {report.games:,} games, {report.events:,} events; {league}")


@store_app.command("check")
def check_command(db: Optional[Path] = DbOption, as_json: bool = JsonOption) -> None:
    """Where the store is, that it answers, its size in games and events, and how far the league got.

    Changes nothing (a SQLite file is opened read-only). If the store cannot be reached, one line says why
    (no such file, connection refused, authentication failed, no such database ...), never the password, and
    the exit code is 2.

    Example: [bold]coimbra store check --db postgresql://club@192.168.1.10/coimbra[/]
    """
    from coimbra_events.store_probe import StoreUnreachable, probe

    try:
        report = probe(db)
    except StoreUnreachable as exc:
        if as_json:
            print_json({"answers": False, "problem": str(exc)})
        fail(str(exc))
    if as_json:
        print_json(report.to_json())
        return
    console.print(escape(_summary(report)), soft_wrap=True)


@store_app.command("init")
def init_command(db: Optional[Path] = DbOption, as_json: bool = JsonOption) -> None:
    """Create what the store needs (its events table, the league's tables), once, even if many tables start at once.

    On PostgreSQL the schema is created if missing and the tables are made under an advisory lock, so two
    laptops running it together create them once; running it again changes nothing.

    Example: [bold]coimbra store init --db postgresql://club@192.168.1.10/coimbra[/]
    """
    from cli.common import opened, store_errors
    from coimbra_events.store_probe import StoreUnreachable, init_lock, probe, settings_of
    from projections.league.projection import NoLeague, open_league

    try:
        with init_lock(settings_of(db)):
            with opened(db) as store, store_errors("nothing created"):
                try:
                    open_league(store)
                except NoLeague as exc:
                    fail(str(exc))
        report = probe(db)
    except StoreUnreachable as exc:
        fail(f"{exc}; nothing created")
    if as_json:
        print_json(report.to_json())
        return
    console.print(escape("store ready: " + _summary(report)), soft_wrap=True)
