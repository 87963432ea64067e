"""Running a tournament: record it, seat each round and start its games, and say where it stands.

A part of ``Games`` (which inherits it) kept in a module of its own. The tournament's own facts (its field,
settings and each round's seating) are its aggregate's (``store.tournaments``); its results are its games',
each started here tagged with the tournament and its round (``record.round_tag``), found again by those
tags and by its players (``tournament_progress``). A round is seated only once the one before is over,
by the tournament points so far (a Swiss; round 1 by the strengths given, if any).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from coimbra_events.service.inputs import check_players, check_tags

if TYPE_CHECKING:
    from coimbra_events.game import Game
    from coimbra_events.tournament.record import Tournament
    from coimbra_events.service.tournament_progress import Progress, SeatedRound
    from coimbra_events.store.game_store import GameStore
    from coimbra_events.store.games_query import GameInfo, GamesQuery

COLORS = ("red", "blue", "yellow", "green")
"""The colours of a tournament's game, by seat (the first player red)."""


@dataclass(frozen=True)
class RoundStarted:
    """Round ``number`` seated now (``seated``) or found seated with tables to start, and the games started for
    its tables that had none (by table number)."""

    round: SeatedRound
    started: Mapping[int, str]
    seated: bool

    def to_json(self, name: str) -> dict[str, Any]:
        """As ``start`` and ``next`` print it with ``--json`` and the organiser's page reads it."""
        from coimbra_events.service.tournament_progress import round_json

        shown = round_json(self.round, [])
        return {"tournament": name, "round": self.round.number, "seated": self.seated,
                "started": {str(k): v for k, v in self.started.items()}, "tables": shown["tables"],
                "explanations": shown["explanations"]}


@dataclass(frozen=True)
class RoundNotOver:
    """Round ``number`` has tables not finished: the next cannot be seated yet."""

    round: SeatedRound

    def to_json(self, name: str) -> dict[str, Any]:
        """The tables not finished, as ``next --json`` prints them (exit 1) and the organiser's page reads them."""
        return {"tournament": name, "round": self.round.number, "over": False,
                "waiting": [t.to_json() for t in self.round.waiting()]}


@dataclass(frozen=True)
class TournamentOver:
    """Every round is played: nothing to seat."""

    progress: Progress


class TournamentRuns:
    """Tournaments, for ``Games``: ``store``, ``games`` and ``new_game`` are the application's."""

    if TYPE_CHECKING:
        @property
        def store(self) -> GameStore: ...

        def games(self, query: GamesQuery | None = None) -> list[GameInfo]: ...

        def new_game(self, players: Sequence[tuple[str, str]], *, name: str | None = None, by: str | None = None,
                     tags: Sequence[str] = ()) -> Game: ...

    def start_tournament(self, name: str, players: Sequence[str], rounds: int, points: Sequence[int] | None = None,
                         seed: int = 0, strengths: Mapping[str, float] | None = None, tags: Sequence[str] = (),
                         by: str | None = None) -> RoundStarted:
        """Record a tournament and seat and start its round 1 (``next_round``). ``BadField`` for a name, field or
        points that cannot be used, or a name taken; nothing is stored then. ``tags``: more tags on every game
        (an evening's)."""
        from coimbra_events.tournament.field import field
        from coimbra_events.tournament.standings import POINTS, points_by_size

        points = POINTS[4] if points is None else points
        from coimbra_events.tournament.record import Tournament, checked_name, round_tag

        from coimbra_events.store.tournaments import save_new

        checked_name(name)
        names = field(players, rounds)
        points_by_size(points)
        check_players([(player, COLORS[0]) for player in names])
        check_tags([name, round_tag(name, rounds), *tags], self.store.claims.taken)
        save_new(self.store, Tournament.begin(name, names, rounds, tuple(points), seed, strengths))
        outcome = self.next_round(name, tags, by)
        assert isinstance(outcome, RoundStarted)
        return outcome

    def next_round(self, name: str, tags: Sequence[str] = (),
                   by: str | None = None) -> RoundStarted | RoundNotOver | TournamentOver:
        """The next step of tournament ``name``: the tables of the last round seated that have no game get one
        (a start that was cut short, an abandoned game archived); else, if a table of it is not finished, that
        round (``RoundNotOver``); else the next round seated by the points so far and its games started; else
        ``TournamentOver``. ``UnknownTournament`` if there is none."""
        from coimbra_events.service.tournament_progress import TO_START

        from coimbra_events.tournament.seating import seat_next

        from coimbra_events.store.tournaments import save_round, tournament_of

        tournament = tournament_of(self.store, name)
        now = self.tournament_progress(tournament)
        if now.rounds:
            last = now.rounds[-1]
            if any(t.state == TO_START for t in last.tables):
                return self._started(tournament, last, tags, by, seated_now=False)
            if not last.over:
                return RoundNotOver(last)
        if len(now.rounds) == tournament.rounds:
            return TournamentOver(now)
        seating = seat_next(tournament.players, tournament.seed, tournament.seated, now.strengths())
        tournament.seat(seating.tables, seating.explanations)
        save_round(self.store, tournament)
        return self._started(tournament, self.tournament_progress(tournament).rounds[-1], tags, by, seated_now=True)

    def tournament(self, name: str) -> Progress:
        """Where tournament ``name`` stands (``UnknownTournament`` if there is none)."""
        from coimbra_events.store.tournaments import tournament_of

        return self.tournament_progress(tournament_of(self.store, name))

    def tournament_names(self) -> list[str]:
        """Every tournament of the store, in the order begun."""
        from coimbra_events.store.tournaments import tournament_names

        return tournament_names(self.store)

    def tournament_progress(self, tournament: Tournament) -> Progress:
        """``tournament`` with its games as the store's index has them now."""
        from coimbra_events.service.tournament_progress import progress

        from coimbra_events.store.games_query import GamesQuery

        return progress(tournament, self.games(GamesQuery(tag=tournament.name)))

    def _started(self, tournament: Tournament, seated: SeatedRound, tags: Sequence[str], by: str | None,
                 seated_now: bool) -> RoundStarted:
        """The games of ``seated`` started (``_start_games``), and the round read again with them."""
        started = self._start_games(tournament, seated, tags, by)
        return RoundStarted(self.tournament_progress(tournament).rounds[seated.number - 1], started, seated_now)

    def _start_games(self, tournament: Tournament, seated: SeatedRound, tags: Sequence[str],
                     by: str | None) -> dict[int, str]:
        """A game for each table of ``seated`` that has none, tagged with the tournament, its round and ``tags``;
        named ``NAME-rN-tK`` (with ``-2``... after it when that name is taken: a game started again)."""
        from coimbra_events.service.tournament_progress import TO_START

        from coimbra_events.tournament.record import game_name, round_tag

        started = {}
        for table in (t for t in seated.tables if t.state == TO_START):
            planned = game_name(tournament.name, seated.number, table.number)
            chosen = next(n for n in (planned, *(f"{planned}-{k}" for k in range(2, 100))) if not self.store.claims.taken(n))
            own = [tournament.name, round_tag(tournament.name, seated.number)]
            game = self.new_game(list(zip(table.players, COLORS)), name=chosen, by=by, tags=[*own, *tags])
            started[table.number] = game.name
        return started


__all__ = ["COLORS", "RoundNotOver", "RoundStarted", "TournamentOver", "TournamentRuns"]
