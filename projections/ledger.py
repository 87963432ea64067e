"""The ledger: every change of a player's coins, guards and victory points, entry by entry, then the end-game scoring.

``player_ledger`` adds up exactly to the totals of ``final_scores`` and to the
coins and guards on the table (``balanced`` says so). Each row names its source
in the game's words (``source_words``) with the rule that paid it, and is filed
under its owner's own entry: a gain the rules paid during another player's entry
(start cards used once every start choice is made, a bonus at the beginning of
a player's phase E) goes under the entry where its owner got the card that paid
it, with ``paid_at`` saying when the table paid it. Rows of an accepted rule
break carry the rule and the table's reason (``override``).
"""

from __future__ import annotations

from typing import Any

from coimbra_events.events import GameEvent
from coimbra_events.game import Game
from coimbra_events.notation import NotationError, render
from coimbra_events.rules import narration
from coimbra_events.rules.scoring import END_RULES, Item, end_game_items, final_scores, influence_tile_items, leftover_item
from projections.changes import tier_words
from projections.audit import END_GAME, LOST, RESOURCES, SPENT, START, UNTRACED, Audit, AuditError, Move, Step

_PLAIN_SOURCES = {"income": "income", "alternative": "alternative action", "exchange": "exchange for points",
                  "leftover": "leftover coins and guards"}


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


_GAINED = {
    "E.income": "income of the {track} track (die {die}; disc on space {disc_on}, tier {tier})",
    "E.per-die": "phase E bonus per {color} die: {card}",
    "E.start-bonus": "beginning of phase E: {words}",
    "C.start-bonus": "{words}: phase C bonus for {card}",
    "START.cards": "{words}, used once every start choice was made",
    "C.tile-bonus": "{words}, taken from the castle",
    "C.card-bonus": "{words}: immediate bonus",
    "C.alternative": "alternative action (die {die})",
    "MONASTERY.reward": "{words}, first visit",
}
_SPENT = {
    "C.cost": "spent on {words} (die {die} shows {price})",
    "F.cost": "spent on {words} (voyage space {space} costs {space_cost}{less})",
    "E.exchange": "exchanged for points ({times} × {rate} for {points} each)",
}
"""How a row says where a gain came from (or what a payment bought), with the facts that decided it."""


def _words(game: Game, move: Move, templates: dict[str, str], default: str) -> str:
    """A row's label: its rule's template filled with the move's facts, named sources and the discounts given."""
    template = templates.get(move.rule)
    if template is None:
        return default.format(words=source_words(game, move.source))
    facts = move.facts
    named = {"words": source_words(game, move.source), "tier": tier_words(facts["tier"]) if "tier" in facts else None,
             "card": source_words(game, str(facts["card"])) if "card" in facts else None,
             "less": "".join(f", less {d} for {source_words(game, t)}" for t, d in dict(facts.get("discounts", {})).items())}
    return template.format(**{**facts, **named})


def _label(game: Game, move: Move) -> str:
    if move.kind == SPENT:
        return _words(game, move, _SPENT, "spent on {words}")
    if move.kind == LOST:
        limit = game.catalog.max_coins if move.resource == "coins" else game.catalog.max_guards
        return f"lost over the limit of {limit} ({_words(game, move, _GAINED, '{words}')})"
    if move.kind == UNTRACED:
        return f"change not traced to a source ({move.source})"
    return _words(game, move, _GAINED, "{words}")


def _where(step: Step | None) -> dict[str, Any]:
    if step is None:
        return {"seq": None, "entry": None, "round": None, "phase": None, "event": None}
    return {"seq": step.play.seq, "entry": step.play.source, "round": step.before.round, "phase": step.before.phase,
            "event": notation(step.play.event)}


def _row(step: Step | None, resource: str, amount: int, kind: str, source: str, label: str, rule: str | None = None,
         paid_at: Step | None = None) -> dict[str, Any]:
    """One ledger row, filed under ``step`` (``None``: the starting resources and the end-game scoring)."""
    override = None if step is None or step.play.override is None else \
        {"rule": step.play.override[0], "reason": step.play.override[1]}
    return {**_where(step), "resource": resource, "amount": amount, "kind": kind, "source": source, "label": label,
            "rule": rule, "override": override, "paid_at": None if paid_at is None else _where(paid_at)}


def _untraced(step: Step, i: int, traced: list[Move]) -> list[Move]:
    """The part of a play's change of a player's resources that no noted move explains (none expected)."""
    before, after = step.before.players[i], step.after.players[i]
    gaps = {r: getattr(after, r) - getattr(before, r) - sum(m.amount for m in traced if m.resource == r) for r in RESOURCES}
    return [Move(i, r, gap, UNTRACED, step.play.event.TYPE) for r, gap in gaps.items() if gap]


def acquisitions(audit: Audit) -> dict[tuple[int, str], Step]:
    """Where each player got each card they hold: (player, card) -> the play that gave it."""
    out: dict[tuple[int, str], Step] = {}
    for step in audit.steps:
        for t in step.told:
            if t.what == narration.CARD and t.dst in (narration.CARDS, narration.START_CARDS):
                out[(t.who, t.ident)] = step
    return out


def step_rows(audit: Audit, step: Step, i: int | None = None,
              got: dict[tuple[int, str], Step] | None = None) -> list[dict[str, Any]]:
    """A play's resource rows: for player ``i``, or for everyone (with the player's name).

    With ``got`` (``acquisitions``), a row another player's entry paid is filed
    under the entry where its owner got the card that paid it.
    """
    game = audit.game
    out: list[dict[str, Any]] = []
    for k, pl in enumerate(step.before.players):
        if i is not None and k != i:
            continue
        moves = [m for m in step.moves if m.player == k]
        for m in moves + _untraced(step, k, moves):
            filed, paid_at = step, None
            card = m.facts.get("card") if m.rule in ("START.cards", "E.start-bonus") else None
            if got is not None and step.play.event.actor != pl.name and (k, card) in got:
                filed, paid_at = got[(k, str(card))], step
            row = _row(filed, m.resource, m.amount, m.kind, m.source, _label(game, m), m.rule or None, paid_at)
            out.append(row if i is not None else {"player": pl.name, **row})
    return out


def _end_words(game: Game, item: Item) -> str:
    if item.part == "influence_tiles":
        return f"influence tiles: {item.source}"
    if item.part == "leftover":
        return "leftover coins and guards"
    kind = {"cards": "end-game cards", "monasteries": "monasteries", "voyages": "voyages"}[item.part]
    scored = "" if item.points else " (scored nothing)"
    return f"{kind}: {source_words(game, item.source)}{scored}"


def _end_game_rows(audit: Audit, i: int) -> list[dict[str, Any]]:
    """Every source of end-game points of player ``i``, in scoring order; voyages and cards worth 0 too."""
    state = audit.final
    pl = state.players[i]
    items = influence_tile_items(state)[pl.name] + end_game_items(state, pl)
    leftover = leftover_item(state, pl)
    items += [leftover] if leftover.points else []
    return [_row(None, "points", item.points, END_GAME, item.source, _end_words(audit.game, item),
                 END_RULES[item.part]) for item in items]


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
    got = acquisitions(audit)
    for step in audit.steps:
        if not step.skipped:
            rows += step_rows(audit, step, i, got)
    score = next(s for s in final_scores(audit.final) if s.name == pl.name)
    rows += _end_game_rows(audit, i)
    totals = {"points": score.total, "coins": pl.coins, "guards": pl.guards}
    sums = {r: sum(row["amount"] for row in rows if row["resource"] == r) for r in RESOURCES}
    breakdown: dict[str, dict[str, int]] = {r: {} for r in RESOURCES}
    for row in rows:
        kinds = breakdown[row["resource"]]
        kinds[row["kind"]] = kinds.get(row["kind"], 0) + row["amount"]
    return {"player": pl.name, "final": audit.final.over, "place": score.place, "rows": rows, "breakdown": breakdown,
            "sums": sums, "totals": totals, "balanced": sums == totals}


__all__ = ["acquisitions", "notation", "player_index", "player_ledger", "source_words", "step_rows"]
