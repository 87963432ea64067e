"""``export --format html``: a replay page in one file, written over the board read model.

The page is ``cli/web/replay.html`` with its stylesheet and scripts (the table's drawing,
``board.js``, shared with the live table's pages, and ``replay.js``) inlined and
the game embedded as JSON (``replay_data``): the entries in notation and in
words with what the record says about each, the board view
(``projections.board.board_view``) of every state the timeline folded once, the
sections to jump between, the final scores and the record's identity. Nothing
is fetched: the file opens from a disk or a chat attachment, on a phone too.

With the game's analysis (``coimbra analyse``; ``page_analysis``), the page also shows
every player's winning chances through the game as a graph and each decision's grade
(``cli/web/analysis.js``), and each player's mistakes and blunders as puzzles to learn from
(``projections.mistakes``, ``cli/web/learn.js``).

The states are most of the data, and a step changes little of a board, so state
0 is written whole and every later one as its ``delta`` from the state before;
the script rebuilds each state from them once, sharing what did not change.
"""

from __future__ import annotations

import html
from importlib import resources
from string import Template
from typing import Any

import orjson

from cli.presenter import catalog_lookup, notation
from coimbra_events.events import GameEvent
from coimbra_events.game import Game
from coimbra_events.log import SCHEMA
from coimbra_events.names import Names
from coimbra_events.notation import NotationError, render
from coimbra_events.state import GameState
from projections.board import board_view
from projections.entries import entry_marks
from projections.mistakes import puzzles
from projections.naming import component, named
from projections.scores import score_report
from projections.sections import sections
from projections.timeline import Timeline
from projections.words import entry_words

FORMAT = "coimbra-replay"
VERSION = 1
"""The version of the embedded data the page's script reads."""


def replay_page(game: Game, line: Timeline, analysis: dict[str, Any] | None = None) -> str:
    """The whole page: template, stylesheet, script and data in one HTML document (with the analysis, if given)."""
    return page_of(replay_data(game, line, analysis))


def page_of(data: dict[str, Any]) -> str:
    """The page around the data ``replay_data`` makes."""
    return html_page(f"{data['game']} · coimbra replay", data, ("board.js", "replay.js", "analysis.js", "learn.js"))


def html_page(title: str, data: Any, scripts: tuple[str, ...]) -> str:
    """The replay page's template with its stylesheet, these scripts of ``cli/web`` (in this order) and the data:
    the replay page, and the pages made of its parts (``cli.mistakes_page``)."""
    web = resources.files("cli") / "web"
    page = Template((web / "replay.html").read_text("utf-8"))
    return page.substitute(title=html.escape(title), style=(web / "replay.css").read_text("utf-8"),
                           script="".join((web / name).read_text("utf-8") for name in scripts), data=script_json(data))


def script_json(data: Any) -> str:
    """JSON to embed in a ``<script type="application/json">``: no ``<`` can end the element early."""
    return orjson.dumps(data).decode().replace("<", "\\u003c")


def replay_data(game: Game, line: Timeline, analysis: dict[str, Any] | None = None) -> dict[str, Any]:
    """Everything the page shows, as JSON-able data (the page's script reads ``VERSION`` 1); ``analysis`` is
    the game's analysis read model (``projections.analysis``), shown when given."""
    catalog = game.catalog
    views = [board_view(state) for state in line.states]
    log = game.to_log()
    return {
        "format": FORMAT,
        "version": VERSION,
        "game": game.name,
        "players": [{"name": n, "color": c} for n, c in log.players],
        "identity": {
            "schema": SCHEMA, "ruleset": log.ruleset,
            "catalog": {"id": log.catalog_id, "sha256": log.catalog_sha256, "title": catalog.title},
            "head": game.head, "entries": len(log.events),
        },
        "catalog": catalog_lookup(catalog),
        "entries": [_entry(game, line, k, mark) for k, mark in enumerate(entry_marks(log.events), 1)],
        "sections": [
            {"start": s.start, "round": s.round, "phase": s.phase, "title": s.title, "new_round": s.new_round}
            for s in sections(line)
        ],
        "states": [views[0], *(delta(a, b) for a, b in zip(views, views[1:]))],
        "scores": score_report(line.final),
        **({"analysis": page_analysis(analysis), "puzzles": puzzles(analysis, line)} if analysis is not None else {}),
    }


def page_analysis(report: dict[str, Any]) -> dict[str, Any]:
    """What the page shows of an analysis: each decision's grade and what the best gains (not every option weighed),
    each outcome's luck, the winning chances after every entry with its round, each player's summary, and how it was
    made."""
    decision_keys = ("seq", "player", "grade", "loss", "interval", "certain", "forced", "played", "best", "gains")
    return {
        "players": report["players"],
        "decisions": [{k: d[k] for k in decision_keys} for d in report["decisions"]],
        "luck": [{"seq": u["seq"], "luck": u["luck"], "interval": u["interval"]} for u in report["luck"]],
        "curve": [{k: p[k] for k in ("seq", "round", "before", "win") if k in p} for p in report["curve"]],
        "summary": report["summary"],
        "key": report["key"],
        "notes": report["notes"],
    }


def _entry(game: Game, line: Timeline, seq: int, mark: dict[str, Any]) -> dict[str, Any]:
    """An entry in notation and in words, with the components it names, what the record says about it, and what
    it changed on the table (the consequences read model's items, each with its rule and facts)."""
    event = game.events[seq - 1]
    before = line.states[seq - 1]
    names = [named(game.catalog, value) for value in _words_in(event.payload()) if component(game.catalog, value)]
    return {"seq": seq, "actor": event.actor, "type": event.TYPE, "notation": notation(event),
            "said": _said(event, before), "words": entry_words(before, event), "names": list(dict.fromkeys(names)), **mark,
            "changes": [c.to_json() for c in line.changes[seq]]}


def _said(event: GameEvent, before: GameState) -> str:
    """The entry as the move list writes it, components by name (``Ana: buy Castellan``); in notation with ids
    where a name cannot be written."""
    try:
        return render(event, Names(before.catalog, None, dict(before.monasteries)))
    except NotationError:
        return notation(event)


def _words_in(value: Any) -> list[str]:
    """Every string in a payload (keys of maps too): the ids a person wants named."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [w for k, v in value.items() for w in (k, *_words_in(v))]
    if isinstance(value, list):
        return [w for v in value for w in _words_in(v)]
    return []


def delta(a: Any, b: Any) -> Any:
    """The change from ``a`` to ``b``: ``[b]`` replaces, ``{key: change}`` changes parts of a map or
    of a list of the same length (keys are then indices), ``[]`` removes a key. What the page's
    ``apply`` reads; ``apply_delta`` is the same in Python."""
    if isinstance(a, dict) and isinstance(b, dict):
        out: dict[str, Any] = {k: [v] if k not in a else delta(a[k], v) for k, v in b.items() if k not in a or a[k] != v}
        out.update({k: [] for k in a if k not in b})
        return out
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b) and any(isinstance(x, (dict, list)) for x in b):
        return {str(i): delta(x, y) for i, (x, y) in enumerate(zip(a, b)) if x != y}
    return [b]


def apply_delta(a: Any, change: Any) -> Any:
    """``a`` with ``change`` (from ``delta``) applied: ``apply_delta(a, delta(a, b)) == b``."""
    if isinstance(change, list):
        return change[0]
    out: Any = list(a) if isinstance(a, list) else dict(a)
    for key, part in change.items():
        index: Any = int(key) if isinstance(out, list) else key
        if part == []:
            del out[index]
        else:
            out[index] = part[0] if isinstance(part, list) else apply_delta(out[index], part)
    return out


__all__ = ["FORMAT", "VERSION", "apply_delta", "delta", "page_analysis", "html_page", "page_of", "replay_data", "replay_page"]
