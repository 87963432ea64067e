"""The reasons of an analysis as ``coimbra analyse`` prints them: each decision's top options and what the best
gains by source of points, the turning points, the losses by kind of decision and by round, and one entry alone
(``--seq``)."""

from __future__ import annotations

from typing import Any

from rich.markup import escape
from rich.table import Table

GAINS_SHOWN = 4
"""How many sources of points the gains of a decision name, largest first."""


def signed(value: float) -> str:
    """``+6.1`` or ``−2.0`` (a minus sign, as the tables print losses)."""
    return f"{'+' if value >= 0 else '−'}{abs(value):.1f}"


def gains_text(gains: dict[str, float], shown: int = GAINS_SHOWN) -> str:
    """``+6.1 voyages, −2.0 cards``: what the best option gains over the one played, by source, largest first."""
    return ", ".join(f"{signed(points)} {escape(source)}" for source, points in list(gains.items())[:shown])


def top_text(decision: dict[str, Any]) -> str:
    """The top options, a line each: the one played marked ``▸``, its winning chance and expected final score."""
    return "\n".join(f"{'▸' if o['played'] else ' '} {escape(o['option'])} {100 * o['win']:.0f} % · {o['score']:.1f}"
                     for o in decision["top"])


def turning_table(report: dict[str, Any]) -> Table:
    """The entries that moved the winning chances most: what happened, who played it and its grade, and the swing."""
    table = Table(title="Turning points")
    for column in ("entry", "round", "what happened", "grade", *report["players"]):
        table.add_column(escape(column), justify="right" if column in ("entry", "round") else "left", overflow="fold")
    for t in report["turning_points"]:
        table.add_row(str(t["seq"]), str(t["round"]), escape(t["what"]), t["grade"] or "roll or deal",
                      *(f"{signed(t['swing'][name])} pp" for name in report["players"]))
    return table


def losses_table(report: dict[str, Any], field: str) -> Table:
    """The points of winning chances lost in all, by kind of decision (``field`` ``kind``) or by round, and each
    player's part."""
    table = Table(title=f"Points lost by {'kind of decision' if field == 'kind' else field}")
    for column in (field, "decisions", "lost in all", *report["players"]):
        table.add_column(escape(column), justify="left" if column == field else "right")
    for row in report[f"by_{field}"]:
        table.add_row(escape(str(row[field])), str(row["decisions"]), f"{row['loss']:.1f}",
                      *(f"{row['players'][name]:.1f}" for name in report["players"]))
    return table


def entry_table(report: dict[str, Any], shown: int = 10) -> Table:
    """One entry measured alone (``--seq``): a decision's options best first (``shown`` of them) with their winning
    chances, expected scores, losses and playouts, or a random outcome's luck."""
    if not report["decisions"]:
        u = report["luck"][0]
        table = Table(title=f"Entry {u['seq']}: {escape(u['outcome'])}")
        for column in ("player", "luck", "95 %", "winning chance after"):
            table.add_column(column, justify="left" if column == "player" else "right")
        for name in report["players"]:
            low, high = u["interval"][name]
            table.add_row(escape(name), f"{signed(u['luck'][name])} pp", f"{signed(low)} to {signed(high)}",
                          f"{100 * u['win_after'][name]:.1f} %")
        return table
    d = report["decisions"][0]
    low, high = d["interval"]
    table = Table(title=f"Entry {d['seq']} (round {d['round']}, {escape(d['player'])}, {escape(d['kind'])}): {d['grade']}, "
                        f"loss {d['loss']:.1f} pp (95 %: {low:.1f} to {high:.1f})",
                  caption=f"best gains: {gains_text(d['gains'], len(d['gains']))}" if d["gains"] else None)
    for column in ("option", "winning chance", "expected score", "loss", "playouts"):
        table.add_column(column, justify="left" if column == "option" else "right", overflow="fold")
    for o in d["options"][:shown]:
        table.add_row(("▸ " if o["played"] else "  ") + escape(o["option"]), f"{100 * o['win']:.1f} %", f"{o['score']:.1f}",
                      f"{o['loss']:.1f}", str(o["playouts"]), style="bold" if o["played"] else "")
    return table
