"""``coimbra player``: who is who across the club's games; ``coimbra tag``: the seasons games belong to."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable, Optional

import typer
from rich.markup import escape
from rich.table import Table

from cli.common import Commands, DbOption, JsonOption, console, opened, print_json, store_errors
from cli.exits import fail

COMMANDS = Commands()

player_app = typer.Typer(
    short_help="Who is who across games: aliases that join spellings of one person.",
    help=(
        "Who is who across games: the league counts a person's games together however the name was typed. "
        "Case, accents and spaces never count (Conceição is conceicao); an alias joins other spellings "
        "(\"Ana M.\" is Ana). Aliases are stored as events, part of the club's record.\n\n"
        "Example: [bold]coimbra player alias \"Ana M.\" Ana[/]"
    ),
    no_args_is_help=True,
)


def _change_alias(db: Optional[Path], change: Callable[[Any], None]) -> None:
    """Apply ``change`` to the store's alias map; a refused alias exits 2, nothing stored."""
    from coimbra_events.players import BadAlias, change_aliases

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
    from cli.league_commands import league_tables
    from projections.league.reports import people_report

    with league_tables(db, quiet=as_json) as tables:
        people = people_report(tables)
    if as_json:
        print_json(people)
        return
    table = Table(title="Players")
    for name in ("player", "games", "recorded as", "aliases"):
        table.add_column(name, justify="right" if name == "games" else "left")
    for p in people:
        table.add_row(escape(p["player"]), str(p["games"]), escape(", ".join(p["spellings"])), escape(", ".join(p["aliases"])))
    console.print(table)


@COMMANDS("tag")
def tag_command(
    game: str = typer.Argument(..., metavar="GAME", help="A stored game's name."),
    tags: list[str] = typer.Argument(None, metavar="TAG...", help="Tags to add, e.g. 2026-spring (none: show the game's tags)."),
    remove: bool = typer.Option(False, "--remove", "-r", help="Remove these tags instead of adding them."),
    db: Optional[Path] = DbOption,
    as_json: bool = JsonOption,
) -> None:
    """Tag a stored game: a season, an evening, a venue (the league's --season reads tags).

    Example: [bold]coimbra tag ana-bruno-carla 2026-spring[/]
    """
    from coimbra_events.game_tags import BadTag, retag

    with opened(db) as store, store_errors("nothing stored"):
        store.get(game)  # UnknownGame for a name the store does not hold
        given = tags or []
        try:
            now = retag(store, game, remove=given) if remove else retag(store, game, add=given)
        except BadTag as exc:
            fail(f"{exc}; nothing stored")
    if as_json:
        print_json({"game": game, "tags": list(now)})
        return
    console.print(f"{escape(game)}: {escape(', '.join(now)) if now else 'no tags'}")
