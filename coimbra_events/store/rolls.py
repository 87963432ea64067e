"""Where a game's random outcomes come from when the table does not type them: its seed, or its parent's record.

A game created with a seed, or a fork with ``--rolls seed:S``, draws each outcome
from ``Random("S:k")``, k the number of entries so far, so a draw depends only on
the seed and the point of the game; a fork with ``--rolls parent`` reuses the
parent's outcome of that kind and turn while it is still legal. The draws go
through the rules core's outcome spaces and are recorded as ordinary events:
replay never draws.
"""

from __future__ import annotations

import random
import re
from typing import Callable

from coimbra_events.events import GameEvent
from coimbra_events.game import Game
from coimbra_events.rules import core as rules
from coimbra_events.state import TABLE
from coimbra_events.store.errors import BadFork, TableInputNeeded, UnknownGame


def drawn(game: Game, parent_of: Callable[[str], Game]) -> GameEvent:
    """The table's pending outcome, drawn the way the game's header says (``rolls_of``); ``parent_of`` reads the
    game a fork was made from. ``TableInputNeeded`` when the outcome must be typed by hand."""
    mode, seed = rolls_of(game)
    space = rules.legal(game.state)
    if mode == "seed":
        return space.sample(random.Random(f"{seed}:{game.entries}"))
    if mode == "parent":
        reused = _parent_outcome(game, parent_of)
        if reused is not None:
            return reused
        raise TableInputNeeded(f"{game.name}: the parent's {space.kind} no longer fits this line; enter it by hand")
    raise TableInputNeeded(f"{game.name} takes table outcomes by hand: coimbra act {game.name} \"table: ...\" "
                           "(coimbra legal shows the form)")


def _parent_outcome(game: Game, parent_of: Callable[[str], Game]) -> GameEvent | None:
    """The parent's outcome of the same kind with the same ordinal, if it is legal here."""
    kind = type_of_due(game)
    ordinal = sum(1 for p in game.line.plays if type(p.event) is kind)
    try:
        parent = parent_of(str(game.header.meta["parent"]))
    except UnknownGame:
        raise TableInputNeeded(f"{game.name}: its parent {game.header.meta['parent']!r} is not in this store; "
                               "enter the outcome by hand") from None
    same = [p.event for p in parent.line.plays if type(p.event) is kind]
    if ordinal < len(same) and rules.check(game.state, same[ordinal]) is None:
        return same[ordinal]
    return None


def draw_setup(game: Game, rng: random.Random, entered_by: str | None = None) -> None:
    """Record the table's random outcomes, drawn from ``rng``, until a player must decide."""
    while (due := game.pending) is not None and due.actor == TABLE:
        game.record(rules.legal(game.state).sample(rng), entered_by)


def parse_rolls(rolls: str) -> tuple[str, int | None]:
    """``parent``, ``manual`` or ``seed:S``; ``BadFork`` otherwise."""
    if rolls in ("parent", "manual"):
        return rolls, None
    word, _, seed = rolls.partition(":")
    if word == "seed" and re.fullmatch(r"-?\d+", seed):
        return "seed", int(seed)
    raise BadFork(f"--rolls {rolls!r}: expected parent, manual or seed:S (S a whole number)")


def rolls_of(game: Game) -> tuple[str, int | None]:
    """Where a game's table outcomes come from: its fork policy, else its seed, else by hand."""
    meta = game.header.meta
    if "rolls" in meta:
        return parse_rolls(str(meta["rolls"]))
    seed = meta.get("seed")
    return ("seed", seed) if type(seed) is int else ("manual", None)


def type_of_due(game: Game) -> type[GameEvent]:
    """The event type that answers the table's pending input."""
    return rules.ACCEPTS[game.pending.kind][0]
