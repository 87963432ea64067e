"""Coimbra domain: catalog, events, the pure rules core, the game aggregate, the application and the JSON game log.

The words, each with one class (or none) and one meaning everywhere:

======== ================================================================================================
game     one play of Coimbra, from setup to final scoring: the ``game.Game`` aggregate
record   a game's entries in order, each chained to the one before by its hash (what a JSON log holds)
entry    one recorded event of a record, numbered from 1, stamped with when and by whom it was
         entered: a decision, a random outcome, or a correction, undo, note or accepted rule break
head     the hash of a record's latest entry: who holds it can prove the record later (``verify --head``)
receipt  what the store keeps of each save of a game (its entries and head), against which every read
         of the game is checked (``store.receipts.Receipt``)
source   where a game is kept: the store, or a JSON log file or move list (``store.sources.GameSource``)
store    the persistence of every game (``store.game_store.GameStore``), below the application
         (``service.Games``), the one door every front-end holds
table    the people playing one game, and the actor of its random outcomes (``state.TABLE``); the live
         table is one served to their phones
seat     a player's place at the table: a name and a colour, in the order the game's header lists them
======== ================================================================================================

The rules core may be compiled with mypyc (setup.py). This file, never compiled, runs
before any of its modules is imported and decides whether the compiled build can be
trusted: not when ``COIMBRA_PURE=1`` is set, nor when its manifest
(``_compiled.json``) is missing or a module's source no longer has the hash it was
compiled from (an in-place build older than an edit). Then every compiled module is
loaded from its ``.py`` source instead: mypyc puts them in one shared library whose
modules call each other directly, so one stale module means none can be trusted.
"""

import hashlib
import json
import os
import sys
from importlib.machinery import EXTENSION_SUFFIXES, ModuleSpec, SourceFileLoader
from importlib.util import spec_from_file_location
from pathlib import Path

RULESET = "coimbra-rules-texts-000-002-003+gaps-1"
"""The ruleset this engine implements: the three rule texts and GAPS.md decisions."""

_ROOT = Path(__file__).resolve().parent.parent
_MANIFEST = _ROOT / "coimbra_events" / "_compiled.json"
_COMPILED_DIRS = (_ROOT / "coimbra_events", _ROOT / "coimbra_events" / "rules", _ROOT / "coimbra_events" / "catalog",
                  _ROOT / "coimbra_events" / "analysis")
"""The folders that hold the compiled modules (setup.py's ``COMPILED``)."""


def _source(module: str) -> Path:
    return _ROOT / (module.replace(".", "/") + ".py")


def _with_extension() -> set[str]:
    """This package's modules that have both a compiled extension and a ``.py`` source."""
    found = set()
    for directory in _COMPILED_DIRS:
        for file in directory.iterdir():
            for suffix in EXTENSION_SUFFIXES:
                if file.name.endswith(suffix):
                    module = file.relative_to(_ROOT).as_posix()[: -len(suffix)].replace("/", ".")
                    if _source(module).is_file():
                        found.add(module)
    return found


def _changed(module: str, digest: str) -> bool:
    try:
        return hashlib.sha256(_source(module).read_bytes()).hexdigest() != digest
    except FileNotFoundError:
        return True


def _decide() -> tuple[str, set[str]]:
    """(what ``core_build`` answers, the modules to load from their source)."""
    compiled = _with_extension()
    try:
        listed: dict[str, str] = json.loads(_MANIFEST.read_text())["modules"]
    except (OSError, ValueError, KeyError):
        listed = {}
    everything = compiled | listed.keys()
    if os.environ.get("COIMBRA_PURE") == "1":
        return "python (COIMBRA_PURE=1)", everything
    if not listed:
        return ("python (compiled modules without a build manifest)" if compiled else "python (no compiled build)"), everything
    if missing := sorted(listed.keys() - compiled):
        return f"python (compiled module {missing[0]} is missing)", everything
    if changed := sorted(m for m, digest in listed.items() if _changed(m, digest)):
        where = _source(changed[0]).relative_to(_ROOT).as_posix()
        print(
            f"coimbra: the compiled rules core is older than its source ({where} changed); "
            "using the Python source. Run 'pip install -e .' to rebuild.",
            file=sys.stderr,
        )
        return f"python (compiled core older than {where})", everything
    # An extension the manifest does not list is left over from an earlier build.
    return "compiled", compiled - listed.keys()


class _SourceFinder:
    """Finds exactly the given modules as their ``.py`` source, ahead of the path
    finder that would prefer their compiled extension."""

    def __init__(self, modules: set[str]) -> None:
        self.modules = modules

    def find_spec(self, name: str, path: object = None, target: object = None) -> ModuleSpec | None:
        if name not in self.modules:
            return None
        source = str(_source(name))
        return spec_from_file_location(name, source, loader=SourceFileLoader(name, source))


_BUILD, _FROM_SOURCE = _decide()
if _FROM_SOURCE:
    sys.meta_path.insert(0, _SourceFinder(_FROM_SOURCE))


def core_build() -> str:
    """``"compiled"`` when the rules core runs compiled, else ``"python"`` or
    ``"python (why)"``; the benchmarks report it."""
    return _BUILD
