"""The ``coimbra`` command: record, replay and audit games of Coimbra.

Exit codes (all commands): 0 success; 1 a rule violation; 2 bad input
(unreadable or malformed file, unknown event type, bad payload, broken hash
chain, catalog problem, unknown game, bad arguments).
"""

from __future__ import annotations

import typer

from cli import explain_commands, history_commands, log_commands, player_commands, record_command, replay_command, store_commands, view_commands
from cli.catalog_commands import catalog_app
from cli.league_commands import league_app
from cli.store_admin import store_app

app = typer.Typer(
    name="coimbra",
    help=(
        "Record, replay and audit games of Coimbra as event logs.\n\n"
        "At the table: [bold]coimbra record[/] walks you through a game. Afterwards: [bold]coimbra replay GAME[/] "
        "steps through it, [bold]coimbra explain GAME --seq N[/] settles a dispute, [bold]coimbra fork[/] and "
        "[bold]coimbra diff[/] explore other lines. Try it on a recorded game: "
        "[bold]coimbra replay fixtures/games/standin-3p-seed2.json[/]. "
        "[bold]coimbra rules[/] lists the rules every refusal cites.\n\n"
        "Exit codes: 0 ok; 1 a rule violation (nothing stored); 2 bad input: unreadable or malformed log, "
        "unknown event type, bad payload, broken hash chain, catalog problem, unknown game, bad arguments "
        "(nothing stored)."
    ),
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    rich_markup_mode="rich",
)
for module in (store_commands, history_commands, record_command, view_commands, replay_command, explain_commands, log_commands,
               player_commands):
    for name, fn in module.COMMANDS.items():
        app.command(name=name)(fn)
app.add_typer(catalog_app, name="catalog")
app.add_typer(league_app, name="league")
app.add_typer(player_commands.player_app, name="player")
app.add_typer(store_app, name="store")


def main() -> None:
    """Console-script entry point."""
    app()
