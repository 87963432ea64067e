"""The ledger: every change of a player's coins, guards and victory points, entry by entry, then the end-game scoring.

``player_ledger`` adds up exactly to the totals of ``final_scores`` and to the
coins and guards on the table (``balanced`` says so); each row names its
source in the game's words (``source_words``).
"""

from __future__ import annotations

from typing import Any

from coimbra_events.events import GameEvent, IncomeActivated
from coimbra_events.game import Game
from coimbra_events.notation import NotationError, render
from coimbra_events.rules.scoring import PlayerScore, final_scores
from projections.audit import END_GAME, LOST, RESOURCES, SPENT, START, UNTRACED, Audit, AuditError, Move, Step

_PLAIN_SOURCES = {"income": "income", "alternative": "alternative action", "exchange": "exchange for points",
                  "phase E bonus": "phase E bonus per die"}


def notation(event: GameEvent) -> str:
    """The event in notation (its type when a value cannot be written in notation)."""
    try:
        return render(event)
    except NotationError:
        return f"{event.actor}: {event.TYPE}"


def source_words(game: Game, source: str) -> str:
    """A source of points or resources named in the game's words: ``card c-II-05 (Weaver)``, ``income``."""
    cat = game.catalog
    if source in cat.characters:
        card = cat.characters[source]
        return f"{'start card' if card.pile == 'I' else 'card'} {source} ({card.name})"
    for what, items in (("favor tile", cat.favor_tiles), ("monastery", cat.monasteries), ("voyage", cat.voyages)):
        if source in items:
            return f"{what} {source} ({items[source].name})"
    return _PLAIN_SOURCES.get(source, source)


def _label(game: Game, move: Move, event: GameEvent) -> str:
    words = source_words(game, move.source)
    if move.source == "income" and isinstance(event, IncomeActivated):
        words = f"income of the {event.track} track (die {event.die})"
    if move.kind == SPENT:
        return f"spent on {words}"
    if move.kind == LOST:
        limit = game.catalog.max_coins if move.resource == "coins" else game.catalog.max_guards
        return f"lost over the limit of {limit} ({words})"
    if move.kind == UNTRACED:
        return f"change not traced to a source ({move.source})"
    return words


def _row(step: Step | None, resource: str, amount: int, kind: str, source: str, label: str) -> dict[str, Any]:
    """One ledger row; ``step`` is ``None`` for the starting resources and the end-game scoring."""
    where: dict[str, Any] = {"seq": None, "entry": None, "round": None, "phase": None, "event": None}
    if step is not None:
        where = {"seq": step.play.seq, "entry": step.play.source, "round": step.before.round,
                 "phase": step.before.phase, "event": notation(step.play.event)}
    return {**where, "resource": resource, "amount": amount, "kind": kind, "source": source, "label": label}


def _untraced(step: Step, i: int, traced: list[Move]) -> list[Move]:
    """The part of a play's change of a player's resources that no noted move explains (none expected)."""
    before, after = step.before.players[i], step.after.players[i]
    gaps = {r: getattr(after, r) - getattr(before, r) - sum(m.amount for m in traced if m.resource == r) for r in RESOURCES}
    return [Move(i, r, gap, UNTRACED, step.play.event.TYPE) for r, gap in gaps.items() if gap]


def step_rows(audit: Audit, step: Step, i: int | None = None) -> list[dict[str, Any]]:
    """A play's resource rows: for player ``i``, or for everyone (with the player's name)."""
    game = audit.game
    out: list[dict[str, Any]] = []
    for k, pl in enumerate(step.before.players):
        if i is not None and k != i:
            continue
        moves = [m for m in step.moves if m.player == k]
        for m in moves + _untraced(step, k, moves):
            row = _row(step, m.resource, m.amount, m.kind, m.source, _label(game, m, step.play.event))
            out.append(row if i is not None else {"player": pl.name, **row})
    return out


_END_PARTS: tuple[tuple[str, str], ...] = (
    ("influence tiles", "influence_tiles"), ("end-game cards", "cards"), ("monasteries", "monasteries"), ("voyages", "voyages"),
)


def _end_game_rows(audit: Audit, score: PlayerScore) -> list[dict[str, Any]]:
    game = audit.game
    rows: list[dict[str, Any]] = []
    for part, attr in _END_PARTS:
        for source, points in getattr(score, attr):
            words = source if part == "influence tiles" else source_words(game, source)
            rows.append(_row(None, "points", points, END_GAME, source, f"{part}: {words}"))
    if score.leftover:
        rows.append(_row(None, "points", score.leftover, END_GAME, "leftover", "leftover coins and guards"))
    return rows


def player_index(audit: Audit, name: str) -> int:
    """The player called ``name`` (any case); ``AuditError`` naming the players otherwise."""
    names = [p.name for p in audit.final.players]
    for k, n in enumerate(names):
        if n.lower() == name.strip().lower():
            return k
    raise AuditError(f"no player {name!r} in {audit.game.name}: the players are {', '.join(names)}")


def player_ledger(audit: Audit, name: str) -> dict[str, Any]:
    """Every change of a player's points, coins and guards, entry by entry, then the end-game scoring.

    ``sums`` (start values plus every row) equal ``totals`` (the score of
    ``final_scores``, the coins and guards held now): ``balanced`` says so.
    """
    i = player_index(audit, name)
    cat, pl = audit.game.catalog, audit.final.players[i]
    rows = [_row(None, "coins", cat.start_coins, START, "start", "coins at the start"),
            _row(None, "guards", cat.start_guards, START, "start", "guards at the start")]
    for step in audit.steps:
        if not step.skipped:
            rows += step_rows(audit, step, i)
    score = next(s for s in final_scores(audit.final) if s.name == pl.name)
    rows += _end_game_rows(audit, score)
    totals = {"points": score.total, "coins": pl.coins, "guards": pl.guards}
    sums = {r: sum(row["amount"] for row in rows if row["resource"] == r) for r in RESOURCES}
    breakdown: dict[str, dict[str, int]] = {r: {} for r in RESOURCES}
    for row in rows:
        kinds = breakdown[row["resource"]]
        kinds[row["kind"]] = kinds.get(row["kind"], 0) + row["amount"]
    return {"player": pl.name, "final": audit.final.over, "place": score.place, "rows": rows, "breakdown": breakdown,
            "sums": sums, "totals": totals, "balanced": sums == totals}


__all__ = ["notation", "player_index", "player_ledger", "source_words", "step_rows"]
