"""A link's budget of event streams open at once (the organiser's, the evening's): a slot is taken before a
stream is answered and given back when it ends, however it ends; over the budget, 503 with ``Retry-After``."""

from __future__ import annotations

from typing import Any, AsyncIterator

from starlette.responses import Response

from cli.live.access import refusal
from cli.live.stream import RETRY_AFTER, HeldStream


class StreamBudget:
    """At most ``most`` streams of ``whose`` link open at once."""

    def __init__(self, most: int, whose: str) -> None:
        self.most, self.whose = most, whose
        self.open = 0

    def stream(self, events: AsyncIterator[dict[str, Any]]) -> Response:
        """``events`` as a held stream, or the refusal when the budget is full."""
        if self.open >= self.most:
            return refusal(503, f"{self.whose} link has {self.most} streams open: try again in {RETRY_AFTER} seconds",
                           {"Retry-After": str(RETRY_AFTER)})
        self.open += 1
        return HeldStream(events, self._release)

    def _release(self) -> None:
        self.open -= 1
