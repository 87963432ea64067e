"""The catalogs a club has installed: one folder in the user's data directory.

A log or a stored game names its catalog by id and content hash; ``catalog.find_catalog``
looks for it among the shipped catalogs and the ones installed here. The folder is
``platformdirs.user_data_dir("coimbra")/catalogs``, or ``$COIMBRA_CATALOGS``. Each
installed catalog is one file, ``<id>-<first 12 digits of its sha256>.json``: catalogs
that share an id (a box transcribed twice) sit side by side, and a log finds its own.
"""

from __future__ import annotations

import functools
import os
from dataclasses import dataclass
from pathlib import Path

import orjson

from coimbra_events.catalog_model import Catalog, CatalogError

ENV = "COIMBRA_CATALOGS"


def installed_dir() -> Path:
    """Where installed catalogs live (whether or not it exists yet)."""
    override = os.environ.get(ENV)
    if override:
        return Path(override)
    import platformdirs  # only when the folder is looked for

    return Path(platformdirs.user_data_dir("coimbra")) / "catalogs"


def file_name(catalog: Catalog) -> str:
    return f"{catalog.id}-{catalog.sha256[:12]}.json"


@dataclass(frozen=True)
class Installed:
    """What the folder holds: the catalogs that load, and the files that do not (with why)."""

    catalogs: tuple[tuple[Catalog, Path], ...]
    broken: tuple[tuple[Path, str], ...]


def installed() -> Installed:
    """Every catalog in the folder (read again only when a file changed)."""
    folder = installed_dir()
    files = sorted(folder.glob("*.json")) if folder.is_dir() else []
    loaded = [(path, _load(path, *_stamp(path))) for path in files]
    return Installed(
        tuple((c, p) for p, c in loaded if isinstance(c, Catalog)),
        tuple((p, c) for p, c in loaded if isinstance(c, str)),
    )


def _stamp(path: Path) -> tuple[int, int]:
    stat = path.stat()
    return stat.st_mtime_ns, stat.st_size


@functools.cache
def _load(path: Path, mtime_ns: int, size: int) -> Catalog | str:
    """The catalog in an installed file, or why it cannot be read (cached by file and stamp)."""
    from coimbra_events.catalog import load_catalog

    try:
        return load_catalog(path)
    except CatalogError as error:
        return str(error)


def install(path: str | os.PathLike[str], shipped: tuple[Catalog, ...]) -> tuple[Catalog, Path, bool]:
    """Check the catalog in ``path`` and copy it into the folder: (catalog, where, whether it is new).

    Raises ``CatalogError`` for a bad catalog, or one that takes the id of a shipped
    catalog with other contents (old logs name that id: give the box its own).
    """
    from coimbra_events.catalog import load_catalog

    catalog = load_catalog(path)
    for other in shipped:
        if other.id == catalog.id and other.sha256 != catalog.sha256:
            raise CatalogError(
                f"catalog {catalog.id!r}",
                "an id of its own (catalog build --id ID)",
                f"the id of the shipped catalog {other.title!r}, whose contents differ",
                os.fspath(path),
            )
    folder = installed_dir()
    target = folder / file_name(catalog)
    if target.is_file() and _load(target, *_stamp(target)) == catalog:
        return catalog, target, False
    folder.mkdir(parents=True, exist_ok=True)
    partial = target.with_suffix(".json.partial")
    partial.write_bytes(orjson.dumps(catalog.data, option=orjson.OPT_INDENT_2) + b"\n")
    os.replace(partial, target)  # never a half-written catalog in the folder
    return catalog, target, True
