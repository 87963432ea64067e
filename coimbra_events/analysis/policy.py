"""The playout policy: how the analysis's continuations play, stronger than the seeded bots and as reproducible.

The bots (``bots.py``) pick a kind of decision, then an option, at random: valued by their playouts, a last-round
voyage that loses to the opponent's obvious reply looks fine, because the bot replies with it one time in ten. The
policy plays each decision in one of three ways:

- **exact** at the end: from a decision after which the table draws nothing more (the last voyages), every line
  to the end of the game is enumerated, each player choosing what is best for them at the final scoring (first
  place, then the lead over the best other player); a won last round is never let go;
- **dice drafted by their income**: a die's place changes no player's score until phase C, so one ply cannot tell
  a draft's options apart; the die whose colour pays the drafter most in phase E at their influence, a unit of
  each track's income weighted against a point (``value.DraftWorth``: weights fitted by ``scripts/fit_policy.py``
  and shipped as data); where it goes, the bots' pick;
- **greedy** elsewhere: every option applied by the rules core, and the one whose table the rules core's own score
  (``scoring.totals``: the points so far and what the end-game scoring would give now) puts furthest ahead of the
  best other player (``value.lead``).

Every pick is the same for the same state and key: ties go to the bots' ``coupled_choice`` keyed by where the
decision falls, as the bots' picks are, so two playouts sharing a stream still pick alike wherever they meet the
same options (common random numbers). No generator is drawn from but the table's.
"""

from __future__ import annotations

import random
from typing import Final, Sequence

from mypy_extensions import i64

from coimbra_events.bots import Alike, coupled_choice, next_key
from coimbra_events.events import AlternativeTaken, DiePlaced, GameEvent, IncomeActivated, PilgrimPlaced, StartGroupTaken
from coimbra_events.rules.fast import Fold, options
from coimbra_events.rules.options import Options
from coimbra_events.rules.outcomes import OutcomeSpace
from coimbra_events.rules.rescoring import Rescoring
from coimbra_events.rules.scoring import places
from coimbra_events.state import PHASE_F, GameState
from coimbra_events.analysis.value import DraftWorth, draft_worth, lead

NAME: Final = "greedy by the score as it stands, dice drafted by their income, exact over the last voyages"
"""The policy in words, as an analysis's key and notes name it."""

SEARCH_NODES: Final = 4096
"""The most tables the exact search at the end looks at before it gives up for the greedy pick (four players'
last voyages: a few hundred)."""


UNSEEN: Final = (StartGroupTaken, PilgrimPlaced)
"""Kinds of decision one ply of the score cannot tell apart, left to the bots' pick: a start group or the pilgrim's
start space (nothing scored yet; in simulated 2-player playouts their options were tied every time)."""


class Player:
    """One way to pick among the options of a decision: dice drafted by ``draft`` (``None``: the bots' pick), the
    rest ``greedy`` (or the bots' pick), ``exact`` at the end or not, ``lean`` or not (no scoring where one ply cannot
    tell the options apart, ``UNSEEN``, or one is as good as any, ``_sure_incomes``)."""

    def __init__(self, draft: DraftWorth | None, exact: bool, greedy: bool = True, lean: bool = False) -> None:
        self.draft = draft
        self.exact = exact
        self.greedy = greedy
        self.lean = lean

    def pick(self, state: GameState, found: Options, key: i64, fold: Fold) -> GameEvent:
        """The option taken in ``state`` (``found``: its options; ``key``: where the decision falls)."""
        if not self.greedy:
            return coupled_choice(found, key)
        run = found.run
        if run is not None and run.kind is DiePlaced:
            return coupled_choice(found, key) if self.draft is None else _drafted(state, found, self.draft, key)
        listed = _considered(found)
        if len(listed) == 1:
            return listed[0]
        taken = _unscored(found, listed, key) if self.lean else None
        if taken is not None:
            return taken
        if self.exact and state.phase == PHASE_F:
            best = _exact(state, listed, fold)
            if best >= 0:
                return listed[best]
        return _greedy(state, listed, key, fold)


def policy(state: GameState) -> Player:
    """The playout policy for the game of ``state``: dice drafted by the fitted worth of its catalog, exact at the end,
    lean (the greedy heuristic, ``GREEDY``, scores every option)."""
    return Player(draft_worth(state.catalog), True, lean=True)


BOTS: Final = Player(None, False, False)
"""The seeded bots as a player: their pick keyed by where each decision falls (``bots.coupled_choice``)."""

GREEDY: Final = Player(None, False)
"""The simple greedy heuristic a ladder measures the policy against: the option whose table the rules core scores
best for the player against the best other, one ply; the bots' pick where that cannot tell (the draft); no search."""


def _considered(found: Options) -> list[GameEvent]:
    """The options worth trying: all, but of a run of alternative actions (every split of the coins and guards
    offered, richest last) only the richest, as the bots take it: less never scores more, and the run is most of a
    retrieval's options."""
    run = found.run
    if run is not None and run.kind is AlternativeTaken:
        return found.built + [run.nth(run.count - 1)]
    return found.events()


def _unscored(found: Options, listed: list[GameEvent], key: i64) -> GameEvent | None:
    """The pick where scoring the options would not tell them apart (``UNSEEN``) or one is as good as any
    (``_sure_incomes``), the bots' pick among those; ``None`` where the options are worth scoring."""
    if type(listed[0]) in UNSEEN:
        return coupled_choice(found, key)
    sure = _sure_incomes(listed)
    if not sure:
        return None
    return sure[0] if len(sure) == 1 else coupled_choice(Options(sure), key)


def _sure_incomes(listed: list[GameEvent]) -> list[GameEvent]:
    """Of a phase E's options, the incomes of dice that collect one track's only: each only adds to the player's
    income, and which comes first changes nothing, so one is collected without scoring the options (the bots' pick
    among them). The rest (the white die's track, an exchange, ending the phase) is left to the greedy pick once
    these are collected. Scoring every income in turn was a third of the tables the policy scored."""
    incomes = [e for e in listed if isinstance(e, IncomeActivated)]
    tracks: dict[str, int] = {}
    for event in incomes:
        tracks[event.die] = tracks.get(event.die, 0) + 1
    return [e for e in incomes if tracks[e.die] == 1]


def _best(options: list[GameEvent], values: list[float], key: i64) -> GameEvent:
    """The option of highest value; among equals, the bots' pick keyed by ``key``."""
    top = max(values)
    tied = [o for o, v in zip(options, values) if v >= top - 1e-9]
    return tied[0] if len(tied) == 1 else coupled_choice(Options(tied), key)


def _greedy(state: GameState, listed: list[GameEvent], key: i64, fold: Fold) -> GameEvent:
    """The option whose table after it leads the best other player by most (``value.lead``; the tables scored as
    ``scoring.totals`` scores them, counting again only what each option changed: ``rescoring.Rescoring``)."""
    pending = state.pending
    assert pending is not None
    seat = state.index[pending.actor]
    scores = Rescoring(state)
    return _best(listed, [lead(scores.totals(fold.apply(state, event)), seat) for event in listed], key)


def _drafted(state: GameState, found: Options, worth: DraftWorth, key: i64) -> GameEvent:
    """The die whose income is worth most to the drafter (``value.DraftWorth``); its place: the bots' pick."""
    pending = state.pending
    assert pending is not None
    seat = state.index[pending.actor]
    listed = found.events()
    dice: dict[str, float] = {}
    values: list[float] = []
    for event in listed:
        assert isinstance(event, DiePlaced)
        if event.die not in dice:
            dice[event.die] = worth.die(state, seat, event.die)
        values.append(dice[event.die])
    return _best(listed, values, key)


def _exact(state: GameState, listed: list[GameEvent], fold: Fold) -> int:
    """The option best for the player due, every line to the end enumerated (``-1``: the table draws again before
    the end, or the lines are too many)."""
    pending = state.pending
    assert pending is not None
    seat = state.index[pending.actor]
    budget = [SEARCH_NODES]
    scores = Rescoring(state)
    best, best_index = (-1, -1, -(1 << 30)), -1
    for k, event in enumerate(listed):
        end = _line_end(fold.apply(state, event), fold, budget, scores)
        if end is None:
            return -1
        mine = _standing(end, seat)
        if mine > best:
            best, best_index = mine, k
    return best_index


def _line_end(state: GameState, fold: Fold, budget: list[int], scores: Rescoring) -> tuple[list[int], list[int]] | None:
    """Final scores and places when every player from ``state`` on chooses what is best for them (``None``: the table
    draws before the end, or ``budget`` ran out; ``scores``: the totals of tables after the decision searched)."""
    budget[0] -= 1
    if budget[0] < 0:
        return None
    if state.over:
        points = scores.totals(state)
        return points, places(state, points)
    found = options(state)
    pending = state.pending
    if isinstance(found, OutcomeSpace) or pending is None:
        return None
    seat = state.index[pending.actor]
    chosen: tuple[list[int], list[int]] | None = None
    best = (-1, -1, -(1 << 30))
    for event in found.events():
        end = _line_end(fold.apply(state, event), fold, budget, scores)
        if end is None:
            return None
        mine = _standing(end, seat)
        if mine > best:
            best, chosen = mine, end
    return chosen


def _standing(end: tuple[list[int], list[int]], seat: int) -> tuple[int, int, int]:
    """What a player wants of the end of a game, in order: first place, a better place, a bigger lead."""
    points, placed = end
    rest = [p for k, p in enumerate(points) if k != seat]
    return int(placed[seat] == 1), -placed[seat], points[seat] - (max(rest) if rest else 0)


def play_to_end(state: GameState, table: random.Random, stream: i64, seats: Sequence[Player], fold: Fold) -> GameState:
    """The game played on from ``state`` to its end by ``fold`` (a scratch one for a playout): the table draws from
    ``table``; every decision is the pick of the player in that seat (``seats``), keyed by ``stream`` and where the
    decision falls (``bots.next_key``). The picks try their options on a fold of their own, which keeps every table
    it returns, so that ``state`` stays as it is while they look."""
    probe = Fold()
    at_round, at_phase = -1, ""
    alike: list[Alike] = []
    while not state.over:
        found = options(state)
        if isinstance(found, OutcomeSpace):
            event = found.sample(table)
        else:
            pending = state.pending
            assert pending is not None
            if state.round != at_round or state.phase != at_phase:
                at_round, at_phase, alike = state.round, state.phase, []
            key = next_key(alike, state, stream)
            event = seats[state.index[pending.actor]].pick(state, found, key, probe)
        state = fold.apply(state, event)
    return state
