"""What ``coimbra replay`` shows of a game at each entry, as Rich renderables.

``Replay`` folds the game once (``projections.timeline``), indexes it for
moving (``projections.navigation``) and lists its entries with their marks
(``projections.entries``); every view of an entry is then built from those, and
kept once built. The full-screen replayer (``cli.replay_app``, Textual) shows
these renderables in its panes; a pipe or ``--at N`` prints them as one frame
(``still``).
"""

from __future__ import annotations

from typing import Any

from rich.console import Group, RenderableType
from rich.markup import escape
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from cli.analysis_views import Graded
from cli.board_views import DrawnParts, board_panel, player_board, player_boards
from cli.change_views import as_json, changes_view, final_scores_view
from cli.presenter import event_words
from cli.replay_keys import KEYS
from cli.terminal import escape_controls
from cli.views import score_details, score_table
from coimbra_events.game import Game
from coimbra_events.state import GAME_OVER
from projections.board import PHASE_NAMES, board_view
from projections.entries import EntryRow, entry_rows
from projections.naming import said
from projections.navigation import Mark, Navigator, marks_of
from projections.scores import score_report
from projections.timeline import timeline
from projections.words import entry_words, quiet_words


class Replay:
    """A game folded once, with everything the replayer shows of each entry, built when first asked for;
    with its analysis (``projections.analysis``'s read model), each decision's grade and the winning chances too."""

    def __init__(self, game: Game, analysis: dict[str, Any] | None = None) -> None:
        self.game = game
        self.line = timeline(game)
        colors = {p.name: p.color for p in self.line.final.players}
        self.graded = Graded(analysis, colors) if analysis is not None else None
        self.nav = Navigator(self.line, marks_of(game))
        self.rows: list[EntryRow] = entry_rows(game.events, game.line, game.replay.skipped)
        self.texts = [said(game.catalog, e, monasteries=dict(game.state.monasteries)) for e in game.events]
        self._views: dict[int, dict[str, Any]] = {}
        self._changes: dict[int, list[dict[str, Any]]] = {}
        self.parts = DrawnParts()

    def view(self, n: int) -> dict[str, Any]:
        """The board read model after ``n`` entries."""
        view = self._views.get(n)
        if view is None:
            view = self._views[n] = board_view(self.line.states[n])
        return view

    def changes(self, n: int) -> list[dict[str, Any]]:
        """What entry ``n`` changed on the table, as ``{"who", "what", "from", "to", "rule", "facts"}`` items:
        the consequences read model's, each with the rule that caused it (``Timeline.changes``)."""
        found = self._changes.get(n)
        if found is None:
            found = self._changes[n] = as_json(self.line.changes[n])
        return found

    def neighbours(self, n: int) -> list[int]:
        """Where the next key most likely goes from ``n``: one step either way, the phase, round and mark jumps, the ends."""
        nav = self.nav
        near = [n + 1, n - 1, nav.next_phase(n), nav.previous_phase(n), nav.next_round(n), nav.previous_round(n),
                nav.next_mark(n), nav.previous_mark(n), 0, nav.last, n + 2]
        return [m for m in dict.fromkeys(near) if m is not None and 0 <= m <= nav.last and m != n]

    # -- renderables

    def where(self, n: int) -> str:
        """The round and phase of table ``n``: ``round 1 · phase B: drafting and placing dice``."""
        view = self.view(n)
        return f"round {view['round']} · " + ("game over" if view["phase"] == GAME_OVER else f"phase {PHASE_NAMES[view['phase']]}")

    def event_panel(self, n: int) -> Panel:
        """The entry that led to table ``n``, in words, with what the record says about it.

        Its title names the round and phase the entry was played in (table
        ``n - 1``'s, as the move list heads it); an entry that ends a phase
        says, below it, which phase the table enters.
        """
        event = event_words(self.game, n)
        title = f"entry {n} of {event['of']} · {self.where(max(n - 1, 0))}"
        lines: list[Text] = []
        if n:
            first = Text.assemble(("▶ ", "bold"), (self.texts[n - 1], "bold"))
            for mark in self.rows[n - 1].marks:
                first.append(f"  ◆ {mark}", style="bold magenta")
            grade = self.graded.grade(n) if self.graded else None
            if grade is not None:
                first.append("  ").append(grade)
            lines.append(first)
            words = entry_words(self.line.states[n - 1], self.game.events[n - 1])
            lines.append(Text(f"  {words}", style="dim" if event["actor"] == "table" else ""))
            if self.where(n) != self.where(n - 1):
                lines.append(Text(f"  → the table enters {self.where(n)}", style="bold blue"))
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

    def board(self, n: int, boards: bool = False) -> RenderableType:
        title = f"{self.game.name} · after {n} of {self.game.entries} entries"
        return board_panel(self.view(n), title=escape(title), drawn=self.parts, boards=boards)

    def players(self, n: int, only: str | None = None) -> RenderableType:
        """Every player's side of table ``n`` (in player order), or only the side of the player named ``only``."""
        if only is None:
            return Group(*player_boards(self.view(n)))
        view = self.view(n)
        return Group(*(player_board(p, view) for p in view["players"] if p["name"] == only))

    def scores(self, n: int) -> RenderableType:
        """The score pad at table ``n``: the final scores and who won once the game is over, else the scores so far."""
        report = score_report(self.line.states[n])
        pad = final_scores_view(report) if report["final"] else score_table(report)
        return Group(pad, Text(""), score_details(report, self.line.final.catalog))

    def change_list(self, n: int) -> RenderableType:
        """The current entry's changes, one a line: who, what, from → to, and the rule with what decided it."""
        if not n:
            return Text("the table before the first entry", style="dim")
        unchanged = quiet_words(self.game.events[n - 1], self.line.states[n])
        return changes_view(self.changes(n), catalog=self.line.final.catalog, empty=unchanged)

    def entry_line(self, row: EntryRow) -> Text:
        """One entry of the list: number, the entry in words, and its marks."""
        style = "dim" if not row.in_line else ""
        text = Text.assemble((f"{row.seq:>4} ", "dim"), no_wrap=True, overflow="ellipsis")
        if self.graded:
            text.append(self.graded.mark(row.seq))
        for mark in row.marks:
            text.append(f"[{mark}] ", style="magenta")
        text.append(escape_controls(self.texts[row.seq - 1]), style)
        return text

    def analysis_panel(self, n: int) -> RenderableType:
        """Every player's winning chances through the game with entry ``n`` marked, and entry ``n``'s grade."""
        if self.graded is None:
            return Text("not analysed: coimbra analyse GAME, then replay again", style="dim")
        return self.graded.panel(n)

    def help_panel(self) -> Panel:
        table = Table(show_header=False, box=None, padding=(0, 2))
        table.add_column(style="bold", no_wrap=True)
        table.add_column()
        for keys, what in (*KEYS, *APP_KEYS):
            table.add_row(keys, what)
        table.add_row("", "")
        table.add_row("players", self.nav.player_keys())
        return Panel(table, title="keys", border_style="green")

    def still(self, n: int) -> RenderableType:
        """One frame for a pipe or ``--at``: the entry, what it changed, and the whole board with every player's side."""
        analysis = [Panel(self.analysis_panel(n), title="winning chances", title_align="left")] if self.graded else []
        return Group(self.event_panel(n), *analysis, Panel(self.change_list(n), title="changes", title_align="left"),
                     self.board(n, boards=True))


APP_KEYS: tuple[tuple[str, str], ...] = (
    ("f", "the line of play only, or every entry (corrected and withdrawn ones too)"),
    ("v", "switch the main pane: board or every player's side"),
    ("1 2 3 4", "one player's side alone (numbered as p numbers them)"),
    ("s", "the score pad: the final scores at game over, the scores so far before"),
    ("shift ↑↓ PgUp PgDn", "scroll the board or players pane (the mouse wheel too)"),
)
"""Keys of the full-screen replayer beyond moving (``cli.replay_keys.KEYS``)."""


__all__ = ["APP_KEYS", "Replay"]
