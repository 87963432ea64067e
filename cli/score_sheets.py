"""Score sheets of a game: ``score --format csv`` (a spreadsheet's rows) and ``--format html`` (a printable page).

Both are written over the score read model (``projections.scores.score_report``),
so their points are the ones ``score --json`` gives; the page is
``cli/web/score_sheet.html`` with its stylesheet inlined.
"""

from __future__ import annotations

import html
from importlib import resources
from string import Template
from typing import Any

from cli.spreadsheet import spreadsheet_csv
from coimbra_events.catalog import Catalog
from coimbra_events.log import GameLog
from projections.naming import named
from projections.scores import result_line


def score_csv(report: dict[str, Any], log: GameLog, name: str) -> str:
    """A header row, then one row per player by place: the game and the day it was played (so that the sheets of
    many games pasted one under another still say which is which), points by source, total, coins and guards left
    (cli/spreadsheet.py: UTF-8 with a BOM, as ``league standings --csv``)."""
    sources = list(report["players"][0]["sources"]) if report["players"] else []
    day = played_on(log)
    return spreadsheet_csv(["game", "date", "place", "player", *sources, "total", "coins + guards left"],
                           ([name, day, p["place"], p["name"], *(p["sources"][s] for s in sources), p["total"],
                             p["resources_left"]] for p in report["players"]))


def played_on(log: GameLog) -> str:
    """The day (``2026-03-14``) of the first entry stamped with when it was entered; empty when none is."""
    return next((at[:10] for at, _ in log.stamps if at), "")


def score_html(report: dict[str, Any], log: GameLog, catalog: Catalog, name: str) -> str:
    """A printable sheet: one column per player by place, one row per source, then where every point came from."""
    web = resources.files("cli") / "web"
    players = report["players"]
    status = ("Final scores" if report["final"] else
              f"Provisional scores: the game is in round {report['round']}, phase {report['phase']}") + f" · {result_line(report)}"
    head = log.hashes()[-1] if log.events else log.anchor()
    footer = (f"record head <code>{head}</code> · {len(log.events)} entries · ruleset {html.escape(log.ruleset)} · "
              f"catalog {html.escape(log.catalog_id)} (sha256 <code>{log.catalog_sha256}</code>) · written by coimbra")
    return Template((web / "score_sheet.html").read_text("utf-8")).substitute(
        title=html.escape(f"{name} · score sheet"),
        style=(web / "score_sheet.css").read_text("utf-8"),
        heading=html.escape(f"Score sheet · {name}"),
        status=html.escape(status),
        table=_pad(players),
        details="\n".join(_details(p, catalog) for p in players),
        footer=footer,
    )


def _pad(players: list[dict[str, Any]]) -> str:
    sources = list(players[0]["sources"]) if players else []
    head = "".join(f"<th>{p['place']}. {html.escape(p['name'])}</th>" for p in players)
    rows = [f"<thead><tr><th>source</th>{head}</tr></thead><tbody>"]
    for s in sources:
        rows.append(f"<tr><td>{html.escape(s)}</td>" + "".join(f"<td>{p['sources'][s]}</td>" for p in players) + "</tr>")
    rows.append('<tr class="total"><td>total</td>' + "".join(f"<td>{p['total']}</td>" for p in players) + "</tr>")
    rows.append('<tr class="left"><td>coins + guards left (tie break)</td>'
                + "".join(f"<td>{p['resources_left']}</td>" for p in players) + "</tr></tbody>")
    return "\n".join(rows)


def _details(player: dict[str, Any], catalog: Catalog) -> str:
    items = [f"<li>{html.escape(kind)}: {html.escape(named(catalog, source))}: {points}</li>"
             for kind, sources in player["details"].items() for source, points in sources.items()]
    return f"<h3>{player['place']}. {html.escape(player['name'])}: {player['total']}</h3><ul>{''.join(items) or '<li>no points</li>'}</ul>"


__all__ = ["played_on", "score_csv", "score_html"]
