"""What a server of tables asks the application for: each table's keys, the phones' seats, the organiser's key,
a table the organiser starts, and one put away (told to every server on the store by its notification log).

A part of ``Games`` (which inherits it) kept in a module of its own: the links a server prints and the seats
its phones hold are kept where the store keeps them (``store.keeping``: files beside a SQLite store, tables of
a PostgreSQL one, so that every server process on it holds the same), never in its games.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Callable, Sequence

from coimbra_events.service.inputs import check_players, check_tags
from coimbra_events.service.seats import Phone, Seats
from coimbra_events.service.sessions import GameRef

if TYPE_CHECKING:
    from coimbra_events.game import Game
    from coimbra_events.store.game_store import GameStore
    from coimbra_events.store.links import OrganiserKey, TableKeys


MOVED_MOST = 1000
"""Positions of the notification log read at most to learn which games moved (``stored_since``)."""


class TableLinks:
    """The tables' keys and seats, for ``Games``: ``store``, ``open``, ``new_game``, ``tag`` and ``_each`` are the
    application's."""

    if TYPE_CHECKING:
        @property
        def store(self) -> GameStore: ...

        def open(self, game: GameRef) -> Game: ...

        def new_game(self, players: Sequence[tuple[str, str]], *, by: str | None = None) -> Game: ...

        def tag(self, names: Sequence[str], add: Sequence[str] = ()) -> list[Game]: ...

        def _each(self, names: Sequence[str], change: Callable[[Game], None]) -> list[Game]: ...

    def table_keys(self, game: GameRef, renew: bool = False) -> TableKeys:
        """GAME's table's keys (``store.keeping``): kept, so a restart and every server process on the store hold
        its links; ``renew``: new ones, these replaced."""
        return self.store.keeping.keys(str(self.open(game).id), renew)

    def organiser_key(self, renew: bool = False) -> OrganiserKey:
        """The organiser's key of a server of every table of this store: kept as the tables' keys are."""
        return self.store.keeping.organiser(renew)

    def phone(self, game: GameRef, device: str | None) -> Phone:
        """The phone ``device`` at GAME's table: the seats it holds, claims and may enter (``service.seats``),
        kept with the table's keys; ``None``: a client that names no phone (the table's scribe)."""
        read = self.open(game)
        return Phone(Seats([name for name, _ in read.header.players], self.store.keeping.claims(str(read.id))), device)

    def stored_since(self, after: int | None, upto: int | None) -> set[str] | None:
        """The ids of the games (and other records) stored between two positions of the notification log
        (``position``), so that a server of many tables reads again only those; ``None`` when not known (no position
        yet, or more than ``MOVED_MOST`` stored since): every table is looked at."""
        if after is None or upto is None:
            return None
        return self.store.stored_since(after, upto, MOVED_MOST)

    def put_away_since(self, after: int | None, upto: int | None) -> set[str]:
        """The ids of the games put away (``put_away``) between two positions of the notification log, however
        far apart, so that a server of every table drops them as it looks; none when there is no position yet."""
        if after is None or upto is None:
            return set()
        return self.store.put_away_since(after, upto)

    def put_away(self, name: str) -> Game:
        """Say that the table of game NAME, over, is put away (``Game.PutAway``): every server of every table on
        the store serves it no more. ``UnknownGame``; ``StillInProgress`` for a game in progress (archive it
        instead), nothing stored."""
        return self._each([name], lambda game: game.put_away())[0]

    def evening_tag(self, tag: str) -> str:
        """The evening's tag, checked before the evening starts (``BadGameName``), not at its first table."""
        check_tags([tag], self.store.claims.taken)
        return tag

    def start_table(self, players: Sequence[tuple[str, str]], tag: str | None = None, drawn: bool = False,
                    by: str | None = None) -> Game:
        """A new game for a table of the evening: its seats in the order given, or ``drawn`` (a fair shuffle, the
        first player included), tagged with the evening's ``tag`` (which the league's seasons read). The players
        and the tag are checked before anything is stored (``BadPlayers``, ``BadGameName``)."""
        check_players(players)
        if tag is not None:
            check_tags([tag], self.store.claims.taken)
        seats = list(players)
        if drawn:
            random.SystemRandom().shuffle(seats)
        game = self.new_game(seats, by=by)
        return self.tag([game.name], add=[tag])[0] if tag is not None else game
