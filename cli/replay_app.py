"""The full-screen replayer of ``coimbra replay``: a Textual app of small panes.

Panes: the current entry (top), the entry list with what became of each entry
(and each decision's grade, when the game is analysed), the winning chances of an
analysed game and the current entry's changes (left), and the board or the players' sides of
the table (right; side by side on a wide terminal). Every key goes to
``cli.replay_keys.press``, which says where the cursor goes; the app
only shows the ``Replay`` views (``cli.replay_views``) of where it is. The
layout and colours are in ``replay_app.tcss``.

Imported only by the ``replay`` command when it runs in a terminal: Textual
costs about 110 ms to import, and no other command needs it.
"""

from __future__ import annotations

import dataclasses
import gc
from typing import Callable, Hashable

from rich.console import RenderableType
from rich.segment import Segment
from rich.text import Text
from textual import events
from textual.app import App, ComposeResult
from textual.containers import Horizontal, Vertical
from textual.css.scalar import Scalar
from textual.geometry import Size
from textual.scroll_view import ScrollView
from textual.strip import Strip
from textual.widgets import OptionList, Static
from textual.visual import VisualType
from textual.widgets.option_list import Option

from cli.replay_views import Replay
from cli.terminal import Escaped
from cli.replay_keys import FOOTER, Cursor, press

FOOTER_SHORT = "←→ ↑↓ PgUp/PgDn Home/End g b/B p/P /  ? help  q quit"
"""The key line for a terminal too narrow for ``FOOTER``."""

WIDE = 200
"""From this many columns on, the board and the players are shown side by side."""

KEY_NAMES = {"pageup": "pgup", "pagedown": "pgdn", "ctrl+c": "ctrl-c", "ctrl+d": "q", "space": " "}
"""Textual's key names where ``cli.replay_keys`` names a key otherwise."""

IDLE_STEP = 0.02
"""Seconds between two pieces of the work done while no key comes (``ReplayApp.idle``)."""

SCROLL_KEYS = {"shift+down": 1, "shift+up": -1, "shift+pagedown": 10, "shift+pageup": -10}
"""Keys that scroll the main pane, and by how many lines (a page: ten)."""


GROWTH = 16
"""A pane's scrollable height grows by this many lines at a time (its scrollbar keeps its size over a few steps)."""
LINES_KEPT = 4096
"""Drawn views kept per pane (by what they show and the pane's width): a whole game's worth."""


def entry_height(screen: int) -> int:
    """The most lines the entry pane takes: a third of the screen (eight at 80x24), its borders included."""
    return max(4, screen // 3)


class LinesPane(ScrollView):
    """A scrollable pane showing one Rich renderable, drawn once per (what it shows, width) and then reused.

    Drawing a board with Rich is most of a step; a pane keeps the lines it
    drew, so stepping back, or to an entry drawn ahead (``draw_ahead``),
    only copies lines to the screen. Its size comes from the layout, never
    from its content, so showing another entry needs no new layout.
    """

    can_focus = False

    def __init__(self, *, id: str) -> None:
        super().__init__(id=id)
        self.fit: int | None = None
        """If set, the pane is as high as what it shows, up to this many lines (a layout only when that changes)."""
        self._lines: list[Strip] = []
        self._kept: dict[tuple[Hashable, int], list[Strip]] = {}
        self._shown: tuple[Hashable, Callable[[], RenderableType]] | None = None

    def show(self, key: Hashable, make: Callable[[], RenderableType]) -> None:
        """Show what ``make()`` draws, known as ``key``; drawn only if not drawn at this width before."""
        if self._shown is not None and self._shown[0] == key:
            return
        self._shown = (key, make)
        before, self._lines = self._lines, self.lines(key, make)
        if self.fit is not None and self.styles.height != (high := Scalar.from_number(min(len(self._lines), self.fit))):
            self.styles.height = high
        lines, seen, view = len(self._lines), self.virtual_size.height, self.scrollable_content_region.height
        fits = lines <= view
        height = view if fits else max(seen, -(-lines // GROWTH) * GROWTH)  # all of it in view: no scrollbar
        if height != seen and (fits or height > seen) or self.virtual_size.width != self._width():
            self._scroll_height(Size(self._width(), height))  # only to grow, or when it all fits again
        self._refresh_changed(before)

    def _scroll_height(self, size: Size) -> None:
        """A new scrollable size, with no layout of the screen (Textual lays out for any new ``virtual_size``, but
        this pane's size comes from the layout): one comes only if the scrollbar appears or goes."""
        self.set_reactive(ScrollView.virtual_size, size)
        self._scroll_update(size)

    def _refresh_changed(self, before: list[Strip]) -> None:
        """Repaint only the lines in view that differ from ``before``: a step changes a few lines of a board."""
        top = self.scroll_offset.y
        for y in range(top, top + self.scrollable_content_region.height):
            old = before[y] if y < len(before) else None
            new = self._lines[y] if y < len(self._lines) else None
            if old is not new and old != new:
                self.refresh_line(y)

    def lines(self, key: Hashable, make: Callable[[], RenderableType]) -> list[Strip]:
        """The lines of ``make()`` at this pane's width, drawn now unless kept from before."""
        width = self._width()
        found = self._kept.get((key, width))
        if found is None:
            if len(self._kept) >= LINES_KEPT:
                self._kept.clear()
            console = self.app.console
            drawn = console.render_lines(Escaped(make()), console.options.update(width=width, height=None), pad=True)
            found = self._kept[(key, width)] = [Strip(Segment.simplify(line), width) for line in drawn]
        return found

    def _width(self) -> int:
        return max(self.scrollable_content_region.width, 20)

    def on_resize(self, event: events.Resize) -> None:
        shown, self._shown = self._shown, None
        if shown is not None:
            self.show(*shown)

    @property
    def text(self) -> str:
        """Everything the pane holds (scrolled into view or not), as plain text."""
        return "\n".join(line.text.rstrip() for line in self._lines)

    def render_line(self, y: int) -> Strip:
        scroll_x, scroll_y = self.scroll_offset
        k = y + scroll_y
        width = self.scrollable_content_region.width
        if k >= len(self._lines):
            return Strip.blank(width, self.rich_style)
        return self._lines[k].crop(scroll_x, scroll_x + width)


class EntryList(OptionList):
    """Every entry of the record (or the line of play only), the current one highlighted.

    A step wraps the current entry and cuts the one before back to one line:
    only those two entries are measured and drawn again. ``OptionList`` itself
    forgets every entry's lines and height on any such change (and on any
    resize), and a new height of the list's content asks it for a layout of
    the whole screen: a step drew the list whole and laid out every pane.
    """

    can_focus = False

    def __init__(self, *, id: str) -> None:
        super().__init__(id=id)
        self._drawn_width: int | None = None
        """The width the entries were measured and drawn at."""

    def _replace_option_prompt(self, index: int, prompt: VisualType) -> None:
        """Give entry ``index`` another prompt, forgetting the lines and height of that entry alone."""
        option = self.get_option_at_index(index)
        option._set_prompt(prompt)
        drawn = self._option_render_cache
        for key in [key for key in drawn.keys() if key[0] is option]:
            drawn.discard(key)
        measured = self._line_cache
        if index in measured.heights:
            width = self.scrollable_content_region.width - self._get_left_gutter_width()
            padding = self.get_component_styles("option-list--option").padding
            high = self._get_visual(option).get_height(self.styles, width - padding.width) + option._divider
            if high != measured.heights[index]:
                self._measured_from(index, high)
        self.refresh()

    def _measured_from(self, index: int, high: int) -> None:
        """Entry ``index`` is ``high`` lines now: the entries after it move, and the content's height changes
        without a layout (the list's own size comes from the layout, never from its entries)."""
        measured = self._line_cache
        measured.heights[index] = high
        lines = measured.lines
        del lines[measured.index_to_line[index]:]
        for k in range(index, len(self.options)):
            if k not in measured.heights:
                break
            measured.index_to_line[k] = len(lines)
            lines.extend((k, y) for y in range(measured.heights[k]))
        size = Size(self.virtual_size.width, len(lines) - (1 if self.options[-1]._divider else 0))
        self.set_reactive(OptionList.virtual_size, size)
        self._scroll_update(size)

    def on_resize(self, event: events.Resize) -> None:
        """Keep the current entry in view, all its lines, when the entry pane above grows or shrinks; the entries
        are measured and drawn again only for a new width (``OptionList`` would for any new size)."""
        event.prevent_default()
        if event.size.width != self._drawn_width:
            self._drawn_width = event.size.width
            self._clear_caches()
        self.call_after_refresh(self.scroll_to_highlight)


class KeyLine(Static):
    """The bottom line: what is being typed, the last message, or the keys."""


class ReplayApp(App[None]):
    """Step through a game: every key moves the cursor, the panes show the table there."""

    CSS_PATH = "replay_app.tcss"
    ENABLE_COMMAND_PALETTE = False

    def __init__(self, replay: Replay, start: int = 0) -> None:
        super().__init__()
        self.replay = replay
        self.cursor = Cursor(at=start)
        self.line_only = False
        self.showing_players = False
        self.only: str | None = None
        """The player whose side alone the players pane shows (a digit key), or ``None``: every player's."""
        self.showing_score = False
        self.shown_rows = list(replay.rows)
        self._highlighted: int | None = None
        self._ahead: list[int] = []
        self._unsettled = False
        self._panes: dict[str, LinesPane] = {}

    def compose(self) -> ComposeResult:
        yield LinesPane(id="entry")
        with Horizontal(id="body"):
            with Vertical(id="side"):
                yield EntryList(id="entries")
                yield LinesPane(id="analysis")
                yield LinesPane(id="changes")
            with Horizontal(id="main"):
                yield LinesPane(id="board")
                yield LinesPane(id="players")
                yield LinesPane(id="score")
                yield LinesPane(id="help")
        yield KeyLine(id="keys")

    def on_mount(self) -> None:
        self.set_interval(IDLE_STEP, self.idle)
        self.pane("entry").fit = entry_height(self.size.height)
        self.pane("changes").border_title = "changes"
        self.query_one("#entries").border_title = "entries"
        if self.replay.graded is not None:
            self.set_class(True, "analysed")
            analysis = self.pane("analysis")
            analysis.border_title = "winning chances"
            analysis.styles.height = len(self.replay.graded.players) + 5  # a player a line, the grade in up to three, the border

        self._fill_entries()
        self._layout(self.size.width)
        self.show()

    def on_resize(self, event: events.Resize) -> None:
        self.pane("entry").fit = entry_height(event.size.height)
        self._highlighted = None  # the current entry is wrapped again at the list's new width
        self._layout(event.size.width)
        self.show()

    def _layout(self, width: int) -> None:
        shown = ((width >= WIDE, "wide"), (self.showing_players, "players-shown"), (self.showing_score, "score-shown"))
        for on, name in shown:
            if on != self.has_class(name):
                self.set_class(on, name)

    # -- keys

    def on_key(self, event: events.Key) -> None:
        event.stop()
        event.prevent_default()
        key = event.key
        if key in SCROLL_KEYS and self.cursor.prompt is None:
            self.main_pane().scroll_relative(y=SCROLL_KEYS[key], animate=False)
            return
        if self.cursor.prompt is None and not self.cursor.help and self.view_key(key):
            return
        name = KEY_NAMES.get(key) or (event.character if event.character and event.character.isprintable() else key)
        moved = press(self.replay.nav, self.cursor, name)
        if moved.quit:
            self.exit()
            return
        self.cursor = moved
        self.show()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        """A click on an entry goes there."""
        row = self.shown_rows[event.option_index]
        self.cursor = dataclasses.replace(self.cursor, at=row.seq, message="", prompt=None, typed="")
        self.show()

    def toggle_line_only(self) -> None:
        """Every entry, or only the plays in the line of play (corrected, withdrawn and history entries hidden)."""
        self.line_only = not self.line_only
        self._fill_entries()
        self.cursor = dataclasses.replace(
            self.cursor, message="the line of play only" if self.line_only else "every entry of the record")
        self.show()

    def view_key(self, key: str) -> bool:
        """Keys that change what the panes show, not where the cursor is: ``f``, ``v``, ``s`` and a player's number."""
        players = self.replay.nav.players
        if key == "f":
            self.toggle_line_only()
        elif key == "v":
            self.switch_pane(not self.every_side_shown, None)
        elif key == "s":
            self.showing_score = not self.showing_score
            self._layout(self.size.width)
            self.show()
        elif key.isdigit() and 1 <= int(key) <= len(players):
            self.switch_pane(True, players[int(key) - 1])
        else:
            return False
        return True

    @property
    def every_side_shown(self) -> bool:
        """Whether the main pane shows every player's side (``v`` then goes back to the board)."""
        return self.showing_players and self.only is None and not self.showing_score

    def switch_pane(self, players: bool, only: str | None) -> None:
        """Show the board, or the players' sides (``only`` one player's), in place of the score pad if it was shown."""
        if only != self.only:
            self.pane("players").scroll_home(animate=False)  # a side shown alone shows from its top
        self.showing_players, self.only, self.showing_score = players, only, False
        self._layout(self.size.width)
        self.show()

    def main_pane(self) -> LinesPane:
        """The pane the scroll keys move: the score pad if shown, else the players if shown alone or wide, else the board."""
        shown = self.showing_players or self.has_class("wide")
        return self.pane("score" if self.showing_score else "players" if shown else "board")

    def pane(self, name: str) -> LinesPane:
        found = self._panes.get(name)
        if found is None:
            found = self._panes[name] = self.query_one(f"#{name}", LinesPane)
        return found

    # -- drawing

    def _fill_entries(self) -> None:
        rows = [r for r in self.replay.rows if r.in_line] if self.line_only else list(self.replay.rows)
        self.shown_rows = rows
        entries = self.query_one(EntryList)
        entries.clear_options()
        entries.add_options([Option(self.replay.entry_line(r)) for r in rows])
        self._highlighted = None

    def show(self) -> None:
        """Show the panes for where the cursor stands; a pane already showing that entry is left as it is."""
        n = self.cursor.at
        replay = self.replay
        self.pane("entry").show(n, lambda: replay.event_panel(n))
        self._highlight(n)
        self.pane("changes").show(n, lambda: replay.change_list(n))
        if replay.graded is not None:
            self.pane("analysis").show(n, lambda: replay.analysis_panel(n))
        help_shown = self.cursor.help
        if help_shown != self.has_class("help-shown"):
            self.set_class(help_shown, "help-shown")
        if help_shown:
            self.pane("help").show("help", replay.help_panel)
        if self.showing_score:
            self.pane("score").show(n, lambda: replay.scores(n))
        wide, only = self.has_class("wide"), self.only
        if wide or not self.showing_players:
            self.pane("board").show(n, lambda: replay.board(n))
        if wide or self.showing_players:
            self.pane("players").show((n, only), lambda: replay.players(n, only))
        keys = self.key_line()
        line = self.query_one(KeyLine)
        if line.content != keys:
            line.update(keys, layout=False)
        self._ahead = self.replay.neighbours(n)

    def idle(self) -> None:
        """While no key comes: draw the entries the next key most likely shows, then settle the garbage collector.

        Drawing ahead makes the next step a copy of lines kept; then, once,
        everything kept so far is collected and frozen out of the collector's
        later passes (the kept lines are many small objects: a full pass over
        them during a step would cost a frame or ten).
        """
        if self._ahead and self.is_running:
            n = self._ahead.pop(0)
            replay, only = self.replay, self.only
            for name, key, make in (("changes", n, lambda: replay.change_list(n)), ("board", n, lambda: replay.board(n)),
                                    ("players", (n, only), lambda: replay.players(n, only)),
                                    ("entry", n, lambda: replay.event_panel(n))):
                pane = self.pane(name)
                if pane.display and pane.size.width:
                    pane.lines(key, make)
            self._unsettled = True
            return
        if self._unsettled:
            self._unsettled = False
            gc.collect()
            gc.freeze()

    def _highlight(self, n: int) -> None:
        """Highlight the entry that led to table ``n`` (or the last shown before it), written out whole, wrapped."""
        entries = self.query_one(EntryList)
        if self._highlighted == n or entries.option_count != len(self.shown_rows):
            return  # shown already, or the list is not filled yet
        self._highlighted = n
        k = next((i for i in range(len(self.shown_rows) - 1, -1, -1) if self.shown_rows[i].seq <= n), None)
        before = entries.highlighted
        if before is not None and before != k:
            entries.replace_option_prompt_at_index(before, self.replay.entry_line(self.shown_rows[before]))
        if k is not None:
            entries.replace_option_prompt_at_index(k, self._wrapped(self.replay.entry_line(self.shown_rows[k])))
        entries.highlighted = k
        if k is not None:
            entries.scroll_to_highlight()

    def _wrapped(self, line: Text) -> Text:
        """``line`` broken into lines as wide as the entry list (which cuts every other entry to one line)."""
        width = max(self.query_one(EntryList).scrollable_content_region.width, 20)
        whole = line.copy()
        whole.no_wrap, whole.overflow = False, "fold"
        return Text("\n").join(whole.wrap(self.console, width))

    def key_line(self) -> Text:
        cursor = self.cursor
        if cursor.prompt == "goto":
            return Text.assemble(("go to entry: ", "bold"), (cursor.typed + "▏", "reverse"),
                                 f"  (0 to {self.replay.nav.last}; Enter jumps, Esc cancels)")
        if cursor.prompt in ("next-player", "previous-player"):
            which = "next" if cursor.prompt == "next-player" else "previous"
            return Text.assemble((f"{which} decision of: ", "bold"), self.replay.nav.player_keys(),
                                 "  (initial or number; Esc cancels)")
        if cursor.prompt == "search":
            return Text.assemble(("find in notes: ", "bold"), (cursor.typed + "▏", "reverse"), "  (Enter finds, Esc cancels)")
        if cursor.message:
            return Text.assemble((cursor.message, "yellow"), "  ·  ? help  q quit")
        if cursor.at == self.replay.nav.last and self.replay.game.over and not self.showing_score:
            return Text.assemble(("game over: s shows the final scores", "yellow"), "  ·  ? help  q quit")
        other = "board" if self.every_side_shown else "players"
        sides = f"1-{len(self.replay.nav.players)}"
        full = f"{FOOTER}  f line of play  v {other}  {sides} a player  s score"
        return Text(full if len(full) <= self.size.width else f"{FOOTER_SHORT}  f v {sides} s", style="dim")


__all__ = ["ReplayApp"]
