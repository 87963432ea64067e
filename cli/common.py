"""What every command shares: options, JSON output, and turning refusals into exit codes."""

from __future__ import annotations

import os
import sys
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Iterator, NoReturn, Optional

import orjson
import typer
from rich.console import Console
from rich.markup import escape

from cli.exits import BAD_INPUT, CONFLICT, RULE_VIOLATION, err_console, fail, fail_all
from cli.terminal import escaping
from coimbra_events.catalog import Catalog, CatalogError, load_catalog
from coimbra_events.controls import json_escaped
from coimbra_events.event_decoding import PayloadError
from coimbra_events.files import FileBusy, write_atomically
from coimbra_events.log import LogError, LogProblem
from coimbra_events.store.errors import (
    BadGameName,
    BadPlayers,
    DamagedGame,
    DamagedIndex,
    NoStore,
    StoreConflict,
    StoreNotOpened,
    UnknownGame,
    one_line,
)
from coimbra_events.violations import RuleViolation

if TYPE_CHECKING:  # the store brings in the eventsourcing library: imported by the commands that open it
    from coimbra_events.store.sources import GameSource
    from coimbra_events.game import Game
    from coimbra_events.movelist import Listing
    from coimbra_events.service import Games

console = escaping(Console(highlight=False, emoji=False))  # ":word:" in a name or note is text, not an emoji

SHOWN_PROBLEMS = 20
"""Problems of a damaged log or game listed one a line, unless ``--all``."""


class Commands(dict):
    """The commands of one module, by name; ``cli.app`` registers each module's on the app.

    Use as a decorator: ``COMMANDS = Commands()`` then ``@COMMANDS("show")``.
    """

    def __call__(self, name: str) -> Callable[[Callable[..., None]], Callable[..., None]]:
        def collect(fn: Callable[..., None]) -> Callable[..., None]:
            self[name] = fn
            return fn

        return collect

CatalogOption = typer.Option(
    None, "--catalog", help="Catalog JSON file to use instead of the shipped or installed one the log names."
)


def flag(*names: str, help: str) -> Any:
    """An on/off option (``--json``): no value follows it, and ``--help`` shows none (no ``<bool>``)."""
    return typer.Option(False, *names, help=help, metavar="")


JsonOption = flag("--json", help="Print machine-readable JSON instead of tables.")
AllOption = flag("--all", help=f"List every problem found (default: the first {SHOWN_PROBLEMS} and how many more).")
QuietOption = flag("--quiet", "-q", help="One line per stored entry, without what the table must now do.")
DbOption = typer.Option(
    None, "--db", help="The game store's SQLite file (default: $COIMBRA_DB, else ~/.local/share/coimbra/games.sqlite)."
)
GameArgument = typer.Argument(..., metavar="GAME", help="A stored game's name, or the path of a JSON log file or a "
                                                        "move list (docs/move-list.md).")


def print_json(data: object) -> None:
    """Indented JSON on stdout: what ``--json`` prints, with no control character raw (``json_escaped``: JSON
    escapes C0 itself, not DEL, C1 or the bidirectional overrides a terminal would obey)."""
    sys.stdout.write(json_escaped(orjson.dumps(data, option=orjson.OPT_INDENT_2).decode()) + "\n")


def write_output(output: Optional[Path], data: bytes) -> None:
    """``data`` on stdout, or into ``output`` atomically (``coimbra_events.files.write_atomically``)."""
    if output is None:
        sys.stdout.buffer.write(data)
        sys.stdout.flush()
        return
    write_atomically(output, data)


def catalog_option(path: Optional[Path]) -> Catalog | None:
    """The catalog a ``--catalog FILE`` names (exit 2 with every problem if it is bad), or ``None`` for the shipped one."""
    if path is None:
        return None
    try:
        return load_catalog(path)
    except CatalogError as exc:
        fail_all(exc.lines(), str(path))


@contextmanager
def store_errors(note: str = "") -> Iterator[None]:
    """Turn refusals of the rules, the notation and the store into one-line errors and exit codes.

    Exit 1 for a rule violation, 3 when another writer changed the game first,
    2 for everything else (bad input, a damaged store); ``note`` ("nothing
    stored") ends the line where the message does not already say so.
    """
    tail = f"; {note}" if note else ""
    try:
        yield
    except RuleViolation as v:
        fail(f"refused: rule {v.rule}: {v.reason}{tail}", RULE_VIOLATION)
    except LogError as exc:
        log_problems(exc, note)
    except (DamagedGame, DamagedIndex, StoreConflict) as exc:
        fail(str(exc), CONFLICT if isinstance(exc, StoreConflict) else BAD_INPUT)
    except FileBusy as exc:
        fail(f"{exc}; nothing stored; try again", CONFLICT)
    except (NoStore, StoreNotOpened) as exc:
        fail(str(exc))
    except (UnknownGame, BadGameName, BadPlayers, CatalogError, PayloadError) as exc:
        fail(f"{exc}{tail}")
    except OSError as exc:
        fail(f"{exc.filename or ''}: {exc.strerror or exc}{tail}" if exc.filename else f"{exc}{tail}")
    except typer.Exit:
        raise
    except Exception as exc:
        _store_refusal(exc, tail)
        raise


@contextmanager
def illegal_line(listing: Listing, file: Path) -> Iterator[None]:
    """An illegal entry of a move list is refused naming its line, the rule and the reason (exit 1)."""
    from coimbra_events.game import IllegalLog

    try:
        yield
    except IllegalLog as exc:
        result = exc.validation
        line = listing.lines.get(result.violation_seq or 0)
        if line is None:
            raise
        from projections.naming import named_text

        v = result.violation
        fail(f"{file}: line {line} (event {result.violation_seq}) breaks rule {v.rule}: "
             f"{named_text(result.state.catalog, v.reason)}; nothing stored", RULE_VIOLATION)


def _store_refusal(exc: Exception, tail: str) -> None:
    """Exit for a refusal that only the store, the game aggregate or the notation raise (imported only then)."""
    from eventsourcing.persistence import PersistenceError

    from coimbra_events.game import IllegalLog
    from coimbra_events.notation import NotationError

    if isinstance(exc, NotationError):
        fail(f"{exc}{tail}")
    if isinstance(exc, IllegalLog):
        fail(f"{exc}{tail}", RULE_VIOLATION)
    if isinstance(exc, PersistenceError):
        fail(f"game store: {one_line(exc)}{tail}")


def list_problems(problems: tuple[LogProblem, ...], every: bool = False, entry: str = "event",
                  limit: int = SHOWN_PROBLEMS, count: int | None = None) -> None:
    """Each problem on its own line (the first ``limit`` unless ``every``), and how many more of the
    ``count`` there are in all.

    ``entry`` is the word for a place: ``event`` in a log file, ``entry`` in a stored game.
    """
    shown = problems if every else problems[:limit]
    for problem in shown:
        err_console.print(f"  {escape(problem.said(entry))}", soft_wrap=True)
    more = (len(problems) if count is None else count) - len(shown)
    if more > 0:
        err_console.print(f"  … and {more:,} more problems (--all lists every one)")


def log_problems(exc: LogError, note: str = "", every: bool = False) -> NoReturn:
    """The problems of a damaged log one a line (seq, what, why), then the one-line error."""
    tail = f"; {note}" if note else ""
    if exc.count == 1:
        fail(f"{exc}{tail}")
    list_problems(exc.problems, every, count=exc.count)
    fail(f"{exc.source}: {exc.count:,} problems (listed above){tail}")


def short(head: str) -> str:
    """A head hash in its short form, as ``record``, ``act`` and ``score`` print it for the table."""
    return head[:12]


def entrant(by: Optional[str] = None) -> str:
    """Who is entering, for the ``by`` of new entries: ``--by``, else ``$COIMBRA_BY``, else the login name ("" if none)."""
    import getpass

    if by is not None:
        return by
    try:
        return os.environ.get("COIMBRA_BY") or getpass.getuser()
    except (OSError, KeyError):
        return ""


ByOption = typer.Option(
    None, "--by", help="Who enters these entries, kept with each (default: $COIMBRA_BY, else your login name)."
)


@contextmanager
def served(db: Optional[Path], catalog_file: Optional[Path] = None, views: bool = False,
           create: bool = False) -> Iterator[Games]:
    """The application (``coimbra_events.service.Games``) on the store at ``db``, opened only when a stored game is
    named and closed again however the command ends, and on JSON log files read with ``--catalog``. ``views``: the
    values carry what new entries changed on the table and what each legal option is, and the league can be read
    (``projections.read_side``); ``create``: a command that makes games (new, import, record) may make the store,
    any other is refused when the store it names does not exist (``NoStore``: nothing is created on disk)."""
    from coimbra_events.service import Games

    catalog = catalog_option(catalog_file)
    read_side = None
    if views:
        from projections.read_side import ReadSide

        read_side = ReadSide()
    with Games.at(db, create=create, views=read_side, catalog=catalog) as games:
        try:
            yield games
        except (NoStore, StoreNotOpened) as exc:  # however deep the store was first needed
            fail(str(exc))


@contextmanager
def game_ref_opened(
    ref: str, db: Optional[Path], catalog_file: Optional[Path] = None
) -> Iterator[tuple[Game, GameSource]]:
    """The game GAME names, and where it is kept: a JSON log file (the store is not opened) or a stored game."""
    with served(db, catalog_file=catalog_file) as games:
        with store_errors():
            source = games.source(ref)
            game = source.open()
        yield game, source


def players_option(spec: str) -> list[tuple[str, str]]:
    players = []
    for item in spec.split(","):
        name, sep, color = item.partition(":")
        if not sep or not name.strip() or not color.strip():
            fail(f"--players: expected 'Name:colour,Name:colour' (e.g. 'Ana:red,Bruno:blue'), got {spec!r}")
        players.append((name.strip(), color.strip()))
    return players


