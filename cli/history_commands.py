"""Commands that change the record without losing anything: fork, correct, undo, accept, note, roll.

A correction, an undo, a table-accepted rule break and a note are entries of
their own in the log; the entries they refer to stay where they were.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Optional, TypeVar

import typer
from rich.markup import escape

from cli.common import (
    Commands,
    CatalogOption,
    DbOption,
    GameArgument,
    JsonOption,
    flag,
    console,
    entrant,
    print_json,
    served,
    store_errors,
)
from cli.exits import CONFLICT, RULE_VIOLATION, fail
from cli.presenter import due, due_json, notation
from coimbra_events.events import GameEvent
from coimbra_events.game import NothingToOverride
from coimbra_events.history import Play
from coimbra_events.service.results import Conflict, Outcome, Stored, Refused
from coimbra_events.store.errors import BadFork, TableInputNeeded
from coimbra_events.violations import RuleViolation

if TYPE_CHECKING:
    from coimbra_events.service import Games

T = TypeVar("T")

COMMANDS = Commands()


def _changed(game_ref: str, db: Optional[Path], catalog_file: Optional[Path],
             use: Callable[[Games, str], Outcome[T]]) -> Stored[T]:
    """Run one use case on GAME (a stored game, or a log file rewritten in place), entered by whoever is entering
    (``entrant``), and give what it stored.

    A refused input exits 1 and a record that moved on since it was read exits 3; nothing is stored either way.
    """
    with served(db, catalog_file=catalog_file) as games, store_errors("nothing stored"):
        result = use(games, entrant())
    if isinstance(result, Refused):
        fail(f"refused: rule {result.violation.rule}: {result.violation.reason}; nothing stored", RULE_VIOLATION)
    if isinstance(result, Conflict):
        fail(result.reason, CONFLICT)
    return result


def _play_json(play: Play, violation: RuleViolation) -> dict[str, Any]:
    return {"seq": play.seq, "entry": play.source, "notation": notation(play.event), "rule": violation.rule,
            "message": violation.reason}


@COMMANDS("fork")
def fork_command(
    game_ref: str = GameArgument,
    at: int = typer.Option(..., "--at", help="Share entries 1..N of the game (0: only its players)."),
    name: Optional[str] = typer.Option(None, "--name", help="The fork's name (default: from the players)."),
    rolls: str = typer.Option(
        "parent", "--rolls", help="Later table outcomes: 'parent' (reuse the parent's where they still fit), 'manual', or 'seed:S'."
    ),
    db: Optional[Path] = DbOption,
    as_json: bool = JsonOption,
) -> None:
    """Start an alternative line: a new game sharing the first N entries, with its lineage recorded.

    Example: [bold]coimbra fork ana-bruno --at 57 --name what-if --rolls parent[/]
    """
    with served(db) as games, store_errors("nothing stored"):
        try:
            game = games.fork(game_ref, at, name, rolls)
        except BadFork as exc:
            fail(str(exc))
    if as_json:
        print_json({"name": game.name, "parent": game_ref, "at": at, "rolls": rolls, "pending": due_json(game)})
        return
    console.print(game.name)
    console.print(f"forked from {escape(game_ref)} after entry {at}; next: {escape(due(game))}", style="dim")


@COMMANDS("correct")
def correct_command(
    game_ref: str = GameArgument,
    seq: int = typer.Option(..., "--seq", help="The entry whose content is replaced (it stays in the log)."),
    decision: str = typer.Argument(..., metavar="DECISION", help="What entry SEQ should have said, in notation."),
    catalog_file: Optional[Path] = CatalogOption,
    db: Optional[Path] = DbOption,
    as_json: bool = JsonOption,
) -> None:
    """Replace what an entry said, with a correction entry; every later play is checked again.

    The replacement must be legal where the original stood (exit 1 otherwise,
    nothing stored). Later plays that the correction made illegal are listed;
    they stay in the log, skipped from the line of play, until corrected,
    undone or accepted.

    Example: [bold]coimbra correct ana-bruno --seq 12 "Ana: place gray-2 castle"[/]
    """

    done = _changed(game_ref, db, catalog_file, lambda games, by: games.correct(game_ref, seq, decision, by))
    game, broken = done.game, done.outcome
    report = {"game": game.name, "corrected": seq, "entry": game.entries,
              "now_illegal": [_play_json(p, v) for p, v in broken], "pending": due_json(game)}
    if as_json:
        print_json(report)
        return
    console.print(f"corrected entry {seq} (correction is entry {game.entries - 1}, replacement entry {game.entries})")
    for item in report["now_illegal"]:
        console.print(f"  now illegal: entry {item['seq']} {escape(item['notation'])}: rule {item['rule']}: {escape(item['message'])}")
    if not broken:
        console.print("every later play is still legal")
    console.print(f"next: {escape(due(game))}")


@COMMANDS("undo")
def undo_command(
    game_ref: str = GameArgument,
    catalog_file: Optional[Path] = CatalogOption,
    db: Optional[Path] = DbOption,
    as_json: bool = JsonOption,
) -> None:
    """Withdraw the latest play with a retraction entry (the play itself stays in the log).

    Example: [bold]coimbra undo ana-bruno[/]
    """
    done = _changed(game_ref, db, catalog_file, lambda games, by: games.undo(game_ref, by))
    game, play = done.game, done.outcome
    if as_json:
        print_json({"game": game.name, "undone": play.seq, "notation": notation(play.event), "pending": due_json(game)})
        return
    console.print(f"undone: entry {play.seq} {escape(notation(play.event))}; next: {escape(due(game))}")


@COMMANDS("accept")
def accept_command(
    game_ref: str = GameArgument,
    decision: str = typer.Argument(..., metavar="DECISION", help="The move the table accepted, in notation."),
    reason: str = typer.Option(..., "--reason", help="Why the table accepted it (kept in the record)."),
    catalog_file: Optional[Path] = CatalogOption,
    db: Optional[Path] = DbOption,
    as_json: bool = JsonOption,
) -> None:
    """Record a move the table accepted although it breaks a rule, flagged with that rule and the reason.

    Example: [bold]coimbra accept ana-bruno "buy c-II-05" --reason "we misread the price, play on"[/]
    """

    def override(games: Games, by: str) -> Outcome[RuleViolation]:
        try:
            return games.accept(game_ref, decision, reason, by)
        except NothingToOverride as exc:
            fail(f"{exc} (coimbra act {game_ref} \"{decision}\")")

    done = _changed(game_ref, db, catalog_file, override)
    game, violation = done.game, done.outcome
    if as_json:
        print_json({"game": game.name, "entry": game.entries, "overridden": violation.to_json(game.catalog), "reason": reason,
                     "pending": due_json(game)})
        return
    console.print(f"accepted against rule {violation.rule} ({escape(violation.reason)}) as entry {game.entries}")
    console.print(f"next: {escape(due(game))}")


@COMMANDS("note")
def note_command(
    game_ref: str = GameArgument,
    at: int = typer.Option(..., "--at", help="The entry the note is about."),
    text: str = typer.Argument(..., metavar="TEXT", help="The note (or the bookmark's label)."),
    bookmark: bool = flag("--bookmark", help="Mark the entry as a place to jump to in a replay."),
    catalog_file: Optional[Path] = CatalogOption,
    db: Optional[Path] = DbOption,
    as_json: bool = JsonOption,
) -> None:
    """Comment on an entry, or bookmark it; notes are entries of their own.

    Example: [bold]coimbra note ana-bruno --at 40 "ruling: token ties take the leftmost card"[/]
    """
    game = _changed(game_ref, db, catalog_file, lambda games, by: games.note(game_ref, at, text, bookmark, by)).game
    if as_json:
        print_json({"game": game.name, "entry": game.entries, "at": at, "text": text, "bookmark": bookmark})
        return
    console.print(f"{'bookmarked' if bookmark else 'noted'} entry {at} (entry {game.entries})")


@COMMANDS("roll")
def roll_command(
    game_ref: str = GameArgument,
    db: Optional[Path] = DbOption,
    as_json: bool = JsonOption,
) -> None:
    """Draw the table's pending outcome (dice, rows) from the game's seed or its parent, and record it.

    For games started with --seed, and forks with --rolls parent or seed:S.
    Outcomes seen at a physical table are entered with [bold]coimbra act[/] instead.

    Example: [bold]coimbra roll ana-bruno[/]
    """
    def roll(games: Games, by: str) -> Outcome[GameEvent]:
        try:
            return games.roll(game_ref, by)
        except TableInputNeeded as exc:
            fail(str(exc))

    done = _changed(game_ref, db, None, roll)
    game, event = done.game, done.outcome
    if as_json:
        print_json({"game": game.name, "entry": game.entries, "notation": notation(event), "pending": due_json(game)})
        return
    console.print(f"recorded {game.entries}: {escape(notation(event))}", soft_wrap=True)
    console.print(f"next: {escape(due(game))}")

