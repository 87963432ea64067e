"""What both front-ends show of the table's values: the words and the JSON, written once.

The terminal (``cli/*_commands.py``) and the live table (``cli/live/``) answer the
same questions (who is due, what is legal, what an entry changed, why an input
was refused) in the same words: ``act --json`` and ``legal --json`` print what the
HTTP API answers. The values are the use cases' (``coimbra_events.service``); this
module only says them, names beside ids, never ids alone, in what a person reads.
It imports no terminal library (no typer, no rich), so the web server loads none.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any, Sequence

from coimbra_events.catalog.effect_kinds import TRACKS
from coimbra_events.events import GameEvent
from coimbra_events.log import Stamp
from coimbra_events.notation import BY_TYPE
from coimbra_events.rules import core as rules
from projections.board import board_view
from projections.map_layout import map_layout
from projections.naming import name_of, named_text, said
from projections.naming import notation_text as notation  # an event as the log and --json write it (ids)
from projections.outcome_form import outcome_form
from projections.recording import step_header
from projections.scores import score_report
from projections.table_words import LOCATIONS, die_words, table_words

if TYPE_CHECKING:
    from coimbra_events.catalog import Catalog
    from coimbra_events.game import Game
    from coimbra_events.service import Conflict, Legal, Phone, Refused, Seats, Stored
    from coimbra_events.state import GameState


# -- who is due


def due(game: Game) -> str:
    """Who must act, on what, and where the game stands, components by their printed names: ``Bruno: draft
    (round 1, phase B)``, ``Ana: retrieve (round 1, phase C, the gray die showing 4 in the lower city)``."""
    due, state = game.pending, game.state
    if due is None:
        return "game over"
    where = [f"round {state.round}, phase {state.phase}" if state.round else state.phase]
    if due.amount:
        where.append(f"{due.amount} left")
    if due.source:
        where.append(f"from {name_of(state.catalog, due.source)}")
    if due.die:
        where.append(f"{die_words(state, due.die)} in {LOCATIONS.get(due.location or '', due.location)}")
    return f"{due.actor}: {due.kind} ({', '.join(where)})"


def due_json(game: Game) -> dict[str, Any] | None:
    """What is due as ``--json`` gives it (``"pending"``): the pending step, the round and the phase."""
    due = game.pending
    if due is None:
        return None
    return {**due.as_dict(), "round": game.state.round, "phase": game.state.phase}


def due_view(game: Game) -> dict[str, Any] | None:
    """Who is due and for what, in words (``None`` at game over): ``{"player", "what", "line", ...}``."""
    pending = due_json(game)
    if pending is None:
        return None
    return {"player": game.pending.actor, "what": step_header(game.state), "line": due(game), **pending}


# -- what is legal


def legal_json(legal: Legal) -> dict[str, Any]:
    """What ``legal --json`` prints (and the live table's API says): the table's outcome to enter and how to
    write it, or every legal decision in notation and described."""
    game, space = legal.game, legal.outcome
    report: dict[str, Any] = {"game": game.name, "pending": due_json(game)}
    if space is not None:
        verb = BY_TYPE[rules.ACCEPTS[space.kind][0].TYPE]
        example = notation(space.sample(random.Random(0)))
        report["outcome"] = {"kind": space.kind, "description": space.description, "usage": f"table: {verb.usage}",
                             "example": example}
    else:
        report["options"] = [notation(o.event) for o in legal.options]
        report["described"] = [option_json(o, k) for k, o in enumerate(legal.options, 1)]
    return report


def option_json(option: Any, number: int) -> dict[str, Any]:
    """A legal decision as ``legal --json`` describes it, with what it picks on the board by id (``type``: the
    event's; ``pick``: its fields, such as ``{"die": "gray-1", "location": "castle"}``), so that a page can
    offer it on the drawn board: the die, the place, the card, the tile, the track, the space, the voyage."""
    return {**option.to_json(number), "type": option.event.TYPE, "pick": option.event.payload()}


# -- entries, and what a write answers


def entry_json(game: Game, seq: int, event: GameEvent, stamp: Stamp, changes: Sequence[Any],
               before: GameState) -> dict[str, Any]:
    """Entry ``seq`` of ``game`` as the live table tells it: its words (``text``: as the table says it, from
    ``before``, the table just before it), its notation, who it is of (``player``), who entered it and when
    (``by``, ``at``), what it changed on the table (each move with its rule) and the head after it."""
    return {
        "seq": seq, "type": event.TYPE, "player": event.actor, "text": table_words(before, event),
        "notation": notation(event), "by": stamp[1] or "", "at": stamp[0] or "",
        "changes": [c.to_json() for c in changes], "head": game.hashes[seq - 1],
    }


def act_json(recorded: Stored[Any]) -> dict[str, Any]:
    """What ``act --json`` prints for entries stored: each in notation with what it changed, what is due now,
    the final scores at game over, and the record's new head."""
    game = recorded.game
    entries = [{"seq": e.seq, "type": e.event.TYPE, "notation": notation(e.event), "changes": [c.to_json() for c in e.changes]}
               for e in recorded.entries]
    return {"game": game.name, "recorded": entries, "events": game.entries, "pending": due_json(game),
            "scores": score_report(game.state) if game.over else None, "head": recorded.head}


def stored_json(recorded: Stored[Any], entries: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """What the API answers for entries stored: the new head, the ``entries`` (as ``entry_json``), what is due."""
    game = recorded.game
    return {"game": game.name, "head": recorded.head, "entries": list(entries), "due": due_view(game), "over": game.over}


def refusal_words(refusal: Refused) -> str:
    """An input the rules refused, in one line: what was refused (names), the rule and why; nothing was stored."""
    v, catalog, event, spaces = refusal.violation, refusal.catalog, refusal.event, refusal.monasteries
    if event is None:
        return f"{refusal.name}: the game is over (rule {v.rule}); nothing more can be recorded"
    return (f"refused '{said(catalog, event, monasteries=spaces)}': rule {v.rule}: "
            f"{named_text(catalog, v.reason, spaces)}; nothing stored")


def refused_json(refusal: Refused) -> dict[str, Any]:
    """What the API answers for a refusal: the line ``act`` says (``error``), the rule id, the reason (names)
    and facts, and the violation as ``act --json`` gives it."""
    v, catalog = refusal.violation, refusal.catalog
    violation = v.to_json(catalog)
    return {"error": refusal_words(refusal), "rule": v.rule, "reason": named_text(catalog, v.reason, refusal.monasteries),
            "facts": violation["facts"], "violation": violation}


def act_refused_json(refusal: Refused) -> dict[str, Any]:
    """What ``act --json`` prints for an input refused (one that was read): nothing recorded, and why."""
    assert refusal.event is not None
    return {"recorded": [], "refused": notation(refusal.event), "violation": refusal.violation.to_json(refusal.catalog)}


def conflict_json(conflict: Conflict, entries: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """What the API answers when the record moved on: why, its head now, and the ``entries`` stored since."""
    return {"error": conflict.reason, "head": conflict.head, "entries": list(entries)}


# -- the table


def event_words(game: Game, n: int) -> dict[str, Any]:
    """Event ``n`` of the game (0: none yet) in notation and in words: what ``show`` prints above the board."""
    out: dict[str, Any] = {"seq": n, "of": game.entries}
    if n:
        event = game.events[n - 1]
        doc = (type(event).__doc__ or event.TYPE).strip().splitlines()[0]
        text = said(game.catalog, event, monasteries=dict(game.state.monasteries))
        out.update(type=event.TYPE, actor=event.actor, notation=notation(event), text=text, about=doc)
    return out


def table_json(game: Game, at: int | None = None, state: GameState | None = None) -> dict[str, Any]:
    """The table after ``at`` entries (``state``; default: the latest), as ``show GAME --json`` prints it."""
    n = game.entries if at is None else at
    table = game.state if state is None else state
    return {"game": game.name, "at": n, "events": game.entries, **board_view(table), "event": event_words(game, n) if n else None}


def catalog_lookup(catalog: Catalog) -> dict[str, Any]:
    """What a page needs to draw that a board view names only by id: cards held, tiles, the map."""
    return {
        "tracks": list(TRACKS),
        "max_influence": catalog.max_influence,
        "cards": {
            c.id: {"name": c.name, "category": c.category, "cost": c.cost, "influence": c.influence, "zone": c.timing}
            for c in catalog.characters.values()
        },
        "favor_tiles": {
            t.id: {"name": t.name, "crowns": t.crowns, "extra_die": any(e.kind == "extra_income_die" for e in t.effects)}
            for t in catalog.favor_tiles.values()
        },
        "map": map_layout(catalog),
    }


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


def undo_view(seats: Seats, game: Game, entries: Sequence[dict[str, Any]]) -> dict[str, Any] | None:
    """The play an undo would withdraw, said as its entry is (``entries``, the game's entries as ``entry_json``
    tells them), with the seat whose phone may withdraw it (``seat``: ``None``, any phone: a table's outcome);
    ``None`` with nothing to withdraw, or at game over. The same for every phone (the live table's stream tells it)."""
    plays = game.line.plays
    if game.over or not plays:
        return None
    player = plays[-1].event.actor
    return {"seq": plays[-1].seq, "player": player, "text": entries[plays[-1].seq - 1]["text"], "seat": seats.seat_of(player)}


def seats_json(phone: Phone, game: Game, entries: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """What the live table's view says of the seats to one phone: each seat (``held`` by a phone, and whether by
    this one), the seats it holds (``you``), and the play an undo would withdraw (``undo_view``) with whether this
    phone may (``yours``)."""
    held, you, undo = phone.seats.claimed(), phone.held, undo_view(phone.seats, game, entries)
    return {"seats": [{"player": p, "held": held[p], "yours": p in you} for p in phone.seats.players],
            "you": list(you), "undo": undo and {**undo, "yours": phone.may_undo(game)}}


__all__ = ["act_json", "act_refused_json", "catalog_lookup", "conflict_json", "due", "due_json", "due_view", "entry_json",
           "event_words", "game_view", "legal_json", "notation", "option_json", "refusal_words", "refused_json",
           "seats_json", "stored_json", "undo_view",
           "table_json"]
