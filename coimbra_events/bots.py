"""The seeded bots: how ``coimbra simulate`` and the analysis's playouts choose among legal decisions.

A bot picks a kind of decision (those that forfeit something less often), then one of that kind,
uniformly. ``choose`` draws that pick from a generator, as ``coimbra simulate`` always has. The
analysis's playouts draw the same pick from a number keyed by where the decision falls in the
game (``coupled_choice``, ``play_to_end``), not by how many draws came before: two playouts that
share a stream, one after each option of a decision, then pick alike wherever they face the same
options at the same point, even after one of them had a decision more, and their games part only
where the option made them differ. The pick is as likely as ever; the difference of the two games
is much less noisy (common random numbers that stay common): on the 2-player fixture its standard
deviation fell by a quarter to a third, as if with about twice the playouts (``docs/analysis.md``).

Compiled with the rules core (setup.py's ``COMPILED``): a playout asks a bot for every decision of
the rest of a game, so the pick and the loop that plays a game to its end are on the fastest path.
The bots only choose; what is legal and what a choice does are the rules core's.
"""

from __future__ import annotations

import random
import zlib
from bisect import bisect
from typing import Final, Sequence

from coimbra_events import events as ev
from coimbra_events.events import GameEvent
from coimbra_events.rules.core import Fold, legal
from coimbra_events.rules.outcomes import OutcomeSpace
from coimbra_events.state import GameState

RARE: Final[dict[type, float]] = {ev.IncomeEnded: 0.03, ev.PilgrimStopped: 0.1, ev.AlternativeTaken: 0.25}
"""How much less often a bot picks decisions that forfeit something, so games look played."""


def choose(rng: random.Random, options: Sequence[GameEvent]) -> GameEvent:
    """A bot's pick: first a kind of decision, then one of that kind, uniformly.

    Draws exactly what ``rng.choices(kinds, weights)`` then ``rng.choice(group)`` draw (so a seed gives the same
    game as ever), without their general-purpose work: playouts call this for every decision of every game.
    """
    kinds = _by_kind(options)
    kind = _kind_at(list(kinds), rng.random())
    group = kinds[kind]
    return _richest(group) if kind is ev.AlternativeTaken else group[_below(rng, len(group))]


def _by_kind(options: Sequence[GameEvent]) -> dict[type, list[GameEvent]]:
    """The options grouped by their kind (event type), kinds in the order they first come."""
    kinds: dict[type, list[GameEvent]] = {}
    for o in options:
        group = kinds.get(type(o))
        if group is None:
            kinds[type(o)] = [o]
        else:
            group.append(o)
    return kinds


def _kind_at(types: list[type], u: float) -> type:
    """The kind a number ``u`` in [0, 1) falls on, each kind as wide as its weight: what ``rng.choices`` does with
    ``u = rng.random()`` (the bisect of the cumulative weights at ``u`` times their sum)."""
    if len(types) == 1:
        return types[0]
    cumulative: list[float] = []
    total = 0.0
    for t in types:
        weight = RARE.get(t)
        total += 1.0 if weight is None else weight
        cumulative.append(total)
    return types[bisect(cumulative, u * total, 0, len(types) - 1)]


def _richest(alternatives: list[GameEvent]) -> GameEvent:
    """The alternative action that gives the most coins and guards (the first of equals, as ``max`` picks)."""
    best, most = alternatives[0], -1
    for event in alternatives:
        assert isinstance(event, ev.AlternativeTaken)
        if event.coins + event.guards > most:
            best, most = event, event.coins + event.guards
    return best


def _below(rng: random.Random, n: int) -> int:
    """What ``rng.choice`` draws to pick one of ``n`` (CPython's ``_randbelow_with_getrandbits``), without two calls
    into Python per pick."""
    bits = n.bit_length()
    r = rng.getrandbits(bits)
    while r >= n:
        r = rng.getrandbits(bits)
    return r


MASK: Final = (1 << 32) - 1


def _mix(x: int) -> int:
    """A 32-bit integer hash (Mueller's): every bit of ``x`` moves every bit of the result. Its constant is small
    enough that the products stay machine integers when compiled."""
    x &= MASK
    x = (((x >> 16) ^ x) * 0x45D9F3B) & MASK
    x = (((x >> 16) ^ x) * 0x45D9F3B) & MASK
    return (x >> 16) ^ x


_TEXTS: dict[str, int] = {}
"""The number of every text seen (phases, players, kinds of input: a game's few)."""


def _text(value: str) -> int:
    """A number for a text, the same in every process (Python's own ``hash`` of a text changes from one to the next)."""
    known = _TEXTS.get(value)
    if known is None:
        known = _TEXTS[value] = zlib.crc32(value.encode())
    return known


def _uniform(x: int) -> float:
    """A number in [0, 1) from ``x``'s bits."""
    return _mix(x) / (MASK + 1)


def coupled_choice(options: Sequence[GameEvent], key: int) -> GameEvent:
    """The bots' pick with ``choose``'s chances, drawn from ``key``: the kind one number falls on, then one of that
    kind by another."""
    kinds = _by_kind(options)
    kind = _kind_at(list(kinds), _uniform(key))
    group = kinds[kind]
    return _richest(group) if kind is ev.AlternativeTaken else group[int(_uniform(key + 1) * len(group))]


def play_to_end(state: GameState, table: random.Random, stream: int, fold: Fold) -> GameState:
    """The game played on from ``state`` to its end: the table draws from ``table``; the bots pick with
    ``coupled_choice``, keyed by ``stream``, where the decision falls (round, phase, who, what kind of input) and
    how many alike came before it in this game."""
    seen: dict[tuple[int, str, str, str], list[int]] = {}
    while not state.over:
        options = legal(state)
        if isinstance(options, OutcomeSpace):
            event = options.sample(table)
        else:
            pending = state.pending
            assert pending is not None
            where = (state.round, state.phase, pending.actor, pending.kind)
            slot = seen.get(where)
            if slot is None:
                slot = seen[where] = [_mix(stream ^ _mix(state.round ^ _mix(_text(state.phase) ^ _mix(
                    _text(pending.actor) ^ _text(pending.kind))))), 0]
            slot[1] += 1
            event = coupled_choice(options, _mix(slot[0] + slot[1]))
        state = fold.apply(state, event)
    return state
