"""Never stale without saying so: a page that missed an entry says it is not up to date, keeps its buttons off,
and shows the server's head within 2 s once it can read the game again.

One phone's page (Chromium at 390×844, ``tests.live.test_pages.Phone``) follows a served game while another
phone records through the API. The page misses the entry one of three ways: its read of the game is aborted
while the event stream stays open (``page.route``), or the phone is offline for 1 s or for 30 s
(``context.set_offline``) while the entry is stored. The first two are played ``RUNS`` times in one browser
(the issue asks 20 of 20); the 30 s one once, as it is 30 s of waiting. About 75 s in all on two shared cores:
the two long ones are over the 10 s a test may take, as 20 runs of 1 s offline and one of 30 s must be.
"""

from __future__ import annotations

import re
import time
from typing import Any, Callable, Iterator
from urllib.parse import urlparse

import pytest

from tests.browser_kit import axe_violations, chromium
from tests.conftest import ROOT
from tests.live.conftest import SETUP_ENTRIES, Served, fixture_inputs
from tests.live.test_pages import Phone

RUNS = 20
"""Times each short scenario is played in a row: each must catch up every time."""
WITHIN = 2.0
"""Seconds from the network coming back (or the read being lost) until the page shows the server's head."""
INPUTS = fixture_inputs()
SAID = "document.getElementById('connection').textContent.startsWith('not up to date')"
OFF = """(() => { const b = [...document.querySelectorAll('#act button')];
  return b.length > 0 && b.every((x) => x.matches(':disabled')) && document.body.dataset.live === ''; })()"""
"""The page's every button that records is off, and the page is not live."""


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    yield from chromium()


class OtherPhone:
    """Another phone at the table, recording the fixture's next entries through the API."""

    def __init__(self, served: Served) -> None:
        self.served, self.client = served, served.client(served.players)
        now = self.client.get(served.api()).json()
        self.head, self.events = now["head"], now["events"]

    def record(self, entries: int = 1) -> str:
        """Record the next entry (or ``entries`` in one input); the server's head after it. The stream tells the
        newest entry with the view after it, which a page holding the one before draws without reading the game;
        two entries at once are told one by one, the first without a view: the page reads the game."""
        inputs = INPUTS[self.events:self.events + entries]
        answer = self.client.post(self.served.api("/inputs"), json={"inputs": inputs, "after": self.head, "by": "Carla's phone"})
        assert answer.status_code == 200, answer.text
        self.head, self.events = answer.json()["head"], self.events + entries
        return self.head


def caught_up(phone: Phone, head: str, since: float) -> float:
    """Wait until the page shows ``head``, and then is live; the seconds from ``since`` until it showed it."""
    phone.until(f"document.body.dataset.head === '{head}'", timeout=WITHIN + 1)
    took = time.monotonic() - since
    phone.until("document.body.dataset.live === '1'", timeout=WITHIN + 1)
    assert phone.page.inner_text("#connection") == "live" and phone.page.locator("#behind-note").is_hidden()
    return took


@pytest.fixture(scope="module")
def table(fixture_game: Callable[..., Served]) -> Served:
    """The module's game, from its first decision on: each test records the fixture's next entries into it."""
    return fixture_game(SETUP_ENTRIES, "stale")


@pytest.fixture
def phone(browser: Any, table: Served) -> Iterator[Phone]:
    """Ana's phone, following the game (closed after the test)."""
    phone = Phone(browser, table.line["players_url"], me="Ana")
    yield phone
    phone.context.close()


@pytest.fixture
def other(table: Served) -> OtherPhone:
    return OtherPhone(table)


def the_reads(table: Served) -> Callable[[str], bool]:
    """Whether a URL is a read of the game (not its stream)."""
    game = urlparse(table.url + table.api()).path
    return lambda url: urlparse(url).path == game


def test_a_read_aborted_while_the_stream_stays_open_is_made_again(phone: Phone, other: OtherPhone, table: Served):
    reads = the_reads(table)
    took = []
    for _ in range(RUNS):
        lost: list[str] = []

        def lose_the_first(route: Any) -> None:
            if lost:
                route.continue_()
            else:
                lost.append(route.request.url)
                route.abort()

        phone.page.route(reads, lose_the_first)
        since = time.monotonic()
        head = other.record(entries=2)
        took.append(caught_up(phone, head, since))
        phone.page.unroute(reads)
        assert len(lost) == 1, "the page's read of the new entry was lost"
    assert max(took) < WITHIN, took
    assert not phone.errors
    print(f"\nread lost {RUNS} times: caught up in at most {max(took):.2f} s")


def test_a_page_reading_a_new_entry_has_its_buttons_off_and_says_so_until_it_holds_it(
        phone: Phone, other: OtherPhone, table: Served):
    reads = the_reads(table)
    held: list[Any] = []  # the read of the new entry, held on its way out
    phone.page.route(reads, lambda route: held.append(route))
    head = other.record(entries=2)
    phone.until(OFF, timeout=WITHIN)
    phone.until(f"{SAID} && {OFF}", timeout=WITHIN)
    assert len(held) == 1 and phone.page.locator("#behind-note").is_visible()
    held[0].continue_()
    phone.page.unroute(reads)  # (lets any later read through)
    assert caught_up(phone, head, time.monotonic()) < WITHIN and not phone.errors


def test_a_read_the_server_refuses_is_said_and_not_tried_again(phone: Phone, other: OtherPhone, table: Served):
    reads = the_reads(table)
    phone.context.clear_cookies()  # the page's key is gone: its stream stays open, its reads are refused,
    phone.page.evaluate("sessionStorage.clear()")  # and the token it kept is gone too: nothing to join again with
    other.record(entries=2)
    phone.until("document.getElementById('message').innerText.includes('no key to the table')", timeout=WITHIN)
    made = sum(map(reads, phone.requests))
    phone.page.wait_for_timeout(2500)
    assert sum(map(reads, phone.requests)) == made
    assert phone.page.evaluate(f"{SAID} && {OFF}")


def test_a_page_holding_the_head_draws_the_next_entry_from_its_stream_without_reading(
        browser: Any, other: OtherPhone, table: Served):
    watcher = Phone(browser, table.line["watchers_url"])  # (a phone claiming a seat reads again when told of it)
    reads = the_reads(table)
    made = sum(map(reads, watcher.requests))
    for _ in range(3):
        since = time.monotonic()
        head = other.record()
        assert caught_up(watcher, head, since) < WITHIN
    assert sum(map(reads, watcher.requests)) == made  # each entry on the stream carried the view after it
    assert not watcher.errors
    watcher.context.close()


def offline(phone: Phone, other: OtherPhone, seconds: float) -> float:
    """Cut the phone's network for ``seconds`` while the other phone records; the seconds from the network
    coming back until the page shows the server's head (meanwhile the page says so and its buttons are off).
    Two entries are recorded: Chromium's offline mode does not always cut a stream already open, and a page told
    a single entry with the view after it would rightly be up to date; the first of two comes without a view,
    and the page must read the game, which fails until the network is back."""
    phone.context.set_offline(True)
    cut = time.monotonic()
    head = other.record(entries=2)
    phone.until(f"{SAID} && {OFF}", timeout=seconds)
    while time.monotonic() < cut + seconds:
        assert phone.page.evaluate(f"{SAID} && {OFF}"), "behind, saying so, its buttons off, until the network is back"
        time.sleep(min(0.25, max(0.0, cut + seconds - time.monotonic())))
    phone.context.set_offline(False)
    return caught_up(phone, head, time.monotonic())


def test_one_second_offline_the_page_catches_up_once_the_network_is_back(phone: Phone, other: OtherPhone):
    took = [offline(phone, other, 1.0) for _ in range(RUNS)]
    assert max(took) < WITHIN, took
    assert not phone.errors
    print(f"\n1 s offline {RUNS} times: caught up in at most {max(took):.2f} s")


def test_thirty_seconds_offline_the_page_catches_up_once_the_network_is_back(phone: Phone, other: OtherPhone):
    took = offline(phone, other, 30.0)
    assert took < WITHIN and not phone.errors, took


@pytest.mark.parametrize("role", ["players", "watchers"])
def test_axe_finds_nothing_on_a_page_that_is_not_up_to_date(browser, table: Served, role: str):
    phone = Phone(browser, table.line[f"{role}_url"], audit=True)
    phone.context.set_offline(True)
    phone.until(SAID, timeout=WITHIN)
    assert phone.page.locator("#status").is_visible()
    if role == "players":
        assert phone.page.evaluate(OFF) and phone.page.locator("#behind-note").is_visible()
    phone.shot(f"not-up-to-date-{role}")
    assert axe_violations(phone.page) == []
    phone.context.close()


def test_docs_say_how_a_page_keeps_up_as_the_page_does():
    doc = " ".join((ROOT / "docs" / "serve.md").read_text().split())
    script = (ROOT / "cli" / "live" / "static" / "live.js").read_text()
    ms = {name: int(value) for name, value in re.findall(r"const ([A-Z_]+) = (\d+);", script)}
    claims = {
        "a quarter of a second after a failed read": ms["RETRY_FIRST"] == 250,
        "doubling each time up to a second": ms["READ_EVERY"] == 1000,
        "every second while it is not live": ms["READ_EVERY"] == 1000,
        "if the browser has not reopened it within 2 seconds": ms["REOPEN_AFTER"] == 2000,
        "behind for more than 0.4 seconds": ms["SAY_AFTER"] == 400,
        f"within 2 s of the network coming back, {RUNS} of {RUNS} runs": (WITHIN, RUNS) == (2.0, 20),
        "not up to date: reading the game again…": "not up to date: reading the game again…" in script,
        "not up to date: reconnecting…": "not up to date: reconnecting…" in script,
    }
    for words, holds in claims.items():
        assert words in doc and holds, words
