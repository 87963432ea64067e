"""Commands on the game store: new, act, legal, import, export, verify."""

from __future__ import annotations

from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn, Optional

import typer
from rich.markup import escape
from rich.table import Table

from cli.common import (
    illegal_line,
    SHOWN_PROBLEMS,
    AllOption,
    ByOption,
    Commands,
    CatalogOption,
    DbOption,
    GameArgument,
    JsonOption,
    catalog_option,
    console,
    flag,
    list_problems,
    log_problems,
    entrant,
    players_option,
    print_json,
    QuietOption,
    short,
    served,
    store_errors,
    write_output,
)
from cli.change_views import changes_view, final_scores_view
from cli.exits import BAD_INPUT, CONFLICT, RULE_VIOLATION, err_console, fail
from cli.presenter import act_json, act_refused_json, due, due_json, legal_json, refusal_words
from cli.views import import_summary, progress_bar
from coimbra_events import log_reader
from coimbra_events.game import Game, IllegalLog
from coimbra_events.log import LogError, LogProblem
from coimbra_events.movelist import TAKEN_AS_WRITTEN, read_any
from coimbra_events.service.results import Conflict, Refused, Stored
from coimbra_events.store.errors import BadGameName, BadPlayers, DamagedGame, DamagedIndex, StoreConflict
from coimbra_events.state import GameState
from projections.recording import entry_echo
from projections.words import quiet_words

if TYPE_CHECKING:
    from coimbra_events.service import Games
    from coimbra_events.store.records import Imported


COMMANDS = Commands()

ENTRY = b'{"seq":'
"""How each entry of a canonical log begins."""


@COMMANDS("new")
def new_command(
    players: str = typer.Option(..., "--players", "-p", help='Players and colours: "Ana:red,Bruno:blue" (2 to 4).'),
    seed: Optional[int] = typer.Option(
        None, "--seed", "-s", help="Draw the table's setup (tiles, voyages, seating, rows, start groups) from this seed."
    ),
    catalog_file: Optional[Path] = typer.Option(
        None, "--catalog", help="Catalog JSON file (default: the shipped stand-in standin-2, which names every map space)."),
    name: Optional[str] = typer.Option(None, "--name", help="The game's name (default: from the players, e.g. ana-bruno-2)."),
    db: Optional[Path] = DbOption,
    as_json: bool = JsonOption,
) -> None:
    """Start a game in the store and print its name.

    Without --seed the table's setup outcomes are entered by hand with
    [bold]coimbra act[/] (see [bold]coimbra legal[/]); with it they are drawn and stored.

    Example: [bold]coimbra new --players "Ana:red,Bruno:blue,Carla:yellow" --seed 7[/]
    """
    people = players_option(players)
    catalog = catalog_option(catalog_file)
    with served(db, create=True) as games, store_errors("nothing stored"):
        game = games.new_game(people, catalog, name, seed, by=entrant())
        where = games.location()
    if as_json:
        print_json({"name": game.name, "players": [{"name": n, "color": c} for n, c in people], "seed": seed,
                     "events": game.entries, "pending": due_json(game)})
        return
    console.print(game.name)
    drawn = f"{game.entries} setup outcomes drawn from seed {seed}; " if seed is not None else ""
    err_console.print(f"new game {game.name} in {where}: {drawn}next: {due(game)}", style="dim")


@COMMANDS("act")
def act_command(
    game_ref: str = GameArgument,
    decisions: list[str] = typer.Argument(
        ..., metavar="DECISION...", help="Decisions or table outcomes in notation, e.g. 'place gray-1 castle'; a line may "
        "hold several entries of one player's turn: 'income gray-1; orange-2; walk road-n' (docs/notation.md)."
    ),
    catalog_file: Optional[Path] = CatalogOption,
    db: Optional[Path] = DbOption,
    by: Optional[str] = ByOption,
    after: Optional[str] = typer.Option(
        None, "--after", metavar="HASH",
        help="The head hash this device last saw (act and record print it): if the record moved on since, nothing is "
             "stored (exit 3).",
    ),
    quiet: bool = QuietOption,
    as_json: bool = JsonOption,
) -> None:
    """Record decisions (or table outcomes) typed in notation; all or none are stored.

    Leave out [bold]Name:[/] for the player due to act. An illegal input is refused
    with the rule it breaks and why (exit 1), and nothing is stored. GAME may be
    a JSON log file or a move list: the events are appended to it. Each entry
    keeps when it was entered and by whom ([bold]--by[/]). After storing, it says what the table
    must now do for each entry, in order and by player, each move with the rule
    that causes it (--quiet: one line an entry); at game over, the final scores
    by source and the winner. If another writer changed the game since it was
    read, nothing is stored (exit 3): look again and retype; a device that shows
    the table between two acts passes the head it showed ([bold]--after HASH[/]),
    so a decision made on a table another device has since changed is not stored
    (exit 3) either. Prints the record's new head hash, the table's receipt
    ([bold]coimbra verify GAME --head HASH[/] proves the record later).

    Example: [bold]coimbra act ana-bruno "place gray-1 castle"[/]

    Example: [bold]coimbra act ana-bruno "income white-1 orange; exchange coins 3; income gray-1; end"[/]
    """

    with served(db, catalog_file, views=True) as games, store_errors("nothing stored"):
        result = games.record(game_ref, decisions, by=entrant(by), after=_head_option(after, "--after"))
    if isinstance(result, Conflict):
        fail(result.reason, CONFLICT)
    if isinstance(result, Refused):
        _refused(result, as_json)
    game, report = result.game, act_json(result)
    if as_json:
        print_json(report)
        return
    for r, echo, entry in zip(report["recorded"], _echoes(result), result.entries):
        console.print(f"recorded {r['seq']}: {escape(echo)}", soft_wrap=True)
        if not quiet:
            after = game.state if entry.seq == game.entries else None
            console.print(changes_view(r["changes"], catalog=game.catalog, empty=quiet_words(entry.event, after)))
    if report["scores"] is not None:
        console.print(final_scores_view(report["scores"]))
    console.print(f"next: {escape(due(game))}", soft_wrap=True)
    console.print(f"head {short(result.head)}")


def _refused(refusal: Refused, as_json: bool) -> NoReturn:
    """An input the rules refused: its rule and why (with --json, the violation too); nothing was stored."""
    if as_json and refusal.event is not None:
        print_json(act_refused_json(refusal))
    fail(refusal_words(refusal), RULE_VIOLATION)


def _echoes(result: Stored[tuple[GameState, ...]]) -> list[str]:
    """Each stored entry as the recorder says it, told from the table before it."""
    return [entry_echo(entry.event, table) for entry, table in zip(result.entries, result.outcome)]


@COMMANDS("legal")
def legal_command(
    game_ref: str = GameArgument,
    catalog_file: Optional[Path] = CatalogOption,
    db: Optional[Path] = DbOption,
    as_json: bool = JsonOption,
) -> None:
    """What may be entered now: every legal decision, numbered as [bold]coimbra record[/] numbers it, and what each is.

    Drafts show the die's value; buys the card's name, category, price at this
    die, influence and bonus; start groups their cards; income what it pays;
    voyages their cost after discounts. For the table: what it must enter and
    how to write it. --json lists "options" in notation and "described" with
    each option's number, text (names) and what it is.

    Example: [bold]coimbra legal ana-bruno[/]
    """
    with served(db, catalog_file=catalog_file, views=True) as games, store_errors():
        legal = games.legal(game_ref)
    game, listed = legal.game, legal.options if legal.outcome is None else ()
    report = legal_json(legal)
    if as_json:
        print_json(report)
        return
    console.print(f"{escape(game.name)}: {escape(due(game))}")
    if "outcome" in report:
        out = report["outcome"]
        console.print(f"the table enters {out['kind']}: {escape(out['description'])}")
        console.print(f"  write: {escape(out['usage'])} (components by name or id)")
        console.print(f"  for example: {escape(out['example'])}", soft_wrap=True)
        return
    table = Table(show_edge=False)
    table.add_column("#", justify="right", style="dim")
    table.add_column("decision")
    table.add_column("what it is", overflow="fold")
    for k, o in enumerate(listed, 1):
        table.add_row(str(k), escape(o.text), escape(o.about))
    if listed:
        console.print(table)


@COMMANDS("import")
def import_command(
    files: list[Path] = typer.Argument(
        ..., metavar="FILE...", help="JSON game logs or move lists (several: one game each, a summary)."
    ),
    name: Optional[str] = typer.Option(None, "--name", help="The game's name (default: from the players); one file only."),
    copy: bool = flag("--copy", help="Store a deliberate copy (a teaching variant) even if the record is stored: "
                      "marked a copy, never counted by the league."),
    catalog_file: Optional[Path] = CatalogOption,
    db: Optional[Path] = DbOption,
    every: bool = AllOption,
    as_json: bool = JsonOption,
) -> None:
    """Store a whole log as a game, in one transaction, and print its name.

    FILE is a JSON log or a move list ([bold]export --format text[/]), told apart
    by how it begins; a move list reads back to the very record it was written
    from. Every event is checked by the rules first: an illegal one is refused (exit 1),
    a damaged log lists the problems found (exit 2; the first 20 unless --all);
    either way nothing of that log is stored. Several logs: each its own game and
    transaction, a progress bar, one summary row each, and the worst exit code.

    A record is one game: a log already stored (the same header and entries, or
    fewer of a stored game's) stores nothing and names the stored game (exit 0);
    a log that extends a stored game appends its new entries to that game. Two
    tables importing the same log at once store it once. [bold]--copy[/] stores
    a copy anyway, marked a copy: the league never counts it.

    Example: [bold]coimbra import fixtures/games/standin-3p-seed2.json --name demo[/]

    Example: [bold]coimbra import club-games/*.json[/]
    """
    if len(files) > 1:
        if name is not None:
            fail("--name names one game; leave it out when importing several logs")
        _import_many(files, db, catalog_file, as_json, copy)
        return
    file = files[0]
    try:
        listing = read_any(log_reader.read_bytes(file), str(file), keep=None if every else log_reader.KEPT)
    except LogError as exc:
        if as_json:
            print_json({"imported": False, **problems_json(exc.problems, every, exc.count)})
        log_problems(exc, "nothing stored", every)
    with served(db, catalog_file=catalog_file, create=True) as games, store_errors("nothing stored"), \
            illegal_line(listing, file):
        imported = games.import_log(listing.log, name, str(file), copy)
    row = _imported_row(file, imported)
    if not listing.checked:
        row["taken_as_written"] = True
    if as_json:
        print_json(row)
        return
    console.print(row["name"])
    if not listing.checked:
        err_console.print(f"{escape(str(file))}: {TAKEN_AS_WRITTEN}", style="dim", soft_wrap=True)
    err_console.print(f"{escape(str(file))}: {escape(row['said'])}", style="dim", soft_wrap=True)


def _imported_row(file: Path, imported: Imported) -> dict[str, Any]:
    """What one import did, as ``--json`` and the summary say it: stored, appended, a copy, or already stored."""
    held, game = imported.held, imported.game
    if game is None:
        assert held is not None
        return {"source": str(file), "imported": False, "how": "already stored", "name": held.name, "events": held.stored,
                "said": held.said()}
    said = {"stored": f"imported {imported.entries} events as {game.name}; {due(game)}",
            "appended": f"appended {imported.entries} events to {game.name}, which held the first "
                        f"{held.stored if held else 0}; {due(game)}",
            "copy": f"imported {imported.entries} events as {game.name}, a copy"
                    + (f" of {held.name}" if held else "") + "; the league never counts it"}[imported.how]
    return {"source": str(file), "imported": True, "how": imported.how, "name": game.name, "events": game.entries,
            "over": game.over, "copy_of": held.name if imported.how == "copy" and held else None, "said": said}


def _import_many(files: list[Path], db: Optional[Path], catalog_file: Optional[Path], as_json: bool, copy: bool) -> None:
    """Import each log as its own game; a refused one does not stop the others."""
    rows: list[dict[str, Any]] = []
    with served(db, catalog_file=catalog_file, create=True) as games, progress_bar("importing") as progress:
        task = progress.add_task("importing", total=len(files))
        for file in files:
            try:
                listing = read_any(log_reader.read_bytes(file), str(file))
                rows.append(_imported_row(file, games.import_log(listing.log, None, str(file), copy)))
            except (LogError, BadGameName, BadPlayers, DamagedIndex) as exc:
                rows.append({"source": str(file), "imported": False, "code": BAD_INPUT, "error": str(exc)})
            except IllegalLog as exc:
                rows.append({"source": str(file), "imported": False, "code": RULE_VIOLATION, "error": str(exc)})
            except StoreConflict as exc:
                rows.append({"source": str(file), "imported": False, "code": CONFLICT, "error": str(exc)})
            progress.advance(task)
        games.index_caught_up()  # here, under the progress bar, rather than at the next listing
    if as_json:
        print_json(rows)
    else:
        console.print(import_summary(rows))
    worst = max((r.get("code", 0) for r in rows), default=0)
    if worst:
        raise typer.Exit(worst)


class ExportFormat(str, Enum):
    JSON = "json"
    TEXT = "text"
    HTML = "html"


@COMMANDS("export")
def export_command(
    game_ref: str = GameArgument,
    output: Optional[Path] = typer.Option(None, "--output", "-o", help="Write here instead of standard output."),
    format_: ExportFormat = typer.Option(
        ExportFormat.JSON, "--format", "-f", case_sensitive=False,
        help="json: the canonical log; text: a move list that reads back with import (docs/move-list.md); "
             "html: a replay page in one file for any browser (docs/sharing.md).",
    ),
    catalog_file: Optional[Path] = CatalogOption,
    force: bool = typer.Option(
        False, "--force", help="Write a damaged stored game's JSON log as it is stored, with the hashes it was recorded with "
        "(so the file shows the damage too: verify fails on it)."
    ),
    analysis: bool = typer.Option(
        False, "--analysis", help="html: grade every decision and graph the winning chances; the analysis kept for "
        "this record (coimbra analyse) is shown without it; with it, one is made now if none is kept (minutes). "
        "text: mark each graded decision as PGN does (?! ? ?? and ! for a best move hard to find) with the loss and "
        "the best option as a comment; import leaves them out."
    ),
    db: Optional[Path] = DbOption,
) -> None:
    """Write a game as a canonical JSON log, a move list, or a replay page to open in a browser.

    The same game always gives the same bytes. A move list (text) is what PGN is
    for chess: a person reads it, and [bold]coimbra import[/] reads it back to the
    same record. The replay page (html) is one self-contained file, no network
    needed: send it to the players, open it on a phone, link into it with #entry=N.
    An analysed game (coimbra analyse, or --analysis) has its winning chances
    graphed and every decision graded on the page.

    A damaged stored game (see [bold]coimbra verify[/]) is refused, never written
    out as if intact; --force writes what is stored, damage and all.

    Example: [bold]coimbra export ana-bruno -o ana-bruno.json[/]

    Example: [bold]coimbra export ana-bruno --format html -o ana-bruno.html[/]
    """
    if format_ is not ExportFormat.JSON and force:
        fail("--force writes a damaged game's JSON log as it is stored: leave out --format")
    if analysis and format_ is ExportFormat.JSON:
        fail("--analysis annotates a move list or goes on the replay page: give --format text or html")
    with served(db, catalog_file=catalog_file) as games:
        if format_ is not ExportFormat.JSON:
            with store_errors():
                game = games.open(game_ref)
                games.check(game_ref)  # every row of a stored game, as the JSON export checks them
            data, entries = _shared(game, format_, analysis), game.entries
        else:
            data = _exported(games, game_ref, force)
            entries = data.count(ENTRY)
    with store_errors():
        write_output(output, data)
    if output is not None:
        err_console.print(f"wrote {output}: {entries} events", style="dim")


def _exported(games: Games, game_ref: str, force: bool) -> bytes:
    """A game's canonical JSON log; a damaged stored game is refused, or with ``force`` written as stored."""
    with store_errors():
        try:
            exported = games.export(game_ref, force)
        except DamagedGame as exc:
            if force:
                raise  # damaged so that no file written as stored would show it
            fail(f"{exc} (coimbra export {game_ref} --force writes it as it is stored, with its recorded hashes)")
    if exported.damage is not None:
        err_console.print(f"{game_ref} is damaged: writing it as it is stored; coimbra verify lists the damage")
    return exported.data


def _shared(game: Game, format_: ExportFormat, analyse: bool) -> bytes:
    """A game as a move list (annotated with its analysis when ``analyse``: kept, or made now) or a replay page (with
    its analysis: kept, or made now when ``analyse``), from one fold of its timeline."""
    from projections.timeline import timeline  # imported here: only these formats fold the game

    from cli.analysis_views import analysis_of

    line = timeline(game)
    if format_ is ExportFormat.TEXT:
        from coimbra_events import movelist
        from projections.annotations import annotations
        from projections.scores import result_line, score_report
        from projections.sections import headings

        report = analysis_of(game, True) if analyse else None
        return movelist.dumps(game.to_log(), headings(line), result_line(score_report(line.final)), game.catalog,
                              annotations(report) if report else None).encode()
    from cli.replay_page import replay_page

    return replay_page(game, line, analysis_of(game, analyse)).encode()


@COMMANDS("verify")
def verify_command(
    game_ref: str = GameArgument,
    head: Optional[str] = typer.Option(
        None, "--head", metavar="HASH",
        help="The head hash the table was given (record, act and score print it): check the record is that one, or extends it.",
    ),
    every: bool = AllOption,
    db: Optional[Path] = DbOption,
    as_json: bool = JsonOption,
) -> None:
    """Check that a log file or a stored game is as it was recorded, and name every problem.

    A log file: its hash chain, entry by entry, and what is wrong where it breaks
    (unreadable, malformed, unsupported schema, unknown event type, bad field,
    hash mismatch). A stored game: the same, and its rows, its receipts (a record
    whose last entries were cut off shows) and the rules. With --head, also that
    the record holds the head the table was given: it is that record, or that
    record and entries recorded after it.

    Exit 0 if every check holds, 2 if one does not; the first 20 problems are
    listed (--all: every one).

    Example: [bold]coimbra verify game.json --head 3f2a9c1b7d0e[/]
    """
    wanted = _head_option(head)
    with served(db) as games, store_errors():
        read = games.chain(game_ref, every)
        unvouched = games.source(game_ref).taken_as_written
    chain, problems, count, events = read.hashes, read.problems, read.count, read.events
    found = _find_head(chain, wanted) if wanted is not None and not problems else None
    if wanted is not None and not problems and found is None:
        problems = (LogProblem(len(chain), "head not found", f"the record does not hold the head {wanted} the table "
                               f"was given: its entries were cut off or changed after it"),)
        count = 1
    report = {"source": game_ref, "intact": not problems, "events": events, "head": chain[-1] if chain and not problems else None,
              "first_mismatch": next((p.seq for p in problems if p.what == "hash chain broken"), None),
              **problems_json(problems, every, count)}
    if wanted is not None:
        report["given_head"] = {"hash": wanted, "entry": found}
    if unvouched:
        report["taken_as_written"] = True
    if as_json:
        print_json(report)
    if not problems:
        if unvouched and not as_json:
            console.print(f"read: {escape(game_ref)}: {events} events; {TAKEN_AS_WRITTEN}; head {chain[-1]}", soft_wrap=True)
        elif not as_json:
            console.print(f"intact: {escape(game_ref)}: {events} events, every hash matches; head {chain[-1]}", soft_wrap=True)
            if found is not None:
                console.print(_head_words(found, events), soft_wrap=True)
        return
    if not as_json:  # the first problem ends the error line: 20 in all unless --all
        list_problems(problems[1:], every, read.word, SHOWN_PROBLEMS - 1, count - 1)
    fail(read.failure(problems, count))


def _head_option(head: Optional[str], option: str = "--head") -> Optional[str]:
    if head is None:
        return None
    wanted = head.strip().lower()
    if len(wanted) < 8 or len(wanted) > 64 or any(c not in "0123456789abcdef" for c in wanted):
        fail(f"{option} {head!r}: expected the head hash as printed (at least 8 of its hex digits)")
    return wanted


def _find_head(chain: list[str], wanted: str) -> Optional[int]:
    """The entry whose hash begins with ``wanted`` (0: the header), the latest if several do."""
    matches = [n for n, h in enumerate(chain) if h.startswith(wanted)]
    return matches[-1] if matches else None


def _head_words(found: int, events: Optional[int]) -> str:
    if found == events:
        return "the head the table was given: this is that record, entry for entry"
    return (f"the table was given the head of entry {found}: the record holds it unchanged, "
            f"and entries {found + 1} to {events} were recorded after it")


def problems_json(problems: tuple[LogProblem, ...], every: bool, count: int) -> dict[str, Any]:
    """Problems for ``--json``: the first ``SHOWN_PROBLEMS`` (every one with ``--all``), and how many there are."""
    listed = problems if every else problems[:SHOWN_PROBLEMS]
    return {"problems": [p.as_dict() for p in listed], "problem_count": count}
