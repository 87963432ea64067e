"""A working copy of one state while one event is applied.

``Tx`` copies the game's fields into a mutable ``StateDraft`` once and each
player's into a ``PlayerDraft`` on first touch, lets the rule functions change
those drafts, and freezes them into a new ``GameState``. The state it started
from is never modified, which keeps ``apply`` pure while costing one copy per
touched object instead of one rebuild per change.

The drafts repeat the state classes' attributes on purpose: under mypyc
(README, "Compiled rules core") each is a native class whose attributes are
C struct slots, so copying a state and freezing it are a few dozen stores.

A scratch transaction (``scratch=True``, for a playout that keeps none of the
states it goes through) makes a new state at its first event only, and at each
later one writes the drafts back into the states it made (``refill``): no table
made and another freed per event. Only the states it made are ever written, never
the one it started from nor a player's it did not touch.
"""

from __future__ import annotations

from typing import Final, TypeVar

from coimbra_events import core_build
from coimbra_events.catalog import MAX_PLAYERS, Catalog
from coimbra_events.catalog.effect_kinds import TRACK_INDEX
from coimbra_events.rules.narration import COINS, GUARDS, PHASE, POINTS, ROUND, TABLE_WHO, TRACK_DISC
from coimbra_events.state import GAME_OVER, GameState, Pending, PlayerState


class PlayerDraft:
    """One player's board while an event is applied; ``freeze`` makes the ``PlayerState``.

    A transaction keeps each seat's draft from one event to the next and ``load``s
    it again when the seat is touched, instead of allocating one per event.
    """

    def __init__(self, p: PlayerState) -> None:
        self.load(p)

    def load(self, p: PlayerState) -> None:
        """Copy the player's board into this draft."""
        self.name = p.name
        self.color = p.color
        self.coins = p.coins
        self.guards = p.guards
        self.points = p.points
        self.influence = p.influence
        self.arrivals = p.arrivals
        self.pilgrim = p.pilgrim
        self.start_cards = p.start_cards
        self.cards = p.cards
        self.monasteries = p.monasteries
        self.voyages = p.voyages
        self.shutter = p.shutter
        self.favor_tiles = p.favor_tiles
        self.crown_tokens = p.crown_tokens
        self.crowns_total = p.crowns_total
        self.income_left = p.income_left
        self.points_by_source = p.points_by_source
        self.start_choices = p.start_choices

    def holding(self, resource: str) -> int:
        """How many coins or guards the player has now (as ``PlayerState.holding``)."""
        return self.coins if resource == "coins" else self.guards if resource == "guards" else int(getattr(self, resource))

    @property
    def owned_cards(self) -> tuple[str, ...]:
        """Every character card the player owns, start cards first (as ``PlayerState.owned_cards``)."""
        return self.start_cards + self.cards

    def refill(self, p: PlayerState) -> None:
        """Write this draft into ``p``, a state a scratch transaction made and no one else keeps (``Tx``)."""
        p.coins = self.coins  # type: ignore[misc]
        p.guards = self.guards  # type: ignore[misc]
        p.points = self.points  # type: ignore[misc]
        p.influence = self.influence  # type: ignore[misc]
        p.arrivals = self.arrivals  # type: ignore[misc]
        p.pilgrim = self.pilgrim  # type: ignore[misc]
        p.start_cards = self.start_cards  # type: ignore[misc]
        p.cards = self.cards  # type: ignore[misc]
        p.monasteries = self.monasteries  # type: ignore[misc]
        p.voyages = self.voyages  # type: ignore[misc]
        p.shutter = self.shutter  # type: ignore[misc]
        p.favor_tiles = self.favor_tiles  # type: ignore[misc]
        p.crown_tokens = self.crown_tokens  # type: ignore[misc]
        p.crowns_total = self.crowns_total  # type: ignore[misc]
        p.income_left = self.income_left  # type: ignore[misc]
        p.points_by_source = self.points_by_source  # type: ignore[misc]
        p.start_choices = self.start_choices  # type: ignore[misc]

    def freeze(self) -> PlayerState:
        return PlayerState(
            self.name, self.color, self.coins, self.guards, self.points, self.influence, self.arrivals,
            self.pilgrim, self.start_cards, self.cards, self.monasteries, self.voyages, self.shutter,
            self.favor_tiles, self.crown_tokens, self.crowns_total, self.income_left, self.points_by_source,
            self.start_choices,
        )


class StateDraft:
    """The table while an event is applied; ``freeze`` makes the ``GameState``."""

    def __init__(self, g: GameState) -> None:
        self.catalog = g.catalog
        self.index = g.index
        self.players = g.players
        self.order = g.order
        self.round = g.round
        self.phase = g.phase
        self.cursor = g.cursor
        self.monasteries = g.monasteries
        self.scoring_tiles = g.scoring_tiles
        self.voyages = g.voyages
        self.voyage_discs = g.voyage_discs
        self.start_groups = g.start_groups
        self.start_groups_taken = g.start_groups_taken
        self.pilgrims_placed = g.pilgrims_placed
        self.dealt = g.dealt
        self.rows = g.rows
        self.crowns_on_cards = g.crowns_on_cards
        self.discard = g.discard
        self.favor_available = g.favor_available
        self.dice = g.dice
        self.pool = g.pool
        self.locations = g.locations
        self.stack = g.stack
        self.pending = g.pending
        self.tick = g.tick

    def refill(self, g: GameState) -> None:
        """Write this draft into ``g``, a state a scratch transaction made and no one else keeps (``Tx``)."""
        g.players = self.players  # type: ignore[misc]
        g.order = self.order  # type: ignore[misc]
        g.round = self.round  # type: ignore[misc]
        g.phase = self.phase  # type: ignore[misc]
        g.cursor = self.cursor  # type: ignore[misc]
        g.monasteries = self.monasteries  # type: ignore[misc]
        g.scoring_tiles = self.scoring_tiles  # type: ignore[misc]
        g.voyages = self.voyages  # type: ignore[misc]
        g.voyage_discs = self.voyage_discs  # type: ignore[misc]
        g.start_groups = self.start_groups  # type: ignore[misc]
        g.start_groups_taken = self.start_groups_taken  # type: ignore[misc]
        g.pilgrims_placed = self.pilgrims_placed  # type: ignore[misc]
        g.dealt = self.dealt  # type: ignore[misc]
        g.rows = self.rows  # type: ignore[misc]
        g.crowns_on_cards = self.crowns_on_cards  # type: ignore[misc]
        g.discard = self.discard  # type: ignore[misc]
        g.favor_available = self.favor_available  # type: ignore[misc]
        g.dice = self.dice  # type: ignore[misc]
        g.pool = self.pool  # type: ignore[misc]
        g.locations = self.locations  # type: ignore[misc]
        g.stack = self.stack  # type: ignore[misc]
        g.pending = self.pending  # type: ignore[misc]
        g.tick = self.tick  # type: ignore[misc]

    def freeze(self) -> GameState:
        return GameState(
            self.catalog, self.index, self.players, self.order, self.round, self.phase, self.cursor,
            self.monasteries, self.scoring_tiles, self.voyages, self.voyage_discs, self.start_groups,
            self.start_groups_taken, self.pilgrims_placed, self.dealt, self.rows, self.crowns_on_cards,
            self.discard, self.favor_available, self.dice, self.pool, self.locations, self.stack, self.pending,
            self.tick,
        )


IN_PLACE: Final = core_build() == "compiled"
"""Whether a scratch transaction may refill its states. Compiled, a state's ``Final`` attributes are slots that
Python code cannot set but the compiled core can (``refill``); interpreted, the records refuse every change
(``coimbra_events._frozen``), so there a scratch transaction makes a new state per event like any other."""

_NOT_TOLD: Final[list[object]] = []
"""``told`` of a transaction nobody narrates: never appended to (every report is behind ``narrating``)."""

_UNTOUCHED: Final = tuple(tuple(None for _ in range(n)) for n in range(MAX_PLAYERS + 1))
"""No player touched yet, by player count (copying a tuple is cheaper than repeating a list)."""


class Tx:
    """Mutable scratch space for building the state that follows one event.

    A narrating transaction (``narrating=True``) also writes, to ``told``,
    every change the rules make on the table (``rules.narration``): each rule
    function names the rule and its facts (``because``) before the changes it
    makes, and reports the moves it makes itself (``tell``); gains, payments,
    points, track moves, phases and rounds are reported here. Every report sits
    behind ``if tx.narrating``, so a transaction nobody narrates builds no facts.

    A scratch transaction (``scratch=True``) returns the same ``GameState`` from
    every ``freeze``, refilled (module docstring): a state it returned holds only
    until its next event.
    """

    def __init__(self, state: GameState, narrating: bool = False, tape: list[object] | None = None,
                 scratch: bool = False) -> None:
        self.g = StateDraft(state)
        self.scratch = scratch and IN_PLACE
        # A scratch transaction's own states, which it refills at every event: the table's and each seat's.
        self._state: GameState | None = None
        self._owned: list[PlayerState | None] = list(_UNTOUCHED[len(state.players)])
        # Each player's draft once touched (by index), else None; a list, as it is read at every step.
        self._players: list[PlayerDraft | None] = list(_UNTOUCHED[len(state.players)])
        self._spare: list[PlayerDraft | None] = list(_UNTOUCHED[len(state.players)])  # drafts of earlier events
        self._touched = False
        self.catalog: Catalog = state.catalog
        self._new: list[Pending] | None = None  # sub-decisions queued by this event; most queue none
        self.narrating = narrating
        # The fields of each change told, one record after another (``narration.records`` reads them); a fold
        # that narrates every event passes one ``tape`` to all its transactions.
        self.told: list[object] = (_NOT_TOLD if not narrating else [] if tape is None else tape)
        self.rule = ""  # the rule behind the changes being made, and its facts (while narrating)
        self.facts: tuple[object, ...] | None = None

    # --- reading and writing --------------------------------------------------------

    def pl(self, i: int) -> PlayerDraft:
        """Player ``i``'s board, copied on first touch and free to change."""
        p = self._players[i]
        if p is None:
            p = self._spare[i]
            if p is None:
                p = PlayerDraft(self.g.players[i])
                self._spare[i] = p
            elif self._owned[i] is None:  # else the draft already holds what it refilled that seat's state with
                p.load(self.g.players[i])
            self._players[i] = p
            self._touched = True
        return p

    def view(self, i: int) -> PlayerState:
        """Player ``i`` as it stands now, frozen (a copy: later changes do not show).

        A player not touched yet is still the frozen one of the old state,
        which is returned as it is rather than copied.
        """
        p = self._players[i]
        if p is None:
            return self.g.players[i]
        return p.freeze()

    def answered(self) -> Pending:
        """The input the event being applied answers (``check`` has made sure there is one)."""
        pending = self.g.pending
        assert pending is not None
        return pending

    def index(self, name: str) -> int:
        return self.g.index[name]

    def name(self, i: int) -> str:
        return self.g.players[i].name

    def due(self, actor: str, kind: str) -> Pending:
        """The input due now when it is only who acts and what kind: the record the table holds if it says just
        that (after each income taken, the same player's income is due again), else a new one."""
        held = self.g.pending
        if (held is not None and held.kind == kind and held.actor == actor and held.amount == 0 and not held.source
                and not held.location and not held.die):
            return held
        return Pending(actor, kind)

    def die_value(self, die: str) -> int:
        """The value rolled this round for a die, found without building a dict of the roll.

        Searched from the end, so a die listed twice reads as ``dict(dice)[die]`` would.
        """
        for d, value in reversed(self.g.dice):
            if d == die:
                return value
        raise KeyError(die)

    def freeze(self) -> GameState:
        """The new state; the working copy is then that state's, ready for the event after it.

        Its draft of the table already holds the new state's fields, so going on
        from there costs nothing; what was particular to the event (the players
        touched, the rule being told) is reset. A scratch transaction refills the
        state it made at its first event instead of making another.
        """
        self.flush()
        if self._touched:
            self._freeze_players()
        self.rule = ""
        self.facts = None
        if not self.scratch:
            return self.g.freeze()
        state = self._state
        if state is None:
            state = self._state = self.g.freeze()
        else:
            self.g.refill(state)
        return state

    def _freeze_players(self) -> None:
        """Each touched player's draft made a ``PlayerState`` on the draft of the table (a scratch transaction's
        refills the one it made for that seat before)."""
        drafts, owned = self._players, self._owned
        players: list[PlayerState] | None = None
        for k in range(len(drafts)):
            draft = drafts[k]
            if draft is None:
                continue
            drafts[k] = None
            mine = owned[k]
            if mine is not None:
                draft.refill(mine)
                continue
            frozen = draft.freeze()
            if self.scratch:
                owned[k] = frozen
            if players is None:
                players = list(self.g.players)
            players[k] = frozen
        if players is not None:
            self.g.players = tuple(players)
        self._touched = False

    # --- narration (called only while narrating) -----------------------------------------

    def because(self, rule: str, facts: tuple[object, ...] | None = None) -> None:
        """The rule, and the facts that decided it, behind the changes that follow.

        The facts are flat: name, value, name, value (``narration.Record``), read as a dict by ``narration.told``.
        """
        self.rule = rule
        self.facts = facts

    def tell(self, who: int, what: str, ident: str, src: object, dst: object, at: int = -1, amount: int = 0,
             source: str = "") -> None:
        """Report one change of the table, made under the current rule (``because``)."""
        told = self.told  # the record's fields, one by one (no tuple made and dropped)
        told.append(self.rule)
        told.append(who)
        told.append(what)
        told.append(ident)
        told.append(src)
        told.append(dst)
        told.append(at)
        told.append(amount)
        told.append(source)
        told.append(self.facts)

    def to_phase(self, phase: str) -> None:
        """Begin a phase (or end the game), and say so while narrating."""
        if self.narrating:
            rule = "GAME.over" if phase == GAME_OVER else "ROUND.phases"
            self.told.extend((rule, TABLE_WHO, PHASE, "", self.g.phase, phase, -1, 0, "", None))
        self.g.phase = phase

    def to_round(self, round: int, rule: str) -> None:
        """Begin a round, and say so while narrating."""
        if self.narrating:
            self.told.extend((rule, TABLE_WHO, ROUND, "", self.g.round, round, -1, 0, "", None))
        self.g.round = round

    # --- sub-decisions ----------------------------------------------------------------

    def push(self, pending: Pending) -> None:
        """Queue a sub-decision; those queued by one event are taken in queue order."""
        if self._new is None:
            self._new = [pending]
        else:
            self._new.append(pending)

    def pop(self) -> Pending:
        """Remove and return the sub-decision on top of the stack."""
        stack = self.g.stack
        self.g.stack = stack[:-1]
        return stack[-1]

    def flush(self) -> None:
        """Put queued sub-decisions on the stack, the first queued on top."""
        new = self._new
        if new is not None:
            new.reverse()
            self.g.stack = self.g.stack + tuple(new)
            self._new = None

    # --- resources, points and tracks -------------------------------------------------

    def gain(self, i: int, resource: str, amount: int, source: str) -> None:
        """Gain coins, guards, victory points or pilgrim steps; excess over a limit is lost."""
        if amount <= 0:
            return
        if resource == "steps":
            self.push(Pending(self.name(i), "steps", amount, source))
            return
        p = self.pl(i)
        if resource == "points":
            self.add_points(i, amount, source)
        elif resource == "coins":
            had = p.coins
            p.coins = min(self.catalog.max_coins, had + amount)
            if self.narrating:
                self.tell(i, COINS, "", had, p.coins, amount=amount, source=source)
        else:
            had = p.guards
            p.guards = min(self.catalog.max_guards, had + amount)
            if self.narrating:
                self.tell(i, GUARDS, "", had, p.guards, amount=amount, source=source)

    def pay(self, i: int, resource: str, amount: int) -> None:
        """Pay coins or guards (the caller has checked they suffice)."""
        p = self.pl(i)
        if resource == "coins":
            p.coins -= amount
            if self.narrating:
                self.tell(i, COINS, "", p.coins + amount, p.coins, amount=-amount)
        else:
            p.guards -= amount
            if self.narrating:
                self.tell(i, GUARDS, "", p.guards + amount, p.guards, amount=-amount)

    def add_points(self, i: int, amount: int, source: str) -> None:
        """Advance the scoring-track disc, remembering where the points came from."""
        p = self.pl(i)
        p.points += amount
        p.points_by_source = _added(p.points_by_source, source, amount)
        if self.narrating:
            self.tell(i, POINTS, "", p.points - amount, p.points, amount=amount, source=source)

    def advance(self, i: int, track: str, amount: int, source: str) -> None:
        """Move a disc up an influence track (never above the limit; excess is lost).

        A move onto a new space stamps the disc's arrival tick, which orders discs
        sharing a space (the first to arrive is ahead, rules text 003 Limits).
        """
        if amount <= 0:
            return
        if track == "choice":
            self.push(Pending(self.name(i), "track-choice", amount, source))
            return
        p = self.pl(i)
        k = TRACK_INDEX[track]
        influence = p.influence
        new = min(self.catalog.max_influence, influence[k] + amount)
        if new != influence[k]:
            if self.narrating:
                self.tell(i, TRACK_DISC, track, influence[k], new, amount=amount, source=source)
            p.influence = replaced(influence, k, new)
            tick = self.g.tick + 1
            self.g.tick = tick
            p.arrivals = replaced(p.arrivals, k, tick)


T = TypeVar("T")


def replaced(items: tuple[T, ...], k: int, item: T) -> tuple[T, ...]:
    """``items`` with its ``k``-th replaced by ``item``: one list copied and made a tuple (slicing around ``k``
    and joining made five tuples, and the rules replace one item of a row, a track or a seat at most events)."""
    copy = list(items)
    copy[k] = item
    return tuple(copy)


def _added(totals: tuple[tuple[str, int], ...], source: str, amount: int) -> tuple[tuple[str, int], ...]:
    """``totals`` (source, points) with ``amount`` more for ``source``: a new source goes last.

    The same pairs as ``tuple(dict)`` after adding to the dict, without building one per gain.
    """
    for k, (name, total) in enumerate(totals):
        if name == source:
            return replaced(totals, k, (name, total + amount))
    return totals + ((source, amount),)
