"""The live table's HTTP API (``docs/serve.md``): read the game, record into it, and a session for the pages.

Every route answers JSON and runs the table's use cases (``coimbra_events.service``)
through the served table (``cli.live.table``), as ``coimbra act`` runs them: a
write carries the head the device showed (``after``), and the answer is the
use case's value: 200 with the entries stored, 409 when the record moved on
(with what changed since), 422 when a rule refuses (its rule id, reason and
facts), 400 for input that cannot be read (the line the CLI would print).

A page names its phone (``X-Coimbra-Device``: an id it made once and keeps): it
claims seats (``/seats``), and its writes are its seats' decisions or the table's
outcomes, else 403 in words (``coimbra_events.service.seats``); the view tells it
which seats it holds. A client that names no phone records as the table's scribe.

One server may serve many tables (``cli.live.tables``): each route finds its table by the
name in its path and admits the request by that table's keys only.
"""

from __future__ import annotations

import re
from typing import Any, Awaitable, Callable

import orjson
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from cli.live.access import MAX_NAME, Gate, bearer_token, entry_number, refusal, text_field
from cli.live.refusals import Refusals
from cli.live.table import ServedTable
from cli.live.tables import ServedTables, admitted
from cli.presenter import conflict_json, refused_json, stored_json
from coimbra_events.event_decoding import PayloadError
from coimbra_events.service import Claimed, Conflict, NoSeat, NotYours, Refused, Stored
from coimbra_events.store.errors import DamagedGame, TableInputNeeded, UnknownGame

MAX_INPUTS = 20
"""Inputs one request may record (all or none)."""
DEVICE = "X-Coimbra-Device"
"""The header naming the phone a request comes from: 16 to 64 letters, digits, ``-`` or ``_``."""
_DEVICE = re.compile(r"[A-Za-z0-9_-]{16,64}")


class Json(JSONResponse):
    """A JSON answer (orjson), never kept by a browser's cache: it is the game as it was at one moment."""

    def __init__(self, content: Any, status_code: int = 200) -> None:
        super().__init__(content, status_code, headers={"Cache-Control": "no-store"})

    def render(self, content: Any) -> bytes:
        return orjson.dumps(content)


def routes(tables: ServedTables, gate: Gate) -> list[BaseRoute]:
    """The API's routes on the served tables."""
    api = Api(tables, gate)
    base = "/api/games/{name}"
    return [
        Route("/api/session", api.session, methods=["POST"]),
        Route(base, api.game, methods=["GET"]),
        Route(f"{base}/inputs", api.writer(api.inputs), methods=["POST"]),
        Route(f"{base}/undo", api.writer(api.undo), methods=["POST"]),
        Route(f"{base}/accept", api.writer(api.accept), methods=["POST"]),
        Route(f"{base}/notes", api.writer(api.note), methods=["POST"]),
        Route(f"{base}/seats", api.writer(api.seat), methods=["POST"]),
    ]


Body = dict[str, Any]
Use = Callable[[], Any]


class Api:
    """The handlers; ``writer`` wraps each write in the checks every write shares."""

    def __init__(self, tables: ServedTables, gate: Gate) -> None:
        self.tables, self.gate = tables, gate

    async def session(self, request: Request) -> Response:
        """Trade a token (``Authorization: Bearer``) for the session cookie of its table (or of the organiser)
        that an event stream can send."""
        keys = self.tables.holder(bearer_token(request), request.cookies)
        refused = self.gate.cross_site(request, json=False)
        role = refused or await self.gate.admit(request, keys)
        if isinstance(role, Response):
            return role
        seated = next((s for s in self.tables.served.values() if s.keys is keys), None)
        response = Json({"role": role, "game": seated.table.name if seated else None})
        response.set_cookie(keys.cookie_name(role), keys.cookie(role), httponly=True, samesite="strict", path="/")
        return response

    async def game(self, request: Request) -> Response:
        """The game as every page shows it (``game_view``); ``?since=N``: only the entries after N."""
        found = await admitted(self.tables, self.gate, request)
        if isinstance(found, Response):
            return found
        table = found[0]
        since = request.query_params.get("since")
        try:
            first = 0 if since is None else entry_number(since, "since")
            device = _device(request)
        except ValueError as exc:
            return refusal(400, f"bad request: {exc}")
        view = await table.run(lambda: table.view(device))
        return Json({**view, "entries": view["entries"][first:]} if first else view)

    def writer(self, write: Callable[[ServedTable, Body, str | None], Use]) -> Callable[[Request], Awaitable[Response]]:
        """A write route: admitted as the players of the table it names, a JSON object body; ``write`` reads the
        body and the phone's device id into the use case to run on the table (``ValueError``: not what the route
        takes, 400)."""

        async def handle(request: Request) -> Response:
            found = await admitted(self.tables, self.gate, request, write=True)
            if isinstance(found, Response):
                return found
            table = found[0]
            try:
                body = orjson.loads(await request.body())
                if not isinstance(body, dict):
                    raise ValueError("the body must be a JSON object")
                use = write(table, body, _device(request))
            except (ValueError, orjson.JSONDecodeError) as exc:
                return refusal(400, f"bad request: {exc}")
            return await self.answer(table, use, body)

        return handle

    def inputs(self, table: ServedTable, body: Body, device: str | None) -> Use:
        """``{"input": "...", "after", "by"}`` (or ``"inputs": [...]``, all or none): ``Games.record``."""
        given = body.get("inputs")
        if given is None:
            inputs = [text_field(body, "input")]
        elif not isinstance(given, list) or not 0 < len(given) <= MAX_INPUTS:
            raise ValueError(f"'inputs': expected a list of 1 to {MAX_INPUTS} strings")
        else:
            inputs = [text_field({"input": g}, "input") for g in given]
        after, by = _after(body), _by(body, table.by)
        return lambda: table.record(inputs, after, by, device)

    def undo(self, table: ServedTable, body: Body, device: str | None) -> Use:
        """``{"after", "by"}``: ``Games.undo``, the latest play withdrawn (by a phone: its seat's or the table's)."""
        after, by = _after(body), _by(body, table.by)
        return lambda: table.undo(after, by, device)

    def accept(self, table: ServedTable, body: Body, device: str | None) -> Use:
        """``{"input", "reason", "after", "by"}``: ``Games.accept``, a move the table accepts against a rule."""
        given, reason = text_field(body, "input"), text_field(body, "reason")
        after, by = _after(body), _by(body, table.by)
        return lambda: table.accept(given, reason, after, by, device)

    def seat(self, table: ServedTable, body: Body, device: str | None) -> Use:
        """``{"seat": NAME, "take_over": false}`` (or ``"release": true``): the phone claims a seat, or lets it go."""
        seat = text_field(body, "seat", most=MAX_NAME)
        if device is None:
            raise ValueError(f"a seat is held by a phone: say which ({DEVICE}: the id the page made)")
        if body.get("release", False) is True:
            return lambda: table.release(device, seat)
        return lambda: table.claim(device, seat, body.get("take_over", False) is True)

    def note(self, table: ServedTable, body: Body, device: str | None) -> Use:
        """``{"at": N, "text", "bookmark": false, "by"}``: ``Games.note`` (no ``after``: a note means the same
        whatever was recorded since)."""
        at, text = body.get("at"), text_field(body, "text")
        if not isinstance(at, int) or isinstance(at, bool) or at < 0:
            raise ValueError("'at': expected an entry number")
        bookmark = body.get("bookmark", False) is True
        by = _by(body, table.by)
        return lambda: table.note(at, text, bookmark, by)

    async def answer(self, table: ServedTable, use: Use, body: Body) -> Response:
        """Run a write's use case and answer its value (or the one line the CLI says for input it cannot read)."""
        from coimbra_events.game import NothingToOverride
        from coimbra_events.notation import NotationError

        refusals = Refusals(bad=(NotationError, PayloadError, TableInputNeeded, NothingToOverride), unknown=(UnknownGame,),
                            damaged=(DamagedGame,))
        outcome = await refusals.run(table.run(use))
        if isinstance(outcome, Response):
            return outcome
        if isinstance(outcome, Conflict):
            return Json(conflict_json(outcome, table.since(str(body.get("after", "")))), status_code=409)
        if isinstance(outcome, Refused):
            return Json(refused_json(outcome), status_code=422)
        if isinstance(outcome, NotYours):
            return Json({"error": outcome.reason, "player": outcome.player}, status_code=403)
        if not isinstance(outcome, Stored):  # a seat claimed, refused or let go
            return self.seated(outcome)
        return Json(stored_json(outcome, [table.entries[e.seq - 1] for e in outcome.entries]))

    def seated(self, outcome: Any) -> Response:
        """A claim's answer: 200 with the seat claimed, 409 naming the phone that holds the seat (by its seats), 400
        for no such seat; a release: whether the phone held it."""
        if isinstance(outcome, bool):
            return Json({"released": outcome})
        if isinstance(outcome, Claimed):
            return Json({"seat": outcome.seat, "took_over": outcome.took_over})
        if isinstance(outcome, NoSeat):
            return refusal(400, f"bad request: {outcome.reason}")
        return Json({"error": outcome.reason, "seat": outcome.seat, "holder": list(outcome.holder)}, status_code=409)


def _after(body: Body) -> str:
    """The head the device showed: every write but a note carries it (at least 8 hex digits)."""
    after = text_field(body, "after", most=64).strip().lower()
    if len(after) < 8 or any(c not in "0123456789abcdef" for c in after):
        raise ValueError("'after': the head hash the device showed (at least 8 of its hex digits)")
    return after


def _device(request: Request) -> str | None:
    """The phone a request comes from (``DEVICE``), ``None`` if it names none; ``ValueError`` if it is not an id."""
    device = request.headers.get(DEVICE)
    if device is not None and not _DEVICE.fullmatch(device):
        raise ValueError(f"{DEVICE}: expected 16 to 64 letters, digits, '-' or '_'")
    return device


def _by(body: Body, default: str) -> str:
    by = text_field(body, "by", required=False, most=MAX_NAME)
    return by.strip() if by and by.strip() else default

