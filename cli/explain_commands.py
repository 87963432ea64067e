"""``coimbra explain``: the audit trail that settles disputes at the table.

One entry (``--seq``): why it was legal (each rule checked, with the values it
read), what it changed, or the rule the table overrode or the reason a play
was skipped. One player (``--player``): every point, coin and guard, entry by
entry, adding up to the score. Neither: what happened to the record itself and
each player's totals. The data comes from ``projections.explain`` and
``projections.ledger``; this module only lays it out.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable, Mapping, Optional

import typer
from rich.console import Group, RenderableType
from rich.markup import escape
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from cli.change_views import changes_view
from cli.common import CatalogOption, DbOption, GameArgument, JsonOption, console, game_ref_opened, print_json
from cli.exits import fail
from coimbra_events.catalog import Catalog
from coimbra_events.names import map_strings
from projections.audit import RESOURCES, AuditError, fold_line
from projections.explain import explain_entry, game_overview
from projections.ledger import player_ledger
from projections.naming import kind_words, named_text

COMMANDS: dict[str, Callable[..., None]] = {}


def command(name: str) -> Callable[[Callable[..., None]], Callable[..., None]]:
    """Collect a command under its name; ``cli.app`` registers them on the app."""

    def collect(fn: Callable[..., None]) -> Callable[..., None]:
        COMMANDS[name] = fn
        return fn

    return collect


@command("explain")
def explain_command(
    game_ref: str = GameArgument,
    seq: Optional[int] = typer.Option(None, "--seq", help="Explain this log entry: why it stands and what it changed."),
    player: Optional[str] = typer.Option(None, "--player", help="List where every point, coin and guard of this player came from."),
    catalog_file: Optional[Path] = CatalogOption,
    db: Optional[Path] = DbOption,
    as_json: bool = JsonOption,
) -> None:
    """The audit trail: why an entry was legal and what it changed; where a player's points came from.

    --seq N: the rules checked for entry N with the facts they read, or the rule
    the table overrode, or why a play was skipped; and every change it made on
    the table, the ones the rules made by themselves too, each with its rule,
    what that rule says and the facts that decided it.

    --player P: every change of P's points, coins and guards, entry by entry,
    then the end-game scoring; the rows add up to the score.

    Without either: overrides, corrections, retractions, skipped plays and each player's totals.
    Exit 2 for an entry out of range or an unknown player.

    Example: [bold]coimbra explain fixtures/games/standin-3p-seed2.json --seq 40[/]
    """
    with game_ref_opened(game_ref, db, catalog_file) as (game, _):
        audit = fold_line(game)
    report: dict[str, Any] = {"game": game.name, "entries": game.entries}
    try:
        if seq is not None:
            report["entry"] = explain_entry(audit, seq)
        if player is not None:
            report["ledger"] = player_ledger(audit, player)
        if seq is None and player is None:
            report["overview"] = game_overview(audit)
    except AuditError as exc:
        fail(str(exc))
    if as_json:
        print_json(report)
        return
    report = named_values(game.catalog, report)  # what people read names every component; --json keeps ids
    if "entry" in report:
        console.print(entry_view(game.name, report["entry"], game.catalog, dict(game.state.monasteries)))
    if "ledger" in report:
        console.print(ledger_view(game.name, report["ledger"]))
    if "overview" in report:
        console.print(overview_view(game.name, report["overview"]))


# --- small formatting helpers ----------------------------------------------------------------------


def named_values(catalog: Catalog, value: Any) -> Any:
    """A report with every catalog id in its texts named (``c-II-18`` → ``Chaplain (c-II-18)``)."""
    return map_strings(value, lambda text: named_text(catalog, text))


def _value(value: Any) -> str:
    if value is None:
        return "none"
    if isinstance(value, list):
        return ", ".join(_value(v) for v in value) or "none"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {_value(v)}" for k, v in value.items()) + "}"
    return str(value)


def _facts(facts: dict[str, Any]) -> str:
    return "; ".join(f"{k}={_value(v)}" for k, v in facts.items())


def _signed(amount: int) -> str:
    return f"{amount:+d}"


def _table(title: str, *columns: str) -> Table:
    table = Table(title=title, title_justify="left", show_edge=False)
    for name in columns:
        table.add_column(name, justify="right" if name in ("entry", "amount") else "left", overflow="fold")
    return table


# --- one entry ---------------------------------------------------------------------------------------

_STATUS_STYLE = {"holds": "green", "broken": "bold red", "not checked": "dim"}


def _record_line(entry: dict[str, Any]) -> str:
    """What the entry is in the record, in one sentence."""
    r = entry["record"]
    kind = r["kind"]
    if kind == "correction":
        return (f"correction of entry {r['corrects']}: '{r['replaced']['notation']}' (entry {r['replaced']['seq']}) "
                f"replaced by '{r['replacement']['notation']}' (entry {r['replacement']['seq']})")
    if kind == "override":
        return f"the table accepted entry {r['move']['seq']} ('{r['move']['notation']}') against rule {r['rule']}: {r['reason']}"
    if kind == "retraction":
        return f"withdrew entry {r['withdrew']['seq']} ('{r['withdrew']['notation']}') from the line of play"
    if kind in ("note", "bookmark"):
        return f"{kind} on entry {r['about']['seq']} ('{r['about']['notation']}'): {r['text']}"
    status = r["status"]
    if status == "in force":
        fixed = f", correcting entry {r['first_recorded']}" if r["first_recorded"] != entry["seq"] else ""
        return f"in force{fixed}"
    if status == "skipped":
        return "skipped from the line of play: the rules refuse it where it now stands"
    if status == "replaced" and r.get("in_force"):
        return f"replaced by a correction: the play now says '{r['in_force']['notation']}' (entry {r['in_force']['seq']})"
    if status == "replaced":
        return f"replaced by entry {r['replaced_by']['seq']} ('{r['replaced_by']['notation']}'), which is no longer in force either"
    if r.get("withdrawn_by"):
        return f"withdrawn from the line of play by entry {r['withdrawn_by']}"
    return "not in the line of play"


def _play_lines(play: dict[str, Any]) -> list[RenderableType]:
    where = f"entry {play['entry']}" + (f" (first recorded as {play['seq']})" if play["seq"] != play["entry"] else "")
    lines: list[RenderableType] = [Text(f"{where} · round {play['round']} · phase {play['phase_name']} · by {play['actor']}")]
    if play["override"]:
        o = play["override"]
        lines.append(Text.assemble(("accepted rule break", "bold yellow"), f": rule {o['rule']}; the table's reason: {o['reason']}"))
    v = play["violation"]
    if v is not None:
        what = "skipped" if play["status"] == "skipped" else "breaks"
        lines.append(Text.assemble((what, "bold red"), f": rule {v['rule']}: {v['message']}"))
        lines.append(Text(f"rule: {v['rule_text']} ({v['source']})", style="dim"))
        if not play["rules"]:  # otherwise the rules table shows them
            lines.append(Text(f"facts: {_facts(v['facts'])}", style="dim"))
    return lines


def _rules_table(play: dict[str, Any]) -> Table:
    title = "Why it was legal" if play["status"] == "legal" else "Rules checked"
    table = _table(title, "rule", "status", "what it says", "facts checked")
    for r in play["rules"]:
        table.add_row(r["rule"], Text(r["status"], style=_STATUS_STYLE[r["status"]]), escape(r["statement"]), escape(_facts(r["facts"])))
    return table


def _changes_lines(entry: dict[str, Any], catalog: Catalog) -> list[RenderableType]:
    """What the entry changed on the table, then what each rule it cites says."""
    if not entry["changes"]:
        return [Text(entry["unchanged"], style="dim")]
    lines: list[RenderableType] = [changes_view(entry["changes"], title="What it changed on the table", catalog=catalog)]
    rules = _table("The rules behind those changes", "rule", "what it says")
    for rule, about in entry["reasons"].items():
        rules.add_row(rule, escape(f"{about['statement']} ({about['source']})"))
    return lines + [rules]


def _resources_table(title: str, rows: list[dict[str, Any]], with_player: bool) -> Table:
    table = _table(title, *(("player",) if with_player else ()), "resource", "amount", "source")
    for row in rows:
        style = "red" if row["amount"] < 0 else None
        cells = [row["resource"], Text(_signed(row["amount"]), style=style or ""), escape(row["label"])]
        table.add_row(*([escape(row["player"])] if with_player else []), *cells)
    return table


def entry_view(game: str, entry: dict[str, Any], catalog: Catalog,
               monasteries: Mapping[str, str] | None = None) -> RenderableType:
    """One entry: what it is (components named, map spaces by the ``monasteries`` on them), where it stands,
    why it was legal, and what it changed."""
    lines: list[RenderableType] = [
        Text(named_text(catalog, entry["notation"], monasteries), style="bold"), Text(entry["about"], style="dim"),
        Text(_record_line(entry)),
    ]
    lines += [Text(f"note: {n}", style="italic") for n in entry["notes"]]
    if entry["bookmark"]:
        lines.append(Text(f"bookmark: {entry['bookmark']}", style="italic"))
    play = entry["play"]
    if play is not None:
        lines += _play_lines(play)
        if play["rules"]:
            lines.append(_rules_table(play))
    lines += _changes_lines(entry, catalog)
    if play is not None:
        if play["resources"]:
            lines.append(_resources_table("Points, coins and guards", play["resources"], with_player=True))
    kind = kind_words(entry["type"])
    return Panel(Group(*lines), title=escape(f"{game} · entry {entry['seq']} of {entry['of']} · {kind}"), title_align="left")


# --- one player --------------------------------------------------------------------------------------

_KINDS = ("start", "gain", "spent", "lost over the limit", "end-game", "untraced")
_WHEN = {"start": "start", "end-game": "end"}
"""Rows that belong to no entry: the starting resources and the end-game scoring."""


def ledger_view(game: str, ledger: dict[str, Any]) -> RenderableType:
    """Every row of a player's ledger, then the totals it adds up to."""
    rows = _table(f"Where {ledger['player']}'s points, coins and guards came from", "entry", "when", "move", "resource",
                  "amount", "source", "rule")
    for row in ledger["rows"]:
        paid = row["paid_at"]
        when = _WHEN.get(row["kind"]) or f"r{row['round']} {row['phase']}"
        if paid is not None:
            when = f"r{paid['round']} {paid['phase']}, entry {paid['entry']}"
        entry = "" if row["entry"] is None else str(row["entry"])
        label = row["label"] + (f" [accepted against {row['override']['rule']}: {row['override']['reason']}]"
                                if row["override"] else "")
        rows.add_row(entry, when, escape(row["event"] or ""), row["resource"],
                     Text(_signed(row["amount"]), style="red" if row["amount"] < 0 else ""), escape(label),
                     row["rule"] or "")
    kinds = [k for k in _KINDS if any(k in ledger["breakdown"][r] for r in RESOURCES)]
    totals = _table("Totals" if ledger["final"] else "Totals (provisional: the game is not over)", "", *kinds, "sum", "now")
    for r in RESOURCES:
        parts = ledger["breakdown"][r]
        ok = ledger["sums"][r] == ledger["totals"][r]
        totals.add_row(r, *(str(parts.get(k, "")) for k in kinds), str(ledger["sums"][r]),
                       Text(str(ledger["totals"][r]) + (" ✓" if ok else " ✗"), style="green" if ok else "bold red"))
    return Group(rows, Text(""), totals)


# --- the whole game ----------------------------------------------------------------------------------


def _history_tables(o: dict[str, Any]) -> list[RenderableType]:
    out: list[RenderableType] = []
    if o["overrides"]:
        t = _table("Accepted rule breaks", "entry", "move", "rule", "reason", "facts")
        for x in o["overrides"]:
            facts = _facts(x["violation"]["facts"]) if x["violation"] else "(legal after a correction)"
            t.add_row(str(x["entry"]), escape(x["notation"]), x["rule"], escape(x["reason"]), escape(facts))
        out.append(t)
    if o["corrections"]:
        t = _table("Corrections", "entry", "corrects", "was", "now")
        for x in o["corrections"]:
            t.add_row(str(x["seq"]), str(x["corrects"]), escape(x["replaced"]["notation"]), escape(x["replacement"]["notation"]))
        out.append(t)
    if o["retractions"]:
        t = _table("Withdrawn", "entry", "withdrew")
        for x in o["retractions"]:
            t.add_row(str(x["seq"]), escape(f"entry {x['withdrew']['seq']}: {x['withdrew']['notation']}"))
        out.append(t)
    if o["skipped"]:
        t = _table("Skipped: illegal after a correction", "entry", "move", "rule", "why")
        for x in o["skipped"]:
            t.add_row(str(x["entry"]), escape(x["notation"]), x["rule"], escape(x["message"]))
        out.append(t)
    if o["notes"]:
        t = _table("Notes and bookmarks", "entry", "about", "text")
        for x in o["notes"]:
            t.add_row(str(x["seq"]), str(x["about"]), escape(f"{x['kind']}: {x['text']}"))
        out.append(t)
    return out


def overview_view(game: str, o: dict[str, Any]) -> RenderableType:
    """What happened to the record, and each player's totals with where they came from."""
    status = "game over" if o["over"] else f"round {o['round']}, phase {o['phase']}"
    lines: list[RenderableType] = [Text(f"{o['entries']} entries, {o['plays']} plays in force ({status})")]
    if o["problem"]:
        lines.append(Text(f"the record's history stops at entry {o['problem']['seq']}: {o['problem']['message']}", style="bold red"))
    history = _history_tables(o)
    lines += history or [Text("no overrides, corrections, retractions or notes: every entry is an ordinary legal play", style="dim")]
    title = "Totals" if o["over"] else "Totals (provisional: the game is not over)"
    players = _table(title, "player", "points", "during play", "end-game", "coins", "guards", "lost over the limit")
    for p in o["players"]:
        b = p["breakdown"]
        lost = sum(b[r].get("lost over the limit", 0) for r in ("coins", "guards"))
        players.add_row(escape(p["name"]), str(p["points"]), str(b["points"].get("gain", 0)), str(b["points"].get("end-game", 0)),
                        str(p["coins"]), str(p["guards"]), str(-lost) if lost else "")
    lines += [players, Text("--player NAME lists every row; --seq N explains one entry.", style="dim")]
    return Panel(Group(*lines), title=escape(f"{game} · audit"), title_align="left")
