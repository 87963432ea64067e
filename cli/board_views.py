"""Rich rendering of the board read model (``projections.board.board_view``)."""

from __future__ import annotations

from typing import Any, Callable

import orjson
from rich import box
from rich.columns import Columns
from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.measure import Measurement
from rich.panel import Panel
from rich.segment import Segment
from rich.table import Table
from rich.markup import escape
from rich.text import Text

DIE_STYLE = {"gray": "white on grey37", "orange": "black on dark_orange", "purple": "white on purple",
             "green": "black on green3", "white": "black on white", "token": "dim"}


def _die(d: dict[str, Any]) -> Text:
    owner = d["owner"] or ("token" if d.get("face_up", True) else "token, face down")
    value = "·" if d["value"] is None else d["value"]  # not rolled yet
    return Text(f" {value} {owner} ", style=DIE_STYLE.get(d["color"], ""))


def _dice_row(dice: list[dict[str, Any]]) -> Text:
    row = Text()
    for d in dice:
        row.append_text(_die(d))
        row.append(" ")
    return row if dice else Text("-", style="dim")


def _card(c: dict[str, Any]) -> str:
    crown = " ♛" if c.get("crown_token") else ""
    return f"{c['name']} ({c['id']}): {c['category']} +{c['influence']}, paid in {c['cost']}{crown}"


def city_table(view: dict[str, Any]) -> Table:
    """The four locations: dice in order, and the character cards beside each city."""
    table = Table(title="City", expand=True)
    table.add_column("location", no_wrap=True)
    table.add_column("dice, left to right")
    table.add_column("character cards beside it")
    for loc, dice in view["locations"].items():
        cards = view["character_rows"].get(loc)
        if cards is None:
            beside = ", ".join(f"{t['name']} ({t['id']}) {t['crowns']}♛" for t in view["favor_tiles"]) or "-"
        else:
            beside = "\n".join(_card(c) for c in cards) or "-"
        table.add_row(loc, _dice_row(dice), beside)
    return table


def players_table(view: dict[str, Any]) -> Table:
    """Player boards: flag, resources, tracks (gray·orange·purple·green), pilgrim, cards, discs.

    Short headings and no padding at the edges, so the whole board fits 80 columns.
    """
    table = Table(title="Players", box=box.SIMPLE_HEAD, padding=0, pad_edge=False,
                  caption="tracks: gray·orange·purple·green; mon.: monasteries marked; voy.: voyages", caption_justify="left")
    for col in ("flag", "player", "coins", "guards", "points", "tracks", "pilgrim", "cards", "mon.", "voy.", "dice on shutter"):
        table.add_column(col, justify="right" if col in ("flag", "coins", "guards", "points") else "left",
                         no_wrap=col != "dice on shutter")
    for p in sorted(view["players"], key=lambda p: p["flag"] or 9):
        tracks = "·".join(str(v) for v in p["influence"].values())
        table.add_row(
            str(p["flag"] or "-"), p["name"], str(p["coins"]), str(p["guards"]), str(p["points"]), tracks,
            space_words(view, p["pilgrim"]) or "-", str(len(p["start_cards"]) + len(p["cards"])), str(len(p["monasteries"])),
            str(len(p["voyages"])), _shutter(p["holdings"]["shutter"]),
        )
    return table


def _shutter(dice: list[dict[str, Any]]) -> str:
    """``gray-1 4 ✓``: each die behind the shutter, its value, and a tick once its income is collected."""
    return " ".join(f"{d['die']} {d['value'] if d['value'] is not None else '·'}{' ✓' if d['used'] else ''}"
                    for d in dice) or "-"


ZONE_NAMES = {"immediate": "immediate", "phase_c": "phase C", "phase_e": "phase E", "end_game": "end-game",
              "none": "no bonus"}


def player_board(p: dict[str, Any], view: dict[str, Any]) -> Panel:
    """One player's side of the table (of the board ``view``): resources and tracks, then everything held, each
    component named."""
    h = p["holdings"]
    table = Table(show_header=False, box=None, padding=(0, 1), expand=True)
    table.add_column(style="bold", no_wrap=True)
    table.add_column(overflow="fold")
    tracks = "  ".join(f"{t} {v}" for t, v in p["influence"].items())
    table.add_row("resources", f"{p['coins']} coins · {p['guards']} guards · {p['points']} points")
    table.add_row("tracks", tracks)
    table.add_row("pilgrim", space_words(view, p["pilgrim"]) or "not placed")
    for timing, cards in h["cards"].items():
        table.add_row(f"{ZONE_NAMES.get(timing, timing)} cards", "\n".join(
            f"{c['name']} ({c['id']}) {c['category']} +{c['influence']}{' (start card)' if c['start_card'] else ''}: {c['bonus']}"
            for c in cards))
    if not h["cards"]:
        table.add_row("cards", "none")
    tiles = [f"{t['name']} ({t['id']}) {t['crowns']}♛: {t['effects']}" for t in h["favor_tiles"]]
    table.add_row("favor tiles", "\n".join(tiles) or "none")
    if h["extra_die"]:
        table.add_row("extra die", "held: one more income die this round")
    table.add_row("crown tokens", ", ".join(h["crown_tokens"]) or "none")
    table.add_row("monasteries", ", ".join(f"{m['name']} ({m['id']})" for m in h["monasteries"]) or "none")
    table.add_row("voyages", ", ".join(f"{v['name']} ({v['id']})" for v in h["voyages"]) or "none")
    table.add_row("shutter", _shutter(h["shutter"]) if h["shutter"] else "empty")
    flag = f"flag {p['flag']} · " if p["flag"] else ""
    return Panel(table, title=escape(f"{flag}{p['name']} ({p['color']})"), title_align="left")


def player_boards(view: dict[str, Any]) -> list[Panel]:
    """Every player's side of the table, in player order."""
    return [player_board(p, view) for p in sorted(view["players"], key=lambda p: p["flag"] or 9)]


def voyages_table(view: dict[str, Any]) -> Table:
    table = Table(title="Voyages")
    for col in ("space", "voyage", "cost", "investors"):
        table.add_column(col)
    for v in view["voyages"]:
        table.add_row(str(v["space"]), f"{v['name']} ({v['id']})", f"{v['cost']} {v['resource']}", ", ".join(v["investors"]) or "-")
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


def favor_tiles_table(view: dict[str, Any]) -> Table:
    """Every favor tile of the catalog: crowns, and where it is (beside the castle, or who holds it)."""
    beside = {t["id"] for t in view["favor_tiles"]}
    held: dict[str, list[str]] = {}
    for p in view["players"]:
        for tile in p["favor_tiles"]:
            held.setdefault(tile, []).append(p["name"])
    table = Table(title="Favor tiles")
    for col in ("tile", "crowns", "where"):
        table.add_column(col)
    for tile, facts in view["legend"]["favor_tiles"].items():
        where = ", ".join(held.get(tile, [])) or ("castle" if tile in beside else "-")
        table.add_row(f"{facts['name']} ({tile})", str(facts["crowns"]), where)
    return table


def scoring_tiles_table(view: dict[str, Any]) -> Table:
    """The influence scoring tile above each track, with its points by rank for this player count."""
    table = Table(title="Scoring tiles")
    for col in ("track", "tile", "points by rank"):
        table.add_column(col)
    for track, tile in view["scoring_tiles"].items():
        facts = view["legend"]["scoring_tiles"].get(tile, {"name": "", "points": []})
        table.add_row(track, f"{facts['name']} ({tile})" if facts["name"] else tile, "/".join(str(p) for p in facts["points"]) or "-")
    return table


def map_table(view: dict[str, Any]) -> Table:
    """The pilgrim map: each monastery on its space, who marked it, and pilgrims standing there or elsewhere."""
    pilgrims: dict[str, list[str]] = {}
    for p in view["players"]:
        if p["pilgrim"]:
            pilgrims.setdefault(p["pilgrim"], []).append(p["name"])
    table = Table(title="Map: monasteries and pilgrims")
    for col in ("space", "monastery", "marked by", "pilgrims"):
        table.add_column(col)
    for m in view["monasteries"]:
        table.add_row(m["space"], f"{m['name']} ({m['id']})", ", ".join(m["marked_by"]) or "-",
                      ", ".join(pilgrims.pop(m["space"], [])) or "")
    for space, names in sorted(pilgrims.items()):
        table.add_row(space_words(view, space), "-", "", ", ".join(names))
    return table


def space_words(view: dict[str, Any], space: str | None) -> str | None:
    """A map space as people call it: ``Celas (blue-e1)`` by the monastery on it, ``North Road (road-n)`` by the
    catalog's name, else its id."""
    if space is None:
        return None
    name = next((m["name"] for m in view["monasteries"] if m["space"] == space), None) or view["legend"]["spaces"].get(space)
    return f"{name} ({space})" if name else space


def start_groups_table(view: dict[str, Any]) -> Table:
    """The start card groups laid out at setup, and who took each."""
    names = view["legend"]["cards"]
    table = Table(title="Start groups")
    for col in ("group", "cards", "taken by"):
        table.add_column(col)
    for g in view["start_groups"]:
        cards = "\n".join(f"{names[c]} ({c})" if c in names else c for c in g["cards"])
        table.add_row(str(g["group"]), cards, g["taken_by"] or "-")
    return table


def event_line(event: dict[str, Any]) -> Text:
    """The event that led to this table, in notation and in words (``seq`` 0: before the first event)."""
    if not event["seq"]:
        return Text.assemble(("before the first event", "bold"), f" ({event['of']} events in all)")
    return Text.assemble(
        (f"event {event['seq']} of {event['of']}: ", "bold"), (event.get("text", event["notation"]), "bold"), f" · {event['about']}"
    )


class DrawnParts:
    """Parts of boards already drawn, kept as lines by what they show and the width they were drawn at.

    From one step of a game to the next most of the board does not change, and
    the parts that change least (voyages, favor and scoring tiles, the map) cost
    the most to draw; a replayer keeps one of these so a new frame draws only
    what changed. Keyed by the part's own inputs, never by position, so a part
    is reused exactly when it would be drawn the same.
    """

    LIMIT = 1024

    def __init__(self) -> None:
        self.lines: dict[tuple[str, bytes, int, str | None, bool], list[list[Segment]]] = {}

    def part(self, name: str, shows: Any, make: Callable[[], RenderableType]) -> RenderableType:
        """``make()``, drawn once for what ``shows`` holds (JSON values) and reused while that stays the same."""
        return _DrawnPart(self, (name, orjson.dumps(shows, option=orjson.OPT_SORT_KEYS)), make)


class _DrawnPart:
    def __init__(self, parts: DrawnParts, key: tuple[str, bytes], make: Callable[[], RenderableType]) -> None:
        self.parts, self.key, self.make = parts, key, make

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        options = options.update(height=None)  # a part is as tall as it is, whatever the panel's height
        key = (*self.key, options.max_width, console.color_system, options.ascii_only)
        lines = self.parts.lines.get(key)
        if lines is None:
            if len(self.parts.lines) >= DrawnParts.LIMIT:
                self.parts.lines.clear()
            lines = self.parts.lines[key] = console.render_lines(self.make(), options, pad=True)
        new_line = Segment.line()
        for line in lines:
            yield from line
            yield new_line

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        return Measurement.get(console, options, self.make())


def _tiles_and_voyages(view: dict[str, Any]) -> RenderableType:
    return Columns([voyages_table(view), favor_tiles_table(view), scoring_tiles_table(view)])


def _shown_by_tiles_and_voyages(view: dict[str, Any]) -> Any:
    """What ``voyages_table``, ``favor_tiles_table`` and ``scoring_tiles_table`` read."""
    return [view["voyages"], view["favor_tiles"], [p["favor_tiles"] for p in view["players"]], view["scoring_tiles"],
            view["legend"]["favor_tiles"], view["legend"]["scoring_tiles"], [p["name"] for p in view["players"]]]


def _shown_by_map(view: dict[str, Any]) -> Any:
    """What ``map_table`` reads."""
    return [view["monasteries"], [(p["name"], p["pilgrim"]) for p in view["players"]]]


def board_panel(
    view: dict[str, Any], title: str = "", event: dict[str, Any] | None = None, drawn: DrawnParts | None = None,
    boards: bool = True,
) -> RenderableType:
    """The whole board as one renderable, with the event that led to it on top when given.

    ``event`` is ``{"seq", "of", "notation", "about"}`` (``seq`` 0: before
    the first event). Start groups are shown while they matter: until the
    first round begins. With ``drawn``, the parts that change least are drawn
    once for what they show and reused (see ``DrawnParts``). ``boards``:
    each player's side of the table after the players' summary (the
    replayer shows those in a pane of their own).
    """
    dice_area = _dice_row([{**d, "owner": d["die"]} for d in view["dice_area"]])
    parts: list[RenderableType] = [event_line(event)] if event is not None else []
    parts += [
        status_line(view),
        Text.assemble(("dice area: ", "bold"), dice_area),
        city_table(view),
        players_table(view),
        *(player_boards(view) if boards else []),
    ]
    if view["phase"] in ("setup", "start") and view["start_groups"]:
        parts.append(start_groups_table(view))
    if drawn is None:
        parts.append(_tiles_and_voyages(view))
    else:
        parts.append(drawn.part("tiles", _shown_by_tiles_and_voyages(view), lambda: _tiles_and_voyages(view)))
    if view["monasteries"]:
        parts.append(map_table(view) if drawn is None else drawn.part("map", _shown_by_map(view), lambda: map_table(view)))
    return Panel(Group(*parts), title=title or "Board")
