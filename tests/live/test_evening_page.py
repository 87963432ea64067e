"""The evening for watchers in a real browser, on a projector (1920×1080) and a phone (390×844): the organiser starts
three tables from the organiser's page, twelve phones join by the links the table cards show (each trades its
table's token for the session cookie and claims its seat), and the three games are played to the end, each phone
entering its own seat's decisions (the fixture's inputs, its players renamed per table). After each game ends, the
evening page shows the standings the league says (``league standings --season TAG --json``: the rows alike), one
more game each time, and that table's board at its final points; axe-core finds no violation on either page, nothing
is wider than the screen, and on the projector the whole evening fits one screen."""

from __future__ import annotations

import re
from typing import Any, Callable, Iterator

import httpx
import orjson
import pytest

from cli.live.api import DEVICE, MAX_INPUTS
from tests.browser_kit import axe_violations_of, chromium
from tests.live.conftest import Served, coimbra, fixture_inputs

TAG = "club-evening-test"
PROJECTOR = {"width": 1920, "height": 1080}
PHONE = {"width": 390, "height": 844}
SEATS = [("Ana", "Bruno", "Carla", "Duarte"), ("Eva", "Filipe", "Gil", "Helena"), ("Ines", "Joao", "Luis", "Marta")]
"""The three tables' players, in the fixture's seats (its colours: the organiser's page's defaults)."""


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    yield from chromium()


def renamed(names: tuple[str, ...]) -> list[str]:
    """The fixture's inputs with its players (``SEATS[0]``) named ``names``."""
    given = dict(zip(SEATS[0], names))
    return [re.sub(r"\b(Ana|Bruno|Carla|Duarte)\b", lambda m: given[m[1]], text) for text in fixture_inputs()]


def start_tables(page: Any) -> None:
    """Start a table per ``SEATS`` from the organiser's page, its seats as entered."""
    for names in SEATS:
        for k, name in enumerate(names):
            page.fill(f"#player-{k}", name)
        page.click("#start-button")
        page.wait_for_function("(n) => document.querySelector('#start-said').textContent.startsWith('Started ' + n)",
                               arg=names[0].lower())


def joined(served: Served, players_url: str, game: str, seat: str, k: int) -> httpx.Client:
    """A phone that opened a table card's link: the token traded for the session cookie, then only the cookie (and
    the page's origin, as a browser sends it), its seat claimed."""
    token = players_url.split("#t=", 1)[1]
    phone = served.client(source=f"127.0.0.{10 + k}")
    phone.headers.update({"Origin": served.url, DEVICE: f"phone-of-{seat.lower()}-{k:08d}"})
    assert phone.post("/api/session", headers={"Authorization": f"Bearer {token}"}).json()["role"] == "players"
    claimed = phone.post(f"/api/games/{game}/seats", json={"seat": seat})
    assert claimed.status_code == 200, claimed.text
    return phone


def play(phones: dict[str, httpx.Client], game: str, inputs: list[str]) -> None:
    """Enter ``inputs`` at ``game``: each seat's run of decisions from its own phone (a table's outcome from the phone
    entering at the time), at most ``MAX_INPUTS`` a request."""
    head = next(iter(phones.values())).get(f"/api/games/{game}").json()["head"]
    batch: list[str] = []
    sender = next(iter(phones))
    for text in [*inputs, None]:
        actor = None if text is None else text.split(":", 1)[0]
        if batch and (text is None or len(batch) == MAX_INPUTS or (actor != "table" and actor != sender)):
            stored = phones[sender].post(f"/api/games/{game}/inputs", json={"inputs": batch, "after": head})
            assert stored.status_code == 200, stored.text
            head, batch = stored.json()["head"], []
        if text is not None:
            sender = sender if actor == "table" else actor
            batch.append(text)


def page_standings(page: Any) -> list[list[str]]:
    return page.eval_on_selector_all("#standings tbody tr", "(rows) => rows.map((r) => [...r.cells].map((c) => c.textContent))")


def league_rows(served: Served) -> list[list[str]]:
    """``league standings --season TAG --json`` as the page's rows: rank, player, games, wins, average."""
    answer = coimbra(served.db, "league", "standings", "--season", TAG, "--json")
    assert answer.returncode == 0, answer.stderr
    return [[str(p["rank"]), p["player"], str(p["games"]), str(p["wins"]), f"{p['average']:.1f}"]
            for p in orjson.loads(answer.stdout)["players"]]


def test_the_evening_shows_the_standings_change_as_each_game_ends(browser, serve: Callable[..., Served]) -> None:
    served = serve("--tag", TAG)
    organiser = browser.new_context(viewport=PROJECTOR).new_page()
    organiser.goto(served.line["organiser_url"])
    evening_url = served.line["evening_url"]
    organiser.wait_for_function("(url) => document.querySelector('#evening-link').href === url", arg=evening_url)
    start_tables(organiser)
    organiser.goto(f"{served.url}/cards")  # this tab keeps the organiser's token
    organiser.locator("article.card").nth(len(SEATS) - 1).wait_for()
    assert organiser.inner_text("section.evening .link") == evening_url
    cards = {organiser.locator("article.card").nth(k).locator("h2").inner_text(): organiser.locator("article.card").nth(k)
             for k in range(len(SEATS))}
    games = {names: next(g for g, card in cards.items() if card.locator(".seats li").first.inner_text() == f"{names[0]} (red)")
             for names in SEATS}
    phones = {names: {seat: joined(served, cards[games[names]].locator(".link").inner_text(), games[names], seat, 4 * t + k)
                      for k, seat in enumerate(names)} for t, names in enumerate(SEATS)}

    pages = [browser.new_context(viewport=size, bypass_csp=True, is_mobile=size is PHONE, has_touch=size is PHONE).new_page()
             for size in (PROJECTOR, PHONE)]
    for page in pages:
        page.goto(evening_url)
        page.wait_for_function("(n) => document.querySelectorAll('#tables > li .board').length === n && [...document.querySelectorAll("
                               "'#tables > li .board')].every((b) => b.shadowRoot.querySelector('#tracks svg'))", arg=len(SEATS))
        assert "#t=" not in page.url and page.inner_text("#title") == f"The evening: {TAG}"
        assert page.inner_text("#standings-games") == "No game finished yet." and page_standings(page) == []
    assert axe_violations_of(pages) == [[], []]

    for finished, names in enumerate(SEATS, 1):
        play(phones[names], games[names], renamed(names))
        expected = league_rows(served)
        assert len(expected) == 4 * finished
        for page in pages:
            page.wait_for_function("(n) => document.querySelector('#standings-games').textContent.startsWith(n + ' game')",
                                   arg=finished, timeout=10_000)
            assert page_standings(page) == expected
        table = pages[0].locator("#tables > li", has=pages[0].locator("h3", has_text=games[names]))
        assert table.locator(".where").inner_text() == "Game over"
        said = dict(b.rsplit(" ", 1) for b in table.locator(".points li").all_inner_texts())
        drawn = {name: table.locator(f'[data-score="{name}"]').get_attribute("data-points") for name in names}
        assert drawn == said and said != dict.fromkeys(names, "0")
    assert axe_violations_of(pages) == [[], []]
    for page in pages:  # nothing wider than the screen; on the projector the three tables and twelve rows fit one screen
        assert page.evaluate("document.scrollingElement.scrollWidth <= innerWidth")
    assert pages[0].evaluate("document.scrollingElement.scrollHeight <= innerHeight")
    for page in pages:
        page.context.close()
    organiser.context.close()
