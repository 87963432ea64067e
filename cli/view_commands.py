"""Commands that look at a game without changing it: show (the board at any point) and diff (two games).

Both read a game once and fold it at most once more (``projections.timeline``),
whatever point is asked for: the latest state needs no fold at all, since the
opened game already holds it.
"""

from __future__ import annotations

from contextlib import ExitStack
from pathlib import Path
from typing import Any, Optional

import typer
from rich.markup import escape

from cli.board_views import board_panel
from cli.change_views import changes_view
from cli.common import (
    CatalogOption,
    Commands,
    DbOption,
    GameArgument,
    JsonOption,
    flag,
    console,
    game_ref_opened,
    print_json,
)
from cli.exits import fail
from cli.presenter import event_words, notation, table_json
from coimbra_events.game import Game
from coimbra_events.state import GameState
from projections.board import PHASE_NAMES, board_view
from projections.naming import named_text, value_text
from projections.changes import Change
from projections.diff import StateDifference, common_prefix, first_divergence, state_differences, table_moves
from projections.timeline import TimelineError, phase_name, timeline

COMMANDS = Commands()


def point_of(game: Game, at: Optional[int], round_: Optional[int], phase: Optional[str]) -> tuple[int, GameState]:
    """The number of events and the state that ``--at``, ``--round`` and ``--phase`` choose (default: the latest).

    The latest state is the opened game's own; any other point folds the game
    once into its timeline. Exit 2 for a point the game does not have.
    """
    if at is None and round_ is None and phase is None:
        return game.entries, game.state
    try:
        line = timeline(game)
        n = at if at is not None else line.index_of(round_, phase or "A")
        return n, line.at(n)
    except TimelineError as exc:
        fail(str(exc))


def passed_note(state: GameState, phase: Optional[str]) -> str:
    """What to say when the table shown is not in the phase asked for: the rules ran that phase at once."""
    if phase is None:
        return ""
    wanted = phase_name(phase)
    if state.phase == wanted:
        return ""
    return (f"phase {PHASE_NAMES[wanted]} waits for nobody: the rules work it out at once, so this is the table "
            f"right after it, at the start of phase {PHASE_NAMES[state.phase]}")


@COMMANDS("show")
def show_command(
    game_ref: str = GameArgument,
    at: Optional[int] = typer.Option(None, "--at", help="After this many events (0: before the first one)."),
    round_: Optional[int] = typer.Option(None, "--round", help="At the start of this round (phase A unless --phase)."),
    phase: Optional[str] = typer.Option(
        None, "--phase", help="At the start of this phase: setup, start, A-F or over (alone: the first time it begins)."
    ),
    catalog_file: Optional[Path] = CatalogOption,
    db: Optional[Path] = DbOption,
    as_json: bool = JsonOption,
) -> None:
    """Show the whole table at one point of a game: the latest, or a chosen one.

    Without options: the latest table. --json prints the board read model
    with the game's name, the point ("at": events applied), the number of
    events, and the last event applied ("event", null before the first).

    Example: [bold]coimbra show demo --round 2 --phase C[/]
    """
    if at is not None and (round_ is not None or phase is not None):
        fail("--at cannot be combined with --round or --phase: choose one way to say where")
    with game_ref_opened(game_ref, db, catalog_file) as (game, _):
        n, state = point_of(game, at, round_, phase)
    note = passed_note(state, phase)
    if as_json:
        print_json({**table_json(game, n, state), **({"note": note} if note else {})})
        return
    if note:
        console.print(escape(note), style="yellow")
    console.print(board_panel(board_view(state), title=escape(f"{game.name} · after {n} of {game.entries} events"),
                              event=event_words(game, n)))


def _check_comparable(a: Game, b: Game) -> None:
    """Exit 2 unless the two games have the same players and catalog: otherwise a diff says nothing useful."""
    if sorted(a.header.players) != sorted(b.header.players):
        who = {g.name: ", ".join(f"{n} ({c})" for n, c in g.header.players) for g in (a, b)}
        fail(f"cannot compare {a.name} and {b.name}: different players ({'; '.join(f'{k}: {v}' for k, v in who.items())})")
    if a.header.catalog_sha256 != b.header.catalog_sha256:
        fail(f"cannot compare {a.name} and {b.name}: different catalogs "
             f"({a.header.catalog_id} {a.header.catalog_sha256[:12]}… vs {b.header.catalog_id} {b.header.catalog_sha256[:12]}…)")


def _state_at(game: Game, at: Optional[int]) -> GameState:
    if at is None:
        return game.state
    try:
        return timeline(game).at(at)
    except TimelineError as exc:
        fail(f"{game.name}: {exc}")


@COMMANDS("diff")
def diff_command(
    a_ref: str = typer.Argument(..., metavar="A", help="A stored game's name, or a JSON log file."),
    b_ref: str = typer.Argument(..., metavar="B", help="The game to compare with A (a fork of it, or another game)."),
    at: Optional[int] = typer.Option(None, "--at", help="Compare the tables after this many events of each (default: the ends)."),
    table: bool = flag("--table", help="List the physical moves that turn table A into table B."),
    catalog_file: Optional[Path] = CatalogOption,
    db: Optional[Path] = DbOption,
    as_json: bool = JsonOption,
) -> None:
    """Compare two games (or a game and its fork): shared events, where they part, and how the tables differ.

    Exit 2 if the games have different players or catalogs.

    Example: [bold]coimbra diff demo demo-fork --table[/]
    """
    with ExitStack() as stack:
        a, _ = stack.enter_context(game_ref_opened(a_ref, db, catalog_file))
        b, _ = stack.enter_context(game_ref_opened(b_ref, db, catalog_file))
    _check_comparable(a, b)
    prefix = common_prefix(a.events, b.events)
    parted = first_divergence(a.events, b.events, prefix)
    for side, game in (("a", a), ("b", b)):
        if parted is not None and parted[side] is not None:
            parted[side]["notation"] = notation(game.events[prefix])
    table_a, table_b = _state_at(a, at), _state_at(b, at)
    differences = state_differences(table_a, table_b)
    moves = table_moves(table_a, table_b)
    if as_json:
        print_json({
            "a": {"game": a.name, "events": a.entries}, "b": {"game": b.name, "events": b.entries},
            "at": at, "common_prefix": prefix, "first_divergence": parted,
            "differences": [d.to_json() for d in differences], "table_moves": [m.to_json() for m in moves],
        })
        return
    _print_diff(a, b, at, prefix, parted, differences, moves if table else None)


def _print_diff(a: Game, b: Game, at: Optional[int], prefix: int, parted: dict[str, Any] | None,
                differences: list[StateDifference], moves: list[Change] | None) -> None:
    """The diff as text: prefix, the first event where the lines part, then the differences (or the moves)."""
    console.print(f"A = {escape(a.name)} ({a.entries} events), B = {escape(b.name)} ({b.entries} events)")
    console.print(f"common prefix: {prefix} events")
    if parted is None:
        console.print("the two games have the same events")
    else:
        console.print(f"first divergence at event {parted['seq']}:")
        for side in ("a", "b"):
            e = parted[side]
            console.print(f"  {side.upper()}: " + (escape(named_text(a.catalog, e["notation"])) if e else "(no more events)"),
                          soft_wrap=True)
    where = f"after event {at} of each" if at is not None else "at the end of each"
    if moves is not None:
        console.print(f"to turn table A into table B ({where}): {len(moves)} moves")
        console.print(changes_view(moves))
        return
    if not differences:
        console.print(f"no differences on the table ({where})")
        return
    console.print(f"{len(differences)} differences on the table ({where}), A → B:")
    for group, items in _grouped(differences).items():
        console.print(f"  {escape(group)}")
        for label, d in items:
            console.print(f"    {escape(_label(label))}: {escape(named_text(a.catalog, _change(d)))}", soft_wrap=True)


def _grouped(differences: list[StateDifference]) -> dict[str, list[tuple[str, StateDifference]]]:
    """Differences per player (``players.Ana.coins`` under ``Ana`` as ``coins``), then the board's."""
    groups: dict[str, list[tuple[str, StateDifference]]] = {}
    for d in differences:
        parts = d.path.split(".")
        group, label = (parts[1], parts[2:]) if parts[0] == "players" and len(parts) > 2 else ("board", parts)
        groups.setdefault(group, []).append((".".join(label), d))
    return groups


_LABELS = {
    "crowns_collected": "crowns taken over the game", "dice_on_shutter": "dice on the shutter spaces",
    "discs_in_supply": "discs beside the board", "end_game": "end-game scoring", "place": "final place",
    "points_during_play": "points during play", "income_left": "income dice not yet used", "crown_tokens": "crown tokens",
    "favor_tiles": "favor tiles", "points": "points (disc on the scoring track)",
}
"""A table's field in the game's words, where its name is not already one (``diff``)."""


def _label(field: str) -> str:
    """``influence.gray`` → ``influence on the gray track``; ``crowns_collected`` → ``crowns taken over the game``."""
    head, _, rest = field.partition(".")
    if head == "influence" and rest:
        return f"influence on the {rest} track"
    words = _LABELS.get(head, head.replace("_", " "))
    return f"{words} {rest.replace('_', ' ')}" if rest else words


def _change(d: StateDifference) -> str:
    """``1 → 11``; for lists, what only A has and what only B has (or the new order)."""
    if isinstance(d.a, list) and isinstance(d.b, list):
        gone, new = [x for x in d.a if x not in d.b], [x for x in d.b if x not in d.a]
        if not gone and not new:
            return f"order {_value(d.a)} → {_value(d.b)}"
        return "; ".join(part for part in (f"only A: {_value(gone)}" if gone else "",
                                            f"only B: {_value(new)}" if new else "") if part)
    return f"{_value(d.a, d.path)} → {_value(d.b, d.path)}"


def _value(value: Any, path: str = "") -> str:
    """A value in words; a final place or score that is not there is the game's not being over."""
    if value is None and path.rsplit(".", 1)[-1] in ("place", "points_during_play", "end_game"):
        return "not yet (the game is not over)"
    return value_text(None, value)
