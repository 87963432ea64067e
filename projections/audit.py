"""The audit trail: why each entry stands, what it changed, and where every point, coin and guard came from.

Disputes at a table come down to two questions: "why was that allowed?" and
"where did those points come from?". ``explain_entry`` answers the first for
one log entry: the rules ``check`` covers for its kind of event
(``core.RULES_CHECKED``) with the values they read from the table just before,
or the rule the table overrode, or why a play was skipped; then the
differences it made on the table. ``player_ledger`` answers the second: every
change of a player's coins, guards and victory points, entry by entry, then
the end-game scoring, adding up exactly to the totals of ``final_scores``.
``game_overview`` lists what happened to the record itself (overrides,
corrections, retractions, skipped plays, notes).

The line of play is folded once (``fold_line``) and each play is applied
through a ``Tx`` that notes every gain, payment and point as the rules make
it: a play's net change cannot tell a payment from a bonus paid by the same
move, nor show what the 20-coin limit cut off, but the rules' own calls can.
Nothing here decides legality: skipped and overridden plays come from
``Game.replay``; facts are read with the rules modules' own accessors.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Mapping

from coimbra_events.effect_kinds import TRACKS
from coimbra_events.events import (
    HISTORY_TYPES,
    Bookmarked,
    CardBought,
    Corrected,
    GameEvent,
    IncomeActivated,
    Noted,
    PointsExchanged,
    Retracted,
    RuleOverridden,
    VoyageInvested,
)
from coimbra_events.game import Game
from coimbra_events.history import Play, is_plain
from coimbra_events.notation import NotationError, render
from coimbra_events.rules import effects
from coimbra_events.rules.core import ACCEPTS, RULES_CHECKED, apply_in
from coimbra_events.rules.dice import insert_position
from coimbra_events.rules.income import die_color, income
from coimbra_events.rules.outcomes import deck_size
from coimbra_events.rules.retrieval import card_price
from coimbra_events.rules.scoring import PlayerScore, final_scores
from coimbra_events.rules.setup import free_groups, free_start_spaces
from coimbra_events.rules.tx import Tx
from coimbra_events.rules.voyages import voyage_cost
from coimbra_events.state import CITIES, LOCATIONS, GameState
from coimbra_events.violations import RULES, RuleViolation
from projections.board import PHASE_NAMES
from projections.diff import state_differences

RESOURCES: tuple[str, ...] = ("points", "coins", "guards")
"""What the ledger accounts for, in the order it is shown."""

START, GAIN, SPENT, LOST, END_GAME, UNTRACED = "start", "gain", "spent", "lost over the limit", "end-game", "untraced"
"""Kinds of ledger rows. ``untraced`` would mean a change the rules made outside ``Tx.gain``/``pay``/``add_points``."""


class AuditError(ValueError):
    """A point of the record that does not exist: an entry out of range, an unknown player."""


# --- folding the line once, noting every resource movement ----------------------------------------


@dataclass(frozen=True)
class Move:
    """One change of a player's coins, guards or points, as the rules made it."""

    player: int
    resource: str
    amount: int
    kind: str
    source: str


def _bought(event: GameEvent) -> str:
    """What a payment is for: only buying a card, investing in a voyage and exchanging pay."""
    if isinstance(event, CardBought):
        return event.card
    if isinstance(event, VoyageInvested):
        return event.voyage
    return "exchange" if isinstance(event, PointsExchanged) else event.TYPE


class _Recorder(Tx):
    """A ``Tx`` that notes each gain (and what the limit cut off), payment and point, with its source."""

    __slots__ = ("moves", "event")

    def __init__(self, state: GameState, event: GameEvent) -> None:
        super().__init__(state)
        self.moves: list[Move] = []
        self.event = event

    def gain(self, i: int, resource: str, amount: int, source: str) -> None:
        if amount <= 0 or resource not in ("coins", "guards"):
            super().gain(i, resource, amount, source)  # points arrive through add_points; steps are a decision
            return
        had = getattr(self.pl(i), resource)
        super().gain(i, resource, amount, source)
        kept = getattr(self.pl(i), resource) - had
        self.moves.append(Move(i, resource, amount, GAIN, source))
        if kept < amount:
            self.moves.append(Move(i, resource, kept - amount, LOST, source))

    def pay(self, i: int, resource: str, amount: int) -> None:
        super().pay(i, resource, amount)
        if amount:
            self.moves.append(Move(i, resource, -amount, SPENT, _bought(self.event)))

    def add_points(self, i: int, amount: int, source: str) -> None:
        super().add_points(i, amount, source)
        if amount:
            self.moves.append(Move(i, "points", amount, GAIN, source))


def _apply_noted(state: GameState, event: GameEvent) -> tuple[GameState, tuple[Move, ...]]:
    """``core.apply`` with every resource movement noted."""
    tx = _Recorder(state, event)
    return apply_in(tx, event), tuple(tx.moves)


@dataclass(frozen=True)
class Step:
    """One play of the line: the tables before and after it, its moves, and any rule it did not meet.

    ``violation`` is the rule an accepted rule break broke, or why a skipped play was skipped.
    """

    play: Play
    before: GameState
    after: GameState
    moves: tuple[Move, ...] = ()
    violation: RuleViolation | None = None
    skipped: bool = False


@dataclass(frozen=True)
class Audit:
    """A game with every play of its line folded: what the explanations are read from."""

    game: Game
    steps: tuple[Step, ...]
    final: GameState
    by_seq: Mapping[int, Step] = field(repr=False)


def fold_line(game: Game) -> Audit:
    """Fold the game's line of play once, keeping each play's tables and moves.

    Which plays are skipped or accepted against a rule is ``Game.replay``'s
    verdict; a record without history entries needs none (each of its events
    was checked when recorded), so it is folded exactly once.
    """
    replayed = None if is_plain(game.events) else game.replay
    skipped = {p.seq: v for p, v in replayed.skipped} if replayed else {}
    overridden = {p.seq: v for p, v in replayed.overrides} if replayed else {}
    state, steps = game.initial, []
    for play in game.line.plays:
        if play.seq in skipped:
            steps.append(Step(play, state, state, violation=skipped[play.seq], skipped=True))
            continue
        after, moves = _apply_noted(state, play.event)
        steps.append(Step(play, state, after, moves, overridden.get(play.seq)))
        state = after
    return Audit(game, tuple(steps), state, {s.play.seq: s for s in steps})


# --- facts: the values each rule reads, from the table before the event -------------------------

Facts = Callable[[GameState, Any], dict[str, Any]]


def _retrieved_die(s: GameState, e: GameEvent) -> dict[str, Any]:
    p = s.pending
    return {"die": p.die, "value": s.die_value(p.die), "location": p.location}


def _placed_die(s: GameState, e: Any) -> dict[str, Any]:
    return {"die": e.die, "value": s.die_value(e.die), "dice_area": {d: v for d, v in s.dice if d in s.pool}}


def _location(s: GameState, e: Any) -> dict[str, Any]:
    row = s.locations[LOCATIONS.index(e.location)]
    at = insert_position(row, e.location, s.die_value(e.die))
    return {"location": e.location, "locations": list(LOCATIONS), "row": [f"{x.die}={x.value}" for x in row], "lands_at": at + 1}


def _card_row(s: GameState, e: Any) -> dict[str, Any]:
    city = s.pending.location
    return {"card": e.card, "name": s.catalog.characters[e.card].name, "city": city, "row": list(s.rows[CITIES.index(city)])}


def _card_cost(s: GameState, e: Any) -> dict[str, Any]:
    card = s.catalog.characters[e.card]
    return {"card": e.card, "die": s.pending.die, "price": card_price(s, s.pending), "resource": card.cost,
            "have": getattr(s.player(e.actor), card.cost)}


def _income_track(s: GameState, e: Any) -> dict[str, Any]:
    position = s.player(e.actor).influence_on(e.track)
    resource, amount, points = income(s.catalog, e.track, position)
    return {"die": e.die, "die_colour": die_color(s.catalog, e.die), "track": e.track, "disc_on": position,
            "pays": {"resource": resource, "amount": amount, "points": points}}


def _exchange(s: GameState, e: Any) -> dict[str, Any]:
    pl = s.player(e.actor)
    fx = effects.phase_e_effects(s.catalog, pl.owned_cards)
    have = getattr(pl, e.give)
    rate = effects.exchange_for(fx, e.give, e.times, have)
    return {"give": e.give, "times": e.times, "have": have,
            "offers": [{"rate": r, "points": p} for r, p in effects.exchange_offers(fx, e.give)],
            "rate_used": None if rate is None else {"rate": rate[0], "points": rate[1], "costs": rate[0] * e.times}}


def _voyage_space(s: GameState, e: Any) -> int:
    return s.voyages.index(e.voyage)


def _voyage_cost(s: GameState, e: Any) -> dict[str, Any]:
    pl, space = s.player(e.actor), _voyage_space(s, e)
    resource, cost = voyage_cost(s.catalog, pl, space)
    return {"voyage": e.voyage, "space": space + 1, "resource": resource, "printed_cost": s.catalog.voyage_spaces[space].cost,
            "discount": effects.voyage_discount(s.catalog, pl), "cost": cost, "have": getattr(pl, resource)}


FACTS: Mapping[str, Facts] = {
    "GAME.over": lambda s, e: {"round": s.round, "phase": s.phase},
    "TURN.actor": lambda s, e: {"due": s.pending.actor, "actor": e.actor},
    "TURN.kind": lambda s, e: {"kind": s.pending.kind, "accepted": [t.TYPE for t in ACCEPTS[s.pending.kind]], "event": e.TYPE},
    "SETUP.monasteries": lambda s, e: {"spaces": {p: len(sp) for p, sp in s.catalog.map.monastery_spaces.items()},
                                       "placement": dict(e.placement)},
    "SETUP.scoring-tiles": lambda s, e: {"tiles": dict(e.tiles), "catalog": list(s.catalog.scoring_tiles)},
    "SETUP.voyages": lambda s, e: {"drawn": list(e.voyages), "spaces": len(s.catalog.voyage_spaces)},
    "SETUP.seating": lambda s, e: {"order": list(e.order), "players": [p.name for p in s.players]},
    "SETUP.rows": lambda s, e: {"rows": {c: list(r) for c, r in e.rows}, "cards_per_row": s.catalog.cards_per_row,
                                "deck": deck_size(s.catalog, s.dealt)},
    "SETUP.start-groups": lambda s, e: {"groups": [list(g) for g in e.groups], "cards_per_group": s.catalog.cards_per_group,
                                        "players": len(s.players)},
    "A.dice": lambda s, e: {"pool": list(s.catalog.dice_for(len(s.players))), "rolled": dict(e.values)},
    "START.once": lambda s, e: {"player": e.actor, "done": list(s.player(e.actor).start_choices)},
    "START.group": lambda s, e: {"group": e.group, "cards": list(s.start_groups[e.group - 1]), "available": free_groups(s)},
    "START.space": lambda s, e: {"space": e.space, "free": free_start_spaces(s)},
    "CHOICE.track": lambda s, e: {"track": e.track, "tracks": list(TRACKS), "amount": s.pending.amount, "from": s.pending.source},
    "PILGRIM.adjacent": lambda s, e: {"from": s.player(e.actor).pilgrim, "to": e.to,
                                      "adjacent": list(s.catalog.map.neighbours.get(s.player(e.actor).pilgrim, ())),
                                      "monastery": s.monastery_at(e.to)},
    "B.die": _placed_die,
    "B.location": _location,
    "C.location": _retrieved_die,
    "C.tile": lambda s, e: {"tile": e.tile, "name": s.catalog.favor_tiles[e.tile].name,
                            "crowns": s.catalog.favor_tiles[e.tile].crowns, "beside_castle": list(s.favor_available)},
    "C.card": _card_row,
    "C.cost": _card_cost,
    "C.alternative": lambda s, e: {"coins": e.coins, "guards": e.guards, "up_to_coins": s.catalog.alternative_coins,
                                   "up_to_guards": s.catalog.alternative_guards},
    "E.die": lambda s, e: {"die": e.die, "income_left": list(s.player(e.actor).income_left)},
    "E.track": _income_track,
    "E.exchange": _exchange,
    "F.voyage": lambda s, e: {"voyage": e.voyage, "board": list(s.voyages)},
    "F.once": lambda s, e: {"voyage": e.voyage, "investors": list(s.voyage_discs[_voyage_space(s, e)])},
    "F.cost": _voyage_cost,
}
"""For each rule id ``RULES_CHECKED`` cites: the values it reads, from the state before the event."""


def rule_facts(rule: str, state: GameState, event: GameEvent) -> dict[str, Any]:
    """The facts a rule reads for this event; for an accepted rule break they may not all exist."""
    try:
        return FACTS[rule](state, event)
    except (LookupError, ValueError, AttributeError) as exc:
        return {"unreadable": f"{type(exc).__name__}: {exc}"}


def _rules(step: Step) -> list[dict[str, Any]]:
    """Each rule checked for the play: holds, or (accepted rule break) broken and the ones not reached after it.

    ``RULES_CHECKED`` lists rules in the order ``check`` tests them, and ``check``
    stops at the first broken one.
    """
    event, broken = step.play.event, step.violation
    out, reached = [], True
    for rule in RULES_CHECKED[type(event)]:
        is_broken = broken is not None and rule == broken.rule
        status = "broken" if is_broken else ("holds" if reached else "not checked")
        facts = dict(broken.facts) if is_broken else rule_facts(rule, step.before, event)
        out.append({"rule": rule, "statement": RULES[rule].statement, "source": RULES[rule].source,
                    "status": status, "facts": _plain(facts)})
        reached = reached and not is_broken
    return out


def _plain(value: Any) -> Any:
    """Facts as JSON values (tuples and sets become lists)."""
    if isinstance(value, Mapping):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (tuple, list, set, frozenset)):
        return [_plain(v) for v in value]
    return value


# --- words ---------------------------------------------------------------------------------------

_PLAIN_SOURCES = {"income": "income", "alternative": "alternative action", "exchange": "exchange for points",
                  "phase E bonus": "phase E bonus per die"}


def notation(event: GameEvent) -> str:
    """The event in notation (its type when a value cannot be written in notation)."""
    try:
        return render(event)
    except NotationError:
        return f"{event.actor}: {event.TYPE}"


def _event_json(event: GameEvent) -> dict[str, Any]:
    about = (type(event).__doc__ or event.TYPE).strip().splitlines()[0]
    return {"type": event.TYPE, "actor": event.actor, "notation": notation(event), "about": about}


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


# --- the ledger: where every point, coin and guard came from -------------------------------------


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


# --- one entry: why it stands and what it changed ------------------------------------------------


def _entry(game: Game, seq: int) -> dict[str, Any]:
    return {"seq": seq, "notation": notation(game.events[seq - 1])}


def _content_before(game: Game, original: int, entry: int) -> int:
    """The entry whose content a play (first recorded as ``original``) had just before log entry ``entry``."""
    return max([original, *(r for r in game.line.corrections.get(original, ()) if r < entry)])


def _original_of(game: Game, seq: int) -> int:
    """The entry that first recorded the play a game event entry is (or was) the content of."""
    return next((orig for orig, rs in game.line.corrections.items() if seq in rs), seq)


def _history_record(game: Game, seq: int, event: GameEvent) -> tuple[dict[str, Any], int | None]:
    """What a history entry did, and the play (by first entry) it is about, if any.

    A correction, retraction or note may name a play by its first entry or by
    the entry of a correction's replacement; both lead to the same play.
    """
    if isinstance(event, RuleOverridden):
        rule = RULES.get(event.rule)
        return {"kind": "override", "rule": event.rule, "statement": rule.statement if rule else None, "reason": event.reason,
                "move": _entry(game, seq + 1)}, seq + 1
    original = _original_of(game, event.seq)
    content = _entry(game, _content_before(game, original, seq))
    if isinstance(event, Corrected):
        return {"kind": "correction", "corrects": original, "replaced": content, "replacement": _entry(game, seq + 1)}, original
    if isinstance(event, Retracted):
        return {"kind": "retraction", "withdrew": content}, None
    kind, text = ("note", event.text) if isinstance(event, Noted) else ("bookmark", event.label)
    return {"kind": kind, "about": content, "text": text}, original


def _withdrawn_by(game: Game, original: int) -> int | None:
    """The retraction entry that withdrew a play (named by its first entry or a replacement's)."""
    return next((k for k, e in enumerate(game.events, 1) if isinstance(e, Retracted) and _original_of(game, e.seq) == original),
                None)


def _event_record(audit: Audit, seq: int) -> tuple[dict[str, Any], int | None]:
    """Where a game event entry stands in the line of play, and the play (by first entry) it is about.

    ``status``: ``in force``, ``skipped`` (illegal where it now stands),
    ``replaced`` (by a correction: ``in_force`` is the content in force, or
    ``replaced_by`` the next one if the play is gone), ``withdrawn``.
    """
    game = audit.game
    original = _original_of(game, seq)
    replacements = game.line.corrections.get(original, ())
    step = audit.by_seq.get(original)
    later = [r for r in (original, *replacements) if r > seq]
    withdrawn = _withdrawn_by(game, original)
    if step is not None and step.play.source == seq:
        status = "skipped" if step.skipped else "in force"
    elif step is not None or later:
        status = "replaced"
    else:
        status = "withdrawn" if withdrawn else "not in the line of play"
    record = {
        "kind": "game event", "status": status, "first_recorded": original, "corrections": list(replacements),
        "in_force": _entry(game, step.play.source) if step is not None and status == "replaced" else None,
        "replaced_by": _entry(game, later[0]) if later else None,
        "withdrawn_by": withdrawn,
    }
    return record, original if step is not None else None


def play_json(audit: Audit, step: Step) -> dict[str, Any]:
    """A play of the line: why it stands (or was skipped), what it changed, and its resource rows."""
    play = step.play
    status = "skipped" if step.skipped else ("overridden" if play.override else "legal")
    return {
        "seq": play.seq, "entry": play.source, **_event_json(play.event),
        "round": step.before.round, "phase": step.before.phase, "phase_name": PHASE_NAMES[step.before.phase],
        "status": status,
        "override": None if play.override is None else {"rule": play.override[0], "reason": play.override[1]},
        "violation": None if step.violation is None else step.violation.to_json(),
        "rules": [] if step.skipped else _rules(step),
        "changes": [] if step.skipped else [d.to_json() for d in state_differences(step.before, step.after)],
        "resources": step_rows(audit, step),
    }


def explain_entry(audit: Audit, seq: int) -> dict[str, Any]:
    """Everything about log entry ``seq``: what it is, where it stands, and the play it is about."""
    game = audit.game
    if not 1 <= seq <= len(game.events):
        raise AuditError(f"{game.name} has no entry {seq}: its entries are 1 to {len(game.events)}")
    event = game.events[seq - 1]
    if type(event) not in HISTORY_TYPES:
        record, target = _event_record(audit, seq)
    else:
        record, target = _history_record(game, seq, event)
    step = audit.by_seq.get(target) if target is not None else None
    about = target if target is not None else seq
    return {
        "seq": seq, "of": len(game.events), **_event_json(event), "record": record,
        "play": None if step is None else play_json(audit, step),
        "notes": list(game.line.notes.get(about, ())), "bookmark": game.line.bookmarks.get(about),
    }


# --- the game: what happened to the record itself ------------------------------------------------


def _skip_json(step: Step) -> dict[str, Any]:
    v = step.violation
    return {"seq": step.play.seq, "entry": step.play.source, "notation": notation(step.play.event),
            "rule": v.rule, "message": v.reason}


def game_overview(audit: Audit) -> dict[str, Any]:
    """Overrides, corrections, retractions, skipped plays, notes, and each player's totals."""
    game, line, final = audit.game, audit.game.line, audit.final
    overrides = [
        {"seq": s.play.seq - 1, "entry": s.play.seq, "notation": notation(s.play.event), "rule": s.play.override[0],
         "reason": s.play.override[1], "violation": None if s.violation is None else s.violation.to_json(),
         "skipped": s.skipped}
        for s in audit.steps if s.play.override is not None
    ]
    corrections = [
        {"seq": r - 1, "corrects": orig, "replaced": _entry(game, _content_before(game, orig, r)), "replacement": _entry(game, r)}
        for orig, rs in line.corrections.items() for r in rs
    ]
    retractions = [{"seq": k, "withdrew": _entry(game, _content_before(game, _original_of(game, e.seq), k))}
                   for k, e in enumerate(game.events, 1) if isinstance(e, Retracted)]
    notes = [{"seq": k, "about": e.seq, "kind": "bookmark" if isinstance(e, Bookmarked) else "note",
              "text": e.label if isinstance(e, Bookmarked) else e.text}
             for k, e in enumerate(game.events, 1) if isinstance(e, (Noted, Bookmarked))]
    players = []
    for pl in final.players:
        ledger = player_ledger(audit, pl.name)
        players.append({"name": pl.name, "place": ledger["place"], **ledger["totals"], "breakdown": ledger["breakdown"],
                        "balanced": ledger["balanced"]})
    problem = None
    if line.problem is not None:
        problem = {"seq": line.problem[0], **line.problem[1].to_json()}
    return {
        "entries": len(game.events), "plays": len(line.plays), "over": final.over, "round": final.round, "phase": final.phase,
        "overrides": overrides, "corrections": corrections, "retractions": retractions,
        "skipped": [_skip_json(s) for s in audit.steps if s.skipped], "notes": notes, "problem": problem,
        "players": players,
    }


__all__ = [
    "RESOURCES", "Audit", "AuditError", "FACTS", "Move", "Step", "explain_entry", "fold_line", "game_overview", "notation",
    "play_json", "player_index", "player_ledger", "rule_facts", "source_words", "step_rows",
]
