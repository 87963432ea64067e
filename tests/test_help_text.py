"""Every ``--help`` reads as whole sentences: its paragraphs break where the terminal's width makes them, nowhere else.

Docstrings are wrapped at the source's width; Typer keeps those breaks, so at 80 columns a sentence broke twice
("drawn from what" / "was possible then"). ``cli.lazy_group.as_paragraphs`` joins each paragraph's lines.
"""

from __future__ import annotations

import pytest

from tests.command_tree import every_command
from tests.commands import invoke

PATHS = [path for path, _ in every_command()]


def description(output: str) -> list[str]:
    """The help's text between its usage line and its first panel (arguments, options or commands)."""
    lines = output.splitlines()
    start = next(i for i, line in enumerate(lines) if line.strip().startswith("Usage:")) + 1
    end = next((i for i, line in enumerate(lines) if line.lstrip().startswith("╭")), len(lines))
    return [line.strip() for line in lines[start:end]]


def breaks_not_made_by_width(text: list[str], width: int) -> list[str]:
    """Each line that ends although the next line's first word would have fitted after it (one space of padding
    each side, as Typer draws the text)."""
    room = width - 2
    return [f"{line!r} / {after!r}" for line, after in zip(text, text[1:])
            if line and after and len(line) + 1 + len(after.split()[0]) <= room]


@pytest.mark.parametrize("width", [80, 120])
@pytest.mark.parametrize("path", PATHS, ids=lambda path: " ".join(path) or "coimbra")
def test_help_paragraphs_break_only_at_the_terminal_s_width(path: tuple[str, ...], width: int) -> None:
    helped = invoke([*path, "--help"], env={"COLUMNS": str(width)})
    assert helped.exit_code == 0, helped.output
    text = description(helped.output)
    assert any(text), helped.output
    assert breaks_not_made_by_width(text, width) == []


def test_a_hard_wrapped_paragraph_is_caught() -> None:
    wrapped = ["Each option a player had is played out from the table as it was (rolls and",
               "deals drawn from what", "was possible then, never from the record) by the seeded bots."]
    assert breaks_not_made_by_width(wrapped, 80) == [f"{wrapped[1]!r} / {wrapped[2]!r}"]
