"""A stored game folded from its rows in the notification log, one event at a time, for the league.

The league reads games from the store's notification log, not through
``GameStore.get``: every event arrives once, in order, so a game is folded
incrementally as its events come in, exactly as the ``Game`` aggregate folds
them (a plain record folds on through the rules core's ``apply``; once history
entries exist, each entry is folded by ``history.advance``, the Game
aggregate's own step, and the line resolved and replayed where it changes).
``GameFold.final`` gives the authoritative end of the line, replayed from the start
for a record with corrections, so a game's result is always the one ``coimbra score`` shows.

Each entry's hash is checked against the chain before it is decoded (as
``Game.Recorded.apply`` does, so an entry changed or dropped is caught): a store row that
does not chain, or cannot be folded (a damaged store), makes the game
*damaged*: the league leaves it out and says why, and nothing else is affected.
Why this is not ``Game.state``: the table of folds in ``projections/__init__.py``.
"""

from __future__ import annotations

from typing import Any, Mapping
from uuid import UUID

from coimbra_events.events import HISTORY_TYPES, GameEvent, IncomeActivated, PilgrimPlaced
from coimbra_events.event_decoding import decode_event
from coimbra_events.catalog import resolve_catalog
from coimbra_events.history import advance, replay, resolve
from coimbra_events.log import GameLog, event_hash
from coimbra_events.rules.core import start
from coimbra_events.rules.fast import Fold
from coimbra_events.rulesets import IMPLEMENTED, refusal
from coimbra_events.state import GAME_OVER, GameState

_HISTORY = frozenset(HISTORY_TYPES)
_OBSERVED = frozenset({IncomeActivated, PilgrimPlaced})


class Observed:
    """What a fold notes beyond the final state: each player's income per track, and their start space."""

    __slots__ = ("income", "start_space")

    def __init__(self, players: int) -> None:
        self.income: list[dict[str, list[int]]] = [{} for _ in range(players)]
        """Per player, per track: coins, guards and points that activating its income earned."""
        self.start_space: list[str | None] = [None] * players

    def __call__(self, event: GameEvent, before: GameState, after: GameState) -> None:
        kind = type(event)
        if kind is IncomeActivated:
            assert isinstance(event, IncomeActivated)
            i = before.index[event.actor]
            was, now = before.players[i], after.players[i]
            got = self.income[i].setdefault(event.track, [0, 0, 0])
            got[0] += now.coins - was.coins
            got[1] += now.guards - was.guards
            got[2] += now.points - was.points
        elif kind is PilgrimPlaced:
            assert isinstance(event, PilgrimPlaced)
            self.start_space[before.index[event.actor]] = event.space


class GameFold:
    """One stored game as the league sees it: header facts, the entries so far, the table now."""

    __slots__ = ("id", "name", "players", "fork", "initial", "state", "events", "plain", "introduced", "observed",
                 "version", "over_since", "problem", "head", "carried")

    def __init__(self, created: Mapping[str, Any]) -> None:
        """From the fields of the game's stored ``Created`` event; a bad header makes the game damaged."""
        self.id: UUID | None = None
        """The game's id in the store (set by whoever reads it from there)."""
        self.name = str(created.get("name", "?"))
        self.players: tuple[tuple[str, str], ...] = ()
        meta = created.get("meta")
        self.fork = isinstance(meta, dict) and "parent" in meta
        self.events: list[GameEvent] = []
        self.carried = Fold()
        """The working copy of the table, carried from one entry of the game to the next (``fast.Fold``)."""
        self.plain = True
        self.introduced: GameEvent | None = None
        """The correction or accepted rule break waiting for its event (``history.advance``)."""
        self.version = 1
        self.over_since: int | None = None
        """The position in the notification log at which the game last became over (the league's order)."""
        self.problem: str | None = None
        try:
            catalog = resolve_catalog(created["catalog_id"], created["catalog_sha256"], created["catalog_data"])
            self.players = tuple((str(n), str(c)) for n, c in created["players"])
            self.initial = start(catalog, self.players)
            # The newest hash of the chain, its anchor to begin with: each entry must chain on it.
            self.head = GameLog(created["catalog_id"], created["catalog_sha256"], self.players, (), created["ruleset"],
                                dict(created["meta"]), (), created["upcast_from"]).anchor()
        except Exception as exc:  # a damaged header: the league says so instead of failing
            self.problem = f"damaged: its header cannot be read ({_why(exc)})"
            return
        if created["ruleset"] not in IMPLEMENTED:  # as GameStore.get refuses it: never folded under other rules
            self.problem = f"not counted: {refusal(str(created['ruleset']))}"
            return
        self.state = self.initial
        self.observed = Observed(len(self.players))

    @property
    def over(self) -> bool:
        return self.problem is None and self.state.over

    def take(self, recorded: Mapping[str, Any], version: int, position: int) -> None:
        """Fold the game's next entry (the fields of its stored ``Recorded`` event, version ``version`` of the
        game), stored at ``position`` in the log."""
        self.version = version
        if self.problem is not None:
            return
        entry = len(self.events) + 1
        try:
            # The link first, as the Game aggregate reads a stored entry: nothing is folded past a broken chain.
            kind_name, actor, payload, chained = recorded["type"], recorded["actor"], recorded["payload"], recorded["hash"]
            if chained != event_hash(self.head, entry, kind_name, actor, payload, recorded["at"] or "", recorded["by"] or ""):
                self.problem = f"damaged: entry {entry} does not match its recorded hash"
                return
            self.head = chained
            event = decode_event(kind_name, actor, payload)
            self.events.append(event)
            kind = type(event)
            if self.plain and kind not in _HISTORY:  # checked when recorded: folds on, as the Game aggregate does
                before = self.state
                self.state = after = self.carried.apply(before, event)
                if kind in _OBSERVED:
                    self.observed(event, before, after)
            else:
                self._fold_history(event)
        except Exception as exc:  # a damaged row: noted, never raised
            self.problem = f"damaged: entry {entry} cannot be folded ({_why(exc)})"
            return
        if self.state.phase != GAME_OVER:
            self.over_since = None
        elif self.over_since is None:
            self.over_since = position

    def _fold_history(self, event: GameEvent) -> None:
        """An entry of a record that has history entries, folded as the ``Game`` aggregate folds it
        (``history.advance``): the line of play is resolved and replayed where the entry changes it."""
        self.plain = False
        state, self.introduced = advance(self.state, self.introduced, event, self.carried)
        self.state = self._replayed(None) if state is None else state

    def _replayed(self, observe: Observed | None) -> GameState:
        return replay(self.initial, resolve(self.events), stop_at_violation=False, observe=observe).state

    def final(self) -> tuple[GameState, Observed]:
        """The table at the end of the line of play and what was observed on the way there."""
        if self.plain:
            return self.state, self.observed
        observed = Observed(len(self.players))
        return self._replayed(observed), observed


def _why(exc: Exception) -> str:
    text = str(exc) or type(exc).__name__
    return text if len(text) <= 200 else text[:197] + "..."
