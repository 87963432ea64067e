"""What the replayer shows of a game's analysis (``coimbra analyse``): each decision's grade, the winning chances.

``Graded`` indexes the analysis read model (``projections.analysis``) by entry: the
decision an entry made with its grade, the luck of a random outcome, and every
player's chance of finishing first after each entry (the curve). The renderables
here draw a grade as a mark (lichess's ``?!``, ``?``, ``??``; ``★`` for the best
option, ``✓`` for a good one) and the curve as one line of blocks per player, as wide
as the pane, the column of the entry shown reversed; "pp" are percentage points of
the chance of finishing first.
"""

from __future__ import annotations

from bisect import bisect_right
from typing import Any

from rich.console import Console, ConsoleOptions, RenderResult
from rich.text import Text

from cli.views import progress_bar
from coimbra_events.game import Game

GRADE_MARKS = {"best": "★", "good": "✓", "inaccuracy": "?!", "mistake": "?", "blunder": "??"}
GRADE_STYLES = {"best": "bold green", "good": "green", "inaccuracy": "bold yellow", "mistake": "bold dark_orange",
                "blunder": "bold red"}
LEVELS = "▁▂▃▄▅▆▇█"
"""A chance of 0 to 1 as the height of a block."""


def analysis_of(game: Game, compute: bool) -> dict[str, Any] | None:
    """The analysis to show with a game: the newest kept for its record as it is now (never one of the record
    before a correction: it is kept by the record's head), else, when ``compute`` is asked, one made now with
    ``coimbra analyse``'s defaults (minutes; a progress bar on stderr), else ``None``."""
    from projections.analysis import analysis_for, latest_analysis  # imported here: the analysis engine is large

    log = game.to_log()
    found = latest_analysis(log)
    if found is not None or not compute:
        return found
    with progress_bar("analysing every decision") as bar:
        task = bar.add_task("analysing", total=None)
        return analysis_for(log, game.catalog, progress=lambda done, total: bar.update(task, completed=done, total=total))


class Graded:
    """An analysis read model, looked up by entry (``seq``): what the replayer asks of it at each step."""

    def __init__(self, report: dict[str, Any], colors: dict[str, str]) -> None:
        self.report = report
        self.players: list[str] = report["players"]
        self.colors = colors
        self.decisions = {d["seq"]: d for d in report["decisions"]}
        self.luck = {u["seq"]: u for u in report["luck"]}
        self.curve = report["curve"]
        self._seqs = [point["seq"] for point in self.curve]

    def point_at(self, n: int) -> int | None:
        """The curve point of the table after ``n`` entries: the last one at or before entry ``n``."""
        k = bisect_right(self._seqs, n) - 1
        return k if k >= 0 else None

    def of(self, seq: int) -> dict[str, Any] | None:
        """What the analysis says of entry ``seq``: its decision graded, or its outcome's luck (``None``: neither)."""
        return self.decisions.get(seq) or self.luck.get(seq)

    def mark(self, seq: int) -> Text:
        """The grade of the decision entry ``seq`` made, as its mark (blank for any other entry)."""
        decision = self.decisions.get(seq)
        if decision is None:
            return Text("   ")
        grade = decision["grade"]
        return Text(f"{GRADE_MARKS[grade]:<2} ", style=GRADE_STYLES[grade])

    def grade(self, seq: int) -> Text | None:
        """The grade of the decision entry ``seq`` made, as its mark and its name (``?? blunder``)."""
        decision = self.decisions.get(seq)
        if decision is None:
            return None
        grade = decision["grade"]
        return Text(f"{GRADE_MARKS[grade]} {grade}", style=GRADE_STYLES[grade])

    def details(self, seq: int) -> list[Text]:
        """Entry ``seq`` graded, a line at a time: the grade with the winning chances lost (percentage points),
        their 95 % interval, and the best option when another was played; or the luck of a random outcome."""
        decision = self.decisions.get(seq)
        if decision is None:
            luck = self.luck.get(seq)
            if luck is None:
                return [Text("no decision or outcome graded here", style="dim")]
            return [Text("luck: " + ", ".join(f"{name} {points:+.1f} pp" for name, points in luck["luck"].items()),
                         style="cyan", no_wrap=True, overflow="ellipsis")]
        grade = self.grade(seq)
        assert grade is not None
        if decision["forced"]:
            return [grade.append(" (the only option)", style="dim")]
        low, high = decision["interval"]
        if decision["loss"]:
            grade.append(f" −{decision['loss']:.1f} pp", style="")
        lines = [grade, Text(f"95 %: {low:.1f} to {high:.1f}{', certain' if decision['certain'] else ''}", style="dim")]
        if decision["grade"] != "best" and decision["best"] != decision["played"]:
            lines.append(Text(f"best: {decision['best']}", style="dim", no_wrap=True, overflow="ellipsis"))
        return lines

    def panel(self, n: int) -> Curve:
        """The winning chances of every player through the game, entry ``n`` marked, and entry ``n`` graded."""
        return Curve(self, n)


class Curve:
    """Every player's chance of finishing first, entry by entry, as one line of blocks each, fitted to the width."""

    def __init__(self, graded: Graded, n: int) -> None:
        self.graded = graded
        self.n = n

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        graded = self.graded
        points = graded.curve
        name_width = min(8, max(len(name) for name in graded.players))
        width = max(1, min(len(points), options.max_width - name_width - 6))
        here = graded.point_at(self.n)
        column = None if here is None else here * width // len(points)
        for name in graded.players:
            line = Text(f"{name[:name_width]:<{name_width}} ", no_wrap=True, overflow="crop")
            for c in range(width):
                chance = points[min(len(points) - 1, ((c + 1) * len(points) - 1) // width)]["win"][name]
                block = LEVELS[min(len(LEVELS) - 1, int(chance * len(LEVELS)))]
                line.append(block, style=f"{graded.colors.get(name, '')}{' reverse' if c == column else ''}")
            shown = "" if here is None else f" {points[here]['win'][name] * 100:3.0f}%"
            yield line.append(shown)
        yield from graded.details(self.n)
