"""A working copy of one state while one event is applied.

``Tx`` copies the game's fields once and each player's fields on first touch,
lets the rule functions change those copies, and freezes them into a new
``GameState``. The state it started from is never modified, which keeps
``apply`` pure while costing one dict copy per touched object instead of one
dataclass rebuild per change.
"""

from __future__ import annotations

from typing import Any

from coimbra_events.catalog import Catalog
from coimbra_events.effect_kinds import TRACKS
from coimbra_events.state import GameState, Pending, PlayerState, adopt, build, make_pending


class Tx:
    """Mutable scratch space for building the state that follows one event."""

    __slots__ = ("g", "_players", "catalog", "_new")

    def __init__(self, state: GameState) -> None:
        self.g: dict[str, Any] = state.__dict__.copy()
        self._players: dict[int, dict[str, Any]] = {}
        self.catalog: Catalog = state.catalog
        self._new: list[Pending] = []

    # --- reading and writing --------------------------------------------------------

    def pl(self, i: int) -> dict[str, Any]:
        """Player ``i``'s fields, copied on first touch and free to change."""
        p = self._players.get(i)
        if p is None:
            p = self.g["players"][i].__dict__.copy()
            self._players[i] = p
        return p

    def view(self, i: int) -> PlayerState:
        """Player ``i`` as it stands now, frozen (a copy: later changes do not show).

        A player not touched yet is still the frozen one of the old state,
        which is returned as it is rather than copied.
        """
        p = self._players.get(i)
        if p is None:
            return self.g["players"][i]
        return build(PlayerState, p)

    def index(self, name: str) -> int:
        return self.g["index"][name]

    def name(self, i: int) -> str:
        return self.g["players"][i].name

    def die_value(self, die: str) -> int:
        """The value rolled this round for a die, found without building a dict of the roll.

        Searched from the end, so a die listed twice reads as ``dict(dice)[die]`` would.
        """
        for d, value in reversed(self.g["dice"]):
            if d == die:
                return value
        raise KeyError(die)

    def freeze(self) -> GameState:
        """The new immutable state; this ends the transaction.

        The working dicts become the new state's and players' own fields
        (nothing else holds them), so freezing copies nothing; the
        transaction must not be used afterwards.
        """
        self.flush()
        g = self.g
        if self._players:
            players = list(g["players"])
            for i, fields in self._players.items():
                players[i] = adopt(PlayerState, fields)
            g["players"] = tuple(players)
        return adopt(GameState, g)

    # --- sub-decisions ----------------------------------------------------------------

    def push(self, pending: Pending) -> None:
        """Queue a sub-decision; those queued by one event are taken in queue order."""
        self._new.append(pending)

    def pop(self) -> Pending:
        """Remove and return the sub-decision on top of the stack."""
        stack = self.g["stack"]
        self.g["stack"] = stack[:-1]
        return stack[-1]

    def flush(self) -> None:
        """Put queued sub-decisions on the stack, the first queued on top."""
        if self._new:
            self.g["stack"] = self.g["stack"] + tuple(reversed(self._new))
            self._new = []

    # --- resources, points and tracks -------------------------------------------------

    def gain(self, i: int, resource: str, amount: int, source: str) -> None:
        """Gain coins, guards, victory points or pilgrim steps; excess over a limit is lost."""
        if amount <= 0:
            return
        if resource == "steps":
            self.push(make_pending(self.name(i), "steps", amount, source))
            return
        p = self.pl(i)
        if resource == "points":
            self.add_points(i, amount, source)
        elif resource == "coins":
            p["coins"] = min(self.catalog.max_coins, p["coins"] + amount)
        else:
            p["guards"] = min(self.catalog.max_guards, p["guards"] + amount)

    def pay(self, i: int, resource: str, amount: int) -> None:
        """Pay coins or guards (the caller has checked they suffice)."""
        p = self.pl(i)
        p[resource] -= amount

    def add_points(self, i: int, amount: int, source: str) -> None:
        """Advance the scoring-track disc, remembering where the points came from."""
        p = self.pl(i)
        p["points"] += amount
        by_source = dict(p["points_by_source"])
        by_source[source] = by_source.get(source, 0) + amount
        p["points_by_source"] = tuple(by_source.items())

    def advance(self, i: int, track: str, amount: int, source: str) -> None:
        """Move a disc up an influence track (never above the limit; excess is lost).

        A move onto a new space stamps the disc's arrival tick, which orders discs
        sharing a space (the first to arrive is ahead, rules text 003 Limits).
        """
        if amount <= 0:
            return
        if track == "choice":
            self.push(make_pending(self.name(i), "track-choice", amount, source))
            return
        p = self.pl(i)
        k = TRACKS.index(track)
        influence = p["influence"]
        new = min(self.catalog.max_influence, influence[k] + amount)
        if new != influence[k]:
            p["influence"] = influence[:k] + (new,) + influence[k + 1 :]
            tick = self.g["tick"] + 1
            self.g["tick"] = tick
            p["arrivals"] = p["arrivals"][:k] + (tick,) + p["arrivals"][k + 1 :]
