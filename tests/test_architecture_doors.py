"""One door: every front-end holds the application (``coimbra_events.service.Games``), never the store.

The counts the re-cut promised, read from the sources as text and syntax trees:
no module under ``cli/`` names the persistence class; the application answers a
refusal and a conflict as values (no exception of its own, none raised or caught
for a conflict); and each noun has one class across the three packages.
"""

from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PERSISTENCE = "GameStore"
CONFLICTS = {"StoreConflict", "GameChanged", "RecordConflictError", "Conflict", "Refused", "RuleViolationError"}
"""What a conflict or a refusal could be raised or caught as."""


def sources(folder: str, root: Path = ROOT) -> list[Path]:
    return sorted((root / folder).rglob("*.py"))


def naming(word: str, folder: str, root: Path = ROOT) -> list[str]:
    return [path.relative_to(root).as_posix() for path in sources(folder, root)
            if word in path.read_text(encoding="utf-8")]


def test_no_front_end_names_the_store():
    assert naming(PERSISTENCE, "cli") == []


def test_the_check_sees_a_front_end_that_names_the_store(tmp_path):
    (tmp_path / "cli" / "live").mkdir(parents=True)
    (tmp_path / "cli" / "live" / "sneaky.py").write_text("from coimbra_events.store.game_store import GameStore\n")
    assert naming(PERSISTENCE, "cli", tmp_path) == ["cli/live/sneaky.py"]


def _names(node: ast.AST | None) -> set[str]:
    """The names an exception expression mentions (``StoreConflict``, ``errors.StoreConflict``, tuples of them)."""
    if node is None:
        return set()
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name)} | \
        {n.attr for n in ast.walk(node) if isinstance(n, ast.Attribute)}


def exceptions_for_answers(path: Path) -> list[str]:
    """Where a module defines an exception class, or raises or catches a conflict or a refusal."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef) and any("Exception" in _names(b) or "Error" in "".join(_names(b))
                                                   for b in node.bases):
            found.append(f"{path.name}:{node.lineno} defines exception {node.name}")
        elif isinstance(node, ast.Raise) and _names(node.exc) & CONFLICTS:
            found.append(f"{path.name}:{node.lineno} raises {sorted(_names(node.exc) & CONFLICTS)}")
        elif isinstance(node, ast.ExceptHandler) and _names(node.type) & CONFLICTS:
            found.append(f"{path.name}:{node.lineno} catches {sorted(_names(node.type) & CONFLICTS)}")
    return found


def test_the_application_answers_refusals_and_conflicts_as_values():
    found = [f for path in sources("coimbra_events/service") for f in exceptions_for_answers(path)]
    assert found == []


def test_the_check_sees_a_conflict_thrown_through_the_application(tmp_path):
    module = tmp_path / "old.py"
    module.write_text("class _Stop(Exception):\n    pass\n\n\ndef save():\n    try:\n        pass\n"
                      "    except errors.StoreConflict:\n        raise _Stop(Conflict())\n")
    assert exceptions_for_answers(module) == ["old.py:1 defines exception _Stop", "old.py:8 catches ['StoreConflict']",
                                              "old.py:9 raises ['Conflict']"]


def classes_by_name(folders: tuple[str, ...] = ("coimbra_events", "projections", "cli")) -> dict[str, list[str]]:
    """Every module-level class, by name (nested classes, such as an aggregate's own events, are its own)."""
    found: dict[str, list[str]] = defaultdict(list)
    for folder in folders:
        for path in sources(folder):
            for node in ast.parse(path.read_text(encoding="utf-8")).body:
                if isinstance(node, ast.ClassDef) and not node.name.startswith("_"):
                    found[node.name].append(path.relative_to(ROOT).as_posix())
    return found


def test_each_noun_has_one_class():
    assert {name: where for name, where in classes_by_name().items() if len(where) > 1} == {}


def test_the_application_holds_every_use_case_and_the_store_none():
    """The use cases of the issue are the application's methods, and the persistence class has none of them."""
    from coimbra_events.service import Games
    from coimbra_events.store.game_store import GameStore

    use_cases = {"new_game", "record", "roll", "undo", "correct", "accept", "note", "fork", "import_log", "export",
                 "rename", "tag", "archive", "count", "listing", "duplicates", "alias", "unalias", "league",
                 "position", "refreshed", "session", "legal", "unfinished"}
    assert use_cases <= set(dir(Games))
    writes = {"new_game", "record", "roll", "undo", "correct", "accept", "note", "fork", "import_log", "import_record",
              "rename", "tag", "tag_games", "archive", "archive_games", "count", "update", "commit"}
    assert writes & set(vars(GameStore)) == set()
