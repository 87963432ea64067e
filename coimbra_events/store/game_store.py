"""``GameStore``: the games of a table, stored event by event, found by name, with an index of them all.

Each game is a ``Game`` aggregate (one stored event per decision or random
outcome). Its name is claimed in the store's register (``store.claims``) in the
same transaction as the game, so two writers cannot take one name; the games
index (``store.games_index``) is a projection of the store, caught up when it is
read (listing, a game's entry, numbering an unnamed game), so saving a game costs
one transaction, as the library's own save does.

This is persistence only: the use cases that create and change games are the
application's (``coimbra_events.service.Games``), the one door every front-end
holds. Reading a game against its evidence, saving it with its receipt and
snapshot, and retrying are the repository's (``store.repository``); where the
store lives is ``store.location``'s.
"""

from __future__ import annotations

import difflib
import os
from contextlib import nullcontext
from typing import Mapping
from uuid import UUID

from eventsourcing.application import Application
from eventsourcing.persistence import Mapper
from eventsourcing.utils import Environment, get_topic

from coimbra_events.store import postgres as postgres_store
from coimbra_events.store import sqlite_file
from coimbra_events.game import Game
from coimbra_events.store.games_index import GamesIndex, catch_up
from coimbra_events.store.games_query import GameInfo, GamesQuery, Page
from coimbra_events.store.games_view import info_of, view_for
from coimbra_events.store.inspection import Inspection, rows_of
from coimbra_events.store.keeping import keeping_for
from coimbra_events.store.postgres_keeping import TABLES as KEEPING_TABLES
from coimbra_events.store.claims import NameClaims
from coimbra_events.store.receipts import Evidence
from coimbra_events.store.repository import GameRepository
from coimbra_events.store.location import APP, describe_store, store_settings
from coimbra_events.store.rows import Rows
from coimbra_events.log import GameLog, LogError, LogProblem, dumps_entries
from coimbra_events.log_reader import loads
from coimbra_events.store.register import legacy_game_id
from coimbra_events.store.topics import STORED_TOPICS, StoredTopics
from coimbra_events.rulesets import IMPLEMENTED, refusal
from coimbra_events.store.errors import (
    DamagedGame,
    DamagedIndex,
    EventsRemoved,
    UnknownGame,
    one_line,
)



# --- the store -----------------------------------------------------------------------------------


class GameStore(Application):
    """The persistence of games stored as events: a game read by name against its evidence, saved with it
    (``stored_games``), the names claimed (``claims``), and the index of games listed; the use cases that
    change them are the application's (``coimbra_events.service.Games``)."""

    name = APP
    is_snapshotting_enabled = True  # the store takes snapshots itself (``_saved``), not on the library's interval

    def __init__(
        self,
        db: str | os.PathLike[str] | None = None,
        *,
        in_memory: bool = False,
        env: Mapping[str, str] | None = None,
    ) -> None:
        settings = store_settings(db, in_memory=in_memory, env=env)
        environment = Environment(self.name, {**os.environ, **settings})
        self.location = describe_store(environment)
        module = environment.get("PERSISTENCE_MODULE")
        postgres = module == "eventsourcing.postgres"
        if module == "eventsourcing.sqlite":
            sqlite_file.ready(environment)
        with postgres_store.ready(environment, self.tables()) if postgres else nullcontext({}) as extra:
            super().__init__(env={**settings, **extra})
            self.index = GamesIndex(view_for(self),
                                    lambda game_id: self.stored_games.read_any(game_id, self.stored_games.latest_receipt(game_id)))
            self.keeping = keeping_for(self, self.location)
            """Where the served tables' keys and seat claims are kept (``store.keeping``)."""
        rows = Rows(self.recorder, self.mapper, self.snapshots)
        self.claims = NameClaims(self.events, rows, self._largest_number)
        self.stored_games = GameRepository(self, rows, self.claims)
        """Stored games read against their evidence and saved with it (receipts, snapshots, retries)."""

    def tables(self) -> list[str]:
        """The tables this store is kept in (PostgreSQL's names): the library's, the games index's
        (``coimbra_events.store.games_index``), and the served tables' keys and claims (``store.keeping``)."""
        snapshots = ["coimbra_snapshots"] if type(self).is_snapshotting_enabled or type(self).snapshotting_intervals else []
        index = ["games_index", "games_index_players", "games_index_tags", "games_index_records", "games_index_tracking"]
        return [f"{self.name.lower()}_events", *snapshots, *index, *KEEPING_TABLES]

    def construct_mapper(self) -> Mapper:
        """A mapper that resolves the topics of this application's own classes only (``StoredTopics``)."""
        mapper = self.factory.mapper(transcoder=self.construct_transcoder(), mapper_class=StoredTopics)
        mapper.topics = STORED_TOPICS
        return mapper

    # -- reading

    def get(self, name: str, any_ruleset: bool = False) -> Game:
        """The stored game with this name, checked against its hash chain and its latest receipt.

        ``UnknownGame`` if there is none; ``DamagedGame`` (naming the first problem)
        if its rows are not what was recorded. A game recorded under a ruleset this
        engine does not implement is refused (``LogError``), unless ``any_ruleset``
        (for reading its record as it is: export, verify).
        """
        try:
            game = self.stored_games.read(self._game_id(name), name)
        except UnknownGame:
            raise UnknownGame(name, self._near(name)) from None
        if not any_ruleset and game.header.ruleset not in IMPLEMENTED:
            raise LogError(f"stored game {name}", [LogProblem(0, "another ruleset", refusal(game.header.ruleset))])
        return game

    def evidence(self, game: Game) -> Evidence:
        """What this store knows of a game it handed out: its receipts and the snapshot in force."""
        return self.stored_games.evidence(game)

    def inspect(self, name: str) -> Inspection:
        """Every problem of a stored game's rows, read one by one; ``UnknownGame`` if there is none."""
        return self.stored_games.inspect(self._game_id(name), name)

    def _game_id(self, name: str) -> UUID:
        entry = self.claims.entry(name)
        if entry is None:
            return legacy_game_id(name)  # stores from before the register
        if entry.game_id is None:
            raise UnknownGame(name)
        return entry.game_id

    def _near(self, name: str) -> list[str]:
        """Stored names close to a mistyped one (a read of the index, only when a name is not found)."""
        try:
            self._caught_up()
            rows = self.index.view.select(GamesQuery())[0] + self.index.view.select(GamesQuery(archived=True))[0]
        except EventsRemoved:
            raise  # the game may be among what was removed: that is the news, not a mistyped name
        except DamagedIndex:
            return []
        return difflib.get_close_matches(name, [r["name"] for r in rows], n=3, cutoff=0.6)

    def _largest_number(self, base: str) -> int:
        """The largest number an unnamed game of this base name was given (``ana-bruno-2``: 2), the index caught up."""
        self._caught_up()
        return self.index.view.largest_number(base)

    def games_index_caught_up(self) -> int:
        """Bring the games index up to date now (it is also whenever it is read); how many events it took in.
        ``DamagedIndex`` if a stored row it reads is not as it was saved."""
        return self._caught_up()

    def _caught_up(self) -> int:
        """``catch_up`` of the games index; ``DamagedIndex`` if a stored row it reads is not as it was saved, or if
        the index has read further than the store now holds (its events were removed: a store is append-only)."""
        try:
            return catch_up(self, self.index)
        except EventsRemoved:
            raise
        except Exception as exc:  # whatever a changed store makes the library or the projection raise
            raise DamagedIndex(f"the store's index of games cannot be brought up to date ({one_line(exc)}); "
                               "nothing was changed") from None

    def export(self, name: str) -> GameLog:
        """A stored game as a JSON log (whatever ruleset it was recorded under: nothing is folded);
        ``DamagedGame`` if anything of it is not what was recorded.

        A log leaves the store as evidence, so every row of the game is checked
        (``inspect``: every receipt too, not only the latest one ``get`` reads).
        """
        log = self.get(name, any_ruleset=True).to_log()
        self.check(name)
        return log

    def check(self, name: str) -> None:
        """``DamagedGame`` if any row of the game is not what was recorded (every receipt too)."""
        problems = self.inspect(name).problems
        if problems:
            raise DamagedGame(name, problems)

    def export_as_stored(self, name: str) -> bytes:
        """A damaged game's log as it is stored: its readable entries with the hashes they were recorded with.

        ``DamagedGame`` if the damage would not show in such a file (a header that
        cannot be read, entries missing at the end, hashes worked out again), so
        that no file written from a damaged game reads as intact.
        """
        inspection = self.inspect(name)
        problems = inspection.problems or (LogProblem(0, "changed while read", "try again"),)
        if inspection.header is None:
            raise DamagedGame(name, problems)
        try:
            data = dumps_entries(inspection.header, rows_of(inspection.entries))
            loads(data, name)
        except TypeError:
            pass  # nested too deeply to write: refused below
        except LogError:
            return data  # the file shows the damage, as it must
        raise DamagedGame(name, problems[:1] + (LogProblem(problems[0].seq, "cannot be shown in a log file",
                                                           "written as stored, it would read as intact; coimbra verify lists it"),))

    def games(self, query: GamesQuery = GamesQuery()) -> list[GameInfo]:
        """The stored games a query lets through, oldest first (every listed game by default)."""
        return self.listing(query).games

    def listing(self, query: GamesQuery = GamesQuery()) -> Page:
        """One page of the games index, and how many games match in all."""
        self._caught_up()
        rows, total = self.index.view.select(query)
        return Page([info_of(r) for r in rows], total, query)

    def info(self, name: str) -> GameInfo:
        """The index entry of one game."""
        self._caught_up()
        row = self.index.view.find(name)
        if row is None:
            raise UnknownGame(name)
        return info_of(row)

    def duplicates(self) -> list[tuple[str, int, list[GameInfo]]]:
        """The groups of stored games that hold the same record (same header and entries), oldest first: the record's
        head, its entries, and the games."""
        self._caught_up()
        return [(group[0]["head"], group[0]["entries"], [info_of(r) for r in group]) for group in self.index.view.duplicates()]

    def position(self) -> int | None:
        """How far the store's notification log has come (``None``: nothing stored yet): a reader that keeps a game
        looks at it again only when this moved."""
        return self.recorder.max_notification_id()

    def stored_since(self, after: int, upto: int, most: int) -> set[str] | None:
        """The ids of what was stored after position ``after`` up to ``upto`` (each game's is its id), read from the
        notification log; ``None`` where that spans more than ``most`` positions (a reader then looks at all it keeps)."""
        if upto - after > most:
            return None
        notes = self.recorder.select_notifications(after, most, stop=upto, inclusive_of_start=False)
        return {str(note.originator_id) for note in notes}

    def put_away_since(self, after: int, upto: int, batch: int = 500) -> set[str]:
        """The ids of the games put away (``Game.PutAway``) after position ``after`` up to ``upto``, however far
        apart: a server of every table drops each that it serves (read by topic, in batches: they are few)."""
        found: set[str] = set()
        topics = [get_topic(Game.PutAway)]
        while notes := self.recorder.select_notifications(after, batch, stop=upto, topics=topics, inclusive_of_start=False):
            found |= {str(note.originator_id) for note in notes}
            after = notes[-1].id
        return found
