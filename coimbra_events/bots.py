"""The seeded bots: how ``coimbra simulate`` and the analysis's playouts choose among legal decisions.

A bot picks a kind of decision (those that forfeit something less often), then one of that kind,
uniformly. ``choose`` draws that pick from a generator, as ``coimbra simulate`` always has. The
analysis's playouts draw the same pick from a number keyed by where the decision falls in the
game (``coupled_choice``, ``next_key``), not by how many draws came before: two playouts that
share a stream, one after each option of a decision, then pick alike wherever they face the same
options at the same point, even after one of them had a decision more, and their games part only
where the option made them differ. The pick is as likely as ever; the difference of the two games
is much less noisy (common random numbers that stay common): on the 2-player fixture its standard
deviation fell by a quarter to a third, as if with about twice the playouts (``docs/analysis.md``).

Compiled with the rules core (setup.py's ``COMPILED``): a playout keys every decision of the rest of
a game, and leaves some of them to the bots' pick, so both are on the fastest path. The loop that
plays a game to its end is the playout policy's (``analysis.policy.play_to_end``; ``analysis.policy.BOTS`` plays as
the bots alone).
The bots only choose; what is legal and what a choice does are the rules core's.
"""

from __future__ import annotations

import random
import zlib
from typing import Final, Sequence

from mypy_extensions import i64

from coimbra_events import events as ev
from coimbra_events.events import AlternativeTaken, GameEvent
from coimbra_events.rules.draws import below
from coimbra_events.rules.options import Options
from coimbra_events.state import GameState

RARE: Final[dict[type, float]] = {ev.IncomeEnded: 0.03, ev.PilgrimStopped: 0.1, ev.AlternativeTaken: 0.25}
"""How much less often a bot picks decisions that forfeit something, so games look played."""


def choose(rng: random.Random, options: Sequence[GameEvent]) -> GameEvent:
    """A bot's pick: first a kind of decision, then one of that kind, uniformly.

    Draws exactly what ``rng.choices(kinds, weights)`` then ``rng.choice(group)`` draw (so a seed gives the same
    game as ever), without their general-purpose work.
    """
    listed = Options(options if isinstance(options, list) else list(options))
    kind, start, count = _kind_drawn(listed, rng.random())
    return _richest(listed) if kind is AlternativeTaken else _nth(listed, start, below(rng, count))


def _kind_drawn(options: Options, u: float) -> tuple[type, int, int]:
    """The kind of decision a number ``u`` in [0, 1) falls on, where its options begin among those built (-1: the
    run not built yet) and how many there are.

    What ``rng.choices(kinds, weights)`` does with ``u = rng.random()``: the first kind whose cumulative weight is
    above ``u`` times the sum of the weights (as its bisect finds it), the last kind else; the kinds in the order
    they first come, the run last, and the sums added in that order, so they are the same floats. Each kind's
    options come together (``Options``), so a kind begins where the type changes: no list of kinds is made.
    """
    built, run = options.built, options.run
    n = len(built)
    kinds = 0
    total = 0.0
    last: type | None = None
    for k in range(n):
        t = type(built[k])
        if t is not last:
            last = t
            kinds += 1
            total += _weight(t)
    if run is not None:
        kinds += 1
        total += _weight(run.kind)
    point = u * total
    cumulative = 0.0
    start = 0
    while start < n:
        t = type(built[start])
        end = start + 1
        while end < n and type(built[end]) is t:
            end += 1
        kinds -= 1
        if kinds == 0:
            return t, start, end - start
        cumulative += _weight(t)
        if cumulative > point:
            return t, start, end - start
        start = end
    assert run is not None, "a decision has options"
    return run.kind, -1, run.count


def _nth(options: Options, start: int, n: int) -> GameEvent:
    """Option ``n`` of a kind whose options begin at ``start`` among those built (-1: of the run, only that one
    built)."""
    if start >= 0:
        return options.built[start + n]
    run = options.run
    assert run is not None
    return run.nth(n)


def _weight(kind: type) -> float:
    """How often a bot picks a kind of decision, against 1 for most (``RARE``, read by identity: a dict keyed by
    types hashes the type at every look, and a playout looks twice per kind at every decision)."""
    for k in range(len(_RARE_KINDS)):
        if _RARE_KINDS[k] is kind:
            return _RARE_WEIGHTS[k]
    return 1.0


_RARE_KINDS: Final[tuple[type, ...]] = tuple(RARE)
_RARE_WEIGHTS: Final[tuple[float, ...]] = tuple(RARE.values())


def _richest(options: Options) -> GameEvent:
    """The alternative action that gives the most coins and guards (the first of equals, as ``max`` picks).

    A run of them not built yet (``retrieval.Alternatives``: every split, in growing coins and, with each, growing
    guards) has its richest last, the only one that takes all: that one is built alone."""
    best: GameEvent | None = None
    most = -1
    for event in options.built:
        if isinstance(event, AlternativeTaken) and event.coins + event.guards > most:
            best, most = event, event.coins + event.guards
    run = options.run
    if run is not None and run.kind is AlternativeTaken:
        last = run.nth(run.count - 1)
        assert isinstance(last, AlternativeTaken)
        if last.coins + last.guards > most:
            best = last
    assert best is not None, "an alternative action is among the options"
    return best


MASK: Final[i64] = 0xFFFFFFFF


def _mix(x: i64) -> i64:
    """A 32-bit integer hash (Mueller's): every bit of ``x`` moves every bit of the result.

    In 64-bit machine integers (``i64``): the products stay below 2**59, and mypyc's own integers would take the
    slow, boxed way for any factor of 2**31 or more (most of a playout's picking time went there)."""
    x &= MASK
    x = (((x >> 16) ^ x) * 0x45D9F3B) & MASK
    x = (((x >> 16) ^ x) * 0x45D9F3B) & MASK
    return (x >> 16) ^ x


_TEXTS: Final[dict[str, i64]] = {}
"""The number of every text seen (phases, players, kinds of input: a game's few). ``Final``: compiled, the dict is
read directly, not looked up among the module's globals at every use."""


def _text(value: str) -> i64:
    """A number for a text, the same in every process (Python's own ``hash`` of a text changes from one to the next)."""
    known = _TEXTS.get(value)
    if known is None:
        known = _TEXTS[value] = zlib.crc32(value.encode())
    return known


def _uniform(x: i64) -> float:
    """A number in [0, 1) from ``x``'s bits (exact: a 32-bit integer over 2**32)."""
    return float(_mix(x)) / (float(MASK) + 1.0)


def coupled_choice(options: Options, key: i64) -> GameEvent:
    """The bots' pick with ``choose``'s chances, drawn from ``key``: the kind one number falls on, then one of that
    kind by another."""
    kind, start, count = _kind_drawn(options, _uniform(key))
    return _richest(options) if kind is AlternativeTaken else _nth(options, start, int(_uniform(key + 1) * count))


class Alike:
    """The decisions of one kind asked of one player in the phase under way: the key of their picks (from where
    they fall) and how many have come so far."""

    def __init__(self, actor: str, kind: str, key: i64) -> None:
        self.actor = actor
        self.kind = kind
        self.key = key
        self.count: i64 = 0


def next_key(alike: list[Alike], state: GameState, stream: i64) -> i64:
    """The key of the decision due in ``state``, from ``stream``, where it falls (round, phase, who, what kind of
    input) and how many alike came before it in this phase (``alike``: the phase's so far, one more counted): what
    the pick of a decision is keyed by (``analysis.policy.play_to_end``). A round's phases come one after another and never
    again, so the caller counts the decisions alike phase by phase, in a list of a few looked through (a dict keyed
    by where they fall hashed a tuple at every decision)."""
    pending = state.pending
    assert pending is not None
    actor, kind = pending.actor, pending.kind
    for seen in alike:
        if seen.actor == actor and seen.kind == kind:
            break
    else:
        where = _mix(state.round ^ _mix(_text(state.phase) ^ _mix(_text(actor) ^ _text(kind))))
        seen = Alike(actor, kind, _mix(stream ^ where))
        alike.append(seen)
    seen.count += 1
    return _mix(seen.key + seen.count)
