"""The ``coimbra`` command: record, replay and audit games of Coimbra.

Exit codes (all commands): 0 success; 1 a rule violation; 2 bad input
(unreadable or malformed file, unknown event type, bad payload, broken hash
chain, catalog problem, unknown game, bad arguments).
"""

from __future__ import annotations

import typer

from cli import explain_commands, history_commands, log_commands, record_command, replay_command, store_commands, view_commands
from cli.catalog_commands import catalog_app

app = typer.Typer(
    name="coimbra",
    help=(
        "Record, replay and audit games of Coimbra from JSON event logs.\n\n"
        "Start with [bold]coimbra validate[/] and [bold]coimbra score[/] on a log from fixtures/games; "
        "[bold]coimbra rules[/] lists the rules every refusal cites.\n\n"
        "Exit codes: 0 ok; 1 a rule violation; 2 bad input (unreadable or malformed log, "
        "unknown event type, bad payload, broken hash chain, catalog problem, bad arguments)."
    ),
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    rich_markup_mode="rich",
)
for module in (store_commands, history_commands, record_command, view_commands, replay_command, explain_commands, log_commands):
    for name, fn in module.COMMANDS.items():
        app.command(name=name)(fn)
app.add_typer(catalog_app, name="catalog")


def main() -> None:
    """Console-script entry point."""
    app()
