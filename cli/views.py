"""Rich renderings of validation results and score sheets."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterable

from cli.exits import err_console
from coimbra_events.catalog import Catalog
from coimbra_events.violations import Rule

from rich.console import Group
from rich.panel import Panel
from rich.text import Text

if TYPE_CHECKING:  # imported where they are used: validate, the most frequent command, needs none of them
    from rich.progress import Progress
    from rich.table import Table


def validation_panel(source: str, report: dict[str, Any], catalog: Catalog | None = None) -> Panel:
    """A panel saying whether a log is legal, and which rule its first illegal event breaks (components named)."""
    v = report["violation"]
    if v is None:
        status = "game over" if report["game_over"] else f"in progress: round {report['round']}, phase {report['phase']}"
        body = Text.assemble(("valid", "bold green"), f": {report['events']} events, all legal ({status})")
        return Panel(body, title=Text(source), border_style="green")
    from projections.naming import value_text  # with the notation: only an illegal log's facts are named

    lines = [
        Text.assemble(("illegal", "bold red"), f": event {v['seq']} ({v['type']}) breaks rule ", (v["rule"], "bold"),
                      f": {value_text(catalog, v['message'])}"),
        Text(f"rule: {v['rule_text']} ({v['source']})", style="dim"),
        Text("facts: " + "; ".join(f"{k} {value_text(catalog, val)}" for k, val in v["facts"].items()), style="dim"),
        Text(f"{report['legal_events']} of {report['events']} events are legal up to there."),
    ]
    return Panel(Group(*lines), title=Text(source), border_style="red")


def score_table(report: dict[str, Any]) -> Table:
    """A score pad: one column per player (by place), one row per source of points, totals last."""
    from rich.table import Table

    title = "Final scores" if report["final"] else f"Provisional scores (round {report['round']}, phase {report['phase']})"
    table = Table(title=title)
    table.add_column("")
    players = report["players"]
    for p in players:
        table.add_column(f"{p['place']}. {p['name']}", justify="right", no_wrap=True)
    sources = list(players[0]["sources"]) if players else []
    for s in sources:
        table.add_row(s, *(str(p["sources"][s]) for p in players))
    table.add_row("total", *(str(p["total"]) for p in players), style="bold", end_section=True)
    table.add_row("coins + guards left", *(str(p["resources_left"]) for p in players), style="dim")
    return table


def score_details(report: dict[str, Any], catalog: Catalog | None = None) -> Table:
    """Every source of points, per player (what the totals are made of), components named."""
    from rich.table import Table

    from projections.naming import value_text

    table = Table(title="Where the points came from", show_lines=False)
    table.add_column("player")
    table.add_column("kind")
    table.add_column("source")
    table.add_column("points", justify="right")
    for p in report["players"]:
        for kind, items in p["details"].items():
            for source, points in items.items():
                table.add_row(p["name"], kind, value_text(catalog, source), str(points))
    return table


def rules_table(rules: Iterable[Rule], catalog: Catalog) -> Table:
    """The rulebook as the engine enforces it, with the values of ``catalog``."""
    from rich.table import Table

    table = Table(title=f"Rules checked by coimbra, with the values of catalog {catalog.id}")
    table.add_column("id", style="bold", no_wrap=True)
    table.add_column("rule")
    table.add_column("source", style="dim")
    for r in rules:
        table.add_row(r.id, r.statement_for(catalog), r.source)
    return table


def progress_bar(what: str) -> Progress:
    """A progress bar on stderr for long runs over many logs (hidden when stderr is not a terminal)."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    return Progress(TextColumn(what), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                    console=err_console, transient=True)


def validation_summary(reports: list[dict[str, Any]]) -> Table:
    """One row per log: legal, illegal (where and which rule) or unreadable (why)."""
    from rich.table import Table

    table = Table(title=f"{len(reports)} logs")
    table.add_column("log", overflow="fold")
    table.add_column("result")
    table.add_column("events", justify="right")
    table.add_column("first problem")
    for r in reports:
        if "error" in r:
            table.add_row(r["source"], Text("unreadable", style="bold red"), "-", r["error"])
        elif r["valid"]:
            table.add_row(r["source"], Text("valid", style="green"), str(r["events"]), "")
        else:
            v = r["violation"]
            table.add_row(r["source"], Text("illegal", style="red"), str(r["events"]),
                          f"event {v['seq']}: {v['rule']}: {v['message']}")
    return table


def import_summary(rows: list[dict[str, Any]]) -> Table:
    """One row per log imported: the game's name, or why nothing of it was stored."""
    from rich.table import Table

    table = Table(title=f"{len(rows)} logs")
    table.add_column("log", overflow="fold")
    table.add_column("game", no_wrap=True)
    table.add_column("events", justify="right")
    table.add_column("problem")
    for r in rows:
        if r["imported"]:
            table.add_row(r["source"], r["name"], str(r["events"]), "" if r["how"] == "stored" else r["said"])
        elif "said" in r:
            table.add_row(r["source"], r["name"], str(r["events"]), r["said"])
        else:
            table.add_row(r["source"], Text("not stored", style="red"), "-", r["error"])
    return table
