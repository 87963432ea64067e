"""The ``coimbra`` command: record, replay and audit games of Coimbra.

Exit codes (all commands): 0 success; 1 a rule violation; 2 bad input
(unreadable or malformed file, unknown event type, bad payload, broken hash
chain, a damaged stored game, catalog problem, unknown game, bad arguments);
3 a conflict (another writer changed the game since it was read).

Commands are listed in ``COMMANDS`` by module and summary, and each module is
imported only when its command runs (``cli.lazy_group``): a new command needs its
line here (``tests/test_cli.py`` holds the summaries to the docstrings).
"""

from __future__ import annotations

import typer

from cli.lazy_group import Lazy, LazyCommands

_STORE, _INDEX, _HISTORY = "cli.store_commands", "cli.index_commands", "cli.history_commands"
_VIEW, _LOG = "cli.view_commands", "cli.log_commands"

COMMANDS: dict[str, Lazy] = {
    "new": Lazy(_STORE, "Start a game in the store and print its name."),
    "act": Lazy(_STORE, "Record decisions (or table outcomes) typed in notation; all or none are stored."),
    "legal": Lazy(_STORE, "What may be entered now: every legal decision, numbered as [bold]coimbra record[/] numbers it, "
                  "and what each is."),
    "import": Lazy(_STORE, "Store a whole log as a game, in one transaction, and print its name."),
    "export": Lazy(_STORE, "Write a game as a canonical JSON log, a move list, or a replay page to open in a browser."),
    "games": Lazy(_INDEX, "List the stored games: name, players, status, winner and final scores, when created, tags."),
    "rename": Lazy(_INDEX, "Give a stored game another name; the old name is free again and nothing else changes."),
    "tag": Lazy(_INDEX, "Tag stored games, or take tags off them; coimbra games --tag lists a tag's games."),
    "archive": Lazy(_INDEX, "Leave stored games out of coimbra games and the league (nothing is deleted; --archived lists such games)."),
    "verify": Lazy(_STORE, "Check that a log file or a stored game is as it was recorded, and name every problem."),
    "fork": Lazy(_HISTORY, "Start an alternative line: a new game sharing the first N entries, with its lineage recorded."),
    "correct": Lazy(_HISTORY, "Replace what an entry said, with a correction entry; every later play is checked again."),
    "undo": Lazy(_HISTORY, "Withdraw the latest play with a retraction entry (the play itself stays in the log)."),
    "accept": Lazy(_HISTORY, "Record a move the table accepted although it breaks a rule, flagged with that rule and the reason."),
    "note": Lazy(_HISTORY, "Comment on an entry, or bookmark it; notes are entries of their own."),
    "roll": Lazy(_HISTORY, "Draw the table's pending outcome (dice, rows) from the game's seed or its parent, and record it."),
    "serve": Lazy("cli.serve_command", "Serve a game to the table's phones: each player records from their own, everyone "
                  "watches the same board."),
    "record": Lazy("cli.record_command", "Record a game at the table, step by step: who acts, the legal options, one line each."),
    "show": Lazy(_VIEW, "Show the whole table at one point of a game: the latest, or a chosen one."),
    "diff": Lazy(_VIEW, "Compare two games (or a game and its fork): shared events, where they part, and how the tables differ."),
    "replay": Lazy("cli.replay_command", "Step through a game in the terminal: every table, entry by entry, "
                                         "with jumps by phase, round, bookmark and player."),
    "explain": Lazy("cli.explain_commands", "The audit trail: why an entry was legal and what it changed; "
                                            "where a player's points came from."),
    "analyse": Lazy("cli.analyse_command", "Grade every decision of a game and measure the luck of every roll and deal, "
                    "by Monte Carlo playouts."),
    "simulate": Lazy(_LOG, "Play a whole game with seeded bots and write its JSON log."),
    "validate": Lazy(_LOG, "Fold logs (or stored games) through the rules and say whether every event is legal."),
    "score": Lazy(_LOG, "Final scores (or provisional ones for a game in progress), by source of points."),
    "rules": Lazy(_LOG, "List every rule the engine checks: its stable id, statement and source."),
    "catalog": Lazy("cli.catalog_commands", "Check, show, transcribe and share component catalogs: the printed values of "
                    "dice, tiles, cards, monasteries, voyages and the pilgrimage map (format: docs/catalog.md). To transcribe "
                    "your box: 'catalog template -o DIR', fill in the sheets, 'catalog build DIR -o FILE --id ID', "
                    "'catalog install FILE'.", app="catalog_app"),
    "store": Lazy("cli.store_group", "The game store itself: where it is, whether it answers, and making it ready (coimbra store init).",
                  app="store_app"),
    "player": Lazy("cli.player_commands", "Who is who across games: aliases that join spellings of one person.", app="player_app"),
    "league": Lazy("cli.league_commands", "Standings, ratings and player profiles over every game in the store (docs/league.md).",
                   app="league_app"),
    "tournament": Lazy("cli.tournament_commands", "Seat a tournament: players at tables of four and three, round after round; "
                       "or run one from its recorded games: start it, seat the next round once the last is over, read the "
                       "standings (docs/tournament.md).", app="tournament_app"),
}
"""Every command: where it lives and its summary (the first line of its docstring, or of a group's help)."""


class CoimbraCommands(LazyCommands):
    LAZY = COMMANDS


app = typer.Typer(
    name="coimbra",
    cls=CoimbraCommands,
    help=(
        "Record, replay and audit games of Coimbra as event logs.\n\n"
        "At the table: [bold]coimbra record[/] walks you through a game. Afterwards: [bold]coimbra replay GAME[/] "
        "steps through it, [bold]coimbra explain GAME --seq N[/] settles a dispute, [bold]coimbra fork[/] and "
        "[bold]coimbra diff[/] explore other lines. Try it on a recorded game: "
        "[bold]coimbra replay fixtures/games/standin-3p-seed2.json[/]. "
        "[bold]coimbra rules[/] lists the rules every refusal cites.\n\n"
        "Exit codes: 0 ok; 1 a rule violation (nothing stored); 2 bad input: unreadable or malformed log, "
        "unknown event type, bad payload, broken hash chain, a damaged stored game, catalog problem, unknown game, "
        "bad arguments (nothing stored); 3 a conflict: another writer changed the game since this command read it "
        "(nothing stored; try again)."
    ),
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    rich_markup_mode="rich",
)


@app.callback()
def _group() -> None:
    """Makes ``app`` a group whose commands ``CoimbraCommands`` finds in ``COMMANDS``."""


def main() -> None:
    """Console-script entry point."""
    app()
