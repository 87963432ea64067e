"""How a running tournament is printed: a round's tables with their games, the standings, the tournaments."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rich.markup import escape
from rich.padding import Padding
from rich.table import Table

from cli.common import console

if TYPE_CHECKING:
    from coimbra_events.service.tournament_progress import Progress, SeatedRound


def number(value: float) -> str:
    """Points as people read them: ``3``, ``2.33`` (a share of places)."""
    return f"{value:g}" if value == int(value) else f"{value:.2f}"


def show_round(seated: SeatedRound, started: dict[int, str] | None = None) -> None:
    """A round's tables: each one's game, its state and its players in seat order; then why anyone meets again."""
    seats = max(len(t.players) for t in seated.tables)
    grid = Table(title=f"Round {seated.number}", title_justify="left")
    for column in ("table", "game", "state", *("first" if s == 1 else f"seat {s}" for s in range(1, seats + 1))):
        grid.add_column(column, justify="right" if column == "table" else "left")
    for table in seated.tables:
        state = "started now" if started and table.number in started else table.state
        grid.add_row(str(table.number), escape(", ".join(g.name for g in table.games) or "-"), state,
                     *(escape(name) for name in table.players))
    console.print(grid)
    for sentence in seated.explanations:
        console.print(Padding(escape(sentence), (0, 0, 0, 2)))


def show_standings(lines: list[dict[str, Any]], title: str) -> None:
    """The standings: rank, player, tournament points, then the tie-breaks."""
    grid = Table(title=title, title_justify="left")
    for column in ("rank", "player", "points", "scored", "opponents"):
        grid.add_column(column, justify="left" if column == "player" else "right")
    for line in lines:
        grid.add_row(str(line["rank"]), escape(line["player"]), number(line["points"]), str(line["scored"]),
                     number(line["opponents"]))
    console.print(grid)
    console.print("Ranked by tournament points, then game points scored, then opponents' points (docs/tournament.md).")


def round_state(seated: SeatedRound) -> str:
    """``over``, or how many of its tables are finished."""
    finished = len(seated.tables) - len(seated.waiting())
    return "over" if seated.over else f"{finished} of {len(seated.tables)} tables finished"


def tournament_line(now: Progress) -> str:
    """``spring: round 2 of 3, 1 of 2 tables finished`` (or ``over``)."""
    if now.over:
        return f"{now.tournament.name}: {now.tournament.rounds} rounds, over"
    if not now.rounds:
        return f"{now.tournament.name}: no round seated yet"
    return f"{now.tournament.name}: round {now.rounds[-1].number} of {now.tournament.rounds}, {round_state(now.rounds[-1])}"
