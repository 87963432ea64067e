"""The catalogs a club has installed: one folder in the user's data directory.

A log or a stored game names its catalog by id and content hash; ``catalog.find_catalog``
looks for it among the shipped catalogs and the ones installed here. The folder is
``platformdirs.user_data_dir("coimbra")/catalogs``, or ``$COIMBRA_CATALOGS``. Each
installed catalog is one file, ``<id>-<first 12 digits of its sha256>.json``: catalogs
that share an id (a box transcribed twice) sit side by side, and a log finds its own.

``checked.sha256`` in a folder of catalogs lists the content hashes of those that passed
every check, so that they are not checked again each time a command starts. ``install``
writes the installed folder's list, headed by the version of the checks it ran (a hash
of their source): after an upgrade that changes them, every installed catalog is checked
again. The shipped folder's list has no version line; the tests keep it true.
"""

from __future__ import annotations

import functools
import hashlib
import os
from dataclasses import dataclass
from pathlib import Path

import orjson

from coimbra_events.catalog.model import Catalog, CatalogError

ENV = "COIMBRA_CATALOGS"
CHECKED = "checked.sha256"
_CHECKS_LINE = "checks "
_CHECKING_MODULES = ("schema", "checks", "parsing", "assembly", "model",
                     "effect_kinds", "effect_text")
"""The modules whose code decides whether a catalog passes: their source is the checks' version."""


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
    checked = checked_in(folder, versioned=True) if files else frozenset()
    loaded = [(path, _load(path, *_stamp(path), checked)) for path in files]
    return Installed(
        tuple((c, p) for p, c in loaded if isinstance(c, Catalog)),
        tuple((p, c) for p, c in loaded if isinstance(c, str)),
    )


def checked_in(folder: Path, versioned: bool = False) -> frozenset[str]:
    """The content hashes ``folder/checked.sha256`` vouches for (none if it is missing or unreadable).

    ``versioned``: only if the list says it was made by the checks of this version.
    """
    try:
        lines = (folder / CHECKED).read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError):
        return frozenset()
    listed = [line.strip() for line in lines if line.strip() and not line.startswith("#")]
    version = next((line[len(_CHECKS_LINE):] for line in listed if line.startswith(_CHECKS_LINE)), None)
    if versioned and version != checks_version():
        return frozenset()
    return frozenset(line for line in listed if not line.startswith(_CHECKS_LINE))


@functools.cache
def checks_version() -> str:
    """A hash of the source of the checks a catalog passes (``_CHECKING_MODULES``)."""
    here = Path(__file__).resolve().parent
    digest = hashlib.sha256()
    for module in _CHECKING_MODULES:
        digest.update((here / f"{module}.py").read_bytes())
    return digest.hexdigest()[:16]


def _vouch(folder: Path, sha256: str) -> None:
    """Add a catalog that passed every check to the folder's list (written whole, then renamed)."""
    import tempfile  # only when a catalog is installed

    known = checked_in(folder, versioned=True) | {sha256}
    text = "# Content hashes of the catalogs here that passed every check (coimbra catalog install).\n"
    text += f"{_CHECKS_LINE}{checks_version()}\n" + "".join(f"{h}\n" for h in sorted(known))
    fd, partial = tempfile.mkstemp(dir=folder, prefix=".checked-", suffix=".partial")
    with os.fdopen(fd, "w", encoding="utf-8") as out:
        out.write(text)
    os.replace(partial, folder / CHECKED)


def _stamp(path: Path) -> tuple[int, int]:
    stat = path.stat()
    return stat.st_mtime_ns, stat.st_size


@functools.cache
def _load(path: Path, mtime_ns: int, size: int, checked: frozenset[str] = frozenset()) -> Catalog | str:
    """The catalog in an installed file, or why it cannot be read (cached by file and stamp)."""
    from coimbra_events.catalog import load_catalog

    try:
        return load_catalog(path, checked)
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
        _vouch(folder, catalog.sha256)
        return catalog, target, False
    folder.mkdir(parents=True, exist_ok=True)
    partial = target.with_suffix(".json.partial")
    partial.write_bytes(orjson.dumps(catalog.data, option=orjson.OPT_INDENT_2) + b"\n")
    os.replace(partial, target)  # never a half-written catalog in the folder
    _vouch(folder, catalog.sha256)
    return catalog, target, True
