"""A command group that imports a command's module only when that command runs.

Start-up is most of what a command costs: importing every command module (the
store and the library, the replayer, the audit trail) for ``coimbra validate FILE``
took three times as long as the validation. ``LazyCommands`` knows each command
by a ``Lazy`` entry (its module and its one-line summary), so ``coimbra --help``
imports no command module and ``coimbra validate`` imports only its own: click's
pattern for lazily loaded subcommands, on Typer's group.

Two parts of Typer are heavy for what they give a single command, and are kept
off the start-up path:

* its rich help (``typer.rich_utils`` imports Rich's Markdown and traceback
  modules, about 55 ms): the top-level help is drawn here with Rich's panels, in
  the same layout; each command's own ``--help`` is still Typer's;
* its parameter conversion through pydantic (about 40 ms to import): parameters
  of plain types (``str``, ``int``, ``Path``, lists of them) are converted here, by
  calling the type, with Typer's range check and error; other types keep Typer's.
"""

from __future__ import annotations

import importlib
import inspect
from pathlib import Path
from typing import Any, Callable, Mapping, NamedTuple

import typer
from rich.console import Console
from typer.core import TyperCommand, TyperGroup


class Lazy(NamedTuple):
    """Where a command lives: its module, the name of its function there (``COMMANDS[name]``) or of a
    Typer sub-app (``app``), and the summary the top-level help shows (its docstring's first line)."""

    module: str
    summary: str
    app: str | None = None


class LazyCommands(TyperGroup):
    """Typer's group, with commands found in ``LAZY`` (set on the subclass) and loaded when used."""

    LAZY: Mapping[str, Lazy] = {}

    def parse_args(self, ctx: typer.Context, args: list[str]) -> list[str]:
        convert_plainly(self.get_params(ctx))  # with the shell-completion and help options, added late
        return super().parse_args(ctx, args)

    def list_commands(self, ctx: typer.Context) -> list[str]:
        return list(self.LAZY)

    def get_command(self, ctx: typer.Context, cmd_name: str) -> Any:
        if cmd_name not in self.commands and cmd_name in self.LAZY:
            self.commands[cmd_name] = load(cmd_name, self.LAZY[cmd_name], self.rich_markup_mode)
        return self.commands.get(cmd_name)

    def format_help(self, ctx: typer.Context, formatter: Any) -> None:
        top_level_help(self, ctx)


def load(name: str, where: Lazy, markup: Any) -> Any:
    """The click command (or group) of one lazily known command, its help in paragraphs the terminal wraps."""
    module = importlib.import_module(where.module)
    if where.app is not None:
        return as_paragraphs(typer.main.get_group(getattr(module, where.app)))
    info = typer.models.CommandInfo(name=name, callback=module.COMMANDS[name], cls=PlainTypesCommand)
    return as_paragraphs(typer.main.get_command_from_info(info, pretty_exceptions_short=True, rich_markup_mode=markup))


def as_paragraphs(command: Any) -> Any:
    """``command`` (and a group's commands) with each paragraph of its help on one line.

    Docstrings are wrapped to fit the source; Typer's rich help keeps those line breaks after the
    first paragraph, so a sentence broke at the source's width and again at the terminal's. A paragraph
    that begins with ``\\b`` (click's mark for text to keep as written) keeps its lines."""
    if command.help:
        command.help = "\n\n".join(
            p if p.lstrip().startswith("\b") else " ".join(p.split())
            for p in inspect.cleandoc(command.help).split("\n\n"))
    for sub in getattr(command, "commands", {}).values():
        as_paragraphs(sub)
    return command


# --- the top-level help, in Typer's layout ----------------------------------------------------------


def top_level_help(group: TyperGroup, ctx: typer.Context) -> None:
    """Usage, the group's help text, its options and every command's summary, as Typer draws them."""
    from rich import box
    from rich.padding import Padding
    from rich.panel import Panel
    from rich.table import Table

    console = Console(highlight=False, emoji=False)
    pieces = " ".join(group.collect_usage_pieces(ctx))
    console.print(Padding(f"[bold]Usage:[/] {ctx.command_path} {pieces}", (1, 1, 0, 1)))
    for paragraph in (group.help or "").split("\n\n"):
        console.print(Padding(paragraph.replace("\n", " "), (1, 1, 0, 1)))
    console.print()

    def panel(title: str, rows: list[tuple[str, str]], style: str) -> Panel:
        grid = Table(box=None, show_header=False, pad_edge=False, padding=(0, 2, 0, 0), expand=True)
        grid.add_column(style=style, no_wrap=True)
        grid.add_column(ratio=1)
        for first, second in rows:
            grid.add_row(first, second)
        return Panel(grid, title=title, title_align="left", border_style="dim", box=box.ROUNDED)

    options = [(", ".join(p.opts), getattr(p, "help", "") or "") for p in group.get_params(ctx) if not p.hidden]
    console.print(panel("Options", options, "bold cyan"))
    commands = [(name, getattr(group, "LAZY", {})[name].summary) for name in group.list_commands(ctx)]
    console.print(panel("Commands", commands, "bold cyan"))


# --- parameters of plain types, converted without pydantic --------------------------------------------

def _flag(value: Any) -> Any:
    """A flag's value is already a bool (or, for the shell-completion options, a shell's name)."""
    return value


PLAIN: Mapping[Any, Callable[[Any], Any]] = {
    str: str, int: int, Path: Path, bool: _flag, list[str]: str, list[int]: int, list[Path]: Path,
}
"""Annotation -> how one value given on the command line becomes it."""


try:
    from typer._coercion import RuntimeParam
except ImportError:  # a Typer that does not convert through pydantic: nothing to do
    RuntimeParam = None


class PlainTypesCommand(TyperCommand):
    """Typer's command; its parameters of plain types convert their values by calling the type."""

    def parse_args(self, ctx: typer.Context, args: list[str]) -> list[str]:
        convert_plainly(self.get_params(ctx))
        return super().parse_args(ctx, args)


def convert_plainly(params: Any) -> None:
    """Give each Typer parameter of a plain type the conversion by its type (Typer would build one
    through pydantic on first use, even for a value left out)."""
    if RuntimeParam is None:
        return
    for param in params:
        descriptor = getattr(param, "type_descriptor", None)
        info = getattr(descriptor, "parameter_info", None)
        if (getattr(descriptor, "annotation", None) in PLAIN and info is not None and info.parser is None
                and hasattr(param, "_runtime_param")):
            param._runtime_param = PlainConversion(parameter_info=info, annotation=descriptor.annotation)


if RuntimeParam is not None:

    class PlainConversion(RuntimeParam):  # a frozen dataclass's subclass: its fields and __init__ are RuntimeParam's
        """One parameter's values converted by calling its type; Typer's range check and message."""

        def _coerce_value(self, value: Any, param: Any, ctx: Any) -> Any:
            if isinstance(value, (list, tuple)):
                return [self._one(v, param, ctx) for v in value]
            return self._one(value, param, ctx)

        def _one(self, value: Any, param: Any, ctx: Any) -> Any:
            convert = PLAIN[self.annotation]
            try:
                out = convert(value)
            except ValueError:
                raise typer.BadParameter(f"{value!r} is not a valid {convert.__name__}.", ctx=ctx, param=param) from None
            low, high = self.parameter_info.min, self.parameter_info.max
            if (low is not None and out < low) or (high is not None and out > high):
                bounds = f"{'' if low is None else f'{low}<='}x{'' if high is None else f'<={high}'}"
                raise typer.BadParameter(f"{out} is not in the range {bounds}.", ctx=ctx, param=param)
            return out
