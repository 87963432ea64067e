"""Where a running tournament stands: each round's tables with their games, and the standings after each round.

A table's game is found among the games tagged with the tournament's round (``record.round_tag``) by its
players (as the league knows a person: case, accents and spaces do not count); an archived game is not
one (it was abandoned: the table may be started again). The results are the games' own, as the store's
index of games keeps them (``GameInfo.result``: place and final score): nothing of a result is copied.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from coimbra_events.players import person_key
from coimbra_events.store.games_query import OVER, GameInfo
from coimbra_events.tournament.record import Tournament, round_tag
from coimbra_events.tournament.standings import Finish, Standing, points_by_size, standings

TO_START, IN_PROGRESS, FINISHED, TWO_GAMES = "to start", "in progress", "over", "several games"
"""What a table of a seated round is waiting for, if anything."""


@dataclass(frozen=True)
class SeatedTable:
    """A table of a round: its players in seat order and the round's games that hold exactly them."""

    number: int
    players: tuple[str, ...]
    games: tuple[GameInfo, ...]

    @property
    def state(self) -> str:
        if len(self.games) > 1:
            return TWO_GAMES
        if not self.games:
            return TO_START
        return FINISHED if self.games[0].status == OVER and self.games[0].result else IN_PROGRESS

    def finishes(self) -> list[Finish]:
        """The players' places and final scores, by the tournament's spelling of each name (a finished table only)."""
        spelled = {person_key(name): name for name in self.players}
        return [Finish(spelled[person_key(r["name"])], int(r["place"]), int(r["total"])) for r in self.games[0].result]

    def said(self) -> str:
        """``table 2 (spring-r1-t2: Ana, Bruno, Carla) in progress``: for a round that is not over."""
        games = f"{', '.join(g.name for g in self.games)}: " if self.games else ""
        return f"table {self.number} ({games}{', '.join(self.players)}) {self.state}"

    def to_json(self) -> dict[str, Any]:
        game = self.games[0] if len(self.games) == 1 else None
        return {"table": self.number, "players": list(self.players), "state": self.state,
                "games": [g.name for g in self.games],
                "result": [{"name": f.name, "place": f.place, "score": f.score} for f in self.finishes()]
                if self.state == FINISHED else None,
                "game": game.name if game else None}


@dataclass(frozen=True)
class SeatedRound:
    """A round as seated, its tables' games, and why anyone met again."""

    number: int
    tables: tuple[SeatedTable, ...]
    explanations: tuple[str, ...]

    @property
    def over(self) -> bool:
        return all(t.state == FINISHED for t in self.tables)

    def waiting(self) -> list[SeatedTable]:
        """The tables not finished yet."""
        return [t for t in self.tables if t.state != FINISHED]


@dataclass(frozen=True)
class Progress:
    """A tournament's record and its rounds as they stand."""

    tournament: Tournament
    rounds: tuple[SeatedRound, ...]

    @property
    def over(self) -> bool:
        """Every round seated and finished."""
        return len(self.rounds) == self.tournament.rounds and all(r.over for r in self.rounds)

    def standings(self) -> list[list[Standing]]:
        """The standings after each seated round, with the tables finished so far (a round under way: its
        finished tables only, so that the standings move as each game ends)."""
        finished = [[t.finishes() for t in r.tables if t.state == FINISHED] for r in self.rounds]
        return standings(finished, points_by_size(self.tournament.points), self.tournament.players)

    def standings_before(self) -> list[Standing]:
        """Everyone level, before any round: the standings a tournament shows until its first result."""
        return standings([[]], points_by_size(self.tournament.points), self.tournament.players)[0]

    def strengths(self) -> dict[str, float] | None:
        """What the next round is balanced by: round 1 by the strengths given (or none), later rounds by the
        tournament points so far (a Swiss)."""
        if not self.rounds:
            return self.tournament.strengths
        return {line.name: float(line.points) for line in self.standings()[-1]}


def progress(tournament: Tournament, games: Iterable[GameInfo]) -> Progress:
    """Where ``tournament`` stands, its games found among ``games`` (those tagged with it, not archived)."""
    given = [g for g in games if not g.archived]
    rounds = []
    for number, (tables, explanations) in enumerate(zip(tournament.seated, tournament.explanations), 1):
        tag = round_tag(tournament.name, number)
        ours = [g for g in given if tag in g.tags]
        rounds.append(SeatedRound(number, tuple(SeatedTable(k, table, _holding(ours, table))
                                                for k, table in enumerate(tables, 1)), explanations))
    return Progress(tournament, tuple(rounds))


def _holding(games: Sequence[GameInfo], table: Sequence[str]) -> tuple[GameInfo, ...]:
    """The games whose players are exactly ``table``'s, the oldest first."""
    people = sorted(person_key(name) for name in table)
    return tuple(sorted((g for g in games if sorted(person_key(n) for n, _ in g.players) == people),
                        key=lambda g: g.created))


def standing_json(line: Standing) -> dict[str, Any]:
    """A line of the standings as ``--json`` and the organiser's page say it (points to 3 decimals: 7/3 is 2.333)."""
    return {"rank": line.rank, "player": line.name, "points": round(float(line.points), 3), "scored": line.scored,
            "opponents": round(float(line.opponents), 3)}


def round_json(seated: SeatedRound, after: Sequence[Standing]) -> dict[str, Any]:
    """A round's tables, explanations and the standings after it (so far, while it is under way)."""
    return {"round": seated.number, "over": seated.over, "tables": [t.to_json() for t in seated.tables],
            "explanations": list(seated.explanations), "standings": [standing_json(line) for line in after]}


def progress_json(now: Progress) -> dict[str, Any]:
    """Where a tournament stands: its facts, each round seated, and the standings now."""
    after = now.standings()
    return {**now.tournament.facts(), "over": now.over,
            "seated": [round_json(r, lines) for r, lines in zip(now.rounds, after)],
            "standings": [standing_json(line) for line in (after[-1] if after else now.standings_before())]}
