"""``coimbra analyse``: where a game was decided, every decision graded and every roll's luck measured."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Optional

import typer
from rich.markup import escape
from rich.table import Table

from cli.common import CatalogOption, Commands, DbOption, GameArgument, JsonOption, console, print_json
from cli.exits import RULE_VIOLATION, fail
from cli.log_commands import validated_ref
from cli.views import progress_bar
from cli.analysis_reasons_views import entry_table, gains_text, losses_table, top_text, turning_table
from projections.analysis import DEEPER, LUCK, Settings, analysis_for, entry_alone

COMMANDS = Commands()

_MARKS = {"best": "", "good": "", "inaccuracy": "?!", "mistake": "?", "blunder": "??"}
"""Chess's marks for the grades, after the move."""


@COMMANDS("analyse")
def analyse_command(
    game_ref: str = GameArgument,
    playouts: Optional[int] = typer.Option(None, "--playouts", "-n", min=4, help="Playouts per option carried past the first "
                                           f"pass (and per random outcome; default {Settings.playouts}, {DEEPER} times as many "
                                           "with --seq); more: steadier grades, longer runs."),
    seq: Optional[int] = typer.Option(None, "--seq", min=1, help="Look at this entry alone, deeper (its options best first, "
                                      "what the best gains by source of points); not kept."),
    seed: int = typer.Option(0, "--seed", "-s", help="Seed of the playouts: the same seed and settings give the same analysis."),
    jobs: Optional[int] = typer.Option(None, "--jobs", "-j", min=1, help="Processes to run playouts in (default: every core)."),
    settle: int = typer.Option(Settings.settle, "--settle", min=4, help="At most this many paired playouts settle the decision "
                               "played against the best, until its grade is clear."),
    luck: Optional[int] = typer.Option(None, "--luck", min=4, help="Paired playouts each side of a roll or deal for its luck "
                                       f"(default {LUCK} per playout of --playouts); more: narrower intervals."),
    catalog_file: Optional[Path] = CatalogOption,
    db: Optional[Path] = DbOption,
    as_json: bool = JsonOption,
) -> None:
    """Grade every decision of a game and measure the luck of every roll and deal, by Monte Carlo playouts.

    Each option a player had is played out from the table as it was (rolls and deals drawn from what
    was possible then, never from the record) by the playout policy; an option's value is the chance of
    finishing first. A decision's loss is how many percentage points it gave up against the best
    option: best below 2.5, good below 5, inaccuracy from 5, mistake from 10, blunder from 15 (with
    a 95 % interval). Luck: how far each random outcome moved a player's chances against the
    average outcome possible then, with its 95 % interval; each player's luck over the game, and their
    luck-adjusted result (the result, 100 for a first place, less the luck). The analysis is kept (in $COIMBRA_ANALYSES, else the user's
    cache folder) under the record's head, ruleset, catalog, settings and seed: asked again, it is
    read back, not computed. A game with an illegal event is refused (exit 1). Each decision shows its top three
    options and what the best gains over the one played by source of points; then the turning points and the
    points lost by kind of decision and by round. With --seq N, entry N alone, with four times the playouts.

    Example: [bold]coimbra analyse fixtures/games/standin-2p-seed1.json[/]

    Example: [bold]coimbra analyse demo --playouts 64 --seed 7 --json[/]

    Example: [bold]coimbra analyse demo --seq 40[/]
    """
    result, _ = validated_ref(game_ref, db, catalog_file)
    if not result.valid:
        v = result.violation
        fail(f"{game_ref}: event {result.violation_seq} breaks rule {v.rule}: {v.reason}", RULE_VIOLATION)
    deeper = DEEPER if seq is not None else 1
    playouts = playouts or deeper * Settings.playouts
    settings = Settings(playouts=playouts, first_pass=min(deeper * Settings.first_pass, playouts), settle=settle,
                        luck=luck or LUCK * playouts, seed=seed)
    if seq is not None:
        _entry_alone(result, seq, settings, as_json)
        return
    with progress_bar("analysing") as bar:
        task = bar.add_task("analysing", total=None)
        report = analysis_for(result.log, result.state.catalog, settings, jobs=jobs,
                              progress=lambda done, total: bar.update(task, completed=done, total=total))
    if as_json:
        print_json(report)
        return
    console.print(summary_table(report))
    console.print(graded_table(report))
    console.print(luck_table(report))
    console.print(turning_table(report))
    console.print(losses_table(report, "kind"))
    console.print(losses_table(report, "round"))
    console.print(f"[dim]{escape(report['notes']['options'])}; {escape(report['notes']['accuracy'])}[/]")


def _entry_alone(result: Any, seq: int, settings: Settings, as_json: bool) -> None:
    """``--seq``: one entry measured alone, printed (never kept)."""
    try:
        report = entry_alone(result.log, result.state.catalog, seq, settings)
    except LookupError as exc:
        fail(str(exc))
    if as_json:
        print_json(report)
        return
    console.print(entry_table(report))


def summary_table(report: dict[str, Any]) -> Table:
    """One column per player: accuracy, mean loss, luck, how many decisions of each grade, the three costliest."""
    table = Table(title="Where the game was decided")
    table.add_column("")
    players = report["players"]
    for name in players:
        table.add_column(escape(name), justify="right")
    rows = report["summary"]
    table.add_row("accuracy", *(f"{rows[p]['accuracy']:.1f}" for p in players))
    table.add_row("mean loss (points)", *(f"{rows[p]['mean_loss']:.1f}" for p in players))
    table.add_row("luck (points, 95 %)", *(f"{rows[p]['luck']:+.1f} ({_span(rows[p]['luck_interval'])})" for p in players))
    if all(rows[p]["result"] is not None for p in players):
        table.add_row("result", *(f"{rows[p]['result']:.0f}" for p in players))
        table.add_row("luck-adjusted result", *(f"{rows[p]['luck_adjusted']:.1f} ({_span(rows[p]['luck_adjusted_interval'])})"
                                                 for p in players))
    table.add_section()
    for grade in rows[players[0]]["grades"] if players else ():
        table.add_row(grade, *(str(rows[p]["grades"][grade]) for p in players))
    table.add_row("costliest", *("\n".join(f"#{c['seq']} {c['grade']} −{c['loss']:.1f}" for c in rows[p]["costliest"])
                                 for p in players), end_section=True)
    return table


def luck_table(report: dict[str, Any]) -> Table:
    """Every roll and deal in order: what it was, and the points of winning chances it gave each player with their
    95 % interval."""
    table = Table(title="Every roll and deal: luck (points of winning chances, 95 %)")
    for column in ("entry", "round", "outcome"):
        table.add_column(column, justify="right" if column != "outcome" else "left", overflow="fold")
    for name in report["players"]:
        table.add_column(escape(name), justify="right")
    for u in report["luck"]:
        table.add_row(str(u["seq"]), str(u["round"]), escape(u["outcome"]),
                      *(f"{u['luck'][p]:+.1f} ({_span(u['interval'][p])})" for p in report["players"]))
    return table


def _span(interval: list[float]) -> str:
    return f"{interval[0]:+.1f} to {interval[1]:+.1f}"


def hedge(decision: dict[str, Any]) -> str:
    """What a grade in the list adds: the other grade its interval reaches (``or best``), or the grades it spans
    (``best to mistake``), else ``uncertain`` where the best option is not surely ahead."""
    reach = decision["reach"]
    if len(reach) > 2:
        return f" ({reach[0]} to {reach[-1]})"
    if len(reach) == 2:
        return f" (or {next(g for g in reach if g != decision['grade'])})"
    return "" if decision["certain"] or decision["grade"] == "best" else " (uncertain)"


def graded_table(report: dict[str, Any]) -> Table:
    """Every decision in order: who, what was played, its grade and loss (with its interval), its top options, and
    what the best gains by source of points where another was better."""
    table = Table(title="Every decision")
    for column in ("entry", "player", "played", "grade", "loss", "95 %", "top options (win, expected score)",
                   "the best gains"):
        table.add_column(column, justify="right" if column in ("entry", "loss") else "left", overflow="fold")
    for d in report["decisions"]:
        low, high = d["interval"]
        table.add_row(str(d["seq"]), escape(d["player"]), escape(d["played"]) + _MARKS[d["grade"]],
                      d["grade"] + hedge(d), f"{d['loss']:.1f}", f"{low:.1f} to {high:.1f}",
                      "" if d["forced"] else top_text(d), gains_text(d["gains"]),
                      style="dim" if d["grade"] == "best" else "")
    return table
