"""The live table's pages: ``/play`` (a player's phone), ``/watch`` (a watcher's, read only), ``/club`` (the
organiser's page, on a server of every table), ``/cards`` (its table cards) and their assets.

The pages are static shells: they hold no game data, so they are served without a token; the script
reads the token from the link's fragment (``#t=...``, which never reaches the server), trades it for the
session cookie (``POST /api/session``) and then reads the game from the API and its event stream. The
board is drawn by the replay page's own script (``cli/web/board.js``), served from here too: nothing
comes from the internet.
"""

from __future__ import annotations

from importlib import resources

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

TYPES = {".html": "text/html; charset=utf-8", ".css": "text/css; charset=utf-8", ".js": "text/javascript; charset=utf-8"}
ASSETS = {
    "board.js": ("web", "board.js"),
    "seats.js": ("live/static", "seats.js"),
    "live.js": ("live/static", "live.js"),
    "board_input.js": ("live/static", "board_input.js"),
    "turn.js": ("live/static", "turn.js"),
    "option_list.js": ("live/static", "option_list.js"),
    "outcome.js": ("live/static", "outcome.js"),
    "live.css": ("live/static", "live.css"),
    "organiser_key.js": ("live/static", "organiser_key.js"),
    "cards.js": ("live/static", "cards.js"),
    "cards.css": ("live/static", "cards.css"),
    "club.js": ("live/static", "club.js"),
    "club.css": ("live/static", "club.css"),
    "replay.css": ("web", "replay.css"),
}
"""The files a page loads, by the name it asks for: where each lives in the ``cli`` package."""

HEADERS = {
    "Content-Security-Policy": "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
                               "connect-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-cache",
}
"""Sent with every page and asset: only this server's own scripts run, and the link is never passed on."""


def _read(folder: str, name: str) -> str:
    return (resources.files("cli").joinpath(*folder.split("/"), name)).read_text("utf-8")


def _file(folder: str, name: str) -> Response:
    kind = TYPES[name[name.rindex("."):]]
    return Response(_read(folder, name), media_type=kind.split(";")[0], headers={**HEADERS, "Content-Type": kind})


async def page(request: Request) -> Response:
    """The one page of both: on ``/play`` the table, who is due, the options as buttons and the table's
    outcomes to enter; on ``/watch`` (and with the watchers' token) the same table with nothing to enter."""
    return _file("live/static", "live.html")


async def cards(request: Request) -> Response:
    """The table cards of a server of every table: the script reads them with the organiser's token."""
    return _file("live/static", "cards.html")


async def club(request: Request) -> Response:
    """The organiser's page of a server of every table (the organiser's link): start a table, every table at a glance."""
    return _file("live/static", "club.html")


async def asset(request: Request) -> Response:
    """A script or stylesheet a page loads (404 for any other name)."""
    name = request.path_params["name"]
    if name not in ASSETS:
        raise HTTPException(404)
    return _file(*ASSETS[name])


def routes() -> list[BaseRoute]:
    """The pages' routes, for ``server.build_app`` to mount."""
    return [
        Route("/play", page, methods=["GET"]),
        Route("/watch", page, methods=["GET"]),
        Route("/cards", cards, methods=["GET"]),
        Route("/club", club, methods=["GET"]),
        Route("/static/{name}", asset, methods=["GET"]),
    ]


__all__ = ["routes"]
