"""The organiser's routes of a server of every table: the list of the tables with their links, and the cards.

``GET /api/tables`` answers, to the organiser's token only, every served table at a glance with its
players' and watchers' links and tokens and a QR code of its players' link (segno, an SVG as a data
URI, made once per set of keys); ``/cards`` (a public shell, ``cli.live.pages``) prints them as
table cards. A server of one table has no organiser: there the route answers 404.
"""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from cli.live.access import Gate, Keys, refusal
from cli.live.api import Json
from cli.live.tables import Seated, ServedTables
from coimbra_events.store.links import ORGANISER


def links(base: str, keys: Keys) -> dict[str, str]:
    """A table's links and tokens (``base``: ``http://HOST:PORT``), as ``--json`` and the organiser's list say them."""
    return {"players_url": f"{base}/play#t={keys.players}", "watchers_url": f"{base}/watch#t={keys.watchers}",
            "players_token": keys.players, "watchers_token": keys.watchers}


def organiser_links(base: str, keys: Keys) -> dict[str, str]:
    """The organiser's link (the table cards) and token."""
    token = keys.kept.roles()[ORGANISER]
    return {"organiser_url": f"{base}/cards#t={token}", "organiser_token": token}


def routes(tables: ServedTables, gate: Gate, base: str) -> list[BaseRoute]:
    return [Route("/api/tables", Organiser(tables, gate, base).listed, methods=["GET"])]


class Organiser:
    """The organiser's handlers."""

    def __init__(self, tables: ServedTables, gate: Gate, base: str) -> None:
        self.tables, self.gate, self.base = tables, gate, base
        self._codes: dict[str, str] = {}
        """The QR code of each set of keys' players' link, by the keys' id."""

    async def listed(self, request: Request) -> Response:
        """Every served table, in the order served, at a glance and with its links (the organiser's token only)."""
        if self.tables.organiser is None:
            return refusal(404, "this server serves one table: it has no organiser's list (serve without GAME)")
        role = await self.gate.admit(request, self.tables.organiser)
        if isinstance(role, Response):
            return role
        return Json({"tables": [await self._table(s) for s in list(self.tables.served.values())]})

    async def _table(self, seated: Seated) -> dict[str, Any]:
        glance = await seated.table.run(seated.table.glance)
        shown = links(self.base, seated.keys)
        return {**glance, **shown, "players_qr": self._code(seated.keys.kept.id, shown["players_url"])}

    def _code(self, keys_id: str, url: str) -> str:
        if keys_id not in self._codes:
            import segno

            self._codes[keys_id] = segno.make(url, error="l").svg_data_uri(scale=4, border=2)
        return self._codes[keys_id]
