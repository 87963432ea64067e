"""The JSON the live table's API answers: a game as every page shows it, and each entry as the stream tells it.

One shape for everyone: the players' pages, the watchers' and any other client
read ``GET /api/games/{name}`` (``game_view``), and each new entry reaches them as
``entry_json`` (over the event stream and in the answer to the input that made
it). The parts are what the CLI prints with ``--json``: ``legal --json`` for the
legal options, ``show --json`` for the table, ``act --json`` for what an entry
changed; names beside ids, never ids alone, in what a person reads.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Sequence

from cli.common import due, due_json, notation
from cli.store_commands import legal_json
from cli.replay_page import catalog_lookup
from cli.view_commands import event_words
from coimbra_events.events import GameEvent
from coimbra_events.log import Stamp
from projections.board import board_view
from projections.outcome_form import outcome_form
from projections.naming import said
from projections.recording import step_header
from projections.scores import score_report

if TYPE_CHECKING:
    from coimbra_events.game import Game
    from coimbra_events.service import Legal


def entry_json(game: Game, seq: int, event: GameEvent, stamp: Stamp, changes: Sequence[Any]) -> dict[str, Any]:
    """Entry ``seq`` of ``game``: its words (``text``, names), its notation, who it is of (``player``), who entered
    it and when (``by``, ``at``), what it changed on the table (each move with its rule) and the head after it."""
    return {
        "seq": seq, "type": event.TYPE, "player": event.actor,
        "text": said(game.catalog, event, monasteries=dict(game.state.monasteries)),
        "notation": notation(event), "by": stamp[1] or "", "at": stamp[0] or "",
        "changes": [c.to_json() for c in changes], "head": game.hashes[seq - 1],
    }


def due_view(game: Game) -> dict[str, Any] | None:
    """Who is due and for what, in words (``None`` at game over): ``{"player", "what", "line", ...}``."""
    pending = due_json(game)
    if pending is None:
        return None
    return {"player": game.pending.actor, "what": step_header(game.state), "line": due(game), **pending}


def table_json(game: Game) -> dict[str, Any]:
    """The latest table, as ``show GAME --json`` prints it."""
    n = game.entries
    return {"game": game.name, "at": n, "events": n, **board_view(game.state), "event": event_words(game, n) if n else None}


def game_view(legal: Legal, entries: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """What ``GET /api/games/{name}`` answers: the game's head, its entries, who is due, the legal options (as
    ``legal --json``), the table (as ``show --json``), the players, and at game over the final scores."""
    game = legal.game
    return {
        "game": game.name, "head": game.head, "events": game.entries, "over": game.over,
        "players": [{"name": n, "color": c} for n, c in game.header.players],
        "due": due_view(game), "legal": legal_json(legal), "table": table_json(game),
        "entries": list(entries), "scores": score_report(game.state) if game.over else None,
        "catalog": catalog_lookup(game.catalog), "outcome_form": outcome_form(game.state),
    }
