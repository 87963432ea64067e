"""Exit codes and one-line error reporting shared by every command.

| code | meaning |
| ---- | ------- |
| 0 | success (and, for ``validate``, every event is legal) |
| 1 | a rule violation: the log or the input breaks a rule of the game |
| 2 | bad input: unreadable file, malformed JSON, unknown event type, bad payload, broken hash chain, catalog problem, bad arguments |
"""

from __future__ import annotations

from typing import NoReturn

import typer
from rich.console import Console
from rich.markup import escape

OK, RULE_VIOLATION, BAD_INPUT = 0, 1, 2

err_console = Console(stderr=True, highlight=False, soft_wrap=True)


def fail(message: str, code: int = BAD_INPUT) -> NoReturn:
    """Print ``error: message`` on one line to stderr and exit with ``code``."""
    err_console.print(f"[bold red]error:[/] {escape(message)}")
    raise typer.Exit(code)
