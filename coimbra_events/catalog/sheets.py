"""A catalog as fill-in sheets: one table per kind of component, a row per component.

Each :class:`Sheet` declares its columns once (``catalog.cells``: where in the catalog's
JSON a cell's value sits and how it is written). The same declaration turns a catalog
into rows (``catalog template``, ``catalog diff``) and rows back into the catalog's JSON
(``catalog build``), so the two directions cannot drift apart; the catalog loader judges
every value read back, so a problem reads the same in a sheet as in a JSON file.

Section fields that are not tables (limits, start resources, ...) and the provenance of
every section field live in ``settings.csv``; each entry's provenance is in its row.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from coimbra_events.catalog.assembly import OPTIONAL_SECTIONS
from coimbra_events.catalog.cells import (
    EFFECTS,
    NUMBER,
    TEXT,
    WORDS,
    Cell,
    CellError,
    OneOf,
    Column,
    Loc,
    column_key,
    has_value,
    provenance_label,
    provenance_of,
    put,
    value_at,
)
from coimbra_events.catalog.effect_kinds import TRACK_RESOURCE, TRACKS
from coimbra_events.catalog.model import CARD_TIMINGS, CITIES, MONASTERY_TIMINGS, PROVENANCES, SCORING_SIDES
from coimbra_events.catalog.schema import (
    DicePool,
    MapSpace,
    Monastery,
    PLAYER_KEYS,
    SECTIONS,
    Tier,
    VoyageSpace,
    character_model,
)
from coimbra_events.catalog.schema_fields import Model, either, meaning
from coimbra_events.catalog.schema import FavorTile as FavorTileModel


# ------------------------------------------------------------------ sheets


@dataclass(frozen=True)
class Row:
    """One row read from a sheet: its number in the file (the header is row 1) and cells by column key."""

    number: int
    cells: Mapping[str, str]


@dataclass(frozen=True)
class Sheet:
    """A sheet of entries: the list at ``items`` in the catalog, one row each.

    ``only`` keeps the entries whose ``only[0]`` is (or, with ``exclude``, is not)
    ``only[1]``: start cards and the other character cards share the catalog's list.
    ``number`` names a first column counting the rows (a voyage space's place, a flag).
    """

    file: str
    what: str
    items: Loc
    columns: tuple[Column, ...]
    provenance: bool = True
    number: str = ""
    only: tuple[str, str] | None = None
    exclude: bool = False
    advice: str = ""

    @property
    def headers(self) -> list[str]:
        return [*([self.number] if self.number else []), *(c.header for c in self.columns), *(["provenance"] if self.provenance else [])]

    def keys(self) -> list[str]:
        return [column_key(h) for h in self.headers]

    def entries(self, data: Mapping[str, Any]) -> list[tuple[int, Any]]:
        """(index in the catalog's list, entry) of the entries this sheet holds."""
        items = value_at(data, self.items) if has_value(data, self.items) else []
        return [(i, e) for i, e in enumerate(items) if self._selected(e)]

    def _selected(self, entry: Any) -> bool:
        if self.only is None:
            return True
        key, value = self.only
        return (isinstance(entry, dict) and entry.get(key) == value) != self.exclude

    def rows(self, data: Mapping[str, Any]) -> list[dict[str, str]]:
        """The catalog's entries as rows of cells, by column key."""
        out = []
        for n, (_, entry) in enumerate(self.entries(data), 1):
            row = {column_key(self.number): str(n)} if self.number else {}
            for column in self.columns:
                row[column.key] = column.cell.write(value_at(entry, column.path)) if has_value(entry, column.path) else ""
            if self.provenance:
                row["provenance"] = provenance_label(entry["provenance"])
            out.append(row)
        return out

    def label(self, row: Mapping[str, str]) -> str:
        """How ``catalog diff`` names a row's component: its id and name, else its place."""
        if "id" in row:
            return " ".join(p for p in (row["id"], row.get("name", "")) if p)
        if self.number:
            return f"{self.number} {row.get(column_key(self.number), '')}"
        return " - ".join(row[c.key] for c in self.columns)

    def entry(self, row: Row, problems: list[tuple[Row, Column | None, CellError]]) -> Any:
        """A row's JSON entry (without provenance); a cell that spells nothing is noted in ``problems``."""
        values = []
        for column in self.columns:
            text = row.cells.get(column.key, "")
            if column.optional and not text.strip():
                continue
            try:
                values.append((column, column.cell.read(text)))
            except CellError as error:
                problems.append((row, column, error))
                values.append((column, []))
        if self.columns[0].path == ():
            return values[0][1] if values else None
        if all(isinstance(c.path[0], int) for c in self.columns):
            return [v for _, v in values]
        entry: dict[str, Any] = {}
        for column, value in values:
            put(entry, column.path, value)
        if self.only is not None and not self.exclude:
            entry = {**entry, self.only[0]: self.only[1]}
            entry = {k: entry[k] for k in _field_order(self)}
        return entry


def _field_order(sheet: Sheet) -> list[str]:
    """The keys of a sheet's entries in catalog order (a start card's fixed pile after its name)."""
    keys = list(dict.fromkeys(str(c.path[0]) for c in sheet.columns))
    if sheet.only is not None and sheet.only[0] not in keys:
        keys.insert(2, sheet.only[0])
    return keys


LATER_PILES: tuple[str, ...] = ("II", "III")


def _card_columns(pile: str) -> tuple[Column, ...]:
    model = character_model(pile)
    timings = CARD_TIMINGS[pile]
    return (
        Column("id", meaning(model, "id"), ("id",)),
        Column("name", "text, unique among character cards", ("name",)),
        *((Column("pile", either(LATER_PILES), ("pile",), OneOf(LATER_PILES)),) if pile != "I" else ()),
        Column("category", f"influence track, {meaning(model, 'category')}", ("category",), OneOf(TRACKS)),
        Column("cost", f"paid in, {meaning(model, 'cost')}", ("cost",), OneOf(("coins", "guards"))),
        Column("influence", f"spaces on its track, {meaning(model, 'influence')}", ("influence",), NUMBER),
        Column("bonus timing", either(timings), ("bonus", "timing"), OneOf(timings)),
        Column("bonus effects", "short form, README.txt; empty for timing none", ("bonus", "effects"), EFFECTS),
        Column("symbols", "symbol names printed on the card, space separated; may be empty", ("symbols",), WORDS),
    )


_RANKS = {side: [f"{side} players rank {r}" for r in range(1, n + 1)] for side, n in SCORING_SIDES.items()}

ENTRY_SHEETS: tuple[Sheet, ...] = (
    Sheet("start-cards.csv", "start cards (pile I), dealt in the start groups", ("characters",),
          _card_columns("I"), only=("pile", "I")),
    Sheet("characters.csv", "character cards of piles II and III", ("characters",), _card_columns("II"),
          only=("pile", "I"), exclude=True),
    Sheet("monasteries.csv", "monastery tiles", ("monasteries",), (
        Column("id", meaning(Monastery, "id"), ("id",)),
        Column("name", "text, unique among monasteries", ("name",)),
        Column("pile", meaning(Monastery, "pile"), ("pile",), OneOf(("I", "II", "III"))),
        Column("reward timing", either(MONASTERY_TIMINGS), ("reward", "timing"), OneOf(MONASTERY_TIMINGS)),
        Column("reward effects", "short form, README.txt", ("reward", "effects"), EFFECTS),
    )),
    Sheet("voyages.csv", "voyage cards and their end-game tasks", ("voyages",), (
        Column("id", meaning(Monastery, "id"), ("id",)),
        Column("name", "text, unique among voyages", ("name",)),
        Column("task", "end-game effects, short form, README.txt", ("task",), EFFECTS),
    )),
    Sheet("voyage-spaces.csv", "the voyage spaces below the board, left to right", ("voyage_spaces",), (
        Column("resource", f"paid in, {meaning(VoyageSpace, 'resource')}", ("resource",), OneOf(("coins", "guards"))),
        Column("cost", "amount paid, 0 up to the limit of that resource", ("cost",), NUMBER),
    ), number="space"),
    Sheet("favor-tiles.csv", "favor tiles beside the castle", ("favor_tiles",), (
        Column("id", meaning(FavorTileModel, "id"), ("id",)),
        Column("name", "text, unique among favor tiles", ("name",)),
        Column("crowns", f"crowns printed, {meaning(FavorTileModel, 'crowns')}", ("crowns",), NUMBER),
        Column("effects", "when taken or while held, short form, README.txt; may be empty", ("effects",), EFFECTS),
    )),
    Sheet("scoring-tiles.csv", "influence scoring tiles, victory points by rank on each side", ("scoring_tiles",), (
        Column("id", "letters, digits, - and _", ("id",)),
        Column("name", "text, unique among scoring tiles", ("name",)),
        *(Column(rank, "victory points, 0-99, never more than the rank before", ("points", side, r), NUMBER)
          for side, ranks in _RANKS.items() for r, rank in enumerate(ranks)),
    )),
    Sheet("income.csv", "the phase E income table: what a disc on a space of a track pays", ("income", "tiers"), (
        Column("from", f"first space of the tier, {meaning(Tier, 'start')}", ("from",), NUMBER),
        Column("to", "last space of the tier, up to the influence limit", ("to",), NUMBER),
        *(col for t in TRACKS for col in (
            Column(f"{t} {TRACK_RESOURCE[t]}", f"{TRACK_RESOURCE[t]} paid, 0-20", (t, 0), NUMBER),
            Column(f"{t} bonus points", "victory points paid besides, 0-20", (t, 1), NUMBER),
        )),
    ), provenance=False, number="tier", advice="Tiers run from space 0 up to the influence limit with no gap and no overlap."),
    Sheet("flag-crowns.csv", "crowns beside the player-order flags", ("flag_crowns", "values"), (
        Column("crowns", "crowns beside the flag, 0-9", (), NUMBER),
    ), provenance=False, number="flag", advice="One row per flag, as many as the most players."),
    Sheet("map-spaces.csv", "spaces of the pilgrimage map", ("map", "spaces"), (
        Column("id", meaning(MapSpace, "id"), ("id",)),
        Column("kind", meaning(MapSpace, "kind"), ("kind",), OneOf(("start", "monastery", "road"))),
        Column("pile", "monastery spaces only: the pile whose tile lies there, I, II or III", ("pile",),
               OneOf(("I", "II", "III")), optional=True),
        Column("name", "what people call the space, optional (a monastery space is called by its monastery)",
               ("name",), optional=True),
    ), provenance=False),
    Sheet("map-edges.csv", "roads of the pilgrimage map: one pilgrim step joins two spaces", ("map", "edges"), (
        Column("from", "a space id of map-spaces.csv", (0,)),
        Column("to", "another space id", (1,)),
    ), provenance=False),
)  # fmt: skip
"""Every sheet of entries, in the order ``build`` assembles them (start cards first)."""


# ------------------------------------------------------------------ settings, dice, die tokens


@dataclass(frozen=True)
class Setting:
    """A row of ``settings.csv``: one section field (or, for a table, where its values are)."""

    section: str
    field: str  # dotted below the section: "leftover.coins_per_point"
    unit: str
    cell: Cell = NUMBER
    sheet: str = ""  # the values are in this sheet; the row holds their provenance

    @property
    def path(self) -> Loc:
        return (self.section, *self.field.split("."))

    @property
    def top(self) -> str:
        """The section field the row's provenance belongs to."""
        return self.field.split(".")[0]


TABLES: Mapping[tuple[str, str], str] = {
    ("dice", "pool"): "dice.csv", ("dice", "removed"): "dice.csv", ("income", "tiers"): "income.csv",
    ("flag_crowns", "values"): "flag-crowns.csv", ("map", "spaces"): "map-spaces.csv", ("map", "edges"): "map-edges.csv",
}  # fmt: skip
"""Section fields whose values are a sheet of their own (die tokens are, by player count, too)."""

_UNITS: Mapping[tuple[str, str], str] = {
    ("players", "min"): "fewest players", ("players", "max"): "most players",
    ("start_resources", "coins"): "coins each player starts with, at most the coin limit",
    ("start_resources", "guards"): "guards each player starts with, at most the guard limit",
    ("limits", "coins"): "most coins a player holds", ("limits", "guards"): "most guards a player holds",
    ("limits", "influence"): "last space of each influence track",
    ("crown_tokens", "crowns"): "crowns on each crown token",
    ("alternative_action", "coins"): "coins the alternative action gains, at most",
    ("alternative_action", "guards"): "guards the alternative action gains, at most",
    ("rows", "cards_per_row"): "character cards in each city row", ("start_groups", "cards_per_group"): "cards in each start group",
    ("final_scoring", "leftover.coins_per_point"): "coins left that score one victory point; 0: none score",
    ("final_scoring", "leftover.guards_per_point"): "guards left that score one victory point; 0: none score",
    ("final_scoring", "tie_break"): "resources: more coins + guards left wins a tie; shared: tied players share",
    ("discs", "supply"): "discs beside each player's board, for voyages and monasteries",
}  # fmt: skip


def _settings() -> tuple[Setting, ...]:
    """Every scalar field of every section, read from the schema's models, then the tables."""
    rows = [Setting("catalog", "title", "the catalog's title, text", TEXT), Setting("catalog", "notes", "free text; may be empty", TEXT)]
    for section, model in SECTIONS.items():
        if not (isinstance(model, type) and issubclass(model, Model)) or section == "die_tokens":
            continue
        for name, info in model.model_fields.items():
            key = info.alias or name
            if key == "provenance":
                continue
            if (section, key) in TABLES:
                rows.append(Setting(section, key, f"values in {TABLES[section, key]}", sheet=TABLES[section, key]))
                continue
            inner = info.annotation
            if isinstance(inner, type) and issubclass(inner, Model):
                rows.extend(_setting(section, f"{key}.{k}", inner, n) for n, k in zip(inner.model_fields, inner.keys()))
            else:
                rows.append(_setting(section, key, model, name))
    return tuple(rows)


def _setting(section: str, dotted: str, model: type[Model], name: str) -> Setting:
    choices = _choices(model, name)
    unit = f"{_UNITS[section, dotted]}; {meaning(model, name)}"
    return Setting(section, dotted, unit, OneOf(choices) if choices else NUMBER)


def _choices(model: type[Model], name: str) -> tuple[str, ...]:
    args = getattr(model.model_fields[name].annotation, "__args__", ())
    return tuple(a for a in args if isinstance(a, str))


SETTINGS: tuple[Setting, ...] = _settings()
SETTINGS_COLUMNS: tuple[str, ...] = ("section", "field", "value", "meaning", "provenance")
DICE_COLUMNS: tuple[str, ...] = ("colour", "pool", *(f"removed with {n} players" for n in PLAYER_KEYS))
TOKEN_COLUMNS: tuple[str, ...] = ("players", "city", "tokens")


def settings_rows(data: Mapping[str, Any]) -> list[dict[str, str]]:
    """``settings.csv``: each section field with its value (or where its table is) and provenance."""
    rows = []
    for s in (*SETTINGS, *_token_settings(data)):
        section = data.get(s.section, OPTIONAL_SECTIONS.get(s.section, {})) if s.section != "catalog" else data
        value = "" if s.sheet or not has_value(section, s.path[1:]) else s.cell.write(value_at(section, s.path[1:]))
        provenance = "" if s.section == "catalog" else provenance_of(section, s.top)
        rows.append({"section": s.section, "field": s.field, "value": value, "meaning": s.unit, "provenance": provenance})
    return rows


def _token_settings(data: Mapping[str, Any]) -> list[Setting]:
    tokens = data.get("die_tokens", {})
    return [Setting("die_tokens", n, f"values in die-tokens.csv ({n} players)", sheet="die-tokens.csv")
            for n in tokens if n != "provenance"]


def dice_rows(data: Mapping[str, Any]) -> list[dict[str, str]]:
    """``dice.csv``: each colour, its dice in the pool and how many leave a game of N players."""
    pool, removed = data["dice"]["pool"], data["dice"]["removed"]
    rows = []
    for colour, count in pool.items():
        row = {"colour": colour, "pool": str(count)}
        for n in PLAYER_KEYS:
            taken = removed.get(n, {})
            row[f"removed with {n} players"] = str(taken[colour]) if colour in taken else ""
        rows.append(row)
    return rows


def token_rows(data: Mapping[str, Any]) -> list[dict[str, str]]:
    """``die-tokens.csv``: for each player count that uses them, each city's tokens left to right."""
    tokens = data["die_tokens"]
    return [
        {"players": n, "city": city, "tokens": WORDS.write(cities[city])}
        for n, cities in tokens.items() if n != "provenance" for city in CITIES
    ]  # fmt: skip


DICE_HEADERS = {
    "colour": f"colour ({either(DicePool.keys())})",
    "pool": f"pool (dice of this colour in the box, {meaning(DicePool, 'k_gray')})",
    **{f"removed with {n} players": f"removed with {n} players (dice of this colour left out; empty: none)" for n in PLAYER_KEYS},
}
TOKEN_HEADERS = {
    "players": f"players (a player count that uses die tokens, {'-'.join((PLAYER_KEYS[0], PLAYER_KEYS[-1]))})",
    "city": f"city ({either(CITIES)})",
    "tokens": "tokens (values 1-6, left to right, space separated; never rising)",
}
SETTINGS_HEADERS = {
    "section": "section", "field": "field", "value": "value (see meaning)",
    "meaning": "meaning (unit and range; not read back)", "provenance": f"provenance ({either(PROVENANCES)})",
}  # fmt: skip


@dataclass(frozen=True)
class Table:
    """A sheet that is not a list of entries: its file, its columns by key, and its rows."""

    file: str
    what: str
    headers: Mapping[str, str]
    rows: Callable[[Mapping[str, Any]], list[dict[str, str]]]
    keys: tuple[str, ...] = ()  # the columns that name a row
    advice: str = ""

    def label(self, row: Mapping[str, str]) -> str:
        return " ".join(row[k] for k in self.keys)


TABLE_SHEETS: tuple[Table, ...] = (
    Table("settings.csv", "the catalog's title, its settings, and the provenance of each section field",
          SETTINGS_HEADERS, settings_rows, ("section", "field"),
          "Change a value, or the provenance of a value you checked against the box. Rows with 'values in X.csv' hold "
          "only the provenance of that sheet's values."),
    Table("dice.csv", "dice in the pool, and how many leave a game of fewer players", DICE_HEADERS, dice_rows, ("colour",),
          "The highest-numbered dice of a colour are the ones left out."),
    Table("die-tokens.csv", "die tokens laid in each city, by player count", TOKEN_HEADERS, token_rows, ("players", "city"),
          "A player count with no rows uses no die tokens."),
)  # fmt: skip

SHEET_FILES: tuple[str, ...] = (*(t.file for t in TABLE_SHEETS), *(s.file for s in ENTRY_SHEETS))


def all_rows(data: Mapping[str, Any]) -> Iterator[tuple[Sheet | Table, list[dict[str, str]]]]:
    """Every sheet of a catalog's JSON with its rows, in sheet order."""
    for table in TABLE_SHEETS:
        yield table, table.rows(data)
    for sheet in ENTRY_SHEETS:
        yield sheet, sheet.rows(data)


def headers_of(sheet: Sheet | Table) -> list[str]:
    return sheet.headers if isinstance(sheet, Sheet) else list(sheet.headers.values())


def keys_of(sheet: Sheet | Table) -> list[str]:
    return sheet.keys() if isinstance(sheet, Sheet) else list(sheet.headers)
