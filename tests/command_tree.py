"""Every command of the ``coimbra`` app, found as its help finds them: through the lazy group's click commands."""

from __future__ import annotations

from typing import Any, Iterator

import typer

from cli.app import app


def every_command() -> Iterator[tuple[tuple[str, ...], Any]]:
    """``(path, click command)`` for the app itself (path ``()``), each command and each group's commands."""
    root = typer.main.get_command(app)
    context = root.make_context("coimbra", ["--help"], resilient_parsing=True)
    yield (), root
    yield from _below(root, context, ())


def _below(group: Any, context: Any, path: tuple[str, ...]) -> Iterator[tuple[tuple[str, ...], Any]]:
    for name in group.list_commands(context):
        command = group.get_command(context, name)
        yield (*path, name), command
        if hasattr(command, "list_commands"):
            yield from _below(command, type(context)(command, parent=context, info_name=name), (*path, name))
