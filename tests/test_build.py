"""The compiled rules core and its guard (setup.py, coimbra_events/__init__.py).

Each case imports the package in a fresh interpreter, since the guard runs once, when
``coimbra_events`` is first imported. The compiled case needs an environment whose
install built the extensions; the fallback cases also run without one, on a copy of
the package given placeholder extension files that must never be loaded.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

import pytest

import coimbra_events

PACKAGE = Path(coimbra_events.__file__).resolve().parent
MANIFEST = "_compiled.json"

PROBE = """
import importlib, json, sys
import coimbra_events
files = {m: importlib.import_module(m).__file__ for m in sys.argv[1:]}
print(json.dumps({"build": coimbra_events.core_build(), "files": files}))
"""


def core_modules(package: Path) -> list[str]:
    """The modules the build compiles: as its manifest lists them, else setup.py's list
    (the catalog model, the effect kinds, records, state, events and their decoding, the log and its
    reader, every rules module, validation, the seeded bots, the playout policy and its valuations)."""
    if (package / MANIFEST).is_file():
        return sorted(json.loads((package / MANIFEST).read_text())["modules"])
    rules = sorted(p.stem for p in (package / "rules").glob("*.py") if p.name != "__init__.py")
    return [
        "coimbra_events.catalog.model", "coimbra_events.catalog.effect_kinds", "coimbra_events.record",
        "coimbra_events.state", "coimbra_events.events", "coimbra_events.event_decoding",
        "coimbra_events.log", "coimbra_events.log_reader",
        *(f"coimbra_events.rules.{r}" for r in rules), "coimbra_events.validation", "coimbra_events.bots",
        "coimbra_events.analysis.value", "coimbra_events.analysis.policy",
    ]


def probe(modules: list[str], *, pure: bool = False, path: Path | None = None) -> tuple[dict, str]:
    """(core_build and each module's __file__, stderr) from a fresh interpreter that
    imports ``coimbra_events`` from ``path`` (default: as installed)."""
    env = {k: v for k, v in os.environ.items() if k != "COIMBRA_PURE"}
    if pure:
        env["COIMBRA_PURE"] = "1"
    if path is not None:
        env["PYTHONPATH"] = str(path)
    done = subprocess.run(
        [sys.executable, "-c", PROBE, *modules], env=env, cwd=path, capture_output=True, text=True, check=True
    )
    return json.loads(done.stdout), done.stderr


def compiled_copy(tmp_path: Path) -> Path:
    """A copy of the installed package in ``tmp_path`` that has a compiled build: the
    environment's own if it built one, else placeholder extension files (which fail
    to load if imported) and a manifest matching the sources."""
    copy = tmp_path / "coimbra_events"
    shutil.copytree(PACKAGE, copy, ignore=shutil.ignore_patterns("__pycache__"))
    if not (copy / MANIFEST).is_file():
        hashes = {}
        for module in core_modules(copy):
            source = tmp_path / (module.replace(".", "/") + ".py")
            source.with_name(source.stem + EXTENSION_SUFFIXES[0]).write_bytes(b"not an extension module")
            hashes[module] = hashlib.sha256(source.read_bytes()).hexdigest()
        (copy / MANIFEST).write_text(json.dumps({"modules": hashes}))
    return copy


def assert_from_source(result: dict) -> None:
    assert all(f.endswith(".py") for f in result["files"].values()), result["files"]


def test_coimbra_pure_loads_the_rules_core_from_source():
    result, err = probe(core_modules(PACKAGE), pure=True)
    assert result["build"] == "python (COIMBRA_PURE=1)"
    assert_from_source(result)
    assert err == ""


@pytest.mark.skipif(
    not (PACKAGE / MANIFEST).is_file(),
    reason="no compiled build in this environment: the install used the pure-Python rules core "
    "(COIMBRA_PURE=1, or mypyc or a C compiler failed; `pip install -v -e .` says why)",
)
def test_a_compiled_build_is_used():
    result, err = probe(core_modules(PACKAGE))
    assert result["build"] == "compiled"
    assert all(f.endswith(tuple(EXTENSION_SUFFIXES)) for f in result["files"].values()), result["files"]
    assert err == ""


def test_an_edited_module_makes_every_compiled_module_load_from_source(tmp_path):
    copy = compiled_copy(tmp_path)
    modules = core_modules(copy)
    edited = tmp_path / (modules[-1].replace(".", "/") + ".py")
    edited.write_text(edited.read_text() + "\n# edited after the build\n")
    result, err = probe(modules, path=tmp_path)
    where = edited.relative_to(tmp_path).as_posix()
    assert result["build"] == f"python (compiled core older than {where})"
    assert_from_source(result)
    assert err == (
        f"coimbra: the compiled rules core is older than its source ({where} changed); "
        "using the Python source. Run 'pip install -e .' to rebuild.\n"
    )


def test_a_wrong_hash_in_the_manifest_makes_every_compiled_module_load_from_source(tmp_path):
    copy = compiled_copy(tmp_path)
    manifest = json.loads((copy / MANIFEST).read_text())
    first = min(manifest["modules"])
    manifest["modules"][first] = "0" * 64
    (copy / MANIFEST).write_text(json.dumps(manifest))
    result, err = probe(core_modules(copy), path=tmp_path)
    assert result["build"].startswith("python (compiled core older than")
    assert_from_source(result)
    assert "older than its source" in err and err.count("\n") == 1


def test_compiled_modules_without_a_manifest_load_from_source(tmp_path):
    copy = compiled_copy(tmp_path)
    modules = core_modules(copy)
    (copy / MANIFEST).unlink()
    result, err = probe(modules, path=tmp_path)
    assert result["build"] == "python (compiled modules without a build manifest)"
    assert_from_source(result)
    assert err == ""
