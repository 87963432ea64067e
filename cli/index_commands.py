"""Commands on the games index: games (list, filter, page), rename, tag, archive.

The index is a projection of the store (``coimbra_events.store.games_index``): listing a
page costs the same with ten games or ten thousand, and nothing here folds a game.
"""

from __future__ import annotations

import math
from datetime import datetime, time
from pathlib import Path
from typing import Any, Optional

import typer
from rich.markup import escape
from rich.table import Table
from rich.text import Text

from cli.common import Commands, DbOption, GameArgument, JsonOption, console, print_json, served, store_errors
from cli.exits import err_console, fail

COMMANDS = Commands()

PER_PAGE = 50
"""Games on one page of ``coimbra games`` unless ``--per-page`` or ``--all`` says otherwise."""

_STATUS_WORDS = {"in-progress": "in progress", "in progress": "in progress", "playing": "in progress",
                 "over": "over", "finished": "over", "done": "over"}


def status_option(text: Optional[str]) -> Optional[str]:
    """``in-progress`` or ``over`` (also ``finished``) as the index spells it; exit 2 otherwise."""
    if text is None:
        return None
    status = _STATUS_WORDS.get(text.strip().lower())
    if status is None:
        fail(f"--status {text!r}: expected in-progress or over")
    return status


def since_option(text: Optional[str]) -> Optional[datetime]:
    """A date (``2026-05-01``: from local midnight) or a date and time; exit 2 otherwise."""
    if text is None:
        return None
    try:
        when = datetime.fromisoformat(text.strip())
    except ValueError:
        fail(f"--since {text!r}: expected a date like 2026-05-01 (or 2026-05-01T19:30)")
    if len(text.strip()) == 10:
        when = datetime.combine(when.date(), time())
    return when if when.tzinfo else when.astimezone()


def result_text(info: Any) -> Text:
    """``Bruno 79 · Ana 58`` with the winner first (in bold), or nothing before the end."""
    parts: list[Any] = []
    for k, p in enumerate(info.result):
        parts += [" · "] if k else []
        parts += [(p["name"], "bold") if p["place"] == 1 else p["name"], f" {p['total']}"]
    return Text.assemble(*parts)


@COMMANDS("games")
def games_command(
    player: Optional[str] = typer.Option(None, "--player", help="Only games this player played (any case)."),
    status: Optional[str] = typer.Option(None, "--status", help="Only games in-progress or over."),
    since: Optional[str] = typer.Option(None, "--since", help="Only games created on or after this date (2026-05-01)."),
    tag: Optional[str] = typer.Option(None, "--tag", help="Only games with this tag (see coimbra tag)."),
    archived: bool = typer.Option(False, "--archived", help="List the archived games instead of the others."),
    duplicates: bool = typer.Option(False, "--duplicates", help="List the games that hold the same record (the same "
                                    "header and entries: copies), archived or not; the league counts each record once."),
    page: int = typer.Option(1, "--page", min=1, help="Which page of the list."),
    per_page: int = typer.Option(PER_PAGE, "--per-page", min=1, help="Games per page."),
    every: bool = typer.Option(False, "--all", help="Every matching game on one page."),
    db: Optional[Path] = DbOption,
    as_json: bool = JsonOption,
) -> None:
    """List the stored games: name, players, status, winner and final scores, when created, tags.

    Oldest first, a page at a time; archived games are left out unless [bold]--archived[/].
    --json prints {"total", "page", "pages", "per_page", "games": [...]}. [bold]--duplicates[/] lists
    the groups of games that hold one record (a store that has copies from before a record was one game):
    archive the copies, or leave them: the league counts each record once.

    Example: [bold]coimbra games --player Ana --status over --since 2026-05-01[/]
    """
    from coimbra_events.store.games_query import GamesQuery

    if duplicates:
        _duplicates(db, as_json)
        return
    limit = None if every else per_page
    query = GamesQuery(player=player, status=status_option(status), since=since_option(since), tag=tag,
                       archived=archived, offset=0 if every else (page - 1) * per_page, limit=limit)
    with served(db) as games, store_errors():
        listing = games.listing(query)
        where = games.location()
    pages = 1 if every else max(1, math.ceil(listing.total / per_page))
    if as_json:
        print_json({"total": listing.total, "page": 1 if every else page, "pages": pages, "per_page": limit,
                    "games": [i.to_json() for i in listing.games]})
        return
    if not listing.games:
        filtered = any(x is not None for x in (player, status, since, tag)) or archived
        console.print(f"no {'such ' if filtered else ''}games in {escape(where)}"
                      + ("" if filtered or page > 1 else "; start one with [bold]coimbra new --players \"Ana:red,Bruno:blue\"[/]"))
        return
    console.print(games_table(listing.games, f"Games in {escape(where)}"))
    if pages > 1:
        err_console.print(f"page {page} of {pages} ({listing.total} games); --page {page + 1 if page < pages else 1} "
                          "for more, --all for every one", style="dim")


def _duplicates(db: Optional[Path], as_json: bool) -> None:
    """The groups of games holding the same record, each with its head and entries."""
    with served(db) as games, store_errors():
        groups = games.duplicates()
        where = games.location()
    if as_json:
        print_json({"duplicates": [{"head": head, "entries": entries, "games": [i.to_json() for i in infos]}
                                   for head, entries, infos in groups]})
        return
    if not groups:
        console.print(f"no two games hold the same record in {escape(where)}")
        return
    for head, entries, infos in groups:
        console.print(games_table(infos, f"{len(infos)} games hold one record: {entries} entries, head {head[:12]}"))
    console.print(f"{len(groups)} record{'s' if len(groups) > 1 else ''} stored more than once; the league counts each once "
                  "(coimbra archive GAME... leaves the copies out of coimbra games)")


def games_table(infos: list[Any], title: str) -> Table:
    """One row per game; the seed, parent and tags columns only when some game has one.

    Cells are ``Text``, not markup (names are shown as typed, and nothing is parsed per cell)."""
    table = Table(title=title)
    table.add_column("name", no_wrap=True, min_width=max(len(i.name) for i in infos))  # typed as GAME: never cut
    table.add_column("players", min_width=10)
    table.add_column("status", no_wrap=True)
    table.add_column("result", min_width=10)
    table.add_column("created", min_width=10)
    optional = [("seed", lambda i: "" if i.seed is None else str(i.seed)), ("parent", lambda i: i.parent or ""),
                ("tags", lambda i: ", ".join(i.tags))]
    shown = [(title, cell) for title, cell in optional if any(cell(i) for i in infos)]  # only columns with values
    for name, _ in shown:
        table.add_column(name)
    for i in infos:
        cells = [i.name, ", ".join(n for n, _ in i.players), i.status]
        table.add_row(*map(Text, cells), result_text(i), Text(i.created.astimezone().strftime("%Y-%m-%d %H:%M")),
                      *(Text(cell(i)) for _, cell in shown))
    return table


@COMMANDS("rename")
def rename_command(
    game_ref: str = GameArgument,
    new_name: str = typer.Argument(..., metavar="NEW", help="The game's new name (letters, digits, '-', '_', '.')."),
    db: Optional[Path] = DbOption,
    as_json: bool = JsonOption,
) -> None:
    """Give a stored game another name; the old name is free again and nothing else changes.

    Example: [bold]coimbra rename ana-bruno-3 friday-final[/]
    """
    with served(db) as app, store_errors("nothing stored"):
        app.rename(game_ref, new_name)
    if as_json:
        print_json({"renamed": game_ref, "name": new_name})
        return
    console.print(f"renamed {escape(game_ref)} to {escape(new_name)}")


@COMMANDS("tag")
def tag_command(
    games: list[str] = typer.Argument(..., metavar="GAME...", help="Stored games to tag (every one must exist)."),
    add: list[str] = typer.Option([], "--add", metavar="TAG", help="A tag to add (an evening, a season: no spaces or "
                                  "commas); give --add again for more."),
    remove: list[str] = typer.Option([], "--remove", metavar="TAG", help="A tag to take off; give --remove again for more."),
    db: Optional[Path] = DbOption,
    as_json: bool = JsonOption,
) -> None:
    """Tag stored games, or take tags off them; coimbra games --tag lists a tag's games.

    Tags are given with --add and --remove, so a game's name can never become a
    tag: every other word must be a stored game, and a tag may not be a stored
    game's name. Every game is checked before any is changed.

    Example: [bold]coimbra tag --add 2026-spring club-01 club-02[/]

    Example: [bold]coimbra tag --remove friday ana-bruno-3[/]
    """
    if not add and not remove:
        fail(f"give the tags with --add or --remove, then the games: coimbra tag --add TAG {' '.join(games[:2])}"
             " (a word after GAME is a game, never a tag)")
    with served(db) as app, store_errors("nothing stored"):
        tagged = app.tag(games, add=add, remove=remove)
    if as_json:
        print_json([{"game": game.name, "tags": list(game.tags)} for game in tagged])
        return
    for game in tagged:
        console.print(f"{escape(game.name)}: tags {escape(', '.join(game.tags)) if game.tags else 'none'}")


@COMMANDS("archive")
def archive_command(
    games: list[str] = typer.Argument(..., metavar="GAME...", help="Stored games (every one must exist)."),
    restore: bool = typer.Option(False, "--restore", help="List the games again, and count them in the league again."),
    not_counted: bool = typer.Option(False, "--not-counted", help="Keep the games listed but leave them out of the "
                                     "league (a teaching game, a test)."),
    db: Optional[Path] = DbOption,
    as_json: bool = JsonOption,
) -> None:
    """Leave stored games out of coimbra games and the league (nothing is deleted; --archived lists such games).

    An archived game, and one marked --not-counted, is left out of the league's
    standings, ratings and profiles, which say how many games they left out and
    why; --restore brings them back. Every game is checked before any is changed.

    Example: [bold]coimbra archive test-game club-01-again[/]

    Example: [bold]coimbra archive --not-counted teaching-1[/]
    """
    if restore and not_counted:
        fail("--restore lists and counts the games again; --not-counted leaves them out: give one")
    with served(db) as app, store_errors("nothing stored"):
        if not_counted:
            changed = app.count(games, counted=False)
        else:
            changed = app.archive(games, archived=not restore)
            if restore:
                app.count(games, counted=True)
    listed, counted = restore or not_counted, restore
    if as_json:
        print_json([{"game": game.name, "archived": not listed, "counted": counted} for game in changed])
        return
    said = ("listed and counted again" if restore else "not counted by the league (archive --restore counts it again)"
            if not_counted else "archived: out of coimbra games and the league (coimbra games --archived lists it)")
    for game in changed:
        console.print(f"{escape(game.name)}: {said}")
