"""Seats: which phone holds which player's seat of a game, and what a phone may enter and withdraw.

A phone is a page on the table's players' link, known by a device id it makes once and sends with each
request. It claims the seats of those who play from it (one, several, or none: a phone that only enters
the table's dice and cards). A seat held by another phone is taken only when the claim says so
(``take_over``); the phone that held it reads on its next look that it no longer does. A phone enters
only its own seats' decisions, and the table's outcomes (dice, deals, setup draws) as any phone may; it
withdraws only the latest play, and only if that play is one of its seats' or the table's; never once
the game is over. The terminal (``coimbra act``, ``record``, ``undo``) is the table's scribe and holds
no seat: its writes pass no phone.

Claims are kept by the store (``store.keeping``: files beside a SQLite store, tables of a PostgreSQL one)
as digests of the device ids, so that a restart keeps them, every server process on one store holds the
same ones, and nothing kept can be sent as a phone's id.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Sequence

from coimbra_events.service.results import NotYours
from coimbra_events.store.links import digest

if TYPE_CHECKING:
    from coimbra_events.events import GameEvent
    from coimbra_events.store.keeping import SeatClaims
    from coimbra_events.game import Game

TABLE = "table"
"""The actor of the table's outcomes: any phone enters them."""


@dataclass(frozen=True)
class Claimed:
    """The seat is this phone's now; ``took_over``: another phone held it and no longer does."""

    seat: str
    took_over: bool = False


@dataclass(frozen=True)
class Taken:
    """The seat is held by another phone, which plays ``holder`` (its seats): claim it again with ``take_over``."""

    seat: str
    holder: tuple[str, ...]

    @property
    def reason(self) -> str:
        return (f"{self.seat} is played from another phone (the one that plays {' and '.join(self.holder)}); "
                f"take the seat over to play {self.seat} from this phone")


@dataclass(frozen=True)
class NoSeat:
    """There is no seat of that name at this game."""

    seat: str
    players: tuple[str, ...]

    @property
    def reason(self) -> str:
        return f"there is no seat {self.seat!r} at this game (its players: {', '.join(self.players)})"


class Seats:
    """The seats of one game (its players, in seat order) and which phone holds each, as kept now: every question
    reads its keeper (``store.keeping``), so that server processes sharing a store agree."""

    def __init__(self, players: Sequence[str], keeper: SeatClaims) -> None:
        self.players = tuple(players)
        self._keeper = keeper

    def held(self) -> dict[str, str]:
        """Each held seat of this game -> the digest of the phone holding it."""
        return {seat: phone for seat, phone in self._keeper.load().items() if seat in self.players}

    def claimed(self) -> dict[str, bool]:
        """Every seat, and whether a phone holds it."""
        held = self.held()
        return {seat: seat in held for seat in self.players}

    def of(self, device: str | None) -> tuple[str, ...]:
        """The seats ``device`` holds, in seat order (none for no device)."""
        if device is None:
            return ()
        phone, held = digest(device), self.held()
        return tuple(seat for seat in self.players if held.get(seat) == phone)

    def holds(self, device: str | None, seat: str) -> bool:
        return device is not None and self.held().get(seat) == digest(device)

    def seat_of(self, player: str) -> str | None:
        """The seat whose phone enters what ``player`` does; ``None``: any phone (the table's outcomes)."""
        return player if player != TABLE and player in self.players else None

    def claim(self, seat: str, device: str, take_over: bool = False) -> Claimed | Taken | NoSeat:
        """This phone plays ``seat`` from now on; a seat another phone holds only with ``take_over`` (decided on the
        claims as kept, in one step: of two phones claiming a free seat at once, one holds it, the other is told)."""
        if seat not in self.players:
            return NoSeat(seat, self.players)
        phone = digest(device)

        def claimed(held: dict[str, str]) -> Claimed | Taken:
            holder = held.get(seat)
            if holder == phone:
                return Claimed(seat)
            if holder is not None and not take_over:
                return Taken(seat, tuple(s for s in self.players if held.get(s) == holder))
            held[seat] = phone
            return Claimed(seat, took_over=holder is not None)

        return self._keeper.change(claimed)

    def release(self, seat: str, device: str) -> bool:
        """This phone no longer plays ``seat``; whether it held it."""
        phone = digest(device)

        def released(held: dict[str, str]) -> bool:
            if held.get(seat) != phone:
                return False
            del held[seat]
            return True

        return self._keeper.change(released)


@dataclass(frozen=True)
class Phone:
    """The phone a write comes from: the game's seats and its device id (``None``: a client that names no
    phone, such as a script on the API, records as the table's scribe does)."""

    seats: Seats
    device: str | None

    @property
    def held(self) -> tuple[str, ...]:
        """The seats this phone holds, in seat order."""
        return self.seats.of(self.device)

    def claim(self, seat: str, take_over: bool = False) -> Claimed | Taken | NoSeat:
        """This phone plays ``seat`` from now on (``Seats.claim``; a client that names no phone claims none)."""
        if self.device is None:
            raise ValueError("a seat is claimed by a phone: name its device")
        return self.seats.claim(seat, self.device, take_over)

    def release(self, seat: str) -> bool:
        """This phone no longer plays ``seat``; whether it did."""
        return self.device is not None and self.seats.release(seat, self.device)

    def enters(self, player: str) -> bool:
        """Whether this phone enters what ``player`` does: the table's outcomes, or a seat it holds (any, for the scribe)."""
        seat = self.seats.seat_of(player)
        return self.device is None or seat is None or self.seats.holds(self.device, seat)

    def barred(self, game: Game, events: Sequence[GameEvent]) -> NotYours | None:
        """Why this phone may not enter ``events`` (one of them a decision of a seat it does not hold), or ``None``."""
        for event in events:
            player = event.actor
            if self.enters(player):
                continue
            if self.seats.claimed()[player]:
                why = (f"{player}'s seat is held by another phone: only that phone enters {player}'s decisions "
                       f"(or take the seat over on this one)")
            else:
                why = f"no phone holds {player}'s seat: claim it first (\"this phone also plays {player}\")"
            return NotYours(game.name, player, f"not stored: {why}")
        return None

    def undo_barred(self, game: Game) -> NotYours | None:
        """Why this phone may not withdraw the latest play: the game is over, or the play is a seat's it does not
        hold (the table's outcomes any phone may withdraw); ``None`` if it may."""
        if game.over:
            return NotYours(game.name, None, "not withdrawn: the game is over, and its record stays as it ended")
        plays = game.line.plays
        if not plays:
            return None
        player = plays[-1].event.actor
        if self.enters(player):
            return None
        return NotYours(game.name, player, f"not withdrawn: entry {plays[-1].seq} is {player}'s, and only the phone "
                                           f"that holds {player}'s seat withdraws it")

    def may_undo(self, game: Game) -> bool:
        return self.undo_barred(game) is None
