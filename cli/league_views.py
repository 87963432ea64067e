"""Rich renderings and CSV of the league's reports (standings, ratings, a player's profile)."""

from __future__ import annotations

from typing import Any, Sequence

from rich.console import Group, RenderableType
from rich.markup import escape
from rich.table import Table
from rich.text import Text

from cli.spreadsheet import spreadsheet_csv

SPARKS = "▁▂▃▄▅▆▇█"


def sources_of(report: dict[str, Any]) -> list[str]:
    """The sources of points, in the order the engine names them."""
    players = report["players"]
    return list(players[0]["average_by_source"]) if players else []


def standings_table(report: dict[str, Any]) -> Table:
    """One row per player: games, wins (shared ones counted), win rate, average and best score, average place."""
    season = report["season"]
    title = f"Standings, season {escape(season)}" if season else "Standings, all games"
    games = report["games"]
    table = Table(title=f"{title} ({games} game{'' if games == 1 else 's'})")
    for name, justify in (("#", "right"), ("player", "left"), ("games", "right"), ("wins", "right"), ("win %", "right"),
                          ("average", "right"), ("best", "right"), ("avg place", "right")):
        table.add_column(name, justify=justify, no_wrap=True)  # type: ignore[arg-type]
    for p in report["players"]:
        wins = f"{p['wins']} ({p['shared_wins']} shared)" if p["shared_wins"] else str(p["wins"])
        table.add_row(str(p["rank"]), escape(p["player"]), str(p["games"]), wins, f"{100 * p['win_rate']:.0f}",
                      f"{p['average']:.1f}", str(p["best"]), f"{p['average_place']:.2f}")
    return table


def sources_table(report: dict[str, Any]) -> Table:
    """Where each player's points come from: the average per game of each source."""
    table = Table(title="Points by source (average per game)")
    table.add_column("player", no_wrap=True)
    sources = sources_of(report)
    for s in sources:
        table.add_column(s, justify="right")
    for p in report["players"]:
        table.add_row(escape(p["player"]), *(f"{p['average_by_source'][s]:.1f}" for s in sources))
    return table


def left_out_lines(report: dict[str, Any]) -> list[Text]:
    """How many finished games the standings leave out and why, then each of them."""
    counts = report["left_out_counts"]
    if not counts:
        return []
    said = ", ".join(f"{n} {reason}" for reason, n in sorted(counts.items()))
    total = sum(counts.values())
    return [Text(f"left out: {total} game{'s' if total > 1 else ''} ({said})", style="dim"),
            *(Text(f"  {item['game']}: {item['why']}", style="dim") for item in report["left_out"])]


def standings_csv(report: dict[str, Any]) -> str:
    """The standings as CSV for a spreadsheet: a header row, then one row per player (cli/spreadsheet.py)."""
    sources = sources_of(report)
    header = ["rank", "player", "games", "wins", "shared wins", "win %", "average score", "best score",
              "average place", "total points", *(f"{s} (average)" for s in sources)]
    return spreadsheet_csv(header, ([p["rank"], p["player"], p["games"], p["wins"], p["shared_wins"],
                                     round(100 * p["win_rate"], 1), p["average"], p["best"], p["average_place"],
                                     p["points"], *(p["average_by_source"][s] for s in sources)]
                                    for p in report["players"]))


def sparkline(values: Sequence[float]) -> str:
    if not values:
        return ""
    low, high = min(values), max(values)
    span = (high - low) or 1.0
    return "".join(SPARKS[round((v - low) / span * (len(SPARKS) - 1))] for v in values)


def trend_text(trend: float) -> Text:
    if trend > 0.005:
        return Text(f"▲ {trend:+.2f}", style="green")
    if trend < -0.005:
        return Text(f"▼ {trend:+.2f}", style="red")
    return Text("= 0.00", style="dim")


def ratings_table(report: dict[str, Any]) -> Table:
    """One row per rated player; a provisional rating (fewer games than the report's threshold) marked ``*``."""
    season = f", season {escape(report['season'])}" if report["season"] else ""
    table = Table(title=f"Ratings (openskill Plackett-Luce{season})",
                  caption=f"rating = mu - 3 sigma, a conservative estimate; trend over the last {report['trend_games']} games; "
                          f"* provisional: fewer than {report['provisional_below']} rated games")
    for name, justify in (("#", "right"), ("player", "left"), ("rating", "right"), ("mu", "right"), ("sigma", "right"),
                          ("games", "right"), ("trend", "right"), ("recent", "left")):
        table.add_column(name, justify=justify, no_wrap=True)  # type: ignore[arg-type]
    for p in report["players"]:
        table.add_row(str(p["rank"]), escape(p["player"]), f"{p['rating']:.2f}{'*' if p['provisional'] else ''}",
                      f"{p['mu']:.2f}", f"{p['sigma']:.2f}",
                      str(p["games"]), trend_text(p["trend"]), sparkline(p["recent"]))
    return table


def _fared_table(title: str, rows: dict[str, dict[str, Any]]) -> Table:
    table = Table(title=title, title_justify="left")
    for name in ("choice", "games", "wins", "avg place", "average"):
        table.add_column(name, justify="left" if name == "choice" else "right")
    for choice, f in rows.items():
        table.add_row(escape(choice), str(f["games"]), str(f["wins"]), f"{f['average_place']:.2f}", f"{f['average']:.1f}")
    return table


def profile_view(report: dict[str, Any]) -> RenderableType:
    """A player's page: results, rating, tracks and income, voyages, monasteries, cards, start choices, opponents."""
    season = f", season {escape(report['season'])}" if report["season"] else ""
    parts: list[RenderableType] = [Text.assemble(
        (report["player"], "bold"),
        f"{season}: {report['games']} games, {report['wins']} wins"
        + (f" ({report['shared_wins']} shared)" if report["shared_wins"] else "")
        + f", average {report['average']:.1f}, best {report['best']}, average place {report['average_place']:.2f}")]
    if len(report["spellings"]) > 1:
        parts.append(Text("recorded as: " + ", ".join(report["spellings"]), style="dim"))
    rating = report["rating"]
    if rating:
        parts.append(Text.assemble(f"rating {rating['rating']:.2f} (mu {rating['mu']:.2f}, sigma {rating['sigma']:.2f}) ",
                                   trend_text(rating["trend"]), f"  {sparkline(rating['recent'])}"))
    tracks = Table(title=f"Tracks (favourite: {report['tracks']['favourite']})", title_justify="left",
                   caption="income: what activating the track's income earned, average per game")
    for name in ("track", "final space", "coins", "guards", "points"):
        tracks.add_column(name, justify="left" if name == "track" else "right")
    for track, space in report["tracks"]["average_influence"].items():
        income = report["income_per_track"][track]
        tracks.add_row(track, f"{space:.1f}", f"{income['coins']:.1f}", f"{income['guards']:.1f}", f"{income['points']:.1f}")
    parts.append(tracks)
    parts.append(Text(f"voyages: {report['voyages']['total']} ({report['voyages']['per_game']:.2f} a game); "
                      f"monasteries: {report['monasteries']['total']} ({report['monasteries']['per_game']:.2f} a game)"))
    bought = ", ".join(f"{c} {v['total']} ({v['per_game']:.2f} a game)" for c, v in report["cards_bought"].items())
    parts.append(Text(f"character cards bought: {bought or 'none'}"))
    starts = report["start_choices"]
    parts.append(_fared_table("Start: which action first", starts["first"]))
    parts.append(_fared_table("Start: pilgrim's start space", starts["space"]))
    parts.append(_fared_table("Start: start cards taken", starts["card"]))
    versus = Table(title="Head to head", title_justify="left")
    for name in ("opponent", "games", "ahead", "behind", "level"):
        versus.add_column(name, justify="left" if name == "opponent" else "right")
    for h in report["head_to_head"]:
        versus.add_row(escape(h["opponent"]), str(h["games"]), str(h["ahead"]), str(h["behind"]), str(h["level"]))
    parts.append(versus)
    return Group(*parts)
