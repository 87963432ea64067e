"""A use case's exceptions as the HTTP refusals the live routes answer: one mapping, said once.

A route runs a use case of the application (``coimbra_events.service``) and answers its value; what the use case
raises for input it cannot take is the same few kinds across the routes (the table's API, ``cli.live.api``; the
organiser's tournaments, ``cli.live.tournament_panel``): input refused (400, and nothing was stored), a name that
names nothing (404), a store that moved or a state that forbids it (409), a damaged record (500). Each route names
its exceptions by kind (``Refusals``) and gets the value or the refusal (``Refusals.run``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Awaitable, TypeVar

from starlette.responses import Response

from cli.live.access import refusal

T = TypeVar("T")
Kinds = tuple[type[Exception], ...]


@dataclass(frozen=True)
class Refusals:
    """Which exceptions of a use case are refused, by kind: each said in its one line (a 400's with "; nothing
    stored" after it); any other is the server's own failure and propagates."""

    bad: Kinds = ()
    """400: input the use case cannot take."""
    unknown: Kinds = ()
    """404: a game or tournament of no such name."""
    conflict: Kinds = ()
    """409: the store moved on meanwhile, or the state forbids it."""
    damaged: Kinds = ()
    """500: a stored record that is not what was recorded."""

    async def run(self, work: Awaitable[T]) -> T | Response:
        """What ``work`` gives, or the refusal of the exception it raised."""
        try:
            return await work
        except self.bad as exc:
            return refusal(400, f"{exc}; nothing stored")
        except self.unknown as exc:
            return refusal(404, str(exc))
        except self.conflict as exc:
            return refusal(409, str(exc))
        except self.damaged as exc:
            return refusal(500, str(exc))
