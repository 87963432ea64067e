"""``coimbra catalog template | build | diff | install | list``: transcribing a box and sharing it.

A club writes the fill-in sheets of a catalog (``template``), overwrites in a
spreadsheet what its printed components say, turns the sheets into a catalog
(``build``: every problem at once, with file, row and column; nothing written on
any), sees what it changed (``diff``) and installs it where every log and stored game
that names it finds it (``install``, ``list``). The loader and its pydantic models
are imported only inside the commands, so ``coimbra --help`` starts as fast as before.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Annotated, Any, Optional

import orjson
import typer
from rich import box
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from cli.exits import BAD_INPUT, fail, fail_all
from coimbra_events.catalog import (
    PROVENANCES,
    Catalog,
    CatalogError,
    find_catalog,
    load_catalog,
    shipped_catalogs,
    standin_catalog,
)
from coimbra_events.catalog.folder import installed, installed_dir


def _print_json(value: Any) -> None:
    typer.echo(orjson.dumps(value, option=orjson.OPT_INDENT_2).decode())


def catalog_ref(ref: str | None) -> Catalog:
    """The catalog a command names: a file, else a shipped or installed catalog's id
    (the stand-in when none is named); exit 2 with every problem otherwise."""
    try:
        if ref is None:
            return standin_catalog()
        if Path(ref).exists() or ref.endswith(".json"):
            return load_catalog(ref)
        return find_catalog(ref)
    except CatalogError as error:
        fail_all(error.lines(), error.source or ref or "catalog")


def provenance_counts(catalog: Catalog) -> dict[str, int]:
    """How many values of each provenance the catalog holds (fields of entries and sections)."""
    fields = [v for k, v in catalog.provenance.items() if k.rsplit(".", 1)[0] in catalog.provenance]
    counts = Counter(fields)
    return {p: counts[p] for p in PROVENANCES}


def _counts_text(catalog: Catalog) -> str:
    return ", ".join(f"{n} {p}" for p, n in provenance_counts(catalog).items())


TEMPLATE_HELP = (
    "Write fill-in sheets of a catalog (a CSV file per kind of component) into a new folder.\n\n"
    "One CSV file per kind of component "
    "(settings, dice, die tokens, start cards, characters, monasteries, voyages, voyage spaces, favor tiles, "
    "scoring tiles, income, flag crowns, map spaces, map edges), a row per component, every value in a column "
    "whose header gives its unit and range, effects in a short form ('gain 3 guards', 'per die gray: gain 1 "
    "guards', '2 points per green card'), each row with its provenance; and README.txt on filling them in.\n\n"
    "The sheets are prefilled from the shipped stand-in, or from --from (a catalog file, or the id of a shipped "
    "or installed catalog). A folder that already holds sheets is never overwritten (exit 2).\n\n"
    "Example: coimbra catalog template -o my-box"
)


def template(
    output: Annotated[Path, typer.Option("--output", "-o", metavar="DIR", help="The new folder for the sheets.")],
    source: Annotated[
        Optional[str],
        typer.Option("--from", metavar="CATALOG", help="Catalog file or id to prefill from (default: the stand-in)."),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help='Print {"folder", "from", "files"} as JSON.')] = False,
) -> None:
    """Write fill-in sheets (see TEMPLATE_HELP)."""
    from coimbra_events.catalog.template import SheetError, write_template

    catalog = catalog_ref(source)
    try:
        files = write_template(catalog, output)
    except SheetError as error:
        fail_all([str(p) for p in error.problems], str(output))
    except OSError as error:
        fail(f"{error.filename or output}: {error.strerror or error}")
    if as_json:
        _print_json({"folder": str(output), "from": {"id": catalog.id, "sha256": catalog.sha256}, "files": [f.name for f in files]})
        return
    typer.echo(f"wrote {len(files)} files to {output} from catalog {catalog.id}; read {output / 'README.txt'} to fill them in")


BUILD_HELP = (
    "Turn filled-in sheets (catalog template) into a catalog file.\n\n"
    "Sheets are read as spreadsheet programs save them: cells separated by commas, semicolons or tabs; UTF-8 "
    "(with or without a byte order mark), UTF-16 with one, or cp1252 / Latin-1. A sheet that cannot be read, or "
    "whose header row lacks a column, is one problem, saying what was found.\n\n"
    "Every value that differs from the catalog the sheets were written from is marked 'printed'; every other "
    "keeps its provenance ('stand-in' or 'rules-text', or what its provenance cell says). The result is checked "
    "like any catalog, and every problem is listed at once with its file, row and column, what was expected and "
    "what was found; then the exit code is 2 and nothing is written. On success prints 'ok: ID sha256=HASH, ...'.\n\n"
    "Example: coimbra catalog build my-box -o my-box.json --id my-box-1"
)


def build(
    folder: Annotated[Path, typer.Argument(metavar="DIR", help="The folder of filled-in sheets.")],
    output: Annotated[Path, typer.Option("--output", "-o", metavar="FILE", help="Where to write the catalog.")],
    catalog_id: Annotated[
        str, typer.Option("--id", metavar="ID", help="The new catalog's id: letters, digits, '.', '-' and '_'.")
    ],
    as_json: Annotated[
        bool, typer.Option("--json", help='Print {"ok", "id", "sha256", "provenance", "problems"} as JSON.')
    ] = False,
) -> None:
    """Build a catalog from sheets (see BUILD_HELP)."""
    from coimbra_events.catalog.build import build as build_sheets, write_catalog
    from coimbra_events.catalog.template import SheetError

    try:
        catalog = build_sheets(folder, catalog_id)
    except SheetError as error:
        if as_json:
            problems = [{"file": p.file, "row": p.row, "column": p.column, "detail": p.detail or None,
                         "expected": p.expected, "got": p.got, "message": str(p)} for p in error.problems]  # fmt: skip
            _print_json({"ok": False, "id": None, "sha256": None, "provenance": None, "problems": problems})
            raise typer.Exit(BAD_INPUT) from None
        fail_all([str(p) for p in error.problems], f"{folder}: nothing written")
    try:
        write_catalog(catalog, output)
    except OSError as error:
        fail(f"{error.filename or output}: {error.strerror or error}; nothing written")
    if as_json:
        _print_json({"ok": True, "id": catalog.id, "sha256": catalog.sha256, "provenance": provenance_counts(catalog),
                     "problems": [], "file": str(output)})  # fmt: skip
        return
    typer.echo(f"ok: {catalog.id} sha256={catalog.sha256} written to {output}; values: {_counts_text(catalog)}")


DIFF_HELP = (
    "What differs between two catalogs, component by component and field by field.\n\n"
    "Differences are named as the sheets name them (sheet, component, column, A, B). "
    "A and B are catalog files or ids of shipped or installed "
    'catalogs. With --json, prints [{"sheet", "component", "change", "field", "a", "b"}] (change: changed, '
    "added or removed). Exit 0 either way.\n\n"
    "Example: coimbra catalog diff standin-1 my-box.json"
)


def diff(
    a: Annotated[str, typer.Argument(metavar="A", help="A catalog file or id.")],
    b: Annotated[str, typer.Argument(metavar="B", help="Another catalog file or id.")],
    as_json: Annotated[bool, typer.Option("--json", help="Print the differences as a JSON list.")] = False,
) -> None:
    """Differences between two catalogs (see DIFF_HELP)."""
    from coimbra_events.catalog.diff import catalog_diff

    first, second = catalog_ref(a), catalog_ref(b)
    differences = catalog_diff(first, second)
    if as_json:
        _print_json([d.to_json() for d in differences])
        return
    console = Console(highlight=False)
    if not differences:
        console.print(f"no differences: both are catalog {first.id} sha256={first.sha256}")
        return
    table = Table(title=f"A = {first.id} ({first.sha256[:12]}), B = {second.id} ({second.sha256[:12]})",
                  title_justify="left", box=box.SIMPLE_HEAD)  # fmt: skip
    for column in ("sheet", "component", "field", "A", "B"):
        table.add_column(column, overflow="fold")
    for d in differences:
        table.add_row(d.sheet, d.component, d.field or f"({d.change})", d.a or "-", d.b or "-")
    console.print(table)
    console.print(f"{len(differences)} difference{'s' if len(differences) != 1 else ''}")


INSTALL_HELP = (
    "Install a catalog where logs and stored games that name it find it.\n\n"
    "Checks a catalog file and copies it into the catalogs folder of your data directory "
    "($COIMBRA_CATALOGS overrides it), where logs and stored games that name the catalog by id and content "
    "hash find it. A catalog may not take the id of a shipped one with other contents.\n\n"
    "Example: coimbra catalog install my-box.json"
)


def install(
    file: Annotated[str, typer.Argument(metavar="FILE", help="The catalog JSON file.")],
    as_json: Annotated[bool, typer.Option("--json", help='Print {"id", "sha256", "path", "new"} as JSON.')] = False,
) -> None:
    """Install a catalog (see INSTALL_HELP)."""
    from coimbra_events.catalog.folder import install as install_file

    try:
        catalog, path, new = install_file(file, shipped_catalogs())
    except CatalogError as error:
        fail_all(error.lines(), file)
    except OSError as error:
        fail(f"{error.filename or installed_dir()}: {error.strerror or error}")
    if as_json:
        _print_json({"id": catalog.id, "sha256": catalog.sha256, "path": str(path), "new": new})
        return
    what = "installed" if new else "already installed"
    typer.echo(f"{what}: {catalog.id} sha256={catalog.sha256} as {path}")


LIST_HELP = (
    "List the shipped and installed catalogs.\n\n"
    "The catalogs logs and games can use: the shipped ones and those installed in the catalogs folder, "
    "each with its id, title, content hash and how many of its values are printed, stand-in or rules-text; "
    "and installed files that do not load. With --json, prints "
    '{"folder", "catalogs": [{"id", "title", "sha256", "where", "provenance"}], "broken": [{"path", "error"}]}.\n\n'
    "Example: coimbra catalog list"
)


def list_catalogs(
    as_json: Annotated[bool, typer.Option("--json", help="Print the catalogs as JSON.")] = False,
) -> None:
    """The shipped and installed catalogs (see LIST_HELP)."""
    folder = installed()
    entries = [(c, "shipped") for c in shipped_catalogs()] + [(c, str(p)) for c, p in folder.catalogs]
    if as_json:
        _print_json({
            "folder": str(installed_dir()),
            "catalogs": [{"id": c.id, "title": c.title, "sha256": c.sha256, "where": where,
                          "provenance": provenance_counts(c)} for c, where in entries],
            "broken": [{"path": str(p), "error": e} for p, e in folder.broken],
        })  # fmt: skip
        return
    console = Console(highlight=False)
    table = Table(title=f"Catalogs (installed ones in {installed_dir()})", title_justify="left", box=box.SIMPLE_HEAD)
    for column in ("id", "title", "sha256", "values", "where"):
        table.add_column(column, overflow="fold")
    for catalog, where in entries:
        table.add_row(catalog.id, catalog.title, catalog.sha256[:12], _counts_text(catalog), where)
    console.print(table)
    for path, error in folder.broken:
        console.print(f"[bold red]does not load:[/] {escape(str(path))}: {escape(error)}")
    if not folder.catalogs:
        console.print("none installed yet: coimbra catalog install FILE installs one")


COMMANDS = {
    "template": (template, TEMPLATE_HELP),
    "build": (build, BUILD_HELP),
    "diff": (diff, DIFF_HELP),
    "install": (install, INSTALL_HELP),
    "list": (list_catalogs, LIST_HELP),
}
"""The commands of this module with their help, registered on ``catalog_app`` by ``cli.catalog_commands``."""
