"""Exit codes and one-line error reporting shared by every command.

| code | meaning |
| ---- | ------- |
| 0 | success (and, for ``validate``, every event is legal; for ``verify``, every hash matches) |
| 1 | a rule violation: the log or the input breaks a rule of the game; nothing was stored |
| 2 | bad input: a file, JSON, event type, payload, hash chain, stored game, catalog or argument that cannot be used; nothing was stored |
| 3 | a conflict: another writer changed the game (or the log file) since this command read it; nothing was stored; try again |
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NoReturn

import typer
from rich.console import Console
from rich.markup import escape

from cli.terminal import escaping

OK, RULE_VIOLATION, BAD_INPUT, CONFLICT = 0, 1, 2, 3

err_console = escaping(Console(stderr=True, highlight=False, soft_wrap=True, emoji=False))


def fail(message: str, code: int = BAD_INPUT) -> NoReturn:
    """Print ``error: message`` on one line to stderr and exit with ``code``."""
    err_console.print(f"[bold red]error:[/] {escape(message)}")
    raise typer.Exit(code)


def fail_all(problems: Sequence[str], source: str, code: int = BAD_INPUT) -> NoReturn:
    """One problem: its ``error:`` line. Several: each on a line of its own, then one
    ``error: SOURCE: N problems (listed above)`` line. Exit with ``code`` either way."""
    if len(problems) == 1:
        fail(problems[0], code)
    for problem in problems:
        err_console.print(f"  {escape(problem)}")
    fail(f"{source}: {len(problems)} problems (listed above)", code)
