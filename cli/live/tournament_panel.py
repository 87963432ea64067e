"""The organiser's tournament routes of a server of every table: the tournaments as they stand, beginning one,
and seating and starting its next round; the games started are served at once.

Behind the organiser's token, as every organiser's route (``cli.live.club``). What is recorded and how a
round is seated are the application's (``Games.start_tournament``, ``Games.next_round``): these routes read
the request, hold the server's lock while the store is used, and serve the games a round started (tagged
with the evening's tag too). The organiser's page (``/club``, ``static/tournament.js``) shows them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, TypeVar

import orjson
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from cli.live.access import MAX_NAME, Gate, refusal
from cli.live.api import Json
from cli.live.club import Organiser
from cli.live.refusals import Refusals
from cli.live.tables import ServedTables
from coimbra_events.store.errors import BadGameName, BadPlayers, StoreConflict

if TYPE_CHECKING:
    from coimbra_events.service import Games

T = TypeVar("T")
RATINGS = ("league",)
"""Where round 1's strengths may come from (``"ratings": "league"``), as ``tournament start --ratings`` says."""


def routes(tables: ServedTables, gate: Gate, base: str) -> list[BaseRoute]:
    panel = TournamentPanel(tables)
    admitted = Organiser(tables, gate, base).admitted
    return [Route("/api/tournaments", admitted(panel.listed), methods=["GET"]),
            Route("/api/tournaments", admitted(panel.start, write=True), methods=["POST"]),
            Route("/api/tournaments/{name}/next", admitted(panel.next, write=True), methods=["POST"])]


class TournamentPanel:
    """The tournament routes' handlers."""

    def __init__(self, tables: ServedTables) -> None:
        self.tables = tables

    async def listed(self, request: Request) -> Response:
        """Every tournament of the store, the latest first: its facts, each round's tables and games, the standings."""
        from coimbra_events.service.tournament_progress import progress_json

        def every(games: Games) -> list[dict[str, Any]]:
            return [progress_json(games.tournament(name)) for name in reversed(games.tournament_names())]

        return Json({"tag": self.tables.tag, "tournaments": await self._run(every)})

    async def start(self, request: Request) -> Response:
        """``{"name", "players": [names], "rounds", "points": [4 numbers], "seed", "ratings": "league"|null}``:
        a tournament recorded, its round 1 seated and its games started and served."""
        try:
            body = orjson.loads(await request.body())
            name, players, rounds, points, seed, ratings = _tournament(body)
        except (ValueError, TypeError, orjson.JSONDecodeError) as exc:
            return refusal(400, f"bad request: {exc}")

        def begin(games: Games) -> dict[str, Any]:
            strengths = _ratings(games, players) if ratings else None
            tags = [self.tables.tag] if self.tables.tag else []
            outcome = games.start_tournament(name, players, rounds, points, seed, strengths, tags, self.tables.by)
            self._serve(outcome.started.values())
            return outcome.to_json(name)

        return await self._answered(begin)

    async def next(self, request: Request) -> Response:
        """The next round seated and its games started and served; 409 naming the tables not finished; or, once
        every round is played, ``{"over": true}``."""
        from coimbra_events.service.tournaments import RoundNotOver, RoundStarted

        name = request.path_params["name"]

        def seated(games: Games) -> tuple[int, dict[str, Any]]:
            tags = [self.tables.tag] if self.tables.tag else []
            outcome = games.next_round(name, tags, self.tables.by)
            if isinstance(outcome, RoundStarted):
                self._serve(outcome.started.values())
                return 200, outcome.to_json(name)
            if isinstance(outcome, RoundNotOver):
                said = "; ".join(t.said() for t in outcome.round.waiting())
                return 409, {**outcome.to_json(name), "error": f"round {outcome.round.number} is not over: {said}"}
            return 200, {"tournament": name, "round": None, "over": True}

        return await self._answered(seated)

    async def _answered(self, step: Callable[[Games], Any]) -> Response:
        """``step``'s answer (a status and JSON, or JSON), or the refusal of what could not be begun or seated."""
        from coimbra_events.store.tournaments import UnknownTournament
        from coimbra_events.tournament import BadField
        from coimbra_events.tournament.standings import BadPoints

        refusals = Refusals(bad=(BadField, BadPoints, BadPlayers, BadGameName), unknown=(UnknownTournament,),
                            conflict=(StoreConflict,))
        answer = await refusals.run(self._run(step))
        if isinstance(answer, Response):
            return answer
        self.tables.changed()
        status, content = answer if isinstance(answer, tuple) else (200, answer)
        return Json(content, status)

    async def _run(self, step: Callable[[Games], T]) -> T:
        """``step`` on the server's application, in a worker thread holding the tables' lock."""
        def locked() -> T:
            with self.tables.lock:
                return step(self.tables.games)

        return await run_in_threadpool(locked)

    def _serve(self, names: Any) -> None:
        """Serve the games a round started (the lock is held)."""
        for name in names:
            self.tables.serve(name)


def _ratings(games: Games, players: list[str]) -> dict[str, float] | None:
    """The league's rating of each player (none where the store keeps no league)."""
    from projections.league.projection import NoLeague
    from projections.league.reports import ratings_by_name

    try:
        league = games.league()
    except NoLeague:
        return None
    league.catch_up()
    with league.view.reading() as tables:
        return ratings_by_name(tables, players)


def _tournament(body: Any) -> tuple[str, list[str], int, list[int], int, bool]:
    """A tournament to begin, as the page sends it (the domain checks the values: ``BadField``, ``BadPoints``)."""
    if not isinstance(body, dict):
        raise ValueError("expected a JSON object")
    name, players, rounds = body.get("name"), body.get("players"), body.get("rounds")
    points, seed, ratings = body.get("points", [4, 2, 1, 0]), body.get("seed", 0), body.get("ratings")
    if not isinstance(name, str) or not name:
        raise ValueError("'name': expected the tournament's name")
    if not isinstance(players, list) or not all(isinstance(p, str) and len(p) <= MAX_NAME for p in players):
        raise ValueError(f"'players': expected a list of names (at most {MAX_NAME} characters each)")
    if not all(isinstance(v, int) and not isinstance(v, bool) for v in (rounds, seed, *points)):
        raise ValueError("'rounds', 'seed' and 'points': expected whole numbers")
    if ratings not in (None, *RATINGS):
        raise ValueError(f"'ratings': expected null or one of {', '.join(RATINGS)}")
    return name, players, rounds, list(points), seed, ratings is not None
