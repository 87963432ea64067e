"""A stream that says nothing is dead (docs/serve.md, "How a page keeps up"): a page whose open event stream told
no entry and no ping for three pings' time closes it and opens another, so that a connection the Wi-Fi dropped
without a word never looks live.

The page's clock is Playwright's (``page.clock``): moved on at once, the server's pings (every ``PING`` real
seconds) cannot come meanwhile, as none comes over a dead connection.
"""

from __future__ import annotations

import time
from typing import Any, Iterator

import pytest

from cli.live.stream import PING
from tests.browser_kit import chromium
from tests.live.conftest import Served
from tests.live.test_pages import Phone


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    yield from chromium()


class ClockedPhone(Phone):
    """A phone whose page's clock the test moves on."""

    def open(self, url: str) -> None:
        self.page.clock.install()
        super().open(url)

    def streams(self) -> int:
        """Event streams the page opened so far."""
        return sum("/events" in url for url in self.requests)


def test_a_page_whose_stream_says_nothing_for_three_pings_opens_another(browser: Any, table_game: Served) -> None:
    phone = ClockedPhone(browser, table_game.line["players_url"], me="Ana")
    try:
        opened = phone.streams()
        phone.page.clock.fast_forward(2 * PING * 1000)  # two pings' time at once: a slow network, not a dead stream
        time.sleep(PING + 1.5)  # a ping comes meanwhile (without it the page's time is past three pings and a second)
        phone.until("document.body.dataset.live === '1'")
        assert phone.streams() == opened
        phone.page.clock.fast_forward((3 * PING + 2) * 1000)  # past three pings and a second with no word
        end = time.monotonic() + 5
        while phone.streams() == opened and time.monotonic() < end:
            time.sleep(0.05)
        phone.until("document.body.dataset.live === '1'")
        assert phone.streams() == opened + 1 and not phone.errors
    finally:
        phone.context.close()
