"""Seats on the pages, in a real browser (several contexts: several phones): a phone is asked which seat it is,
offers no button for a seat it does not hold, takes a seat over only after a confirmation and tells the phone
that held it, and withdraws only its own seat's latest play, after a confirmation that says which."""

from __future__ import annotations

from typing import Any, Callable, Iterator

import pytest

from tests.browser_kit import axe_violations, chromium
from tests.live.conftest import SETUP_ENTRIES, Served
from tests.live.test_pages import LAPTOP, SMALLEST, Phone


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    yield from chromium()


def answering(phone: Phone, accept: bool) -> list[str]:
    """Answer the page's next confirmation (``accept``: OK, else Cancel); the list gets the words it asked."""
    asked: list[str] = []
    phone.page.once("dialog", lambda dialog: (asked.append(dialog.message), dialog.accept() if accept else dialog.dismiss()))
    return asked


@pytest.mark.parametrize("size", [SMALLEST, LAPTOP], ids=["phone", "laptop"])
def test_a_phone_without_a_seat_is_asked_which_seat_it_is_and_axe_finds_nothing(browser, fixture_game, size) -> None:
    served = fixture_game(SETUP_ENTRIES, f"asked-{size['width']}")
    phone = Phone(browser, served.line["players_url"], audit=True, viewport=size)
    prompt = phone.page.locator("#seat-prompt")
    assert prompt.is_visible() and prompt.locator("h2").inner_text() == "Which seat is this phone?"
    assert phone.page.evaluate("document.getElementById('seat-prompt').getBoundingClientRect().top") < size["height"] / 2
    assert prompt.locator("button.seat").all_inner_texts() == ["Ana", "Bruno", "Carla", "Duarte"]
    assert "None: this phone only enters the table's dice and cards" in prompt.inner_text()
    assert axe_violations(phone.page) == []
    phone.claim("Bruno")
    assert prompt.is_hidden() and phone.page.inner_text("#seat-words") == "This phone plays Bruno"
    phone.tap("#seat-change")
    assert prompt.locator('button.seat[data-seat="Bruno"]').inner_text() == "Bruno (this phone)"
    assert axe_violations(phone.page) == []
    phone.context.close()


def test_no_button_for_a_seat_another_phone_holds_and_a_typed_input_for_it_is_refused(browser, fixture_game) -> None:
    served: Served = fixture_game(SETUP_ENTRIES, "not-yours")  # Bruno places his pilgrim first
    bruno = Phone(browser, served.line["players_url"], me="Bruno")
    ana = Phone(browser, served.line["players_url"], me="Ana")
    assert bruno.page.locator("#options button[data-input]").count() > 0
    assert ana.page.locator("#options button[data-input]").count() == 0
    assert ana.page.inner_text("#options") == "Waiting for Bruno (on another phone)."
    ana.page.click("#more summary")
    ana.page.fill("#typed", "Bruno: pilgrim start-n")
    ana.page.click("#typed-form button")
    ana.until("document.getElementById('message').dataset.kind === 'warn'")
    assert "Bruno's seat is held by another phone" in ana.page.inner_text("#message") and ana.entries() == SETUP_ENTRIES
    for phone in (ana, bruno):
        phone.context.close()


def test_a_seat_no_phone_holds_is_played_from_a_phone_that_says_it_also_plays_it(browser, fixture_game) -> None:
    served: Served = fixture_game(SETUP_ENTRIES, "also-plays")
    ana = Phone(browser, served.line["players_url"], me="Ana")
    assert ana.page.locator("#options button[data-input]").count() == 0
    ana.tap('#options button.seat[data-seat="Bruno"]')  # "This phone also plays Bruno"
    ana.until("document.body.dataset.seats === 'Ana,Bruno'")
    ana.tap("#options button[data-input] >> nth=0")
    ana.at(SETUP_ENTRIES + 1)
    assert served.client(served.players).get(served.api()).json()["entries"][-1]["by"] == "Bruno"
    ana.context.close()


def test_a_take_over_asks_first_and_the_phone_that_held_the_seat_is_told(browser, fixture_game) -> None:
    served: Served = fixture_game(SETUP_ENTRIES, "taken-over")  # Bruno is due
    first = Phone(browser, served.line["players_url"], me="Bruno")
    second = Phone(browser, served.line["players_url"])
    asked = answering(second, accept=False)
    second.tap('#seat-choices button[data-seat="Bruno"]')
    second.until("document.body.dataset.live === '1'")
    first.page.wait_for_timeout(200)
    assert asked == ["Bruno is played from another phone (the one that plays Bruno); take the seat over to play Bruno "
                     "from this phone? The other phone is told."]
    assert second.seats() == [] and first.seats() == ["Bruno"]  # cancelled: nothing changed
    asked = answering(second, accept=True)
    second.tap('#seat-choices button[data-seat="Bruno"]')
    second.until("document.body.dataset.seats === 'Bruno'")
    first.until("document.body.dataset.seats === ''")
    assert "Your seat Bruno was taken over by another phone" in first.page.inner_text("#message")
    assert first.page.locator("#options button[data-input]").count() == 0
    assert second.page.locator("#options button[data-input]").count() > 0
    for phone in (first, second):
        phone.context.close()


def test_undo_only_on_the_phone_of_the_latest_plays_seat_after_it_says_what_is_withdrawn(browser, fixture_game) -> None:
    served: Served = fixture_game(SETUP_ENTRIES + 1, "undo-words")  # Bruno's pilgrim is the latest play
    bruno = Phone(browser, served.line["players_url"], me="Bruno")
    ana = Phone(browser, served.line["players_url"], me="Ana")
    assert ana.page.locator("#undo").is_hidden() and bruno.page.locator("#undo").is_visible()
    latest = served.client(served.players).get(served.api()).json()["entries"][-1]
    asked = answering(bruno, accept=False)
    bruno.tap("#undo")
    bruno.page.wait_for_timeout(200)
    assert asked == [f"Withdraw {SETUP_ENTRIES + 1}. {latest['text']}? It stays in the record, marked withdrawn."]
    assert bruno.entries() == SETUP_ENTRIES + 1  # cancelled: nothing withdrawn
    answering(bruno, accept=True)
    bruno.tap("#undo")
    for phone in (bruno, ana):
        phone.at(SETUP_ENTRIES + 2)
    assert served.client(served.players).get(served.api()).json()["entries"][-1]["type"] == "Retracted"
    assert ana.page.locator("#undo").is_visible()  # now the table's setup draw is the latest play: any phone's
    for phone in (bruno, ana):
        phone.context.close()


def test_at_game_over_there_is_no_undo_and_no_prompt(browser, fixture_game: Callable[..., Served]) -> None:
    from tests.live.conftest import fixture_inputs

    served = fixture_game(len(fixture_inputs()), "over-undo")
    phone = Phone(browser, served.line["players_url"])
    assert phone.page.locator("#undo").is_hidden() and phone.page.locator("#seat-prompt").is_hidden()
    phone.context.close()
