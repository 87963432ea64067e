"""``coimbra league``: standings, ratings and player profiles of every game in the store.

Every command first brings the league's tables up to date with the store (only
the events stored since the last time are read), then answers from them.
"""

from __future__ import annotations

import signal
import sys
import threading
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Callable, Iterator, Optional

import orjson
import typer

from cli.common import DbOption, JsonOption, console, print_json, served, store_errors, write_output
from cli.exits import err_console, fail

league_app = typer.Typer(
    help=(
        "Standings, ratings and player profiles over every game in the store (docs/league.md).\n\n"
        "A player is the same person however the name was typed (case, accents and spaces do not count); "
        "[bold]coimbra player alias[/] joins other spellings. Seasons are tags ([bold]coimbra tag --add TAG GAME...[/]). "
        "Forks are alternative lines, not games played: the league leaves them out.\n\n"
        "Example: [bold]coimbra league standings --season 2026-spring[/]"
    ),
    no_args_is_help=True,
)

SeasonOption = typer.Option(None, "--season", "-s", metavar="TAG", help="Only the games tagged TAG (default: all games).")


@contextmanager
def league_tables(db: Optional[Path], quiet: bool = False) -> Iterator[Any]:
    """The league's tables, caught up with the store first (with a progress bar when there is much to read)."""
    from projections.league.projection import NoLeague

    with served(db, views=True) as games, store_errors():
        try:
            league = games.league()
        except NoLeague as exc:
            fail(str(exc))
        catch_up(league, quiet)
        with league.view.reading() as tables:
            try:
                yield tables
            except (orjson.JSONDecodeError, KeyError, IndexError, TypeError, ValueError) as exc:
                fail(f"the league's tables cannot be read ({type(exc).__name__}: {exc}); "
                     "coimbra league rebuild builds them again from the record")


def league_report(db: Optional[Path], read: Callable[[Any], Any], as_json: bool, quiet: bool = False) -> Any:
    """What ``read`` gives from the league's tables, caught up first; with --json it is printed and ``None`` returned."""
    with league_tables(db, quiet=as_json or quiet) as tables:
        report = read(tables)
    if as_json:
        print_json(report)
        return None
    return report


def catch_up(league: Any, quiet: bool, rebuild: bool = False) -> int:
    """Bring the league up to date (or rebuild it), with a progress bar on a terminal."""
    go = league.rebuild if rebuild else league.catch_up
    if quiet or not err_console.is_terminal:
        return go()
    from cli.views import progress_bar

    with progress_bar("league: reading the store") as progress:
        task = progress.add_task("league", total=None)
        return go(progress=lambda position, last: progress.update(task, completed=position, total=last))


def _season_known(tables: Any, season: Optional[str]) -> None:
    if season is None:
        return
    tags = [tag for tag, _ in tables.tag_names()]
    if season not in tags:
        known = ", ".join(tags) or "none yet (coimbra tag --add TAG GAME...)"
        fail(f"--season {season}: no finished game is tagged {season!r}; tags in use: {known}")


def _of_person(report: Callable[[Any, str, Optional[str]], Any], name: str, season: Optional[str]) -> Callable[[Any], Any]:
    """A reader of one person's ``report`` from the tables; a season or a name the league does not know is refused (the
    name with the players whose names are close)."""
    from projections.league.reports import UnknownPlayer

    def read(tables: Any) -> Any:
        _season_known(tables, season)
        try:
            return report(tables, name, season)
        except UnknownPlayer as exc:
            fail(str(exc))

    return read


@league_app.command("standings")
def standings_command(
    season: Optional[str] = SeasonOption,
    as_csv: bool = typer.Option(False, "--csv", help="Print CSV for a spreadsheet: a header row, one row per player."),
    db: Optional[Path] = DbOption,
    as_json: bool = JsonOption,
) -> None:
    """Who leads: games, wins (a shared first place counts for each), win rate, average and best score, points by source.

    Example: [bold]coimbra league standings --season 2026-spring --csv > standings.csv[/]
    """
    from projections.league.reports import standings

    def read(tables: Any) -> Any:
        _season_known(tables, season)
        return standings(tables, season)

    report = league_report(db, read, as_json, quiet=as_csv)
    if report is None:
        return
    if as_csv:
        from cli.league_views import standings_csv

        sys.stdout.buffer.write(standings_csv(report).encode())
        sys.stdout.flush()
        return
    from cli.league_views import left_out_lines, sources_table, standings_table

    if not report["players"]:
        console.print("no finished games in the league yet: record one (coimbra record) or import some (coimbra import)")
    else:
        console.print(standings_table(report))
        console.print(sources_table(report))
    for line in left_out_lines(report):
        console.print(line)


@league_app.command("ratings")
def ratings_command(season: Optional[str] = SeasonOption, db: Optional[Path] = DbOption, as_json: bool = JsonOption) -> None:
    """Each player's rating (openskill's Plackett-Luce, game by game in the order the games finished) and its trend.

    The rating shown is the conservative mu - 3 sigma: it starts at 0 and grows as results make it surer. A rating
    from fewer than 5 rated games is marked provisional (*): it can still move a lot. With --season, the ratings
    over that season's games alone, every player starting the season unrated.

    Example: [bold]coimbra league ratings --season 2026-spring[/]
    """
    from projections.league.reports import ratings

    def read(tables: Any) -> Any:
        _season_known(tables, season)
        return ratings(tables, season)

    report = league_report(db, read, as_json)
    if report is None:
        return
    from cli.league_views import left_out_lines, ratings_table

    if not report["players"]:
        console.print("no rated games yet: ratings start with the first finished game")
    else:
        console.print(ratings_table(report))
    for line in left_out_lines(report):
        console.print(line)


@league_app.command("player")
def player_command(
    name: str = typer.Argument(..., metavar="NAME", help="A player, however spelled (case and accents do not count)."),
    season: Optional[str] = SeasonOption,
    db: Optional[Path] = DbOption,
    as_json: bool = JsonOption,
) -> None:
    """One player's record: results, rating, tracks, income, voyages, monasteries, cards, start choices, opponents.

    Tracks: the average final space on each, and income per track (what activating it earned); cards bought
    by category; each start choice and how it fared; head to head against each opponent.

    Example: [bold]coimbra league player "Conceição"[/]
    """
    from projections.league.reports import profile

    report = league_report(db, _of_person(profile, name, season), as_json)
    if report is None:
        return
    from cli.league_views import profile_view

    console.print(profile_view(report))


@league_app.command("mistakes")
def mistakes_command(
    name: str = typer.Argument(..., metavar="NAME", help="A player, however spelled (case and accents do not count)."),
    season: Optional[str] = SeasonOption,
    output: Optional[Path] = typer.Option(None, "--out", "-o", metavar="FILE", help="Write the page to FILE (default: standard output)."),
    db: Optional[Path] = DbOption,
    as_json: bool = JsonOption,
) -> None:
    """One page of a player's mistakes and blunders as puzzles, from every analysed game of theirs in the league.

    Each puzzle is the table before one of their decisions the analysis graded a mistake or a blunder: pick an option,
    and the page tells its grade and the best option, then shows the next. Only games already analysed count (coimbra
    analyse GAME: minutes each); the others are named. Nothing to show (no analysed game, or no mistake in them) is
    one line and exit 2. With --json, the page's data instead of the page.

    Example: [bold]coimbra league mistakes Ana --out ana.html[/]
    """
    from cli.mistakes_page import analysed, mistakes_data, mistakes_page
    from projections.league.reports import games_of

    found = league_report(db, _of_person(games_of, name, season), as_json=False, quiet=True)
    with served(db) as games, store_errors():
        seats = [(g["game"], analysed(games.open(g["game"]), g["spelling"])) for g in found["games"]]
    studied = [s for _, s in seats if s is not None]
    waiting = [game for game, s in seats if s is None]
    person = found["player"]
    if not studied:
        fail(f"no game of {person} in the league is analysed yet (not analysed: {', '.join(waiting)}): "
             "coimbra analyse GAME analyses one (minutes each)")
    data = mistakes_data(person, studied, waiting)
    which = ", ".join(s.game.name for s in studied) + (f"; not analysed: {', '.join(waiting)}" if waiting else "")
    if not data["puzzles"]:
        fail(f"{person} made no mistake or blunder in the analysed games ({which})")
    if as_json:
        print_json(data)
        return
    with store_errors():
        write_output(output, mistakes_page(data).encode())
    err_console.print(f"{f'wrote {output}: ' if output else ''}{person}'s mistakes and blunders ({len(data['puzzles'])}) "
                      f"from the analysed games {which}",
                      style="dim", markup=False)


@league_app.command("rebuild")
def rebuild_command(db: Optional[Path] = DbOption, as_json: bool = JsonOption) -> None:
    """Empty the league's tables and build them again from every stored event (nothing stored is changed).

    Never needed for correctness (every league command catches up first); useful after changing the league's
    own code, or to check that the tables are what the record says.

    Example: [bold]coimbra league rebuild[/]
    """
    from projections.league.projection import NoLeague

    with served(db, views=True) as games, store_errors("the games are untouched"):
        try:
            league = games.league()
        except NoLeague as exc:
            fail(str(exc))
        position = catch_up(league, as_json, rebuild=True)
        with league.view.reading() as tables:
            counts = tables.counts()
    report = {"events": position, "games": counts}
    if as_json:
        print_json(report)
        return
    words = {"over": "finished", "forks": "finished forks (left out)"}
    described = ", ".join(f"{n} {words.get(status, status)}" for status, n in sorted(counts.items())) or "no games"
    console.print(f"league rebuilt from {position} stored events: {described}")


@league_app.command("follow")
def follow_command(db: Optional[Path] = DbOption, as_json: bool = JsonOption) -> None:
    """Keep the league current while games are recorded, and say when a game finishes (Ctrl-C stops).

    With --json, one JSON object per line: the event the league reached and how many games are finished.

    On PostgreSQL the library's projection runner is told of each stored event by the server; on SQLite
    the store is read again every second.

    Example: [bold]coimbra league follow[/]
    """
    from projections.league.projection import NoLeague, follow

    with served(db) as games:
        settings = games.settings()
    stop = threading.Event()
    seen: dict[str, int] = {}

    def report(league: Any) -> None:
        with league.view.reading() as tables:
            finished = tables.counts().get("over", 0)
        if seen.get("over") == finished:
            return
        seen["over"] = finished
        if as_json:  # one line per change, for a program reading along
            sys.stdout.write(orjson.dumps({"position": league.base, "finished_games": finished}).decode() + "\n")
            sys.stdout.flush()
        else:
            console.print(f"league up to date at event {league.base}: {finished} finished games")

    try:
        with store_errors(), stopped_by_signals(stop):
            follow(settings, stop, report)
    except NoLeague as exc:
        fail(str(exc))
    err_console.print("stopped following", style="dim")


@contextmanager
def stopped_by_signals(stop: threading.Event) -> Iterator[None]:
    """Ctrl-C (SIGINT) and SIGTERM set ``stop``: the follow loop ends at its next look, between two reads.

    Never an exception raised wherever the signal lands (a ``KeyboardInterrupt`` inside the library's
    connection pool could leave a lock taken, and the store's close waiting on it); set from a thread of
    its own, as the handler may run while the loop holds ``stop``'s lock. A signal the parent ignores (a
    shell's background job) stays ignored.
    """
    previous = {}
    for number in (signal.SIGINT, signal.SIGTERM):
        if signal.getsignal(number) is not signal.SIG_IGN:
            previous[number] = signal.signal(number, lambda *_: threading.Thread(target=stop.set).start())
    try:
        yield
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)

