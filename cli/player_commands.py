"""``coimbra player``: who is who across the club's games."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable, Optional

import typer
from rich.markup import escape
from rich.table import Table

from cli.common import DbOption, JsonOption, console, opened, print_json, store_errors
from cli.exits import fail

player_app = typer.Typer(
    help=(
        "Who is who across games: aliases that join spellings of one person.\n\n"
        "The league counts a person's games together however the name was typed. "
        "Case, accents and spaces never count (Conceição is conceicao); an alias joins other spellings "
        "(\"Ana M.\" is Ana). Aliases are stored as events, part of the club's record.\n\n"
        "Example: [bold]coimbra player alias \"Ana M.\" Ana[/]"
    ),
    no_args_is_help=True,
)


def _change_alias(db: Optional[Path], change: Callable[[Any], None]) -> None:
    """Apply ``change`` to the store's alias map; a refused alias exits 2, nothing stored."""
    from coimbra_events.players import BadAlias
    from coimbra_events.store.aliases import change_aliases

    with opened(db) as store, store_errors("nothing stored"):
        try:
            change_aliases(store, change)
        except BadAlias as exc:
            fail(f"{exc}; nothing stored")


@player_app.command("alias")
def alias_command(
    alias: str = typer.Argument(..., metavar="ALIAS", help="A spelling used in some games, e.g. \"Ana M.\"."),
    person: str = typer.Argument(..., metavar="PERSON", help="The person it names, written as the league should show them."),
    db: Optional[Path] = DbOption,
    as_json: bool = JsonOption,
) -> None:
    """Record that ALIAS is PERSON: their games, ratings and records count together from now on.

    Example: [bold]coimbra player alias "Ana M." Ana[/]
    """
    _change_alias(db, lambda aliases: aliases.add(alias, person))
    if as_json:
        print_json({"alias": alias, "person": person})
        return
    console.print(f"{escape(alias)} is {escape(person)}")


@player_app.command("unalias")
def unalias_command(
    alias: str = typer.Argument(..., metavar="ALIAS", help="A spelling recorded as an alias."),
    db: Optional[Path] = DbOption,
    as_json: bool = JsonOption,
) -> None:
    """Make ALIAS a person of their own again (the alias stays in the record, withdrawn).

    Example: [bold]coimbra player unalias "Ana M."[/]
    """
    _change_alias(db, lambda aliases: aliases.remove(alias))
    if as_json:
        print_json({"alias": alias, "person": None})
        return
    console.print(f"{escape(alias)} is a person of their own again")


@player_app.command("list")
def list_command(db: Optional[Path] = DbOption, as_json: bool = JsonOption) -> None:
    """Every person in the league's finished games, with the spellings and aliases that count as them.

    Example: [bold]coimbra player list[/]
    """
    from cli.league_commands import league_report
    from projections.league.reports import people_report

    people = league_report(db, people_report, as_json)
    if people is None:
        return
    table = Table(title="Players")
    for name in ("player", "games", "recorded as", "aliases"):
        table.add_column(name, justify="right" if name == "games" else "left")
    for p in people:
        table.add_row(escape(p["player"]), str(p["games"]), escape(", ".join(p["spellings"])), escape(", ".join(p["aliases"])))
    console.print(table)

