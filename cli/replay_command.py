"""``coimbra replay``: a full-screen step-through of a game in the terminal.

The game is folded once into its timeline (``projections.timeline``); every key
is then a lookup (``projections.navigation.press``) plus drawing one frame.
Drawing the board is most of a step (Rich tables, about 15 ms at 160x60), so a
board is drawn once per position and screen size and its lines reused, and
while no key comes the frames the next key most likely asks for are drawn
ahead (``Replayer.idle``); ``bench/stepping.py`` measures both paths. The
screen is a Rich ``Live`` on the alternate screen; keys are read from the
terminal in cbreak mode with ``termios`` (no echo, no line buffering, Ctrl-C
still interrupts), and the terminal is restored however the replayer ends.

Without a terminal (stdin or stdout not a TTY), or with ``--at N``, one frame
is printed (the board at that point with the event panel) and the command ends.
"""

from __future__ import annotations

import gc
import os
import select
import sys
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Callable, Iterator, Optional

import typer
from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.layout import Layout
from rich.live import Live
from rich.markup import escape
from rich.panel import Panel
from rich.segment import Segment
from rich.table import Table
from rich.text import Text

from cli.board_views import DrawnParts, board_panel
from cli.change_views import CHANGES_SHOWN, changes_view
from cli.common import CatalogOption, Commands, DbOption, GameArgument, JsonOption, console, game_ref_opened, print_json
from cli.exits import fail
from cli.view_commands import event_words
from coimbra_events.game import Game
from coimbra_events.state import GAME_OVER
from projections.board import PHASE_NAMES, board_view
from projections.navigation import FOOTER, KEYS, Cursor, Mark, Navigator, marks_of, press
from projections.timeline import TimelineError, timeline

COMMANDS = Commands()

FOOTER_SHORT = "←→ ↑↓ PgUp/PgDn Home/End g b/B p/P  ? help  q quit"
"""The key line for a terminal too narrow for ``FOOTER``."""


class Replayer:
    """A game, its timeline and the index to move through it, with the frames drawn from them.

    Board views are made once per position and kept, so going back to a
    table already seen only draws it again; the parts of a board that did not
    change since a board drawn before (tiles, voyages, the map) are not drawn
    again either (``DrawnParts``).
    """

    def __init__(self, game: Game) -> None:
        self.game = game
        self.line = timeline(game)
        self.nav = Navigator(self.line, marks_of(game))
        self._views: dict[int, dict[str, Any]] = {}
        self._drawn: dict[tuple, list[list[Segment]]] = {}
        self._parts = DrawnParts()
        self._prepared: set[tuple] = set()
        self.ahead: list[int] = []
        self._unsettled = False

    def view(self, n: int) -> dict[str, Any]:
        view = self._views.get(n)
        if view is None:
            view = self._views[n] = board_view(self.line.states[n])
        return view

    # -- the parts of a frame

    def event_panel(self, n: int) -> Panel:
        """The entry that led to table ``n``, in notation and in words, with round, phase and any mark on it."""
        view = self.view(n)
        event = event_words(self.game, n)
        where = f"round {view['round']} · " + ("game over" if view["phase"] == GAME_OVER else f"phase {PHASE_NAMES[view['phase']]}")
        title = f"entry {n} of {event['of']} · {where}"
        lines: list[RenderableType] = []
        if n:
            lines.append(Text.assemble(("▶ ", "bold"), (event["notation"], "bold")))
            lines.append(Text(f"  {event['about']}", style="dim" if event["actor"] == "table" else ""))
            lines.append(changes_view(self.line.changes[n], limit=CHANGES_SHOWN))
        else:
            lines.append(Text.assemble(("before the first entry", "bold"), f" ({event['of']} entries in all)"))
        mark = self.nav.marks.get(n, Mark())
        if mark.bookmark is not None:
            lines.append(Text.assemble(("★ bookmark: ", "bold yellow"), mark.bookmark))
        for note in mark.notes:
            lines.append(Text.assemble(("✎ note: ", "bold cyan"), note))
        if mark.override is not None:
            rule, reason = mark.override
            lines.append(Text.assemble(("⚠ accepted against rule ", "bold red"), (rule, "bold red"), f": {reason}"))
        return Panel(Group(*lines), title=escape(title), title_align="left", border_style="blue")

    def footer(self, cursor: Cursor, width: int = 160) -> Text:
        """One line: the prompt being typed, else the last message, else the keys."""
        if cursor.prompt == "goto":
            return Text.assemble(("go to entry: ", "bold"), (cursor.typed + "▏", "reverse"),
                                 f"  (0 to {self.nav.last}; Enter jumps, Esc cancels)")
        if cursor.prompt in ("next-player", "previous-player"):
            which = "next" if cursor.prompt == "next-player" else "previous"
            return Text.assemble((f"{which} decision of: ", "bold"), self.nav.player_keys(), "  (initial or number; Esc cancels)")
        if cursor.message:
            return Text.assemble((cursor.message, "yellow"), "  ·  ? help  q quit")
        return Text(FOOTER if len(FOOTER) <= width else FOOTER_SHORT, style="dim")

    def help_panel(self) -> Panel:
        table = Table(show_header=False, box=None, padding=(0, 2))
        table.add_column(style="bold", no_wrap=True)
        table.add_column()
        for keys, what in KEYS:
            table.add_row(keys, what)
        table.add_row("", "")
        table.add_row("players", self.nav.player_keys())
        table.add_row("", "the board is cut at the bottom when the terminal is too small: "
                          "`coimbra show GAME --at N` prints all of it")
        return Panel(table, title="keys", border_style="green")

    def board(self, n: int) -> RenderableType:
        title = f"{self.game.name} · after {n} of {len(self.game.events)} entries"
        return board_panel(self.view(n), title=escape(title), drawn=self._parts)

    def drawn_board(self, n: int) -> RenderableType:
        """The board at ``n`` as lines drawn once per position and screen size, then reused."""
        return _Drawn(self._drawn, n, lambda: self.board(n))

    def prepare(self, n: int, console: Console) -> bool:
        """Draw the frame at ``n`` off screen so that moving there later costs no drawing; whether it was drawn now."""
        key = (n, console.size)
        if not 0 <= n <= self.nav.last or key in self._prepared:
            return False
        if len(self._prepared) >= _Drawn.LIMIT:
            self._prepared.clear()
        console.render_lines(self.frame(Cursor(at=n), console), console.options, pad=False)
        self._prepared.add(key)
        return True

    def plan(self, n: int) -> None:
        """After moving to ``n``: what to draw ahead while no key comes (see ``idle``)."""
        self.ahead = self.neighbours(n)

    def idle(self, console: Console) -> bool:
        """One piece of the work planned for while waiting for a key; ``False`` once there is none left.

        First the frames the next key most likely asks for are drawn off
        screen. Then, once, the garbage collector is run and everything kept
        so far is frozen out of its later passes: the drawn boards are many
        small objects, and collecting them again during a step would cost a
        full pass (tens of ms) at a random key instead of now.
        """
        while self.ahead:
            if self.prepare(self.ahead.pop(0), console):
                self._unsettled = True
                return True
        if self._unsettled:
            self._unsettled = False
            gc.collect()
            gc.freeze()
            return True
        return False

    def neighbours(self, n: int) -> list[int]:
        """Where the next key most likely goes from ``n``: one step either way, the phase, round and mark jumps, the ends."""
        nav = self.nav
        near = [n + 1, n - 1, nav.next_phase(n), nav.previous_phase(n), nav.next_round(n), nav.previous_round(n),
                nav.next_mark(n), nav.previous_mark(n), 0, nav.last, n + 2]
        return [m for m in dict.fromkeys(near) if m is not None and 0 <= m <= nav.last]

    # -- whole frames

    def frame(self, cursor: Cursor, console: Console) -> Layout:
        """The screen: event panel on top, the board (or the help) below it, the key line at the bottom."""
        top = self.event_panel(cursor.at)
        width = console.size.width
        height = len(console.render_lines(top, console.options.update(width=width, height=None), pad=False))
        layout = Layout()
        layout.split_column(
            Layout(top, name="event", size=height),
            Layout(self.help_panel() if cursor.help else self.drawn_board(cursor.at), name="board"),
            Layout(self.footer(cursor, width), name="footer", size=1),
        )
        return layout

    def still(self, n: int) -> RenderableType:
        """One frame for a pipe or ``--at``: the event panel and the whole board."""
        return Group(self.event_panel(n), self.board(n))


class _Drawn:
    """A renderable drawn once per (position, screen size); later frames reuse its lines."""

    LIMIT = 2048

    def __init__(self, cache: dict[tuple, list[list[Segment]]], n: int, make: Callable[[], RenderableType]) -> None:
        self.cache, self.n, self.make = cache, n, make

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        key = (self.n, options.max_width, options.height, console.color_system, options.ascii_only)
        lines = self.cache.get(key)
        if lines is None:
            if len(self.cache) >= self.LIMIT:
                self.cache.clear()
            lines = self.cache[key] = console.render_lines(self.make(), options, pad=True)
        new_line = Segment.line()
        for line in lines:
            yield from line
            yield new_line


# -- the keyboard ---------------------------------------------------------------------------------

_CSI = {"A": "up", "B": "down", "C": "right", "D": "left", "H": "home", "F": "end",
        "1~": "home", "7~": "home", "4~": "end", "8~": "end", "5~": "pgup", "6~": "pgdn"}
_CONTROL = {"\r": "enter", "\n": "enter", "\x7f": "backspace", "\x08": "backspace", "\x03": "ctrl-c", "\x04": "ctrl-d",
            "\t": "tab"}


def parse_keys(data: str) -> tuple[list[str], str]:
    """Key names in ``data``, and what is left over (an escape sequence not complete yet)."""
    keys: list[str] = []
    i = 0
    while i < len(data):
        ch = data[i]
        if ch != "\x1b":
            keys.append(_CONTROL.get(ch, ch))
            i += 1
            continue
        if i + 1 == len(data):
            return keys, data[i:]
        nxt = data[i + 1]
        if nxt == "O":  # SS3: application cursor keys
            if i + 2 == len(data):
                return keys, data[i:]
            keys.append(_CSI.get(data[i + 2], "escape"))
            i += 3
        elif nxt == "[":
            j = i + 2
            while j < len(data) and not ("@" <= data[j] <= "~"):
                j += 1
            if j == len(data):
                return keys, data[i:]
            body = data[i + 2:j + 1]
            params, final = body[:-1], body[-1]
            key = _CSI.get(f"{params.split(';')[0]}~") if final == "~" else _CSI.get(final)
            keys.append(key or "escape")
            i = j + 1
        else:
            keys.append("escape")
            i += 1
    return keys, ""


class Keyboard:
    """Keys from a terminal in cbreak mode, restored on exit."""

    def __init__(self, fd: int) -> None:
        self.fd = fd
        self.pending = ""

    def __enter__(self) -> "Keyboard":
        import termios
        import tty

        self._saved = termios.tcgetattr(self.fd)
        tty.setcbreak(self.fd)
        return self

    def __exit__(self, *exc: object) -> None:
        import termios

        termios.tcsetattr(self.fd, termios.TCSADRAIN, self._saved)

    def _ready(self, timeout: float) -> bool:
        return bool(select.select([self.fd], [], [], timeout)[0])

    def read(self, timeout: float) -> list[str] | None:
        """The keys typed so far (several if they came fast), or ``None`` after ``timeout`` seconds; ``[]`` at end of input."""
        if not self._ready(timeout):
            return None
        data = os.read(self.fd, 1024)
        if not data:
            return ["ctrl-d"]
        text = self.pending + data.decode("utf-8", "replace")
        keys, self.pending = parse_keys(text)
        while self.pending and self._ready(0.05):  # the rest of an escape sequence
            more = os.read(self.fd, 1024)
            if not more:
                break
            keys2, self.pending = parse_keys(self.pending + more.decode("utf-8", "replace"))
            keys += keys2
        if self.pending:  # a lone Esc
            keys += ["escape"] * self.pending.count("\x1b") or ["escape"]
            self.pending = ""
        return keys


def _interactive(replayer: Replayer, start: int) -> None:
    """The key loop: read keys, move, draw; while no key comes, draw the likely next frames off screen."""
    cursor = Cursor(at=start)
    screen = console
    size = screen.size
    replayer.plan(cursor.at)
    busy = True
    with Keyboard(sys.stdin.fileno()) as keyboard, Live(
        replayer.frame(cursor, screen), console=screen, screen=True, auto_refresh=False,
        redirect_stdout=False, redirect_stderr=False,
    ) as live:
        try:
            while not cursor.quit:
                keys = keyboard.read(0 if busy else 0.25)
                if keys is None:
                    if screen.size != size:  # the terminal was resized
                        size = screen.size
                        live.update(replayer.frame(cursor, screen), refresh=True)
                        replayer.plan(cursor.at)
                        busy = True
                    elif busy:
                        busy = replayer.idle(screen)
                    continue
                for key in keys:
                    cursor = press(replayer.nav, cursor, "q" if key == "ctrl-d" else key)
                    if cursor.quit:
                        break
                if not cursor.quit:
                    size = screen.size
                    live.update(replayer.frame(cursor, screen), refresh=True)
                    replayer.plan(cursor.at)
                    busy = True
        except KeyboardInterrupt:  # Ctrl-C: leave like q
            pass
        finally:  # a blank screen last: a terminal resized meanwhile may keep rows of it after leaving
            live.update(Text(""), refresh=True)


@contextmanager
def _replayer(game_ref: str, db: Optional[Path], catalog_file: Optional[Path]) -> Iterator[Replayer]:
    with game_ref_opened(game_ref, db, catalog_file) as (game, _):
        try:
            replayer = Replayer(game)
        except TimelineError as exc:
            fail(f"{game.name}: {exc}")
    yield replayer


@COMMANDS("replay")
def replay_command(
    game_ref: str = GameArgument,
    at: Optional[int] = typer.Option(
        None, "--at", help="Print the table after this many entries (0: before the first) with its event, and exit."
    ),
    db: Optional[Path] = DbOption,
    catalog_file: Optional[Path] = CatalogOption,
    as_json: bool = JsonOption,
) -> None:
    """Step through a game in the terminal: every table, entry by entry, with jumps by phase, round, bookmark and player.

    ←/→ (h/l): one entry back/forward · ↑/↓ (k/j): previous/next phase

    PgUp/PgDn (or [ and ]): previous/next round · Home/End: first/last

    g N Enter: go to entry N · b/B: next/previous bookmark or note

    p X / P X: next/previous decision of player X (initial or number) · ?: help · q: quit

    Without a terminal, or with --at N, prints one frame (the event, what it changed on the table, and the
    whole board) and exits; --json prints entry N's changes (default: the last entry's).

    Example: [bold]coimbra replay fixtures/games/standin-3p-seed2.json[/]
    """
    with _replayer(game_ref, db, catalog_file) as replayer:
        if at is not None and not 0 <= at <= replayer.nav.last:
            fail(f"no table after {at} entries: the game has {replayer.nav.last}; choose 0 to {replayer.nav.last}")
        if as_json:
            n = replayer.nav.last if at is None else at
            print_json({"game": replayer.game.name, "seq": n, "changes": [c.to_json() for c in replayer.line.changes[n]]})
            return
        if at is not None or not (sys.stdin.isatty() and sys.stdout.isatty()):
            console.print(replayer.still(at or 0))
            return
        _interactive(replayer, 0)


__all__ = ["COMMANDS", "Keyboard", "Replayer", "parse_keys", "replay_command"]
