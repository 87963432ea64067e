"""The organiser's page (``/club``) in a real browser, on a phone (390×844) and a laptop (1280×800): a table started
from the page (a player typed as an alias is its person) is listed with its players, and an entry stored at it
through the API is shown within 5 s (the organiser's stream tells it; the page's own reads are 15 s apart); once
the page's clock has run 16 minutes on, a table whose last entry is that old is marked as waiting; axe-core finds
no violation."""

from __future__ import annotations

from typing import Any, Callable, Iterator

import pytest

from tests.browser_kit import axe_violations, chromium
from tests.live.conftest import Served, coimbra
from tests.live.test_club import imported

PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1280, "height": 800}


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    yield from chromium()


@pytest.fixture(scope="module")
def club(serve: Callable[..., Served], tmp_path_factory: pytest.TempPathFactory) -> Served:
    """A finished game (the league knows Ana, Bruno, Carla, Duarte; "Bru" is Bruno), a table in progress whose
    entries were stored long ago (the fixture's), and the server of every table."""
    folder = tmp_path_factory.mktemp("logs")
    imported(serve.db, folder, "finished", None)  # type: ignore[attr-defined]
    imported(serve.db, folder, "old-table")  # type: ignore[attr-defined]
    assert coimbra(serve.db, "player", "alias", "Bru", "Bruno").returncode == 0  # type: ignore[attr-defined]
    return serve("--tag", "club-page-night")


@pytest.mark.parametrize("size", [PHONE, LAPTOP], ids=["phone", "laptop"])
def test_a_table_started_from_the_page_is_listed_and_entries_elsewhere_show_live(browser, club: Served, size) -> None:
    context = browser.new_context(viewport=size, bypass_csp=True, has_touch=size is PHONE, is_mobile=size is PHONE)
    page = context.new_page()
    page.clock.install()
    page.goto(club.line["organiser_url"])
    tables = page.locator("#tables > li")
    tables.first.wait_for()
    assert "#t=" not in page.url
    assert page.inner_text("#tag-line").startswith("Every table started here is tagged club-page-night")
    old = tables.filter(has=page.locator("h3", has_text="old-table"))
    assert old.locator(".last").inner_text() == "6 entries, none with its time" and "waiting" not in old.get_attribute("class")
    page.wait_for_function("document.querySelectorAll('#people option').length === 4")
    assert axe_violations(page) == []
    first, second = ("Bru", "Zoe") if size is PHONE else ("Ana", "Yves")
    page.fill("#player-0", first)
    page.fill("#player-1", second)
    page.select_option("#color-1", "green")
    page.click("#start-button")
    name = f"{'bruno' if first == 'Bru' else 'ana'}-{second.lower()}"
    started = tables.filter(has=page.locator("h3", has_text=name))
    started.wait_for(timeout=10_000)
    person = "Bruno" if first == "Bru" else "Ana"
    assert started.locator(".scores li").all_inner_texts()[:2] == [f"{person} (red): 0 points", f"{second} (green): 0 points"]
    assert page.inner_text("#start-said") == f"Started {name}: {person}, {second}."
    assert started.locator(".last").inner_text() == "No entry yet"
    assert started.locator("a.watch").inner_text() == f"Watch {name}"
    table = next(t for t in (page.evaluate("""async (token) => (await (await fetch('/api/tables',
        {headers: {Authorization: 'Bearer ' + token}})).json()).tables""", club.line["organiser_token"])) if t["game"] == name)
    assert started.locator("a.watch").get_attribute("href") == table["watchers_url"]
    player = club.client(table["players_token"])
    view = player.get(f"/api/games/{name}").json()  # the table's first outcome: the monasteries, as its example says
    drawn = player.post(f"/api/games/{name}/inputs", json={"input": view["legal"]["outcome"]["example"], "after": view["head"]})
    assert drawn.status_code == 200, drawn.text
    page.wait_for_function(f"""[...document.querySelectorAll('#tables > li')].some((li) => li.querySelector('h3').textContent
        === {name!r} && li.querySelector('.last').textContent.startsWith('Last entry less than a minute ago'))""", timeout=5_000)
    assert axe_violations(page) == []
    page.clock.fast_forward("16:00")
    started.and_(page.locator(".waiting")).wait_for(timeout=10_000)
    assert started.locator(".last").inner_text().startswith("Waiting: no entry for 16 min")
    assert "waiting" not in old.get_attribute("class")  # no time recorded: nothing to say it waited
    assert axe_violations(page) == []
    context.close()
