"""Rich rendering of the board read model (``projections.board.board_view``)."""

from __future__ import annotations

from typing import Any

from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

DIE_STYLE = {"gray": "white on grey37", "orange": "black on dark_orange", "purple": "white on purple",
             "green": "black on green3", "white": "black on white", "token": "dim"}


def _die(d: dict[str, Any]) -> Text:
    owner = d["owner"] or "token"
    return Text(f" {d['value']} {owner} ", style=DIE_STYLE.get(d["color"], ""))


def _dice_row(dice: list[dict[str, Any]]) -> Text:
    row = Text()
    for d in dice:
        row.append_text(_die(d))
        row.append(" ")
    return row if dice else Text("-", style="dim")


def _card(c: dict[str, Any]) -> str:
    crown = " ♛" if c.get("crown_token") else ""
    return f"{c['id']} {c['name']} ({c['category']}, {c['influence']}, {c['cost']}){crown}"


def city_table(view: dict[str, Any]) -> Table:
    """The four locations: dice in order, and the character cards beside each city."""
    table = Table(title="City", expand=True)
    table.add_column("location", no_wrap=True)
    table.add_column("dice, left to right")
    table.add_column("character cards beside it")
    for loc, dice in view["locations"].items():
        cards = view["character_rows"].get(loc)
        if cards is None:
            beside = ", ".join(f"{t['id']} ({t['crowns']}♛)" for t in view["favor_tiles"]) or "-"
        else:
            beside = "\n".join(_card(c) for c in cards) or "-"
        table.add_row(loc, _dice_row(dice), beside)
    return table


def players_table(view: dict[str, Any]) -> Table:
    """Player boards: flag, resources, tracks (gray·orange·purple·green), pilgrim, cards, discs."""
    table = Table(title="Players", expand=True)
    for col in ("flag", "player", "coins", "guards", "points", "tracks g·o·p·g", "pilgrim", "cards", "monasteries",
                "voyages", "dice"):
        table.add_column(col, justify="right" if col in ("flag", "coins", "guards", "points") else "left", no_wrap=True)
    for p in sorted(view["players"], key=lambda p: p["flag"] or 9):
        tracks = "·".join(str(v) for v in p["influence"].values())
        table.add_row(
            str(p["flag"] or "-"), p["name"], str(p["coins"]), str(p["guards"]), str(p["points"]), tracks,
            p["pilgrim"] or "-", str(len(p["start_cards"]) + len(p["cards"])), str(len(p["monasteries"])),
            str(len(p["voyages"])), " ".join(p["dice_on_shutter"]) or "-",
        )
    return table


def voyages_table(view: dict[str, Any]) -> Table:
    table = Table(title="Voyages")
    for col in ("space", "voyage", "cost", "investors"):
        table.add_column(col)
    for v in view["voyages"]:
        table.add_row(str(v["space"]), f"{v['id']} {v['name']}", f"{v['cost']} {v['resource']}", ", ".join(v["investors"]) or "-")
    return table


def status_line(view: dict[str, Any]) -> Text:
    """Round, phase and who must act now."""
    text = Text.assemble(("Round ", "bold"), (str(view["round"]), "bold"), f" · phase {view['phase_name']}")
    due = view["pending"]
    if due:
        detail = ", ".join(f"{k} {v}" for k, v in due.items() if k not in ("actor", "kind"))
        text.append(f" · waiting for {due['actor']}: {due['kind']}" + (f" ({detail})" if detail else ""))
    text.append(f" · order: {' > '.join(view['player_order']) or '-'} · deck {view['deck']} · discard {view['discard']}")
    return text


def board_panel(view: dict[str, Any], title: str = "") -> RenderableType:
    """The whole board as one renderable."""
    dice_area = _dice_row([{**d, "owner": d["die"]} for d in view["dice_area"]])
    parts: list[RenderableType] = [
        status_line(view),
        Text.assemble(("dice area: ", "bold"), dice_area),
        city_table(view),
        players_table(view),
        voyages_table(view),
    ]
    return Panel(Group(*parts), title=title or "Board")
