"""What a live page draws first: the part of the board in view with the entry, a part out of view a moment after.

A watchers' page at the top of a phone (390×844) shows the header, the latest entry and the list of entries; the
players' boards are screens below. Told an entry that changes a player's holdings, the page shows the entry with the
boards still as they were and marked as being updated (``aria-busy``), and draws them a moment later; scrolled to the
boards, it draws them with the entry (``cli/web/board.js``, ``table(root, lazy)``; docs/serve.md, "The pages").
"""

from __future__ import annotations

from typing import Any, Iterator

import pytest

from cli.presenter import notation
from coimbra_events import log_reader
from coimbra_events.events import CardBought
from tests.browser_kit import chromium
from tests.live.conftest import FIXTURE, Served
from tests.live.test_pages import Phone

AT_SHOWN = """() => { window.atShown = null; new MutationObserver((_, watcher) => { watcher.disconnect();
  const boards = document.getElementById("boards");
  window.atShown = [boards.getAttribute("aria-busy"), boards.innerHTML];
}).observe(document.body, { attributes: true, attributeFilter: ["data-entries"] }); }"""
"""Note, as the page shows the next entry (in the same task that draws it), the players' boards as they are then."""


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    yield from chromium()


def buys() -> list[int]:
    """The fixture's entries that buy a card (a player's holdings change), by index."""
    return [k for k, e in enumerate(log_reader.read(FIXTURE).events) if isinstance(e, CardBought)]


def enter(served: Served, k: int, head: str) -> None:
    """Entry ``k`` of the fixture, through the API, on ``head``."""
    event = log_reader.read(FIXTURE).events[k]
    with served.client(served.players) as client:
        answer = client.post(served.api("/inputs"), json={"input": notation(event), "after": head})
    assert answer.status_code == 200, answer.text


def test_a_part_out_of_view_is_drawn_after_the_entry_and_a_part_in_view_with_it(browser, fixture_game):
    first, second = buys()[:2]
    served = fixture_game(first, "drawing")
    watcher = Phone(browser, served.line["watchers_url"])
    page = watcher.page
    page.evaluate("window.scrollTo(0, 0)")
    before = page.inner_html("#boards")
    assert page.evaluate("document.getElementById('boards').getBoundingClientRect().top") > 2 * 844  # screens below

    page.evaluate(AT_SHOWN)
    enter(served, first, watcher.head())
    watcher.at(first + 1)
    busy, drawn = page.evaluate("window.atShown")
    assert busy == "true" and drawn == before  # shown with the entry: the boards out of view not yet drawn
    watcher.until("!document.getElementById('boards').hasAttribute('aria-busy')", timeout=2.0)
    assert page.inner_html("#boards") != before  # drawn a moment later

    for k in range(first + 1, second):  # on to the next buy, through the API
        enter(served, k, watcher.head())
        watcher.at(k + 1)
    page.locator("#boards").scroll_into_view_if_needed()
    watcher.until("!document.getElementById('boards').hasAttribute('aria-busy')", timeout=2.0)
    before = page.inner_html("#boards")
    page.evaluate(AT_SHOWN)
    enter(served, second, watcher.head())
    watcher.at(second + 1)
    busy, drawn = page.evaluate("window.atShown")
    assert busy is None and drawn != before  # in view: drawn with the entry
    assert not watcher.errors, watcher.errors
    watcher.context.close()
