"""``coimbra replay``: step through a game, entry by entry, in a full-screen Textual app.

The game is folded once (``cli.replay_views.Replay``); every key is then a
lookup (``cli.replay_keys.press``) and the panes show the views of the
entry reached (``cli.replay_app``). Textual is imported only here, when the
replayer runs in a terminal. Without a terminal (stdin or stdout not a TTY),
or with ``--at N``, one frame is printed (the entry, its changes and the whole
board, the latest entry unless ``--at`` says otherwise) and the command ends.
Nothing here is POSIX-only: the replayer runs on Windows too.
"""

from __future__ import annotations

import sys
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator, Optional

import typer

from cli.analysis_views import analysis_of
from cli.common import CatalogOption, Commands, DbOption, GameArgument, JsonOption, console, game_ref_opened, print_json
from cli.exits import fail
from cli.replay_views import Replay
from projections.timeline import TimelineError

COMMANDS = Commands()


@contextmanager
def _replay(game_ref: str, db: Optional[Path], catalog_file: Optional[Path], analyse: bool) -> Iterator[Replay]:
    with game_ref_opened(game_ref, db, catalog_file) as (game, _):
        try:
            replay = Replay(game, analysis_of(game, analyse))
        except TimelineError as exc:
            fail(f"{game.name}: {exc}")
    yield replay


@COMMANDS("replay")
def replay_command(
    game_ref: str = GameArgument,
    at: Optional[int] = typer.Option(
        None, "--at", help="Print the table after this many entries (0: before the first) with its entry, and exit."
    ),
    analysis: bool = typer.Option(
        False, "--analysis", help="Grade every decision and show the winning chances: the analysis kept for this "
        "record (coimbra analyse) is shown without it; with it, one is made now if none is kept (minutes)."
    ),
    db: Optional[Path] = DbOption,
    catalog_file: Optional[Path] = CatalogOption,
    as_json: bool = JsonOption,
) -> None:
    """Step through a game in the terminal: every table, entry by entry, with jumps by phase, round, bookmark and player.

    ←/→ (h/l): one entry back/forward · ↑/↓ (k/j): previous/next phase

    PgUp/PgDn (or [ and ]): previous/next round · Home/End: first/last

    g N Enter: go to entry N · b/B: next/previous bookmark or note · / TEXT Enter: find a note

    p X / P X: next/previous decision of player X (initial or number) · ?: help · q: quit

    f: the line of play only (or every entry) · v: board or players · 1-4: one player's side · s: the scores · shift ↑/↓: scroll

    The entry list marks what became of each entry ("corrected by 12",
    "withdrawn by 59"); the changes pane says what the current entry changed.
    An analysed game (coimbra analyse, or --analysis) marks each decision
    with its grade (★ best, ✓ good, ?! inaccuracy, ? mistake, ?? blunder)
    and shows every player's winning chances through the game.
    Without a terminal, or with --at N, prints one frame (the entry, its
    changes and the whole board, the latest entry by default) and exits;
    --json prints that entry's changes, each with the rule that caused it
    (and its grade or luck, when analysed).

    Example: [bold]coimbra replay fixtures/games/standin-3p-seed2.json[/]
    """
    with _replay(game_ref, db, catalog_file, analysis) as replay:
        last = replay.nav.last
        if at is not None and not 0 <= at <= last:
            fail(f"no table after {at} entries: the game has {last}; choose 0 to {last}")
        if as_json:
            n = last if at is None else at
            graded = {"analysis": replay.graded.of(n)} if replay.graded else {}
            print_json({"game": replay.game.name, "seq": n, "changes": replay.changes(n), **graded})
            return
        if at is not None or not (sys.stdin.isatty() and sys.stdout.isatty()):
            console.print(replay.still(last if at is None else at))
            return
        from cli.replay_app import ReplayApp

        ReplayApp(replay).run()


__all__ = ["COMMANDS", "replay_command"]
