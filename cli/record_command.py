"""``coimbra record``: a guided, line-based recorder for a game played at a physical table.

A terminal companion, not a full-screen program: it says who acts and what is
due, lists the legal options, and reads one line at a time (a number, the start
of an option, a notation line, the dice in pool order, or a command). Every
confirmed input is saved at once in its own transaction, so a crash, Ctrl-C or
the end of the input loses nothing and ``coimbra record GAME`` carries on.

What a line means is decided in ``cli.record_words`` (the recorder's commands) and
``projections.recording`` (the game's input, pure), what is printed
of options, help and refusals in ``cli.record_texts``; this module
only reads and prints through an ``Io`` (the terminal here, a script in the
tests) and records through the table's use cases (``coimbra_events.service``),
whose ``Game`` methods run the rules core, so a refusal here is the same refusal
as ``coimbra act``'s.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path
from typing import Callable, Optional, Protocol, Sequence, TypeVar

import typer
from rich.console import Console, RenderableType
from rich.text import Text

from cli.board_views import board_panel
from cli.change_views import table_lines
from cli.common import (
    ByOption,
    Commands,
    DbOption,
    QuietOption,
    catalog_option,
    console,
    entrant,
    served,
    players_option,
    short,
    store_errors,
)
from cli.exits import fail
from cli.presenter import due
from cli.record_texts import COMMANDS_HELP, option_lines, outcome_prompt, refusal_lines
from cli.record_words import Command, Typed, read_typed
from coimbra_events.references import log_file
from coimbra_events.store.rolls import rolls_of
from coimbra_events.service import Games
from coimbra_events.service.inputs import with_player_name
from coimbra_events.service.results import Outcome, Refused, Stored
from coimbra_events.store.errors import BadPlayers, TableInputNeeded
from coimbra_events.catalog import Catalog, standin_catalog
from coimbra_events.events import GameEvent
from coimbra_events.game import Game, NothingToOverride
from coimbra_events.notation import NotationError
from coimbra_events.rules import core as rules
from coimbra_events.rules.outcomes import OutcomeSpace
from coimbra_events.state import TABLE, GameState
from coimbra_events.violations import RuleViolation
from projections.board import PHASE_NAMES, board_view
from projections.naming import named_text, said
from projections.options import options
from projections.recording import (
    Ambiguous,
    Choice,
    Numbers,
    Turn,
    Unreadable,
    entry_echo,
    outcome_words,
    step_header,
)

T = TypeVar("T")

COMMANDS = Commands()

RECENT = 5
"""Entries shown when a game is resumed."""
INTERRUPTED = 130
"""Exit code after Ctrl-C (128 + SIGINT), as shells expect; the end of the input exits 0."""


class Io(Protocol):
    """Where the recorder reads and writes: the terminal, or a script in the tests."""

    def ask(self, prompt: str, state: GameState | None = None, entries: int = 0) -> str:
        """One line typed after ``prompt``; ``EOFError`` at the end of the input, ``KeyboardInterrupt`` on Ctrl-C.

        ``state`` (the table now) and ``entries`` (how many are stored) let a
        terminal offer completion and a toolbar (``cli.record_prompt``).
        """

    def say(self, text: str = "") -> None:
        """One line of plain text (no markup)."""

    def show(self, renderable: RenderableType) -> None:
        """A Rich renderable (the board)."""


class ConsoleIo:
    """The terminal through a Rich console; prompts and text are printed literally, never as markup."""

    def __init__(self, out: Console) -> None:
        self.out = out

    def ask(self, prompt: str, state: GameState | None = None, entries: int = 0) -> str:
        return self.out.input(Text(prompt, style="bold"))

    def say(self, text: str = "") -> None:
        self.out.print(text, markup=False, highlight=False, soft_wrap=True)

    def show(self, renderable: RenderableType) -> None:
        self.out.print(renderable)


class Stop(Exception):
    """The session ends here (quit, end of input, Ctrl-C) with this exit code; everything is stored."""

    def __init__(self, why: str, code: int = 0) -> None:
        super().__init__(why)
        self.why, self.code = why, code


class Recorder:
    """One session on one stored game: announce what is due, read a line, store it or say why not."""

    def __init__(self, games: Games, io: Io, name: str, resume: str, quiet: bool = False, by: str | None = None) -> None:
        self.games, self.io, self.name, self.resume, self.quiet, self.by = games, io, name, resume, quiet, by
        self.session = games.session(name)
        self._announced: object = None
        self.numbers = Numbers()  # an option keeps its number while the turn lasts

    def run(self) -> int:
        """Until the game is over or the table stops; the exit code (0, or 130 after Ctrl-C)."""
        try:
            while self.game.pending is not None:
                self._announce()
                self.handle(read_typed(self._ask(), self.game.state, self.numbers))
        except Stop as stop:
            return self._stopped(stop)
        except KeyboardInterrupt:
            return self._stopped(Stop("interrupted", INTERRUPTED))
        self.io.say(f"the game is over after {self.game.entries} entries (head {short(self.game.head)}): "
                    f"coimbra explain {self.name} --player NAME says where each player's points came from")
        return 0

    @property
    def game(self) -> Game:
        """The game in hand: as last stored here, or read again after a write that stored nothing."""
        return self.games.open(self.session)

    def _ask(self) -> str:
        actor = self.game.pending.actor if self.game.pending else TABLE
        try:
            return self.io.ask(f"{self.game.entries + 1} {actor}> ", self.game.state, self.game.entries)
        except EOFError:
            raise Stop("end of input") from None

    def _stopped(self, stop: Stop) -> int:
        """Say how much is stored (read again: Ctrl-C may have come just after a save), its head, and how to go on."""
        stored = self.games.open(self.name)
        self.io.say()
        self.io.say(f"stopped ({stop.why}): {len(stored.events)} entries stored, head {short(stored.head)}; "
                    f"resume with: {self.resume}")
        return stop.code

    # -- what is due

    def _announce(self) -> None:
        """Who acts, on what, and the options; once per new step (not again after a refusal)."""
        game = self.game
        key = (len(game.line.plays), game.pending)
        if key == self._announced:
            return
        self._announced = key
        self.io.say()
        self.io.say(f"{due(game)}: {step_header(game.state)}")
        for line in self._options():
            self.io.say(line)

    def _options(self, grouped: bool = True) -> list[str]:
        """The legal options (grouped when many), or what the table must enter."""
        space = rules.legal(self.game.state)
        if isinstance(space, OutcomeSpace):
            lines = outcome_prompt(self.game.state, space, space.sample(random.Random(0)))
            return lines + (["  r: draw it from the game's seed"] if rolls_of(self.game)[0] != "manual" else [])
        listed = options(self.game.state)
        numbers = self.numbers.of(self.game.state, listed)
        return option_lines(listed, numbers=numbers) if grouped else option_lines(listed, None, True, numbers)

    # -- one line

    def handle(self, reading: Typed) -> None:
        """Do what a line asked: store an event, run a command, or say why nothing happened;
        then what the table must do for what was stored."""
        stored, table = self.game.entries, self.game.state  # the game object itself may take the new entries
        if isinstance(reading, Choice):
            self._record(reading.event)
        elif isinstance(reading, Turn):
            self._turn(reading.text)
        elif isinstance(reading, Ambiguous):
            self.io.say(f"{len(reading.matches)} options start with '{reading.typed}'; type more, or a number:")
            for k, text in reading.matches:
                self.io.say(f"  {k:>3}  {text}")
        elif isinstance(reading, Unreadable):
            self.io.say(reading.message)
        else:
            getattr(self, f"_{reading.word}")(reading)
        for line in table_lines(self.game, stored, table, self.quiet):
            self.io.say(line)

    def _record(self, event: GameEvent) -> None:
        event = with_player_name(event, self.game)
        done = self._saved(lambda: self.games.record(self.session, [event], self.by), self._said(event))
        if done is not None:
            self.io.say(f"recorded {self.game.entries}: {entry_echo(done.entries[0].event, done.outcome[0])}")

    def _turn(self, text: str) -> None:
        """Several entries of one player's turn, all or none."""
        try:
            done = self._saved(lambda: self.games.record(self.session, [text], self.by), text)
        except NotationError as exc:
            self.io.say(f"{exc}; nothing stored")
            return
        if done is not None:
            for entry, table in zip(done.entries, done.outcome):
                self.io.say(f"recorded {entry.seq}: {entry_echo(entry.event, table)}")

    def _said(self, event: GameEvent) -> str:
        return said(self.game.catalog, event, monasteries=dict(self.game.state.monasteries))

    def _saved(self, save: Callable[[], Outcome[T]], text: str) -> Stored[T] | None:
        """Run one use case (one save) on the game in hand and take the game it stored; a refusal or a conflict is
        said, nothing is stored (and the game is read again, so nothing half made stays in hand)."""
        try:
            done = save()
        except TableInputNeeded as exc:
            self.io.say(f"{exc}; nothing stored")
        else:
            if isinstance(done, Stored):
                return done
            if isinstance(done, Refused):  # the entry refused, of a line of several
                said = self._said(done.event) if done.event is not None else text
                for line in refusal_lines(said, done.violation, self.game.catalog, done.monasteries):
                    self.io.say(line)
            else:  # another writer recorded first: show the game as it is now
                self.io.say(done.reason)
                self._announced = None
        self.session.game = None  # read again: the game as stored now, nothing half made in hand
        return None

    def _event_in(self, text: str, seq: int | None = None) -> GameEvent | None:
        """A decision typed after a command, read where it would stand (before entry ``seq``, or now)."""
        try:
            state = self.game.state if seq is None else self.game.state_before(seq)
        except RuleViolation as v:
            self.handle(Unreadable(f"refused: rule {v.rule}: {v.reason}; nothing stored"))
            return None
        reading = read_typed(text, state)
        if isinstance(reading, Choice):
            return with_player_name(reading.event, self.game)
        self.handle(reading if not isinstance(reading, Command) else Unreadable(f"'{text}' is a command, not a decision"))
        return None

    # -- commands (``Command.word`` names the method)

    def _roll(self, _: Command) -> None:
        if rolls_of(self.game)[0] == "manual" and self.game.pending and self.game.pending.actor == TABLE:
            self.io.say("this game has no seed to draw from: type what the table rolled or dealt (see above)")
            return
        done = self._saved(lambda: self.games.roll(self.session, self.by), "roll")
        if done is not None:
            event = done.outcome
            self.io.say(f"recorded {self.game.entries}: {entry_echo(event, self.game.state)}")
            for line in outcome_words(event, self.game.state):
                self.io.say(line)

    def _undo(self, _: Command) -> None:
        done = self._saved(lambda: self.games.undo(self.session, self.by), "undo")
        if done is not None:
            play = done.outcome
            self.io.say(f"undone: entry {play.seq} {self._said(play.event)} (withdrawn by entry {self.game.entries}; "
                        "it stays in the log)")

    def _correct(self, cmd: Command) -> None:
        assert cmd.seq is not None
        event = self._event_in(cmd.text, cmd.seq)
        if event is None:
            return
        done = self._saved(lambda: self.games.correct(self.session, cmd.seq, event, self.by), self._said(event))
        if done is None:
            return
        broken = done.outcome
        n = self.game.entries
        self.io.say(f"corrected entry {cmd.seq} to {self._said(event)} (entries {n - 1} and {n})")
        for play, v in broken:
            self.io.say(f"  now illegal: entry {play.seq} {self._said(play.event)}: rule {v.rule}: "
                        f"{named_text(self.game.catalog, v.reason)} "
                        "(correct, undo or accept it)")
        self._announced = None

    def _accept(self, cmd: Command) -> None:
        event = self._event_in(cmd.text)
        if event is None:
            return
        try:
            done = self._saved(lambda: self.games.accept(self.session, event, cmd.reason, self.by), self._said(event))
        except NothingToOverride:
            self.io.say(f"'{self._said(event)}' breaks no rule here: type it as an ordinary decision; nothing stored")
            self.session.game = None
            return
        if done is not None:
            v = done.outcome
            self.io.say(f"accepted against rule {v.rule} ({named_text(self.game.catalog, v.reason)}): entry "
                        f"{self.game.entries} {self._said(event)}, because {cmd.reason}")

    def _note(self, cmd: Command, bookmark: bool = False) -> None:
        assert cmd.seq is not None
        done = self._saved(lambda: self.games.note(self.session, cmd.seq, cmd.text, bookmark, self.by), cmd.word)
        if done is not None:
            self.io.say(f"{'bookmarked' if bookmark else 'noted'} entry {cmd.seq} (entry {self.game.entries})")

    def _bookmark(self, cmd: Command) -> None:
        self._note(cmd, bookmark=True)

    def _show(self, _: Command) -> None:
        self.io.show(board_panel(board_view(self.game.state), title=f"{self.name} · after {self.game.entries} entries"))

    def _legal(self, _: Command) -> None:
        self.io.say(f"{due(self.game)}: {step_header(self.game.state)}")
        for line in self._options(grouped=False):
            self.io.say(line)

    def _help(self, _: Command) -> None:
        width = max(len(usage) for usage, _ in COMMANDS_HELP)
        for usage, what in COMMANDS_HELP:
            self.io.say(f"  {usage:<{width}}  {what}")

    def _quit(self, _: Command) -> None:
        raise Stop("quit")

    # -- starting

    def intro(self, recent: int = RECENT) -> None:
        """Where a resumed game stands and its last entries."""
        game, state = self.game, self.game.state
        where = PHASE_NAMES[state.phase]
        if state.round and not state.over:
            where = f"round {state.round}, phase {where}"
        self.io.say(f"{self.name}: {game.entries} entries; {where}")
        for seq, event in list(enumerate(game.events, 1))[-recent:]:
            self.io.say(f"  {seq:>4}  {self._said(event)}")


def ask_players(io: Io, catalog: Catalog) -> list[tuple[str, str]]:
    """Players typed one a line (``Ana red`` or ``Ana:red``) until an empty line; checked as ``new`` checks them.

    A player beyond the catalog's most is refused there and then (never
    dropped silently, nor read later as a decision).
    """
    fewest, most = catalog.min_players, catalog.max_players
    io.say(f"Who plays? One player a line, name and colour (e.g. 'Ana red'); an empty line when all are in ({fewest} to {most}).")
    players: list[tuple[str, str]] = []
    while True:
        line = " ".join(io.ask(f"player {len(players) + 1}> ").split())
        if not line:
            if len(players) >= fewest:
                return players
            io.say(f"at least {fewest} players")
            continue
        if len(players) == most:
            io.say(f"{most} players is the most Coimbra seats: '{line}' is not added; an empty line starts the game")
            continue
        name, sep, color = line.partition(":") if ":" in line else line.rpartition(" ")
        if not sep or not name.strip() or not color.strip():
            io.say(f"expected a name and a colour, e.g. 'Ana red', got '{line}'")
            continue
        players.append((name.strip(), color.strip()))


def start(
    games: Games, io: Io, players: Sequence[tuple[str, str]] | None, seed: int | None, catalog: Catalog | None = None,
    by: str | None = None,
) -> Game:
    """A new game (with ``catalog``, else the stand-in); with a seed, the setup is drawn and the players are told what to lay out."""
    while True:
        people = players if players is not None else ask_players(io, catalog or standin_catalog())
        try:
            game = games.new_game(people, catalog, seed=seed, by=by)
            break
        except BadPlayers as exc:
            if players is not None:
                raise
            io.say(f"{exc}; again, please")
    io.say(f"new game {game.name}: {', '.join(f'{n} ({c})' for n, c in game.header.players)}")
    if seed is None:
        io.say("enter the setup as it lies on the table, step by step")
        return game
    io.say(f"drawn from seed {seed}; lay out the table:")
    for event in game.events:
        for line in outcome_words(event, game.state):
            io.say(line)
    return game


def choose_unfinished(games: Games, io: Io) -> str | None:
    """The unfinished game the table resumes (``Games.unfinished``, most recent first), or ``None`` for a new one."""
    waiting = games.unfinished(limit=OFFERED)
    if not waiting:
        return None
    io.say("Unfinished games (resume one, or start a new game):")
    for k, info in enumerate(waiting, 1):
        io.say(f"  {k}. {info.name}: {', '.join(n for n, _ in info.players)}, begun {info.created.astimezone():%Y-%m-%d %H:%M}")
    while True:
        line = io.ask(f"resume which? 1-{len(waiting)}, or Enter for a new game> ").strip()
        if not line:
            return None
        if line.isdigit() and 1 <= int(line) <= len(waiting):
            return waiting[int(line) - 1].name
        io.say(f"'{line}': a number from 1 to {len(waiting)}, or an empty line")


OFFERED = 9
"""Unfinished games ``record`` offers to resume, most recent first."""


def record_session(
    games: Games,
    io: Io,
    game_ref: str | None = None,
    players: Sequence[tuple[str, str]] | None = None,
    seed: int | None = None,
    resume_options: str = "",
    catalog: Catalog | None = None,
    quiet: bool = False,
    by: str | None = None,
) -> int:
    """A whole session: create or resume the game, then record until it is over or the table stops.

    Records through the application (``coimbra_events.service.Games``), entered by ``by``. Raises
    ``UnknownGame`` for a name the store does not hold and ``BadPlayers``
    for ``players`` that cannot play (the command turns both into exit 2).
    """
    try:
        if game_ref is None and players is None and seed is None and catalog is None:
            game_ref = choose_unfinished(games, io)
        name = game_ref if game_ref is not None else start(games, io, players, seed, catalog, by).name
    except (EOFError, KeyboardInterrupt) as exc:
        io.say()
        io.say("stopped before the game was created; nothing stored")
        return INTERRUPTED if isinstance(exc, KeyboardInterrupt) else 0
    recorder = Recorder(games, io, name, f"coimbra record {name}{resume_options}", quiet, by)
    if game_ref is not None:
        recorder.intro()
    io.say(f"every input is stored at once; 'help' lists the commands; resume any time with: {recorder.resume}")
    return recorder.run()


@COMMANDS("record")
def record_command(
    game_ref: Optional[str] = typer.Argument(None, metavar="GAME", help="A stored game to resume (default: offer the "
                                             "unfinished ones, then start a new one)."),
    players: Optional[str] = typer.Option(None, "--players", "-p", help='Players of a new game: "Ana:red,Bruno:blue" (else asked).'),
    seed: Optional[int] = typer.Option(None, "--seed", "-s", help="Draw a new game's setup (and 'r' rolls) from this seed."),
    catalog_file: Optional[Path] = typer.Option(
        None, "--catalog", help="A new game's catalog file, e.g. your transcribed box (default: the shipped stand-in standin-2)."
    ),
    db: Optional[Path] = DbOption,
    by: Optional[str] = ByOption,
    quiet: bool = QuietOption,
) -> None:
    """Record a game at the table, step by step: who acts, the legal options, one line each.

    Type a number, the start of an option (Tab completes it), a decision in
    notation with components by name or id ('buy chaplain'), or the dice
    rolled ('3 5 1 ...' in pool order); 'help' lists undo, correct, accept,
    note, show, legal and quit. At a terminal, Tab completes the legal
    inputs and the commands, ↑ recalls earlier lines, and the bottom line
    says who acts, what is due, the round and the phase. Every input is stored at once: stop any time
    (quit, Ctrl-D, Ctrl-C) and carry on with [bold]coimbra record GAME[/].
    After each input it says what the table must now do, by player, each move
    with its rule (--quiet: only the entry); at game over, the final scores.

    Without GAME (and without --players, --seed or --catalog) the unfinished
    games are offered first, most recent first: type a number to resume one,
    or an empty line to start a new game.

    Example: [bold]coimbra record --players "Ana:red,Bruno:blue" --seed 7[/]
    """
    if game_ref is not None and (players is not None or seed is not None or catalog_file is not None):
        fail("--players, --seed and --catalog start a new game; GAME resumes a stored one: give one or the other")
    if game_ref is not None and log_file(game_ref) is not None:
        fail(f"{game_ref}: record works on stored games; coimbra import {game_ref} first")
    people = players_option(players) if players is not None else None
    io: Io = ConsoleIo(console)
    if sys.stdin.isatty() and sys.stdout.isatty():
        from cli.record_prompt import PromptIo  # Tab completion, history, the toolbar

        io = PromptIo(console)
    with served(db, create=True) as games, store_errors("nothing stored"):
        code = record_session(games, io, game_ref, people, seed, f" --db {db}" if db else "", catalog_option(catalog_file),
                              quiet, entrant(by))
    if code:
        raise typer.Exit(code)
