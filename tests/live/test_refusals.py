"""A use case's exceptions as the live routes' refusals (``cli.live.refusals``): each kind its status and line, the
value through when nothing is raised, and any other exception the server's own failure (it propagates)."""

from __future__ import annotations

import asyncio
from typing import Any

import orjson
import pytest

from cli.live.refusals import Refusals


class Bad(ValueError):
    pass


class Unknown(KeyError):
    def __str__(self) -> str:
        return "no game named 'x'"


REFUSALS = Refusals(bad=(Bad,), unknown=(Unknown,), conflict=(RuntimeError,), damaged=(OSError,))


def refused(exc: Exception, refusals: Refusals = REFUSALS) -> Any:
    async def work() -> None:
        raise exc

    return asyncio.run(refusals.run(work()))


@pytest.mark.parametrize("exc, status, error", [
    (Bad("'after': expected a head"), 400, "'after': expected a head; nothing stored"),
    (Unknown(), 404, "no game named 'x'"),
    (RuntimeError("the store moved on"), 409, "the store moved on"),
    (OSError("entry 5 does not match"), 500, "entry 5 does not match"),
])
def test_each_kind_is_its_refusal(exc: Exception, status: int, error: str) -> None:
    answer = refused(exc)
    assert answer.status_code == status and orjson.loads(answer.body) == {"error": error}
    assert answer.headers["Cache-Control"] == "no-store"


def test_the_value_passes_and_any_other_exception_propagates() -> None:
    async def value() -> dict[str, int]:
        return {"stored": 1}

    assert asyncio.run(REFUSALS.run(value())) == {"stored": 1}
    with pytest.raises(Bad):
        refused(Bad("not refused by these"), Refusals(unknown=(Unknown,)))
