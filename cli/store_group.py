"""``coimbra store``: the game store itself, for whoever sets one up (a club's PostgreSQL database, say)."""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from cli.common import DbOption, JsonOption, console, opened, print_json

store_app = typer.Typer(
    help=(
        "The game store itself: where it is, and making it ready (coimbra store init).\n\n"
        "Where it is: --db FILE, else $COIMBRA_DB, else PostgreSQL when PERSISTENCE_MODULE=eventsourcing.postgres "
        "and POSTGRES_* are set, else a SQLite file in your data folder."
    ),
    no_args_is_help=True,
)


@store_app.command("init")
def init_command(db: Optional[Path] = DbOption, as_json: bool = JsonOption) -> None:
    """Make the store ready: connect, and create its tables if they are not there yet.

    Every command does this on first use (one process at a time creates the
    tables, however many start at once); run it once when setting a store up,
    to see that the connection works. A PostgreSQL server that cannot be used
    is named with its own reason (authentication failed, no such database,
    connection refused) after at most POSTGRES_CONNECT_TIMEOUT seconds (5).

    Example: [bold]PERSISTENCE_MODULE=eventsourcing.postgres POSTGRES_HOST=db.club POSTGRES_DBNAME=coimbra coimbra store init[/]
    """
    with opened(db) as store:
        games = store.recorder.max_notification_id() is not None
    if as_json:
        print_json({"store": store.location, "ready": True, "empty": not games})
        return
    console.print(f"ready: {store.location}{'' if games else ' (no games yet)'}", soft_wrap=True)
