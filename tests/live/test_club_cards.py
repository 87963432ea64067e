"""The table cards of a club night's server, in a real browser: with the organiser's token, a card per table (its
name, its seats, the QR code of its players' link), its token leaves the address bar, the page prints a card per
half page, and axe-core finds nothing; without the organiser's token it shows none."""

from __future__ import annotations

from typing import Any, Callable, Iterator

import pytest

from tests.browser_kit import axe_violations, chromium
from tests.live.conftest import Served
from tests.live.test_club import TABLES, imported
from tests.live.test_pages import LAPTOP, SMALLEST


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    yield from chromium()


@pytest.fixture(scope="module")
def club(serve: Callable[..., Served], tmp_path_factory: pytest.TempPathFactory) -> Served:
    folder = tmp_path_factory.mktemp("logs")
    for name in TABLES:
        imported(serve.db, folder, name)  # type: ignore[attr-defined]
    return serve()


@pytest.mark.parametrize("size", [SMALLEST, LAPTOP], ids=["phone", "laptop"])
def test_the_organisers_link_shows_a_card_per_table_and_axe_finds_nothing(browser, club: Served, size) -> None:
    context = browser.new_context(viewport=size, bypass_csp=True)
    page = context.new_page()
    page.goto(f"{club.url}/cards#t={club.line['organiser_token']}")
    cards = page.locator("article.card")
    cards.nth(len(TABLES) - 1).wait_for()
    assert cards.locator("h2").all_inner_texts() == list(TABLES)
    assert cards.nth(0).locator(".seats li").all_inner_texts() == ["Ana (red)", "Bruno (blue)", "Carla (yellow)", "Duarte (green)"]
    for k, table in enumerate(club.line["tables"]):
        code = cards.nth(k).locator("img.qr")
        assert code.get_attribute("alt") == f"QR code of the players' link of {table['game']}"
        assert page.evaluate("(img) => img.complete && img.naturalWidth > 0", code.element_handle())
        assert cards.nth(k).locator(".link").inner_text() == table["players_url"]
    assert "#t=" not in page.url and club.line["organiser_token"] not in page.url
    assert page.inner_text("#status") == f"{len(TABLES)} tables."
    assert axe_violations(page) == []
    page.emulate_media(media="print")
    assert page.locator("header").is_hidden()
    assert page.evaluate("getComputedStyle(document.querySelector('.card')).breakInside") == "avoid"
    context.close()


def test_without_the_organisers_token_the_page_shows_no_table(browser, club: Served) -> None:
    context = browser.new_context(viewport=SMALLEST, bypass_csp=True)
    page = context.new_page()
    for link in (f"{club.url}/cards", f"{club.url}/cards#t={club.line['tables'][0]['players_token']}"):
        page.goto(link)
        page.wait_for_function("document.getElementById('status').textContent !== 'reading the tables…'")
        assert page.locator("article.card").count() == 0
        assert axe_violations(page) == []
    context.close()
