"""Commands on logs and games: simulate, validate, score, and the rules they check."""

from __future__ import annotations

import sys
from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING, Optional

import typer
from rich.markup import escape

from cli.common import (
    Commands,
    CatalogOption,
    DbOption,
    GameArgument,
    JsonOption,
    flag,
    catalog_option,
    console,
    print_json,
    short,
    served,
    store_errors,
    write_output,
)
from cli.exits import BAD_INPUT, RULE_VIOLATION, err_console, fail
from cli.views import progress_bar, rules_table, score_details, score_table, validation_panel, validation_summary
from coimbra_events import log as game_log
from coimbra_events.store.errors import DamagedGame, StoreConflict, UnknownGame
from coimbra_events.catalog import standin_catalog
from coimbra_events.log import LogError
from coimbra_events.validation import Validation, validate
from coimbra_events.violations import RULES

if TYPE_CHECKING:
    from coimbra_events.store.sources import GameSource


COMMANDS = Commands()


@COMMANDS("simulate")
def simulate_command(
    players_given: str = typer.Option(..., "--players", "-p", metavar="N|NAMES",
                                      help="Number of players, 2 to 4, or their names: \"Ana,João,Carla\"."),
    seed: int = typer.Option(..., "--seed", "-s", help="Seed for the table's rolls and draws and the bots' choices."),
    output: Optional[Path] = typer.Option(None, "--output", "-o", help="Write the log here instead of standard output."),
    catalog_file: Optional[Path] = CatalogOption,
) -> None:
    """Play a whole game with seeded bots and write its JSON log.

    The same seed and players always give the same bytes.

    Example: [bold]coimbra simulate --players 3 --seed 7 -o game.json[/]

    Example: [bold]coimbra simulate --players "Ana,João,Carla" --seed 7 -o game.json[/]
    """
    from coimbra_events.notation import is_name
    from coimbra_events.simulator import DEFAULT_PLAYERS, simulate

    catalog = catalog_option(catalog_file) or standin_catalog()
    names = [n.strip() for n in players_given.split(",")] if not players_given.strip().isdigit() else []
    players = len(names) if names else int(players_given)
    if not catalog.min_players <= players <= catalog.max_players:
        fail(f"--players: catalog {catalog.id} is for {catalog.min_players}-{catalog.max_players} players, got {players}")
    bad = [n for n in names if not is_name(n)]
    if bad or len(set(names)) != len(names):
        fail(f"--players: {bad[0]!r} cannot be written in notation (no ':', ',', '=' or '+')" if bad
             else "--players: each player's name once")
    seated = tuple((name, color) for name, (_, color) in zip(names, DEFAULT_PLAYERS)) if names else DEFAULT_PLAYERS[:players]
    log, state = simulate(catalog, seated, seed)
    data = game_log.dumps(log)
    if output is None:
        sys.stdout.buffer.write(data)
        return
    game_log.write(output, log)
    console.print(f"wrote {output}: {len(log.events)} events, {players} players, seed {seed}")


def validated_ref(game_ref: str, db: Optional[Path], catalog_file: Optional[Path]) -> tuple[Validation, GameSource]:
    """A log file (or move list) or a stored game (as its exported log), folded through the rules, and where it is
    kept (its name, a move list's line of each entry); a move list no hash vouches for is said to be taken as written."""
    with served(db, catalog_file=catalog_file) as games:
        source = games.source(game_ref)
        with store_errors():
            try:
                log = source.log()
            except LogError as exc:
                fail(str(exc), BAD_INPUT)
            if source.taken_as_written:
                from coimbra_events.movelist import TAKEN_AS_WRITTEN  # a move list's reader is loaded already

                err_console.print(f"{game_ref}: {TAKEN_AS_WRITTEN}", style="dim", soft_wrap=True)
            return validate(log, games.catalog, game_ref), source


@COMMANDS("validate")
def validate_command(
    game_refs: list[str] = typer.Argument(..., metavar="GAME|FILE...", help="JSON logs or stored games (several: a summary)."),
    catalog_file: Optional[Path] = CatalogOption,
    db: Optional[Path] = DbOption,
    as_json: bool = JsonOption,
) -> None:
    """Fold logs (or stored games) through the rules and say whether every event is legal.

    Exit 0 if all events are legal; 1 at the first illegal event, naming its
    sequence number, rule id and reason; 2 if a log cannot be read. With
    several logs: a progress bar, one summary row each, and the worst exit code.

    Example: [bold]coimbra validate fixtures/games/standin-3p-seed2.json --json[/]

    Example: [bold]coimbra validate fixtures/games/*.json fixtures/invalid/*-*.json[/]
    """
    if len(game_refs) > 1:
        _validate_many(game_refs, db, catalog_file, as_json)
        return
    game_ref = game_refs[0]
    result, source = validated_ref(game_ref, db, catalog_file)
    report = result.to_json()
    line = source.lines.get(result.violation_seq or 0)
    if line is not None:
        report["violation"]["line"] = line
    if source.taken_as_written:
        report["taken_as_written"] = True
    if as_json:
        print_json(report)
    else:
        console.print(validation_panel(game_ref, report, result.state.catalog))
        if line is not None:
            console.print(f"event {result.violation_seq} is on line {line} of {escape(game_ref)}", soft_wrap=True)
    if not result.valid:
        raise typer.Exit(RULE_VIOLATION)


def _validate_many(game_refs: list[str], db: Optional[Path], catalog_file: Optional[Path], as_json: bool) -> None:
    """Validate each log in turn (a bad one does not stop the others) and summarise."""
    reports = []
    with served(db, catalog_file=catalog_file) as games, progress_bar("validating") as progress:
        task = progress.add_task("validating", total=len(game_refs))
        for ref in game_refs:
            try:
                reports.append({"source": ref, **validate(games.log(ref), games.catalog, ref).to_json()})
            except (LogError, UnknownGame, DamagedGame, StoreConflict) as exc:
                reports.append({"source": ref, "valid": False, "error": str(exc)})
            progress.advance(task)
    if as_json:
        print_json(reports)
    else:
        console.print(validation_summary(reports))
    if any("error" in r for r in reports):
        raise typer.Exit(BAD_INPUT)
    if not all(r["valid"] for r in reports):
        raise typer.Exit(RULE_VIOLATION)


class SheetFormat(str, Enum):
    TABLE = "table"
    CSV = "csv"
    HTML = "html"


@COMMANDS("score")
def score_command(
    game_ref: str = GameArgument,
    catalog_file: Optional[Path] = CatalogOption,
    details: bool = flag("--details", "-d", help="Also list every source of points."),
    format_: SheetFormat = typer.Option(
        SheetFormat.TABLE, "--format", "-f", case_sensitive=False,
        help="table: the score pad in the terminal; csv: one row per player for a spreadsheet; html: a printable sheet.",
    ),
    output: Optional[Path] = typer.Option(None, "--output", "-o", help="Write the csv or html sheet here instead of standard output."),
    db: Optional[Path] = DbOption,
    as_json: bool = JsonOption,
) -> None:
    """Final scores (or provisional ones for a game in progress), by source of points.

    A game with an illegal event is refused (exit 1): scores are only given for legal play.
    --format csv writes a header row and one row per player (game, date, place,
    player, points by source, total, coins and guards left; UTF-8 with a BOM, so
    spreadsheets read accented names); --format html a printable sheet.
    The table ends with the head hash of the record scored, the table's receipt for it.

    Example: [bold]coimbra score fixtures/games/standin-4p-seed3.json --details[/]

    Example: [bold]coimbra score demo --format csv -o demo-scores.csv[/]
    """
    from projections.scores import score_report

    result, source = validated_ref(game_ref, db, catalog_file)
    if not result.valid:
        v = result.violation
        fail(f"{game_ref}: event {result.violation_seq} breaks rule {v.rule}: {v.reason}", RULE_VIOLATION)
    report = score_report(result.state)
    head = result.log.head()
    if as_json:
        print_json({**report, "head": head})
        return
    if format_ is not SheetFormat.TABLE:
        from cli.score_sheets import score_csv, score_html  # imported here: only the sheets need them

        sheet = score_csv(report, result.log, source.name) if format_ is SheetFormat.CSV else \
            score_html(report, result.log, result.state.catalog, source.name)
        with store_errors():
            write_output(output, sheet.encode())
        return
    if output is not None:
        fail("--output writes a sheet: give --format csv or --format html")
    console.print(score_table(report))
    if details:
        console.print(score_details(report, result.state.catalog))
    console.print(f"head {short(head)}")


@COMMANDS("rules")
def rules_command(
    catalog_file: Optional[Path] = typer.Option(
        None, "--catalog", help="Catalog JSON file whose values the statements quote (default: the shipped stand-in)."
    ),
    as_json: bool = JsonOption,
) -> None:
    """List every rule the engine checks: its stable id, statement and source.

    Rejections, validation reports and tests cite these ids. Sources name the
    rule texts (000, 002, 003) and the project's GAPS.md decisions. Statements
    quote the values of the catalog in force: the shipped stand-in, or --catalog.

    Example: [bold]coimbra rules --catalog my-box.json --json[/]
    """
    catalog = catalog_option(catalog_file) or standin_catalog()
    if as_json:
        print_json([{"id": r.id, "statement": r.statement_for(catalog), "source": r.source} for r in RULES.values()])
        return
    console.print(rules_table(RULES.values(), catalog))
