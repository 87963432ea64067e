"""The documents keep a shape people can read: no Markdown line over 300 characters, a README of at most 150 lines
whose Quick start is two commands, the second the one CI runs."""

from __future__ import annotations

import re
import subprocess

import pytest

from tests.conftest import ROOT

LONGEST_LINE = 300
README_LINES = 150


def tracked_markdown() -> list[str]:
    """Every Markdown file in the repository (git's list: not the node_modules or virtualenvs beside it)."""
    try:
        listed = subprocess.run(["git", "ls-files", "*.md"], cwd=ROOT, capture_output=True, text=True, check=True)
    except (OSError, subprocess.CalledProcessError) as why:
        pytest.skip(f"no git checkout to list the Markdown files of: {why}")
    return listed.stdout.split()


def long_lines(name: str, text: str) -> list[str]:
    lines = enumerate(text.splitlines(), 1)
    return [f"{name}:{n}: {len(line)} characters" for n, line in lines if len(line) > LONGEST_LINE]


def quick_start(readme: str) -> list[str]:
    """The commands of the README's Quick start block (comments and blank lines aside)."""
    block = re.search(r"^## Quick start\n.*?^```\w*\n(.*?)^```", readme, re.M | re.S)
    assert block, "README.md has no fenced block under '## Quick start'"
    return [line for line in block.group(1).splitlines() if line.strip() and not line.lstrip().startswith("#")]


def test_no_markdown_line_is_over_300_characters() -> None:
    names = tracked_markdown()
    assert "README.md" in names and "docs/commands.md" in names
    assert [problem for name in names for problem in long_lines(name, (ROOT / name).read_text(encoding="utf-8"))] == []


def test_the_readme_is_a_front_door() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(readme.splitlines()) <= README_LINES
    commands = quick_start(readme)
    assert len(commands) == 2
    assert commands[1] in (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()


def test_every_document_is_in_the_readme_s_index() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    index = readme[readme.index("## Documents"):]
    documents = sorted(p.relative_to(ROOT).as_posix() for p in (ROOT / "docs").glob("*.md"))
    assert [d for d in [*documents, "bench/README.md"] if f"`{d}`" not in index] == []


def test_a_long_line_and_a_third_command_are_caught() -> None:
    assert long_lines("x.md", "short\n" + "y" * 301) == ["x.md:2: 301 characters"]
    assert long_lines("x.md", "y" * 300) == []
    assert len(quick_start("## Quick start\n\n```sh\none\n# a comment\ntwo\nthree\n```\n")) == 3
