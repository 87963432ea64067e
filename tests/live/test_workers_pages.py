"""Two server processes on one real PostgreSQL, in a real browser: a page served by one process and a page served by
the other (two ``coimbra serve`` of one game, on two ports, so that which process serves each page is known). The
second is given the same links as the first (the keys the store keeps); a seat claimed on a page of one is held on a
page of the other; a tap on a page of one reaches the page of the other within a second."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any, Iterator

import pytest

from tests.browser_kit import chromium
from tests.live.test_pages import Phone
from tests.live.test_workers import on_postgres
from tests.store.conftest import postgres_env, postgres_server  # noqa: F401  (fixtures)

REACHED = 1.0
"""Seconds within which a tap on one process's page is shown on the other's."""


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    yield from chromium()


def test_a_tap_on_a_page_of_one_process_reaches_a_page_of_the_other(browser, postgres_env, tmp_path: Path) -> None:
    first = on_postgres(postgres_env, tmp_path, "--players", "Ana:red,Bruno:blue", "--seed", "3")
    second = on_postgres(postgres_env, tmp_path, first.game)
    try:
        assert (second.players, second.watchers) == (first.players, first.watchers)
        due = first.client(first.players).get(first.api()).json()["due"]["player"]
        other = "Bruno" if due == "Ana" else "Ana"
        tapping = Phone(browser, first.line["players_url"], me=due)
        watching = Phone(browser, second.line["players_url"], me=other)
        watching.until(f"document.getElementById('options').innerText === 'Waiting for {due} (on another phone).'")
        entries = watching.entries()
        tapping.tap("#options button[data-input] >> nth=0")
        tapped = time.monotonic()
        watching.at(entries + 1)
        took = time.monotonic() - tapped
        assert took < REACHED, f"the page of the other process showed the tap {took:.2f} s after it"
        assert tapping.errors == watching.errors == []
    finally:
        assert second.stop() == 0 and first.stop() == 0
