"""Open pages after a restart of ``coimbra serve``: they carry on by themselves, and are told when the links were
replaced; a new link pasted into the same tab is taken without a reload. In Chromium (``tests.browser_kit``)."""

from __future__ import annotations

from typing import Any, Callable, Iterator

import pytest

from cli.live.access import REPLACED
from tests.browser_kit import chromium
from tests.live.conftest import Served, fixture_inputs
from tests.live.test_pages import Phone

INPUTS = fixture_inputs()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    yield from chromium()


def recorded(served: Served, count: int) -> int:
    """Record the fixture's next ``count`` entries through the API; the entries there are now."""
    client = served.client(served.players)
    view = client.get(served.api()).json()
    at, head = view["events"], view["head"]
    for k in range(at, at + count):
        answer = client.post(served.api("/inputs"), json={"input": INPUTS[k], "after": head})
        assert answer.status_code == 200, answer.text
        head = answer.json()["head"]
    return at + count


def test_open_pages_carry_on_after_a_restart_without_a_rescan(browser: Any, fixture_game: Callable[..., Served],
                                                             serve: Callable[..., Served]) -> None:
    served = fixture_game(8, "pages-restart")
    seat = INPUTS[12].split(":")[0]  # the player due after the entries recorded below: the phone's seat
    phone, watcher = Phone(browser, served.line["players_url"], me=seat), Phone(browser, served.line["watchers_url"])
    entries = recorded(served, 2)
    for page in (phone, watcher):
        page.at(entries)
        page.page.evaluate("window.sameDocument = true")  # gone if the page were loaded again
    watcher.context.clear_cookies()  # a browser that dropped its cookie: the page keeps its token and joins again
    assert served.stop() == 0
    again = serve(served.game, "--port", str(served.line["port"]))
    entries = recorded(again, 2)
    for page in (phone, watcher):  # the stream reconnects by itself and the page reads the game
        page.at(entries)
        page.until("document.body.dataset.live === '1' && window.sameDocument === true")
    assert phone.seats() == [seat]  # its seat kept across the restart
    phone.tap(f'#options button[data-input="{INPUTS[entries]}"]')  # and the players' page still records
    phone.at(entries + 1)
    watcher.at(entries + 1)
    assert not phone.errors and not watcher.errors


def test_a_page_of_replaced_links_says_to_scan_the_new_code_and_a_new_link_is_taken_without_a_reload(
        browser: Any, fixture_game: Callable[..., Served], serve: Callable[..., Served]) -> None:
    served = fixture_game(8, "pages-new-links")
    phone, watcher = Phone(browser, served.line["players_url"]), Phone(browser, served.line["watchers_url"])
    phone.page.evaluate("window.sameDocument = true")
    assert served.stop() == 0
    renewed = serve(served.game, "--port", str(served.line["port"]), "--new-links")
    for page in (phone, watcher):
        page.until(f"(document.getElementById('message').innerText || '').includes({REPLACED!r})")
    phone.page.goto(renewed.line["players_url"])  # the new code scanned into the same tab
    phone.until("document.body.dataset.live === '1' && document.getElementById('message').hidden")
    entries = recorded(renewed, 1)
    phone.at(entries)
    assert phone.page.evaluate("window.sameDocument === true") and "#t=" not in phone.page.url
    assert not phone.errors and not watcher.errors
