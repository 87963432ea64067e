"""``coimbra catalog``: check and show component catalogs (docs/catalog.md).

``check FILE`` validates a catalog file; ``show`` prints one (the shipped stand-in
by default) as Rich tables, each value with its provenance, or as canonical JSON.
Bad input never ends in a traceback: every problem on a line of its own on stderr
(one ``error: FILE: <message>`` line when there is one) and exit code 2. The fill-in
sheets and sharing (``template``, ``build``, ``diff``, ``install``, ``list``) are
``cli.catalog_sheet_commands``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Annotated, Any

import orjson
import typer
from rich import box
from rich.console import Console
from rich.table import Table
from rich.text import Text

from cli import catalog_sheet_commands
from cli.exits import BAD_INPUT, fail_all
from coimbra_events.catalog import effect_text
from coimbra_events.catalog import (
    CITIES,
    PRINTED,
    PROVENANCES,
    STAND_IN,
    Catalog,
    CatalogError,
    load_catalog,
    standin_catalog,
)
from coimbra_events.catalog.effect_kinds import PILES, TRACK_RESOURCE, TRACKS, Effect

catalog_app = typer.Typer(
    help=(
        "Check, show, transcribe and share component catalogs: the printed values of dice, tiles, cards, "
        "monasteries, voyages and the pilgrimage map (format: docs/catalog.md). To transcribe your box: "
        "'catalog template -o DIR', fill in the sheets, 'catalog build DIR -o FILE --id ID', "
        "'catalog install FILE'.\n\n"
        "Example: coimbra catalog check my-box.json"
    ),
    no_args_is_help=True,
)
for _name, (_command, _help) in catalog_sheet_commands.COMMANDS.items():
    catalog_app.command(_name, help=_help)(_command)


def _emit_json(value: Any, indent: bool = False) -> None:
    option = orjson.OPT_SORT_KEYS | (orjson.OPT_INDENT_2 if indent else 0)
    typer.echo(orjson.dumps(value, option=option).decode())


def _try_load(file: str | None) -> tuple[Catalog | None, list[str]]:
    """(the catalog in ``file``, or the shipped stand-in when None; no problems) or (None, every problem)."""
    try:
        return (standin_catalog() if file is None else load_catalog(file)), []
    except CatalogError as error:
        return None, error.lines()
    except Exception as error:  # a loader bug must not end in a traceback either
        return None, [f"{file or 'stand-in catalog'}: catalog loader failed ({type(error).__name__}: {error})"]


def _load(file: str | None) -> Catalog:
    """The catalog (see ``_try_load``), or exit 2 with every problem on stderr."""
    catalog, problems = _try_load(file)
    if catalog is None:
        fail_all(problems, file or "stand-in catalog", BAD_INPUT)
    return catalog


def _summary(catalog: Catalog) -> str:
    return (
        f"{len(catalog.characters)} characters, {len(catalog.monasteries)} monasteries, "
        f"{len(catalog.voyages)} voyages, {len(catalog.favor_tiles)} favor tiles, "
        f"{len(catalog.scoring_tiles)} scoring tiles, {len(catalog.map.spaces)} map spaces"
    )


CHECK_HELP = (
    "Validate a catalog file.\n\n"
    "Prints 'ok: ID sha256=HASH, N characters, ...' and exits 0 when FILE is a valid catalog; "
    "otherwise prints every problem on stderr, each as 'FILE: where: expected ..., got ...' (a single one "
    "as 'error: FILE: ...'), and exits 2. "
    'With --json, prints {"valid", "id", "sha256", "error", "problems"} on stdout, where error is the first '
    "problem and problems lists them all (exit codes as above).\n\n"
    "Example: coimbra catalog check fixtures/catalogs/standin.json --json"
)


@catalog_app.command("check", help=CHECK_HELP)
def check(
    file: Annotated[str, typer.Argument(metavar="FILE", help="The catalog JSON file to validate.")],
    as_json: Annotated[
        bool,
        typer.Option("--json", metavar="", help='Print {"valid", "id", "sha256", "error", "problems"} as JSON instead.'),
    ] = False,
) -> None:
    """Validate a catalog file (see CHECK_HELP)."""
    if not as_json:
        catalog = _load(file)
        typer.echo(f"ok: {catalog.id} sha256={catalog.sha256}, {_summary(catalog)}")
        return
    catalog, problems = _try_load(file)
    valid = catalog is not None
    _emit_json({
        "valid": valid,
        "id": catalog.id if valid else None,
        "sha256": catalog.sha256 if valid else None,
        "error": problems[0] if problems else None,
        "problems": problems,
    })  # fmt: skip
    if not valid:
        raise typer.Exit(BAD_INPUT)


SHOW_HELP = (
    "Show a catalog (the shipped stand-in unless --file is given) as tables.\n\n"
    "Each value with its provenance: rules-text, printed (bold), or stand-in (dim). Effects are in the short form the "
    "fill-in sheets use (catalog template).\n\n"
    "Sections: dice, die tokens, setup and limits, flags and crowns, income table, favor tiles, "
    "character cards by pile, monasteries, voyage spaces, voyages, scoring tiles, map. "
    'With --json, prints {"id", "sha256", "catalog": DATA} with sorted keys, where DATA is '
    "the parsed file and sha256 the SHA-256 of DATA serialised with sorted keys and no "
    "whitespace.\n\n"
    "Example: coimbra catalog show --file my-box.json --json"
)


@catalog_app.command("show", help=SHOW_HELP)
def show(
    file: Annotated[
        str | None,
        typer.Option(
            "--file",
            "-f",
            metavar="FILE",
            help="Catalog file to show (default: the shipped stand-in).",
        ),
    ] = None,
    as_json: Annotated[
        bool,
        typer.Option(
            "--json",
            metavar="",
            help='Print {"id", "sha256", "catalog": DATA} as canonical JSON (sorted keys).',
        ),
    ] = False,
) -> None:
    """Show a catalog as tables or canonical JSON (see SHOW_HELP)."""
    catalog = _load(file)
    if as_json:
        _emit_json(
            {"id": catalog.id, "sha256": catalog.sha256, "catalog": catalog.data}, indent=True
        )
        return
    console = Console()
    for renderable in _tables(catalog):
        console.print(renderable)
        console.print()


# -------------------------------------------------------------------- rendering


def _provenance(catalog: Catalog, path: str) -> Text:
    """The provenance of an entry or section; per field where its fields differ."""
    overall = catalog.provenance.get(path, "?")
    prefix = path + "."
    fields = {
        key[len(prefix) :]: value
        for key, value in catalog.provenance.items()
        if key.startswith(prefix) and "." not in key[len(prefix) :]
    }
    label = overall
    if len(set(fields.values())) > 1:
        label = "; ".join(
            f"{p}: {', '.join(f for f, v in fields.items() if v == p)}"
            for p in PROVENANCES
            if p in fields.values()
        )
    return Text(label, style={STAND_IN: "dim", PRINTED: "bold"}.get(overall, ""))


def _table(
    title: str,
    columns: Sequence[str],
    rows: Sequence[Sequence[Any]],
    provenance: Sequence[Text] = (),
    wide: Sequence[str] = (),
    main: str = "",
) -> Table:
    """A table; ``provenance`` (one per row) becomes a column, or the caption when all rows agree.

    Only the ``wide`` columns (and provenance) wrap, never narrower than their longest word
    (up to 20 characters); ``main`` keeps at least 20 characters.
    """
    shared = provenance and all(p == provenance[0] for p in provenance)
    caption = Text.assemble("provenance: ", provenance[0]) if shared else None
    table = Table(
        title=title,
        caption=caption,
        title_justify="left",
        caption_justify="left",
        box=box.SIMPLE_HEAD,
    )
    cells = [
        [value if isinstance(value, Text) else Text(str(value)) for value in row] for row in rows
    ]
    for i, column in enumerate(columns):
        longest_word = max((len(w) for row in cells for w in row[i].plain.split()), default=1)
        min_width = (
            max(min(longest_word, 20), 20 if column == main else 0) if column in wide else None
        )
        table.add_column(column, no_wrap=column not in wide, overflow="fold", min_width=min_width)
    if provenance and not shared:
        table.add_column("provenance", overflow="fold")
    for i, row in enumerate(cells):
        table.add_row(*row, *([provenance[i]] if provenance and not shared else []))
    return table


def _effects(effects: Iterable[Effect]) -> str:
    return effect_text.render(effects) or "-"


def _bonus(timing: str, effects: Iterable[Effect]) -> str:
    return "-" if timing == "none" else f"{timing}: {_effects(effects)}"


def _player_counts(catalog: Catalog) -> list[int]:
    return list(range(catalog.max_players, catalog.min_players - 1, -1))


def _header(catalog: Catalog) -> Table:
    rows = [
        ("id", catalog.id),
        ("title", catalog.title),
        ("sha256", catalog.sha256),
        (
            "players",
            Text.assemble(
                f"{catalog.min_players}-{catalog.max_players}  ", _provenance(catalog, "players")
            ),
        ),
    ]
    if catalog.data.get("notes"):
        rows.append(("notes", catalog.data["notes"]))
    table = _table("Catalog", ("field", "value"), rows, wide=("value",))
    table.show_header = False
    return table


def _dice(catalog: Catalog) -> Table:
    counts = {
        n: Counter(catalog.die_colors[d] for d in catalog.dice_for(n))
        for n in _player_counts(catalog)
    }
    rows = [
        (c, *(counts[n][c] for n in counts)) for c in dict.fromkeys(catalog.die_colors.values())
    ]
    rows.append(("total", *(sum(counts[n].values()) for n in counts)))
    columns = ("colour", *(f"{n} players" for n in counts))
    return _table("Dice in the pool", columns, rows, [_provenance(catalog, "dice")] * len(rows))


def _die_tokens(catalog: Catalog) -> Table:
    rows = [
        (
            f"{n} players",
            *(" ".join(map(str, catalog.die_tokens_for(n).get(c, ()))) or "-" for c in CITIES),
        )
        for n in _player_counts(catalog)
    ]
    columns = ("game", *(f"{c} city" for c in CITIES))
    return _table(
        "Die tokens, left to right", columns, rows, [_provenance(catalog, "die_tokens")] * len(rows)
    )


def _setup(catalog: Catalog) -> Table:
    c = catalog
    rows = {
        "start_resources": ("start coins / guards", f"{c.start_coins} / {c.start_guards}"),
        "limits": (
            "at most coins / guards / influence",
            f"{c.max_coins} / {c.max_guards} / {c.max_influence}",
        ),
        "alternative_action": (
            "alternative action",
            f"up to {c.alternative_coins} coins and {c.alternative_guards} guards",
        ),
        "rows": ("cards per row", c.cards_per_row),
        "start_groups": ("start cards per group", c.cards_per_group),
        "final_scoring": (
            "leftover coins / guards per point; tie break",
            f"{_leftover(c)}; {c.tie_break}",
        ),
    }
    provenance = [_provenance(c, path) for path in rows]
    title = "Setup, limits and final scoring"
    return _table(title, ("what", "value"), list(rows.values()), provenance, ("what", "value"))


def _leftover(catalog: Catalog) -> str:
    values = (catalog.leftover_coins_per_point, catalog.leftover_guards_per_point)
    return " / ".join("none" if v == 0 else str(v) for v in values)


def _crowns(catalog: Catalog) -> Table:
    rows = [(f"flag {i}", crowns) for i, crowns in enumerate(catalog.flag_crowns, 1)]
    provenance = [_provenance(catalog, "flag_crowns")] * len(rows)
    rows.append(("each crown token", catalog.crown_token_crowns))
    provenance.append(_provenance(catalog, "crown_tokens"))
    return _table("Flags and crowns", ("where", "crowns"), rows, provenance)


def _income(catalog: Catalog) -> Table:
    def pay(base: int, bonus: int) -> str:
        return f"{base} + {bonus}" if bonus else str(base)

    columns = ("space", *(f"{t} ({TRACK_RESOURCE[t]})" for t in TRACKS))
    rows = [
        (
            str(t.low) if t.low == t.high else f"{t.low}-{t.high}",
            *(pay(*t.rewards[track]) for track in TRACKS),
        )
        for t in catalog.income
    ]
    provenance = [_provenance(catalog, "income")] * len(rows)
    return _table("Income by disc position (base + victory points)", columns, rows, provenance)


def _favor_tiles(catalog: Catalog) -> Table:
    tiles = list(catalog.favor_tiles.values())
    rows = [(t.id, t.name, t.crowns, _effects(t.effects)) for t in tiles]
    provenance = [_provenance(catalog, f"favor_tiles.{t.id}") for t in tiles]
    return _table(
        "Favor tiles",
        ("id", "name", "crowns", "effects"),
        rows,
        provenance,
        ("name", "effects"),
        "effects",
    )


def _characters(catalog: Catalog, pile: str) -> Table:
    cards = [catalog.characters[i] for i in catalog.pile(pile)]
    rows = [
        (c.id, _name_and_symbols(c.name, c.symbols),
         f"{c.category} +{c.influence}", c.cost, _bonus(c.timing, c.effects))
        for c in cards
    ]  # fmt: skip
    provenance = [_provenance(catalog, f"characters.{c.id}") for c in cards]
    columns = ("id", "name (symbols)", "influence", "cost", "bonus")
    title = f"Character cards, pile {pile} ({len(cards)})"
    return _table(title, columns, rows, provenance, ("name (symbols)", "bonus"), "bonus")


def _name_and_symbols(name: str, symbols: tuple[str, ...]) -> Text:
    return Text.assemble(name, *((" (", (" ".join(symbols), "italic"), ")") if symbols else ()))


def _monasteries(catalog: Catalog) -> Table:
    tiles = [catalog.monasteries[i] for pile in PILES for i in catalog.monasteries_of(pile)]
    rows = [(m.id, m.pile, m.name, _bonus(m.timing, m.effects)) for m in tiles]
    provenance = [_provenance(catalog, f"monasteries.{m.id}") for m in tiles]
    return _table(
        f"Monasteries ({len(rows)})",
        ("id", "pile", "name", "reward"),
        rows,
        provenance,
        ("name", "reward"),
        "reward",
    )


def _voyage_spaces(catalog: Catalog) -> Table:
    rows = [(i, s.resource, s.cost) for i, s in enumerate(catalog.voyage_spaces, 1)]
    provenance = [_provenance(catalog, f"voyage_spaces.{i}") for i in range(len(rows))]
    return _table("Voyage spaces", ("space", "pays in", "cost"), rows, provenance)


def _voyages(catalog: Catalog) -> Table:
    voyages = list(catalog.voyages.values())
    rows = [(v.id, v.name, _effects(v.effects)) for v in voyages]
    provenance = [_provenance(catalog, f"voyages.{v.id}") for v in voyages]
    return _table(
        f"Voyages ({len(rows)})",
        ("id", "name", "task (end of game)"),
        rows,
        provenance,
        ("name", "task (end of game)"),
        "task (end of game)",
    )


def _scoring_tiles(catalog: Catalog) -> Table:
    tiles = list(catalog.scoring_tiles.values())
    rows = [
        (t.id, t.name, " / ".join(map(str, t.points["2-3"])), " / ".join(map(str, t.points["4"])))
        for t in tiles
    ]
    provenance = [_provenance(catalog, f"scoring_tiles.{t.id}") for t in tiles]
    columns = ("id", "name", "2-3 players", "4 players")
    return _table("Influence scoring tiles, points by rank", columns, rows, provenance, ("name",))


def _map_summary(catalog: Catalog) -> Table:
    pilgrim_map = catalog.map
    kinds = Counter(s.kind for s in pilgrim_map.spaces.values())
    degrees = [len(n) for n in pilgrim_map.neighbours.values()]
    rows = [
        (
            "spaces",
            f"{len(pilgrim_map.spaces)}: " + ", ".join(f"{n} {k}" for k, n in kinds.items()),
        ),
        ("edges", f"{sum(degrees) // 2}; {min(degrees)}-{max(degrees)} neighbours per space"),
        ("start spaces", " ".join(pilgrim_map.start_spaces)),
        *(
            (f"pile {p} monasteries", " ".join(s) or "-")
            for p, s in pilgrim_map.monastery_spaces.items()
        ),
    ]
    named = [f"{s.name} ({s.id})" for s in pilgrim_map.spaces.values() if s.name]
    if named:  # what people call the spaces (a monastery space: its monastery, once drawn)
        rows.append(("space names", ", ".join(named)))
    provenance = [_provenance(catalog, "map")] * len(rows)
    return _table("Pilgrimage map", ("what", "value"), rows, provenance, ("value",))


def _map_spaces(catalog: Catalog) -> Table:
    spaces = list(catalog.map.spaces.values())
    rows = [
        (
            s.id,
            s.kind if s.pile is None else f"monastery {s.pile}",
            " ".join(catalog.map.neighbours[s.id]),
        )
        for s in spaces
    ]
    provenance = [_provenance(catalog, "map")] * len(rows)
    return _table(
        "Map spaces and their neighbours",
        ("space", "kind", "neighbours"),
        rows,
        provenance,
        ("neighbours",),
    )


def _tables(catalog: Catalog) -> list[Table]:
    return [
        _header(catalog), _dice(catalog), _die_tokens(catalog), _setup(catalog), _crowns(catalog),
        _income(catalog), _favor_tiles(catalog), *(_characters(catalog, p) for p in PILES),
        _monasteries(catalog), _voyage_spaces(catalog), _voyages(catalog), _scoring_tiles(catalog),
        _map_summary(catalog), _map_spaces(catalog),
    ]  # fmt: skip
